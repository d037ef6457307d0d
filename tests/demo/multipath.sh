#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The live demo, as a user runs braidd: a braidd TLS client with two paths named by interface (`mp-path c1`,
# `mp-path c2`: $DEMO_PATHS) against a braidd gateway with `multipath on`, on the netns bed with two emulated
# links and no source policy routing (path 0: 50 Mbit/s RTT 20 ms, path 1: 20 Mbit/s RTT 40 ms). A download runs through the tunnel while the client's `braidctl
# status` table is redrawn in place every second. For the first SOLO_S seconds path 1 is on standby (`braidctl
# set path 1 backup`): the download runs on the best single path alone and its goodput is measured; then both
# paths carry it; path 0 is cut (blackholed, the link stays up) and restored; then path 1's address changes
# mid-transfer (DHCP-style renew) and braidd re-binds it (if the path does not come back within 5 s, e.g. with
# numeric mp-path lines, the step says so and puts the old address back); from 3 s after that to the end both
# paths are measured again, settled. The verdict line states the goodput (overall; both paths up, settled,
# against the best single path alone; through the events), the longest outage the download saw, and the sha256
# check. Exit 0 when the
# transfer survived and matched, 1 otherwise. Needs root and a built tree (BRAID_BIN_DIR, default build/bin).
# About a minute.
#   DEMO_PATHS   the client's mp-path arguments, one per path (default "c1 c2": its two interfaces, on a bed
#                without source policy routing: braidd routes each path out of its interface itself; numeric
#                addresses, e.g. "10.1.1.2 10.2.1.2", run on the bed with `ip rule`s)
#   DEMO_ADDR_CHANGE  auto (default: try, skip if the path does not come back) or off
#   SIZE_MB      the download (default 240)
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export BRAID_BIN_DIR=${BRAID_BIN_DIR:-$HERE/../../build/bin}
source "$HERE/../daemon/tls_mp_lib.sh"
BRAIDCTL=$BRAID_BIN_DIR/braidctl
SIZE_MB=${SIZE_MB:-240}
SOLO_S=${SOLO_S:-5} CUT_AT=${CUT_AT:-10} RESTORE_AT=${RESTORE_AT:-16} RENEW_AT=${RENEW_AT:-22}
command -v jq >/dev/null || fail "the demo needs jq"
DEMO_PATHS=${DEMO_PATHS:-c1 c2}
bed=
[[ $DEMO_PATHS == *[a-z]* ]] && bed=--no-rules	# interfaces: no `ip rule` needed
TM_TB_OPTS=$bed TM_BLOB_BYTES=$((SIZE_MB * 1048576)) tm_setup 2
NEW2=10.2.1.3	# path 1's address after the renew (same subnet, as a DHCP server would hand out)
tb_emu_start 1 -r 50 -d 10 >/dev/null
tb_emu_start 2 -r 20 -d 20 >/dev/null
tm_gateway gw "multipath on" "mp-path-timeout 5"
lines=()
for p in $DEMO_PATHS; do lines+=("mp-path $p"); done
tm_client cli "${lines[@]}" "control-socket $TB_DIR/cli.sock"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "the client did not come up"
tm_wait_active cli 2 15 || fail "the client's paths did not validate: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"

ctl() { tb_exec "$TB_CLI" "$BRAIDCTL" -s "$TB_DIR/cli.sock" "$@"; }
tty=0
[ -t 1 ] && tty=1
events=()
note() { events+=("t=$(((${EPOCHREALTIME/./} - t0us) / 1000000))s  $*"); [ $tty = 1 ] || echo "== ${events[-1]}"; }
draw() { # the client's own view, as `braidctl status` prints it
	local el=$1 got
	got=$(stat -c %s "$TB_DIR/got" 2>/dev/null || echo 0)
	if [ $tty = 1 ]; then
		printf '\033[H\033[J'
		echo "braid demo: braidd TLS client, 2 paths -> braidd gateway (multipath on)"
		echo "path 0: 50 Mbit/s RTT 20 ms    path 1: 20 Mbit/s RTT 40 ms    download $SIZE_MB MiB"
	fi
	echo "-- t=${el}s  received $((got / 1048576)) of $SIZE_MB MiB"
	ctl status | sed -n '/^PATH/,$p'
	if [ $tty = 1 ]; then
		echo
		printf '%s\n' "${events[@]}"
	fi
}
# active paths whose local address is $1 (a re-bound path may come back under a new index)
active_on() { ctl status --json | jq --arg a "$1:" '[.paths[] | select((.local | contains($a)) and .state == "up" and (.backup | not))] | length'; }

renew() { # path 1's address 10.2.1.2 -> $NEW2, as a DHCP renew with a new lease does (tests/lib/testbed.sh)
	tb_addr_change 2 "${NEW2##*.}" || fail "tb_addr_change"
	note "path 1's address changed: $(tb_cli_addr 2) -> $NEW2 (old address removed, new one added)"
	renew_t=${EPOCHREALTIME/./}
}
renew_check() { # did braidd follow? else say so and put the old address back
	if [ "$(active_on "$NEW2")" -ge 1 ]; then
		note "path 1 is back on $NEW2 within $(((${EPOCHREALTIME/./} - renew_t) / 1000)) ms (checked every second)"
		renew_ok=1
		return 0
	fi
	(((${EPOCHREALTIME/./} - renew_t) / 1000000 < 5)) && return 1
	note "SKIPPED: path 1 did not follow the address change within 5 s (numeric mp-path lines stay on their" \
		"address; name the interfaces, or this braidd cannot follow yet); path 1 gets $(tb_cli_addr 2) back"
	tb_addr_change 2 "$(tb_cli_addr 2 | sed 's/.*\.//')" || fail "tb_addr_change back"
	renew_ok=skipped
}

# the best single path alone first: path 1 on standby (the gateway follows through PATH_STATUS)
ctl set path 1 backup >/dev/null || fail "braidctl set path 1 backup"
sleep 0.5
# the download, and a sampler of its progress (the outage: the longest time nothing arrived)
(tb_exec "$TB_CLI" curl -sf --max-time 300 -o "$TB_DIR/got" "http://$TM_GW_TUN:8080/blob") &
cpid=$!
t0us=${EPOCHREALTIME/./}
(
	last=-1 since=${EPOCHREALTIME/./} worst=0
	while kill -0 "$cpid" 2>/dev/null; do
		now=${EPOCHREALTIME/./}
		s=$(stat -c %s "$TB_DIR/got" 2>/dev/null || echo 0)
		if [ "$s" != "$last" ]; then
			((last >= 0 && now - since > worst)) && worst=$((now - since))
			last=$s since=$now
		fi
		echo "$worst" >"$TB_DIR/outage_us"
		sleep 0.05
	done
) &
spid=$!
[ $tty = 1 ] && printf '\033[2J'
note "path 1 on standby: the download runs on path 0 alone (the best single path)"
cut=0 restored=0 renewed=0 renew_ok= solo=1 solo_b0=0 solo_t0=0 solo_mbit= duo_t0= duo_b0=0 duo_mbit=
while kill -0 "$cpid" 2>/dev/null; do
	el=$(((${EPOCHREALTIME/./} - t0us) / 1000000))
	if [ $solo = 1 ] && [ "$el" -ge 1 ] && [ "$solo_t0" = 0 ]; then
		solo_t0=${EPOCHREALTIME/./} solo_b0=$(stat -c %s "$TB_DIR/got" 2>/dev/null || echo 0)
	elif [ $solo = 1 ] && [ "$el" -ge "$SOLO_S" ]; then
		b=$(stat -c %s "$TB_DIR/got" 2>/dev/null || echo 0)
		solo_mbit=$(awk -v b=$((b - solo_b0)) -v us=$((${EPOCHREALTIME/./} - solo_t0)) \
			'BEGIN { printf "%.1f", b * 8 / us }')
		solo_end_b=$b solo_end_t=${EPOCHREALTIME/./}
		ctl set path 1 active >/dev/null || fail "braidctl set path 1 active"
		note "best single path alone: $solo_mbit Mbit/s; path 1 active again: both paths carry the download"
		solo=0
	elif [ $cut = 0 ] && [ $solo = 0 ] && [ "$el" -ge "$CUT_AT" ]; then
		tb_blackhole 1
		note "path 0 cut (blackholed, its link stays up)"
		cut=1
	elif [ $cut = 1 ] && [ $restored = 0 ] && [ "$el" -ge "$RESTORE_AT" ]; then
		tb_restore 1
		note "path 0 restored"
		restored=1
	elif [ $restored = 1 ] && [ $renewed = 0 ] && [ "$el" -ge "$RENEW_AT" ]; then
		renewed=1
		if [ "${DEMO_ADDR_CHANGE:-auto}" = off ]; then
			note "SKIPPED: the address change (DEMO_ADDR_CHANGE=off)"
			renew_ok=skipped
		else
			renew
		fi
	elif [ $renewed = 1 ] && [ -z "$renew_ok" ]; then
		renew_check
	elif [ -n "$renew_ok" ] && [ -z "$duo_t0" ] && [ "$el" -ge $((RENEW_AT + 3)) ]; then
		# both paths settled after the events: measured from here to the end of the download
		duo_t0=${EPOCHREALTIME/./} duo_b0=$(stat -c %s "$TB_DIR/got" 2>/dev/null || echo 0)
		note "both paths carry the download again: measuring both paths up until the end"
	fi
	draw "$(((${EPOCHREALTIME/./} - t0us) / 1000000))"
	sleep 1
done
wait "$cpid"
rc=$?
dur_us=$((${EPOCHREALTIME/./} - t0us))
wait "$spid" 2>/dev/null
[ $renewed = 1 ] && [ -z "$renew_ok" ] && note "the download ended before path 1 came back on $NEW2"
[ $renewed = 0 ] && note "the download ended before the address change (SIZE_MB=$SIZE_MB is too small)"
draw "$((dur_us / 1000000))"
got=$(sha256sum <"$TB_DIR/got" 2>/dev/null | cut -d' ' -f1)
outage=$(cat "$TB_DIR/outage_us" 2>/dev/null || echo 0)
goodput=$(awk -v b=$((SIZE_MB * 1048576)) -v us="$dur_us" 'BEGIN { printf "%.1f", b * 8 / us }')
# both paths up: the settled phase after the events (the first seconds after standby or a cut are a transition)
[ -n "$duo_t0" ] && duo_mbit=$(awk -v b=$((SIZE_MB * 1048576 - duo_b0)) -v us=$((t0us + dur_us - duo_t0)) \
	'BEGIN { if (us > 1000000) printf "%.1f", b * 8 / us }')
# after the single-path phase: both paths, then the cut, the restore and the address change
both=$(awk -v b=$((SIZE_MB * 1048576 - ${solo_end_b:-0})) -v us=$((t0us + dur_us - ${solo_end_t:-t0us})) \
	'BEGIN { printf "%.1f", (us > 0 ? b * 8 / us : 0) }')
ratio=$(awk -v g="${duo_mbit:-0}" -v s="${solo_mbit:-0}" 'BEGIN { if (s > 0 && g > 0) printf "%.2f", g / s; else printf "?" }')
outs=$(awk -v us="$outage" 'BEGIN { printf "%.2f", us / 1e6 }')
bd_stop cli
bd_stop gw
addr="address change: $([ "$renew_ok" = 1 ] && echo followed || echo "${renew_ok:-not reached}")"
if [ $rc = 0 ] && [ "$got" = "$TM_WANT" ]; then
	echo "VERDICT: ok: $SIZE_MB MiB in $(awk -v us="$dur_us" 'BEGIN { printf "%.1f", us / 1e6 }') s," \
		"goodput $goodput Mbit/s; both paths up ${duo_mbit:-?} Mbit/s = ${ratio}x the best single path alone" \
		"(${solo_mbit:-?} Mbit/s); through the cut, restore and address change $both Mbit/s;" \
		"longest outage ${outs} s (path 0 cut, restored; $addr); sha256 matches"
	exit 0
fi
echo "VERDICT: FAILED: curl exit $rc, sha256 ${got:-none} (want $TM_WANT); goodput $goodput Mbit/s," \
	"longest outage ${outs} s; $addr"
exit 1
