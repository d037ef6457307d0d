#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Per-path totals outlive an engine restart (docs/braidd.md "Status fields"): two static-key multipath peers
# (2 paths); traffic on both paths, then SIGUSR1 on both (a soft restart: new data channel, new engine, every
# learned path learned again). After the restart each path's wire and data totals in the status file are at
# least what they were before (they go on, not from 0), the tunnel carries traffic again and the restart is
# counted once per side.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
mp_pair 2
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping"
mp_wait_paths srv 2 active 10 || fail "server paths not active"
mp_wait_paths cli 2 active 10 || fail "client paths not active"
tb_exec "$TB_CLI" ping -c 300 -i 0.005 -s 1000 -q 10.200.0.1 >/dev/null || fail "ping load"
# totals per bed path I on NAME: wire_rx_bytes wire_tx_bytes rx_bytes tx_bytes
totals() { local f; for f in wire_rx_bytes wire_tx_bytes rx_bytes tx_bytes; do printf '%s ' "$(mp_path_field "$1" "$2" $f)"; done; }
mp_refresh srv
mp_refresh cli
declare -A before
for n in srv cli; do for i in 1 2; do before[$n$i]=$(totals $n $i); done; done
for n in srv cli; do for i in 1 2; do
	read -r a _ _ _ <<<"${before[$n$i]}"
	[ "$a" -gt 50000 ] || fail "$n path $i received only $a bytes before the restart"
done; done
kill -USR1 "${BD_PID[srv]}" "${BD_PID[cli]}"
bd_wait_log srv "process restarting" 5 || fail "srv did not restart"
bd_wait_log cli "process restarting" 5 || fail "cli did not restart"
tb_wait_ping "$TB_CLI" 10.200.0.1 15 || fail "no ping after the restart"
mp_wait_paths srv 2 active 10 || fail "server paths not active after the restart"
mp_refresh srv
mp_refresh cli
for n in srv cli; do for i in 1 2; do
	read -r b1 b2 b3 b4 <<<"${before[$n$i]}"
	read -r a1 a2 a3 a4 <<<"$(totals $n $i)"
	[ "$a1" -ge "$b1" ] && [ "$a2" -ge "$b2" ] && [ "$a3" -ge "$b3" ] && [ "$a4" -ge "$b4" ] ||
		fail "$n path $i totals went back across the restart: before $b1/$b2/$b3/$b4, after $a1/$a2/$a3/$a4"
	echo "ok: $n path $i: wire rx/tx and data rx/tx $b1/$b2/$b3/$b4 -> $a1/$a2/$a3/$a4 bytes"
done; done
[ "$(jq .tunnel.restarts "$TB_DIR/srv.json")" = 1 ] || fail "srv restarts $(jq .tunnel.restarts "$TB_DIR/srv.json"), want 1"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
echo "ok: totals kept across the engine restart on both sides"
