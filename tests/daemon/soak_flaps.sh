#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Soak under path flaps (issue 8 part 6, docs/soak.md): a braidd client with two mp-paths against a braidd
# gateway (TLS mode, multipath on) carries ONE inner TCP connection (soak_stream.py: random bytes paced at
# SOAK_RATE B/s for SOAK_SECONDS, sha256 on both ends) while path 1 flaps every SOAK_FLAP_S seconds (down, then
# up; SOAK_FLAP=mix alternates a real link down (rtnetlink event at the client) and a silent blackhole in the
# emulator, or =link / =blackhole) and path 2 has Gilbert-Elliott loss (seed 004 Table 1, 1-k = 1 %).
# Every 10 s: VmRSS and open fds of both braidd processes, the bytes received so far, the client's per-path
# counters -> samples.jsonl. Pass: both daemons alive throughout and exit 0 on SIGTERM, no sanitizer report, the
# one connection delivered every byte (same count and sha256 on both ends, no error, no reconnect: the server
# accepts once), the VPN session never restarted, path 1 was noticed down and carried bytes again after
# flaps, and at the end RSS is within max(5 %, 2 MiB) of the 30 s sample and the fd count equals it.
#
#   SOAK_SECONDS (120)  SOAK_RATE (2097152)  SOAK_FLAP (mix)  SOAK_FLAP_S (2)
#   SOAK_COMMIT         recorded in summary.json (default: git describe of the tree; set it for a snapshot)
#   SOAK_OUT=DIR        write samples.jsonl, progress.csv, flaps.csv, client.json, server.json there as the
#                       run goes (kept if it fails), summary.json at the end; soak_plot.py DIR plots them
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
SECS=${SOAK_SECONDS:-120}
RATE=${SOAK_RATE:-2097152}
FLAP=${SOAK_FLAP:-mix}
FLAP_S=${SOAK_FLAP_S:-2}
PORT=5201
[ "$SECS" -ge 60 ] || { echo "FAIL: SOAK_SECONDS must be >= 60 (the baseline is the 30 s sample)" >&2; exit 1; }
case $FLAP in mix | link | blackhole) ;; *) echo "FAIL: SOAK_FLAP must be mix, link or blackhole" >&2; exit 1 ;; esac

# An ASan build keeps freed memory in a quarantine (256 MB by default) before reusing it: RSS then grows with
# every malloc/free (the client's status file, rewritten every second, alone is one fopen) and says nothing about
# leaks. 1 MB keeps use-after-free detection for recent frees and lets RSS settle; LeakSanitizer still checks at
# exit (detect_leaks=1, as tests/run-all.sh sets it) and a report fails the run.
BUILD=release
if grep -qa __asan_init "$BRAIDD" 2>/dev/null; then
	BUILD=asan
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=1"
fi
TM_BLOB_BYTES=4096 tm_setup 2
# the run's record: in the bed's directory, or in SOAK_OUT (written as the run goes, kept if it fails)
OUT=$TB_DIR
if [ -n "${SOAK_OUT:-}" ]; then
	OUT=$(realpath -m "$SOAK_OUT")
	mkdir -p "$OUT" || fail "cannot create $OUT"
	rm -f "$OUT"/{samples.jsonl,progress.csv,flaps.csv,client.json,server.json,summary.json}
fi
tb_emu_start 1 -r 20 -d 10 >/dev/null
tb_emu_start 2 -r 20 -d 15 -g 1,75,1,50 -s 4 >/dev/null
tm_gateway gw "multipath on" 2> >(tee "$TB_DIR/gw.err" >&2)
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}" 2> >(tee "$TB_DIR/cli.err" >&2)
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
bd_wait_log cli "multipath negotiated with the server" 5 || fail "client: multipath not negotiated"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
for n in gw cli; do
	[ "$(cat "/proc/${BD_PID[$n]}/comm" 2>/dev/null)" = braidd ] || fail "pid ${BD_PID[$n]} of $n is not braidd"
done

# --- the stream: server in srv (the gateway's namespace), client in cli, one TCP connection through the tunnel
tb_bg "$TB_SRV" python3 "$HERE/soak_stream.py" serve --port $PORT --seconds "$SECS" --rate "$RATE" \
	--out "$OUT/server.json" --ready "$TB_DIR/server.ready"
srv_pid=$TB_LAST_PID
for _ in $(seq 1 100); do [ -e "$TB_DIR/server.ready" ] && break; sleep 0.05; done
[ -e "$TB_DIR/server.ready" ] || fail "stream server did not start"
T0=${EPOCHREALTIME/./}
tb_bg "$TB_CLI" python3 "$HERE/soak_stream.py" fetch --host "$TM_GW_TUN" --port $PORT \
	--out "$OUT/client.json" --progress "$OUT/progress.csv"
cli_pid=$TB_LAST_PID

now_us() { echo "${EPOCHREALTIME/./}"; }
nap_until() { # absolute time in µs since the epoch; 1 as soon as the stop file appears
	local d
	while :; do
		[ -e "$TB_DIR/stop" ] && return 1
		d=$(($1 - $(now_us)))
		[ "$d" -le 0 ] && return 0
		[ "$d" -gt 200000 ] && d=200000
		sleep "$(printf '0.%06d' "$d")"
	done
}

# fds: the smallest of three reads 50 ms apart (a status-file rewrite holds one for a moment; a leak stays)
fds_of() {
	local min=999999 k n
	for k in 1 2 3; do
		n=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
		[ "$n" -lt "$min" ] && min=$n
		[ $k -lt 3 ] && sleep 0.05
	done
	echo "$min"
}
rss_of() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }
cpu_of() { # utime + stime in seconds
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || { echo null; return; }
	st=${st##*) }
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($12 + $13) / hz }' <<<"$st"
}

sample() { # one jsonl line
	local t=$(( ($(now_us) - T0) / 1000 )) gr gf cr cf rx fl
	gr=$(rss_of "${BD_PID[gw]}"); gf=$(fds_of "${BD_PID[gw]}")
	cr=$(rss_of "${BD_PID[cli]}"); cf=$(fds_of "${BD_PID[cli]}")
	rx=$(tail -n1 "$OUT/progress.csv" 2>/dev/null | cut -d, -f2)
	read -r fl _ <"$TB_DIR/flaps" 2>/dev/null || fl=0
	printf '{"t":%d.%03d,"gw_rss_kib":%s,"gw_fds":%s,"cli_rss_kib":%s,"cli_fds":%s,"rx_bytes":%s,"flaps":%s,' \
		$((t / 1000)) $((t % 1000)) "${gr:-null}" "${gf:-null}" "${cr:-null}" "${cf:-null}" "${rx:-0}" "$fl"
	printf '"gw_cpu_s":%s,"cli_cpu_s":%s,' "$(cpu_of "${BD_PID[gw]}")" "$(cpu_of "${BD_PID[cli]}")"
	local i f v
	for i in 1 2; do
		printf '"p%d_state":"%s"' "$i" "$(tm_path_field cli "$i" state)"
		for f in rx tx; do
			v=$(tm_path_field cli "$i" "${f}_bytes")
			printf ',"p%d_%s":%s' "$i" "$f" "${v:-null}"
		done
		[ "$i" = 1 ] && printf ','
	done
	printf '}\n'
}

echo "0 0 0" >"$TB_DIR/flaps"
echo "t,event,how" >"$OUT/flaps.csv"
# --- sampler: every 10 s from the stream's start until the stop file appears
(
	k=0
	while [ ! -e "$TB_DIR/stop" ]; do
		nap_until $((T0 + k * 10000000)) || break
		sample >>"$OUT/samples.jsonl"
		k=$((k + 1))
	done
) &
sampler=$!

# --- flapper: path 1 goes down at 2 s, up at 4 s, down at 6 s, ... (SOAK_FLAP_S apart)
(
	k=1 downs=0 links=0 holes=0 how=
	while [ ! -e "$TB_DIR/stop" ]; do
		nap_until $((T0 + k * FLAP_S * 1000000)) || break
		t=$(( ($(now_us) - T0) / 1000 ))
		t=$(printf '%d.%03d' $((t / 1000)) $((t % 1000)))
		if [ $((k % 2)) = 1 ]; then
			case $FLAP in
			link) how=link ;; blackhole) how=blackhole ;;
			mix) if [ $((downs % 2)) = 0 ]; then how=link; else how=blackhole; fi ;;
			esac
			if [ $how = link ]; then tb_link_down 1; links=$((links + 1)); else tb_blackhole 1; holes=$((holes + 1)); fi
			downs=$((downs + 1))
			echo "$t,down,$how" >>"$OUT/flaps.csv"
		else
			if [ $how = link ]; then tb_link_up 1 2>/dev/null; else tb_restore 1; fi
			echo "$t,up,$how" >>"$OUT/flaps.csv"
		fi
		echo "$downs $links $holes" >"$TB_DIR/flaps"
		k=$((k + 1))
	done
	# leave path 1 up
	[ "$how" = link ] && tb_link_up 1 2>/dev/null
	[ "$how" = blackhole ] && tb_restore 1
) &
flapper=$!

alive() { kill -0 "${BD_PID[gw]}" 2>/dev/null && kill -0 "${BD_PID[cli]}" 2>/dev/null; }
# the daemons must live until the stream ends
while kill -0 "$cli_pid" 2>/dev/null; do
	alive || { touch "$TB_DIR/stop"; fail "a braidd process died during the soak"; }
	sleep 1
done
wait "$cli_pid"; crc=$?
touch "$TB_DIR/stop"
wait "$flapper" "$sampler"
for _ in $(seq 1 100); do kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.1; done
wait "$srv_pid"; src=$?
alive || fail "a braidd process died at the end of the soak"
sample >>"$OUT/samples.jsonl"
read -r ndown nlink nhole <"$TB_DIR/flaps"

# --- verdicts
jget() { # FILE KEY: a field of a JSON file ("" when absent)
	python3 -c 'import json, sys; v = json.load(open(sys.argv[1])).get(sys.argv[2]); print("" if v is None else v)' "$@"
}
sget() { # base|last KEY: a field of the 30 s sample or of the last one
	python3 -c 'import json, sys
s = [json.loads(l) for l in open(sys.argv[1])]
print((next(x for x in s if x["t"] >= 29.5) if sys.argv[2] == "base" else s[-1])[sys.argv[3]])' \
		"$OUT/samples.jsonl" "$@"
}
C=$OUT/client.json S=$OUT/server.json
[ -s "$C" ] && [ -s "$S" ] || fail "stream results missing (fetch rc $crc, serve rc $src)"
[ "$crc" = 0 ] && [ -z "$(jget "$C" error)" ] || fail "inner TCP connection broke (client): $(cat "$C")"
[ "$src" = 0 ] && [ -z "$(jget "$S" error)" ] || fail "inner TCP connection broke (server): $(cat "$S")"
sent=$(jget "$S" bytes)
got=$(jget "$C" bytes)
[ "$got" = "$sent" ] || fail "bytes: sent $sent, received $got"
[ "$(jget "$C" sha256)" = "$(jget "$S" sha256)" ] || fail "sha256 mismatch over $got bytes"
[ "$sent" -ge $((RATE * SECS / 2)) ] || fail "only $sent bytes in $SECS s (paced at $RATE B/s)"
echo "ok: one TCP connection ($(jget "$C" local) -> $(jget "$C" peer)) carried $got bytes in" \
	"$(jget "$C" seconds) s, sha256 matches; longest stall $(jget "$C" max_stall_s) s"

want=$((SECS / FLAP_S / 2 - 1))
[ "$ndown" -ge "$want" ] || fail "path 1 went down only $ndown times, want >= $want"
nseen=$(grep -c "multipath: local address \[AF_INET\]$(tb_cli_addr 1):[0-9]* is down" "$TB_DIR/cli.log")
[ "$nseen" -ge $((nlink - 1)) ] || fail "client logged $nseen link-downs of path 1, the bed made $nlink"
ninit=$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")
[ "$ninit" = 1 ] || fail "the VPN session restarted ($ninit x Initialization Sequence Completed)"
echo "ok: path 1 flapped $ndown times ($nlink link down, $nhole blackhole; the client logged $nseen link-downs)," \
	"no session restart"

# baseline at 30 s, last sample at the end
check_flat() { # NAME
	local n=$1 r0 r1 f0 f1 tol
	r0=$(sget base "${n}_rss_kib") f0=$(sget base "${n}_fds")
	r1=$(sget last "${n}_rss_kib") f1=$(sget last "${n}_fds")
	tol=$((r0 * 5 / 100))
	[ "$tol" -lt 2048 ] && tol=2048
	[ $((r1 - r0)) -le "$tol" ] && [ $((r0 - r1)) -le "$tol" ] ||
		fail "$n RSS $r0 KiB at 30 s, $r1 KiB at the end (tolerance $tol KiB)"
	[ "$f1" = "$f0" ] || fail "$n fds: $f0 at 30 s, $f1 at the end"
	echo "ok: $n RSS $r0 -> $r1 KiB, fds $f0 -> $f1"
}
check_flat gw
check_flat cli

# path 1 carried bytes again between its flaps (from the 30 s sample to the end)
p1a=$(sget base p1_rx) p1b=$(sget last p1_rx)
[ $((p1b - p1a)) -ge 100000 ] || fail "path 1 carried only $((p1b - p1a)) bytes after the 30 s sample"
echo "ok: path 1 carried $((p1b - p1a)) bytes between flaps after the 30 s sample"

bd_stop cli; rc=$?; [ "$rc" = 0 ] || fail "client exit code $rc on SIGTERM"
bd_stop gw; rc=$?; [ "$rc" = 0 ] || fail "gateway exit code $rc on SIGTERM"
sleep 0.2
if grep -lE 'Sanitizer|runtime error:' "$TB_DIR"/*.err 2>/dev/null; then fail "sanitizer report (see above)"; fi
echo "ok: both braidd exit 0 on SIGTERM, no sanitizer report"

if [ -n "${SOAK_OUT:-}" ]; then
	python3 - "$OUT" "$OUT/summary.json" "$SECS" "$RATE" "$FLAP" "$FLAP_S" "$ndown" "$nlink" "$nhole" "$nseen" \
		"${SOAK_COMMIT:-$(git -C "$TB_REPO" describe --always --dirty 2>/dev/null)}" \
		"$BUILD" <<'EOF'
import json, sys
d, out, secs, rate, flap, flap_s, nd, nl, nh, ns, commit, build = sys.argv[1:]
c = json.load(open(d + '/client.json'))
s = json.load(open(d + '/server.json'))
samples = [json.loads(l) for l in open(d + '/samples.jsonl')]
base = next(x for x in samples if x['t'] >= 29.5)
json.dump({'commit': commit, 'build': build, 'seconds': int(secs), 'rate_bps': int(rate), 'flap': flap,
           'flap_period_s': int(flap_s),
           'flaps': int(nd), 'link_downs': int(nl), 'blackholes': int(nh), 'client_logged_link_downs': int(ns),
           'bytes': c['bytes'], 'sha256': c['sha256'], 'sha256_match': c['sha256'] == s['sha256'],
           'stream_seconds': c['seconds'], 'goodput_mbit': round(c['bytes'] * 8 / c['seconds'] / 1e6, 3),
           'max_stall_s': c['max_stall_s'], 'connection': c['local'] + ' -> ' + c['peer'],
           'server_tcp_info': s.get('tcp_info', {}), 'baseline_30s': base, 'last': samples[-1]},
          open(out, 'w'), indent=1, sort_keys=True)
EOF
	echo "results in $OUT (plot: /usr/bin/python3 tests/daemon/soak_plot.py $OUT)"
fi
