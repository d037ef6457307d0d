#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Each multipath scheduler on two emulated paths (path 1: 20 Mbit/s 5 ms, path 2: 20 Mbit/s 10 ms): a 2 s iperf3
# upload through the tunnel, then the client's per-path data bytes (status file) must show the scheduler's split:
#   ratio 1:0 / backup → path 1 only (lowest-rtt: >= 90 %); ratio 0:1 → path 2 only; mp-backup on path 2 → path 1 only,
#   path 2 standby; redundant → copies on both (srv drops them as replays); edf / rtt / mpip → both paths carry > 10 %.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
command -v iperf3 >/dev/null || { echo "SKIP: no iperf3"; exit 77; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 10 >/dev/null
tb_bg "$TB_SRV" iperf3 -s -p 5201 >/dev/null 2>&1

# run NAME EXPECT CLIENT_LINES...: EXPECT = p1 (path 1 only) | p2 (path 2 only) | both | dup
run() {
	local name=$1 expect=$2
	shift 2
	mp_pair 2 "mp-scheduler edf" -- "$@"
	tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "$name: no ping"
	mp_wait_paths cli 2 active 5 || mp_wait_paths cli 1 active 1 || fail "$name: paths not up"
	sleep 0.3
	tb_exec "$TB_CLI" iperf3 -c 10.200.0.1 -p 5201 -t 2 >"$TB_DIR/iperf.txt" 2>&1 || {
		cat "$TB_DIR/iperf.txt" >&2
		fail "$name: iperf3 upload failed"
	}
	mp_refresh cli
	local b1 b2
	b1=$(mp_path_field cli 1 tx_bytes)
	b2=$(mp_path_field cli 2 tx_bytes)
	local mbit
	mbit="$(awk '/sender/ {print $7}' "$TB_DIR/iperf.txt" | tail -n1)"
	[ "$expect" = dup ] || mbit="$mbit Mbit/s"
	case $expect in
	p1) [ "$b1" -gt 2000000 ] && [ "$b2" -le $((b1 / 100)) ] || fail "$name: want path 1 only, got $b1 / $b2 bytes" ;;
	p2) [ "$b2" -gt 2000000 ] && [ "$b1" -le $((b2 / 100)) ] || fail "$name: want path 2 only, got $b1 / $b2 bytes" ;;
	p1most) [ "$b1" -gt 2000000 ] && [ "$b2" -le $((b1 / 10)) ] || fail "$name: want >= 90 % on path 1, got $b1 / $b2 bytes" ;;
	both) [ "$b1" -gt $(((b1 + b2) / 10)) ] && [ "$b2" -gt $(((b1 + b2) / 10)) ] ||
		fail "$name: want both paths > 10 %, got $b1 / $b2 bytes" ;;
	dup)
		# copies: both paths carry data and the server drops the second copies as replays (the engine's
		# per-path pacing/AQM may shed copies on the path that cannot keep up, so not every byte twice)
		mp_refresh srv
		local reps
		reps=$(jq .tunnel.replays "$TB_DIR/srv.json")
		[ "$b1" -gt 1000000 ] && [ "$b2" -gt 200000 ] && [ "$reps" -gt 100 ] ||
			fail "$name: want copies on both paths, got $b1 / $b2 bytes, $reps copies dropped by srv"
		mbit="$mbit Mbit/s, $reps copies dropped by srv" ;;
	esac
	if [ -n "${WANT_STATE2:-}" ]; then
		[ "$(mp_path_field cli 2 state)" = "$WANT_STATE2" ] || fail "$name: path 2 is $(mp_path_field cli 2 state), want $WANT_STATE2"
	fi
	echo "ok: $name: path 1 $b1 B, path 2 $b2 B ($expect), iperf3 $mbit"
	bd_stop cli || fail "$name: cli exit $?"
	bd_stop srv || fail "$name: srv exit $?"
}

run "ratio 1:0" p1 "mp-scheduler ratio 1:0"
run "ratio 0:1" p2 "mp-scheduler ratio 0:1"
# lowest-rtt follows the measured RTT, which the upload's own queue raises on path 1 now and then
run "lowest-rtt" p1most "mp-scheduler lowest-rtt"
run "backup" p1 "mp-scheduler backup"
WANT_STATE2=standby run "mp-backup path 2" p1 "mp-backup $(tb_cli_addr 2)"
run "redundant" dup "mp-scheduler redundant"
run "edf" both "mp-scheduler edf"
run "rtt" both "mp-scheduler rtt"
run "mpip" both "mp-scheduler mpip"
