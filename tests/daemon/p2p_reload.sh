#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# p2p_reload.sh - the live reload (SIGRTMIN+1) of a static-key multipath pair on two paths: the client's
# scheduler, verb and a path's backup change, one restart-only option (tun-mtu) is named and left as it was,
# the server's scheduler changes, and a broken config leaves the server running; the tunnel never restarts
# (one "Initialization Sequence Completed" each, no RECONNECTING, pings flow through the reloads); each reload
# tells systemd RELOADING=1 with MONOTONIC_USEC, then READY=1.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
RL=$(kill -l RTMIN+1 2>/dev/null) || RL=35
# systemd's notification socket for both peers: every datagram to notify.txt, one per line ('|' for newlines)
tb_bg "$TB_SRV" python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        f.write(s.recv(4096).decode().replace("\n", "|") + "\n")' "$TB_DIR/notify.sock" "$TB_DIR/notify.txt"
for ((i = 0; i < 40; i++)); do [ -S "$TB_DIR/notify.sock" ] && break; sleep 0.05; done
export NOTIFY_SOCKET=$TB_DIR/notify.sock
mp_pair 2 "mp-scheduler edf" -- "mp-scheduler edf"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping"
mp_wait_paths cli 2 active 10 || fail "client paths not active"

tb_exec "$TB_CLI" ping -c 30 -i 0.1 -W 2 -q 10.200.0.1 >"$TB_DIR/ping.txt" 2>&1 &
PING=$!
sleep 0.5
sed -i 's/^mp-scheduler edf$/mp-scheduler lowest-rtt/; s/^verb 4$/verb 5/' "$TB_DIR/cli.conf"
printf '%s\n' "mp-backup $(tb_cli_addr 2)" "tun-mtu 1400" >>"$TB_DIR/cli.conf"
kill -s "$RL" "${BD_PID[cli]}"
bd_wait_log cli "reload: done" 10 || fail "client: no 'reload: done'"
sed -i 's/^mp-scheduler edf$/mp-scheduler rtt/' "$TB_DIR/srv.conf"
kill -s "$RL" "${BD_PID[srv]}"
bd_wait_log srv "reload: done" 10 || fail "server: no 'reload: done'"
wait "$PING"

grep -qF "reload: scheduler set to lowest-rtt" "$TB_DIR/cli.log" || fail "client: scheduler not set"
grep -qF "reload: verb 5" "$TB_DIR/cli.log" || fail "client: verb not set"
grep -qE "reload: path [0-9]+ \[AF_INET\]$(tb_cli_addr 2):[0-9]+ .*backup" "$TB_DIR/cli.log" ||
	fail "client: path 2 not set to backup"
grep -qF "reload: option tun-mtu changed, needs a restart (SIGHUP)" "$TB_DIR/cli.log" ||
	fail "client: tun-mtu not named as needing a restart"
grep -qF "reload: scheduler set to rtt" "$TB_DIR/srv.log" || fail "server: scheduler not set"
mp_wait_paths cli 1 standby 5 || fail "client: path 2 not standby after the reload"
s=$(mp_json cli .scheduler)
[ "$s" = lowest-rtt ] || fail "client status: scheduler is '$s', not lowest-rtt"
s=$(mp_json srv .scheduler)
[ "$s" = rtt ] || fail "server status: scheduler is '$s', not rtt"
for n in cli srv; do
	[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/$n.log")" = 1 ] || fail "$n: tunnel restarted"
	grep -q "RECONNECTING" "$TB_DIR/$n.log" && fail "$n: RECONNECTING"
done
loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$TB_DIR/ping.txt")
[ "${loss%%.*}" -le 10 ] 2>/dev/null || fail "ping loss ${loss}% through the reloads"
echo "ok: static-key reloads (client: lowest-rtt, verb 5, path 2 backup; server: rtt), ping loss ${loss}%"

echo "no-such-directive 1" >>"$TB_DIR/srv.conf"
kill -s "$RL" "${BD_PID[srv]}"
bd_wait_log srv "the configuration does not parse; nothing changed" 10 || fail "broken config: no error"
sleep 0.3
kill -0 "${BD_PID[srv]}" || fail "broken config: the server exited"
tb_wait_ping "$TB_CLI" 10.200.0.1 5 || fail "broken config: no ping"
echo "ok: a broken config leaves the static-key peer running"

# sd_notify: each of the three reloads is RELOADING=1 with MONOTONIC_USEC, then READY=1 (2 at start + 3)
sleep 0.3
n=$(grep -cE '^RELOADING=1\|MONOTONIC_USEC=[0-9]+\|STATUS=reloading the configuration' "$TB_DIR/notify.txt")
[ "$n" = 3 ] || fail "want 3 RELOADING=1 with MONOTONIC_USEC, got $n: $(cat "$TB_DIR/notify.txt")"
n=$(grep -c '^READY=1|MAINPID=' "$TB_DIR/notify.txt")
[ "$n" = 5 ] || fail "want 5 READY=1 (2 starts + 3 reloads), got $n: $(cat "$TB_DIR/notify.txt")"
[ "$(tail -n 1 "$TB_DIR/notify.txt" | cut -c1-8)" = "READY=1|" ] || fail "the last notification is not READY=1"
echo "ok: RELOADING=1 + MONOTONIC_USEC, then READY=1, at each reload"
echo "PASS: p2p_reload"
