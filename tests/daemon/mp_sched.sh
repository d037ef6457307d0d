#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Each multipath scheduler on two emulated paths (path 1: 20 Mbit/s 5 ms, path 2: 20 Mbit/s 10 ms): a 2 s iperf3
# upload through the tunnel, then the client's per-path data bytes (status file) must show the scheduler's split:
#   ratio 1:0 / backup → path 1 only (lowest-rtt: >= 90 %); ratio 0:1 → path 2 only; mp-backup on path 2 → path 1 only,
#   path 2 standby; redundant → copies on both (srv drops them as replays); edf / rtt / mpip → both paths carry > 10 %.
# Then the server side, whose paths are learned (index = learn order): a 2 s download (iperf3 -R) with the scheduler
# on the server, each case with path 1 learned first and with path 2 learned first (the other path blackholed until
# the server has learned the first): ratio 1:0 → path 1 only, ratio 0:1 → path 2 only, backup with 'mp-backup' on
# the client's path 1 only → path 2 only and the server's path 1 standby (peer_backup); the server's paths carry the
# client's slots (peer_slot = mp-path order) whatever the learn order (docs/multipath.md §6). Last, at run time:
# `braidctl set path ADDR backup` on the client's path 1 reaches the server (PATH_STATUS, like MPTCP's MP_PRIO): the
# server's path 1 turns standby and the download moves to path 2; `active` brings it back.
# A split that misses while a path of the sender failed during the run (its `failures` counter grew: a loaded
# host, probes late) is measured once more, saying so: the other path must carry the traffic then.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
command -v iperf3 >/dev/null || { echo "SKIP: no iperf3"; exit 77; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 10 >/dev/null
tb_bg "$TB_SRV" iperf3 -s -p 5201 >/dev/null 2>&1

# failures SIDE: the failures of SIDE's paths so far (a path that failed under load hands its traffic to the
# other one, as it must: a split measured across a failure says nothing about the scheduler)
failures() { mp_refresh "$1"; jq '[.paths[].failures] | add // 0' "$TB_DIR/$1.json"; }
# split_fail SIDE F0 MSG: fail, unless SIDE's paths failed since F0 and this is the first try: then RETRY=1
split_fail() {
	local f1
	f1=$(failures "$1")
	if [ "$f1" -gt "$2" ] && [ -z "${RETRIED:-}" ]; then
		echo "note: $3, but a path failed during the run (failures $2 -> $f1, a loaded host): once more"
		RETRY=1
		return 0
	fi
	fail "$3 (path failures $2 -> $f1)"
}

# run NAME EXPECT CLIENT_LINES...: EXPECT = p1 (path 1 only) | p2 (path 2 only) | both | dup
run() {
	local name=$1 expect=$2
	shift 2
	mp_pair 2 "mp-scheduler edf" -- "$@"
	tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "$name: no ping"
	mp_wait_paths cli 2 active 5 || mp_wait_paths cli 1 active 1 || fail "$name: paths not up"
	sleep 0.3
	local f0 RETRY=
	f0=$(failures cli)
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
	p1) [ "$b1" -gt 500000 ] && [ "$b2" -le $((b1 / 100)) ] ||
		split_fail cli "$f0" "$name: want path 1 only, got $b1 / $b2 bytes" ;;
	p2) [ "$b2" -gt 500000 ] && [ "$b1" -le $((b2 / 100)) ] ||
		split_fail cli "$f0" "$name: want path 2 only, got $b1 / $b2 bytes" ;;
	p1most) [ "$b1" -gt 500000 ] && [ "$b2" -le $((b1 / 10)) ] ||
		split_fail cli "$f0" "$name: want >= 90 % on path 1, got $b1 / $b2 bytes" ;;
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
	if [ -n "${WANT_STATE2:-}" ] && [ -z "$RETRY" ]; then
		[ "$(mp_path_field cli 2 state)" = "$WANT_STATE2" ] || fail "$name: path 2 is $(mp_path_field cli 2 state), want $WANT_STATE2"
	fi
	bd_stop cli || fail "$name: cli exit $?"
	bd_stop srv || fail "$name: srv exit $?"
	if [ -n "$RETRY" ]; then
		RETRIED=1 run "$name" "$expect" "$@"
		return
	fi
	echo "ok: $name: path 1 $b1 B, path 2 $b2 B ($expect), iperf3 $mbit"
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

# srv_paths_up N: the server has N paths, each active or standby
srv_paths_up() {
	local n=$1 k
	for ((k = 0; k < 80; k++)); do
		mp_refresh srv
		[ "$(jq '[.paths[] | select(.state == "active" or .state == "standby")] | length' \
			"$TB_DIR/srv.json" 2>/dev/null)" = "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# run_srv NAME EXPECT FIRST SRV_LINES... -- CLI_LINES...: download, server's per-path data bytes; the server
# learns path FIRST first
run_srv() {
	local name=$1 expect=$2 first=$3 orig=("$@")
	shift 3
	local other=$((3 - first)) i b1 b2 mbit
	name="srv $name, path $first learned first"
	tb_blackhole "$other"
	mp_pair 2 "$@"
	srv_paths_up 1 || fail "$name: server did not learn path $first"
	tb_restore "$other"
	srv_paths_up 2 || fail "$name: server did not learn path $other"
	[ "$(mp_path_field srv "$first" index)" = 0 ] ||
		fail "$name: path $first has index $(mp_path_field srv "$first" index) on the server, want 0"
	for i in 1 2; do
		[ "$(mp_path_field srv "$i" peer_slot)" = $((i - 1)) ] ||
			fail "$name: server path $i has peer_slot $(mp_path_field srv "$i" peer_slot), want $((i - 1))"
		[ "$(mp_path_field srv "$i" slot)" = -1 ] || fail "$name: learned server path $i has an own slot"
	done
	tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "$name: no ping"
	sleep 0.3
	local f0 RETRY=
	f0=$(failures srv)
	tb_exec "$TB_CLI" iperf3 -c 10.200.0.1 -p 5201 -t 2 -R >"$TB_DIR/iperf.txt" 2>&1 || {
		cat "$TB_DIR/iperf.txt" >&2
		fail "$name: iperf3 download failed"
	}
	mp_refresh srv
	b1=$(mp_path_field srv 1 tx_bytes)
	b2=$(mp_path_field srv 2 tx_bytes)
	mbit="$(awk '/receiver/ {print $7}' "$TB_DIR/iperf.txt" | tail -n1)"
	case $expect in
	p1) [ "$b1" -gt 500000 ] && [ "$b2" -le $((b1 / 100)) ] ||
		split_fail srv "$f0" "$name: want path 1 only, got $b1 / $b2 bytes" ;;
	p2) [ "$b2" -gt 500000 ] && [ "$b1" -le $((b2 / 100)) ] ||
		split_fail srv "$f0" "$name: want path 2 only, got $b1 / $b2 bytes" ;;
	esac
	if [ -n "${WANT_SRV_STATE1:-}" ] && [ -z "$RETRY" ]; then
		[ "$(mp_path_field srv 1 state)" = "$WANT_SRV_STATE1" ] &&
			[ "$(mp_path_field srv 1 peer_backup)" = true ] ||
			fail "$name: server path 1 is $(mp_path_field srv 1 state) (peer_backup $(mp_path_field srv 1 peer_backup)), want $WANT_SRV_STATE1 (true)"
	fi
	bd_stop cli || fail "$name: cli exit $?"
	bd_stop srv || fail "$name: srv exit $?"
	if [ -n "$RETRY" ]; then
		RETRIED=1 run_srv "${orig[@]}"
		return
	fi
	echo "ok: $name: server sent path 1 $b1 B, path 2 $b2 B ($expect), iperf3 $mbit Mbit/s"
}

for first in 1 2; do
	run_srv "ratio 1:0" p1 $first "mp-scheduler ratio 1:0" --
	run_srv "ratio 0:1" p2 $first "mp-scheduler ratio 0:1" --
	WANT_SRV_STATE1=standby run_srv "backup, mp-backup on the client's path 1" p2 $first "mp-scheduler backup" -- \
		"mp-backup $(tb_cli_addr 1)"
done

# run time: braidctl on the client, the server follows
BRAIDCTL=${BRAIDCTL:-$BRAID_BIN_DIR/braidctl}
if [ -x "$BRAIDCTL" ]; then
	name="srv edf, braidctl set path 1 backup on the client at run time"
	tb_blackhole 2
	mp_pair 2 "mp-scheduler edf" -- "control-socket $TB_DIR/cli.sock"
	srv_paths_up 1 || fail "$name: server did not learn path 1"
	tb_restore 2
	srv_paths_up 2 || fail "$name: server did not learn path 2"
	[ "$(mp_path_field srv 1 state)" = active ] || fail "$name: server path 1 is $(mp_path_field srv 1 state) before"
	"$BRAIDCTL" -s "$TB_DIR/cli.sock" set path "$(tb_cli_addr 1)" backup >/dev/null || fail "$name: braidctl set path"
	for ((k = 0; k < 20; k++)); do
		mp_refresh srv
		[ "$(mp_path_field srv 1 state)" = standby ] && break
		sleep 0.1
	done
	[ "$(mp_path_field srv 1 state)" = standby ] && [ "$(mp_path_field srv 1 peer_backup)" = true ] ||
		fail "$name: server path 1 is $(mp_path_field srv 1 state) (peer_backup $(mp_path_field srv 1 peer_backup)) 2 s after the change, want standby (true)"
	RETRIED=
	while :; do
		RETRY=
		f0=$(failures srv)
		a1=$(mp_path_field srv 1 tx_bytes)
		a2=$(mp_path_field srv 2 tx_bytes)
		tb_exec "$TB_CLI" iperf3 -c 10.200.0.1 -p 5201 -t 2 -R >"$TB_DIR/iperf.txt" 2>&1 || fail "$name: iperf3 download failed"
		mp_refresh srv
		b1=$(($(mp_path_field srv 1 tx_bytes) - a1))
		b2=$(($(mp_path_field srv 2 tx_bytes) - a2))
		[ "$b2" -gt 500000 ] && [ "$b1" -le $((b2 / 100)) ] && break
		split_fail srv "$f0" "$name: want path 2 only, got $b1 / $b2 bytes"
		RETRIED=1
	done
	"$BRAIDCTL" -s "$TB_DIR/cli.sock" set path "$(tb_cli_addr 1)" active >/dev/null || fail "$name: braidctl set path active"
	for ((k = 0; k < 20; k++)); do
		mp_refresh srv
		[ "$(mp_path_field srv 1 state)" = active ] && break
		sleep 0.1
	done
	[ "$(mp_path_field srv 1 state)" = active ] && [ "$(mp_path_field srv 1 peer_backup)" != true ] ||
		fail "$name: server path 1 is $(mp_path_field srv 1 state) after 'active', want active"
	echo "ok: $name: server standby in < 2 s, download path 1 $b1 B, path 2 $b2 B; active again"
	bd_stop cli || fail "$name: cli exit $?"
	bd_stop srv || fail "$name: srv exit $?"
fi
