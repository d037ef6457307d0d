# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# adv_lib.sh - the adversarial netns tests (issue 8 part 5, docs/adversarial.md): gw_lib.sh's gateway with
# stock clients, plus an attacker namespace on the same bridge that is NOT a client (no key, no certificate).
#
#   gwc1 (stock client, 10.99.0.11) ─┐
#   gwa  (attacker,     10.99.0.66) ─┤ br0 10.99.0.1 ─ gws (braidd gateway, tun 10.8.0.1, blob on :8080)
#
# adv_setup N                  gw_setup N + the attacker namespace $ADV_NS (trap cleans both)
# adv_wrap_lines server|client WRAP   the tls-auth / tls-crypt lines for WRAP (none|tls-auth|tls-crypt)
# adv_stat FIELD [LINE]        a counter from the gateway's stats line (default: a fresh SIGUSR2 line)
# adv_field FIELD LINE         a counter from a given stats line ("replays 3," -> 3)
# adv_rss_start / adv_rss_stop sample the gateway's VmRSS (kB) every second into $GW_DIR/rss
# adv_rss_check FROM_S PCT     fail unless every sample from FROM_S s on is within PCT % of the sample at FROM_S s
# adv_flow_start I SECONDS     on client I: a rate-limited sha256-checked download of the blob that lasts
#                              about SECONDS, and pings every 0.2 s, both in the background
# adv_flow_check I             wait for them: sha256 must match, no ping lost; prints a summary
# adv_count TEXT               how many gateway log lines contain TEXT
# adv_stop_server              stop the gateway; fail unless it exits 0 (sanitizer reports)
source "$(dirname "${BASH_SOURCE[0]}")/gw_lib.sh"

GW_KEEP=${GW_KEEP:-}
ADV_NS=gwa$GW_ID
ADV_ADDR=10.99.0.66
ADV_PKT="/usr/bin/python3 $(dirname "${BASH_SOURCE[0]}")/adv_pkt.py"
declare -A ADV_CURL ADV_PING

adv_cleanup() {
	ip netns del "$ADV_NS" 2>/dev/null
	gw_cleanup
}

adv_setup() {
	gw_setup "$1"
	trap adv_cleanup EXIT
	ip netns add "$ADV_NS" || gw_fail "ip netns add $ADV_NS"
	ip -n "$ADV_NS" link set lo up
	ip link add "gwav$GW_ID" type veth peer name "gwap$GW_ID" || gw_fail "attacker veth"
	ip link set "gwav$GW_ID" netns "$ADV_NS"
	ip link set "gwap$GW_ID" netns "$GW_NS"
	ip -n "$ADV_NS" link set "gwav$GW_ID" name eth0
	ip -n "$ADV_NS" addr add "$ADV_ADDR/24" dev eth0
	ip -n "$ADV_NS" link set eth0 up
	ip -n "$GW_NS" link set "gwap$GW_ID" master br0 up
}

adv_a() { ip netns exec "$ADV_NS" "$@"; }

adv_wrap_lines() {
	case $1:$2 in
	server:tls-auth) echo "tls-auth $GW_DIR/ta.key 0" ;;
	client:tls-auth) echo "tls-auth $GW_DIR/ta.key 1" ;;
	*:tls-crypt) echo "tls-crypt $GW_DIR/tc.key" ;;
	*:none) ;;
	*) gw_fail "adv_wrap_lines: unknown wrap $2" ;;
	esac
}

adv_field() { sed -n "s/.*[ ,:]$1 \([0-9][0-9]*\)\([,;].*\)\{0,1\}$/\1/p" <<<"$2"; }

adv_stat() {
	local line=${2:-$(gw_stats)} v
	v=$(adv_field "$1" "$line")
	[ -n "$v" ] || gw_fail "the stats line has no counter '$1': $line"
	echo "$v"
}

adv_count() { grep -cF -- "$1" "$GW_DIR/server.log"; }

adv_rss_start() {
	local pid=${GW_PID[server]}
	: >"$GW_DIR/rss"
	(
		while kill -0 "$pid" 2>/dev/null; do
			awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" >>"$GW_DIR/rss" 2>/dev/null
			sleep 1
		done
	) &
	ADV_RSS_PID=$!
	GW_PIDS+=("$ADV_RSS_PID")
}

adv_rss_stop() { kill "$ADV_RSS_PID" 2>/dev/null; wait "$ADV_RSS_PID" 2>/dev/null; }

adv_rss_check() {
	local from=$1 pct=$2 out
	out=$(awk -v from="$from" -v pct="$pct" '
		NR == from + 1 { ref = $1 }
		NR > from + 1 { if ($1 > max) max = $1; if (min == "" || $1 < min) min = $1 }
		END {
			if (ref == "" || max == "") { print "too few samples (" NR ")"; exit 1 }
			hi = (max - ref) * 100 / ref; lo = (ref - min) * 100 / ref
			printf "ref %d kB, min %d, max %d (%+.1f %% / %+.1f %%), %d samples\n", ref, min, max, hi, -lo, NR
			if (hi > pct || lo > pct) exit 1
		}' "$GW_DIR/rss")
	local rc=$?
	echo "RSS: $out"
	[ $rc = 0 ] || gw_fail "gateway RSS not within $pct % after ${from} s: $out ($(tr '\n' ' ' <"$GW_DIR/rss"))"
}

adv_flow_start() {
	local i=$1 secs=$2 ns bytes k
	ns=$(gw_cns "$i")
	bytes=$(stat -c %s "$GW_DIR/blob")
	for ((k = 0; k < 100; k++)); do	# the web server may still be starting on a loaded machine
		ip netns exec "$GW_NS" ss -ltnH 'sport = :8080' | grep -q . && break
		sleep 0.1
	done
	ip netns exec "$ns" curl -sf --retry 5 --retry-connrefused --max-time $((secs * 3 + 30)) \
		--limit-rate $((bytes / secs)) \
		-o "$GW_DIR/got$i" http://10.8.0.1:8080/blob &
	ADV_CURL[$i]=$!
	# not -q: the replies' icmp_seq name a lost one (adv_flow_check)
	ip netns exec "$ns" ping -i 0.2 -W 2 -w $((secs + 5)) -c $((secs * 5)) 10.8.0.1 >"$GW_DIR/ping$i" 2>&1 &
	ADV_PING[$i]=$!
	GW_PIDS+=("${ADV_CURL[$i]}" "${ADV_PING[$i]}")
}

adv_flow_check() {
	local i=$1 got loss
	wait "${ADV_CURL[$i]}" || gw_fail "client $i: the download during the attack failed (curl exit $?)"
	got=$(sha256sum "$GW_DIR/got$i" | cut -d' ' -f1)
	[ "$got" = "$GW_WANT" ] || gw_fail "client $i: the download during the attack: sha256 mismatch"
	wait "${ADV_PING[$i]}"
	loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$GW_DIR/ping$i")
	if [ "$loss" != 0 ]; then
		local seqs k missing=
		seqs=$(sed -n 's/.*icmp_seq=\([0-9]*\) .*/\1/p' "$GW_DIR/ping$i" | sort -n | tr '\n' ' ')
		for ((k = 1; k <= $(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' "$GW_DIR/ping$i"); k++)); do
			[[ " $seqs" == *" $k "* ]] || missing+=" $k"
		done
		gw_fail "client $i: $loss % ping loss during the attack (icmp_seq not answered:$missing, 0.2 s apart;" \
			"$(tail -n 2 "$GW_DIR/ping$i" | tr '\n' ' '); gateway: $(gw_stats | grep -o 'tun no route [0-9]*\|tcp queue drops [0-9]*' | tr '\n' ' '))"
	fi
	echo "ok: client $i: $(stat -c %s "$GW_DIR/got$i") bytes, sha256 matches; $(grep -o '[0-9]* packets transmitted' "$GW_DIR/ping$i"), 0 % loss"
}

# adv_stop_server: SIGTERM the gateway; fail unless it exits 0 (an ASan/UBSan/LSan report makes it non-zero)
adv_stop_server() {
	local p=${GW_PID[server]} rc
	kill "$p" 2>/dev/null
	wait "$p"
	rc=$?
	GW_PID[server]=
	[ "$rc" = 0 ] || gw_fail "the gateway exited with status $rc"
}
