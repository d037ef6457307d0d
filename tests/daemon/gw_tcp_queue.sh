#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_tcp_queue.sh - a TCP client that stops reading (its openvpn SIGSTOPped) while the gateway's side sends
# it 40 MB of UDP through the tunnel: the gateway's per-client TCP send queue (512 KiB beyond the socket's
# buffer) fills and further packets are dropped, as stock's tcp-queue-limit does. Asserts: the drops are
# counted (`tcp queue drops` on the stats line; every drop there, none counted as sent), logged with the
# client's name and rate-limited (at most 10 lines in 10 s, then a summary), the gateway stays responsive to
# its other client (pings), and once the stopped client resumes its tunnel carries pings again.
set -uo pipefail
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 2
gw_server_conf "proto tcp-server" "verb 3"
gw_start_server
for i in 1 2; do
	gw_client_conf "$i"
	sed -i 's/^proto udp$/proto tcp-client/' "$GW_DIR/c$i.conf"
	gw_start_client "$i"
	gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 20 || gw_fail "client $i did not connect"
done
addr1=$(sed -n 's/.*net_addr_v4_add: \([0-9.]*\)\/.*/\1/p' "$GW_DIR/c1.log" | head -n1)
[ -n "$addr1" ] || gw_fail "client 1's tunnel address not in its log"
ip netns exec "$(gw_cns 1)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "no ping through client 1's tunnel"
s0=$(gw_stats)
kill -STOP "${GW_PID[c1]}" || gw_fail "SIGSTOP client 1"
# 40 MB of 1400-byte datagrams to client 1's tunnel address, from the gateway's namespace
ip netns exec "$GW_NS" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b = bytes(1400); end = time.time() + 8; n = 0
while n < 30000 and time.time() < end:
    try:
        s.sendto(b, ("'"$addr1"'", 9)); n += 1
    except OSError:
        time.sleep(0.001)
print(n)' >"$GW_DIR/sent" || gw_fail "the UDP sender failed"
ip netns exec "$(gw_cns 2)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client 2's tunnel while client 1 is stopped"
s1=$(gw_stats)
kill -CONT "${GW_PID[c1]}"
field() { sed -n "s/.*[ ,]$1 \([0-9]*\).*/\1/p" <<<"$2"; }
drops=$(( $(field "tcp queue drops" "$s1") - $(field "tcp queue drops" "$s0") ))
tunrx=$(( $(field "tun rx" "$s1") - $(field "tun rx" "$s0") ))
echo "sent $(cat "$GW_DIR/sent") datagrams to the stopped client; gateway read $tunrx from its TUN, dropped $drops at the full TCP queue"
[ "$drops" -gt 0 ] || gw_fail "no tcp queue drops counted: $s1"
[ "$drops" -lt "$tunrx" ] || gw_fail "every packet dropped ($drops of $tunrx): nothing was queued"
n=$(grep -c "client1/.*: TCP send queue full ([0-9]* bytes queued): packet dropped" "$GW_DIR/server.log")
[ "$n" -ge 1 ] && [ "$n" -le 10 ] || gw_fail "$n 'TCP send queue full' lines for client1 (want 1..10: rate-limited)"
[ "$drops" -le 10 ] || gw_wait "$GW_DIR/server.log" "tcp queue drops: " 15 ||
	gw_fail "no 'tcp queue drops: N similar messages suppressed' summary"
ip netns exec "$(gw_cns 1)" ping -c 3 -i 0.2 -W 5 -q 10.8.0.1 >/dev/null || gw_fail "client 1's tunnel after SIGCONT"
kill -0 "${GW_PID[server]}" || gw_fail "the gateway died"
echo "PASS: gw_tcp_queue: $drops drops counted, $n lines logged, both clients up"
