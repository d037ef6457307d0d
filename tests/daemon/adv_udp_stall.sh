#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# adv_udp_stall.sh - a stock client that stops mid-handshake against a UDP braidd gateway (tls-crypt,
# hand-window 10) serving another stock client that downloads a blob (sha256-checked) and pings meanwhile.
# Client 2's packets of 1000 bytes or more (its certificate flight) are dropped by iptables in its own namespace
# until it has passed the cookie exchange, so the gateway holds a session for it; then it gets SIGSTOP. The
# gateway must remove that session after hand-window (10 s, + the 1 s tick) with a hand-window line, create no
# other, and client 2 started again must connect.
set -uo pipefail
source "$(dirname "$0")/adv_lib.sh"
gw_require
adv_setup 2
C2=$(gw_cns 2)
gw_serve_blob 8388608
gw_server_conf "hand-window 10" "$(adv_wrap_lines server tls-crypt)"
gw_start_server
gw_client_conf 1 "$(adv_wrap_lines client tls-crypt)"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "the real client did not connect"
adv_flow_start 1 16
s0=$(gw_stats)

ip netns exec "$C2" iptables -w -A OUTPUT -p udp --dport 1194 -m length --length 1000:65535 -j DROP ||
	gw_fail "iptables in client 2's namespace"
gw_client_conf 2 "$(adv_wrap_lines client tls-crypt)"
gw_start_client 2
gw_wait "$GW_DIR/server.log" "10.99.0.12:" 10 || gw_fail "the gateway has no session for client 2"
sleep 0.3
kill -STOP "${GW_PID[c2]}"
ip netns exec "$C2" iptables -w -F OUTPUT
grep -qF "Peer Connection Initiated" "$GW_DIR/c2.log" && gw_fail "client 2 finished its handshake before SIGSTOP"
new=$(grep "10.99.0.12:.*new client session" "$GW_DIR/server.log" | head -n1)
[ -n "$new" ] || gw_fail "no new client session for client 2"
for ((i = 0; i < 140; i++)); do	# up to 14 s
	grep "10.99.0.12:" "$GW_DIR/server.log" | grep "client removed" | grep -qF "hand-window" && break
	sleep 0.1
done
rm_line=$(grep "10.99.0.12:" "$GW_DIR/server.log" | grep "client removed" | grep -F "hand-window" | head -n1)
[ -n "$rm_line" ] || gw_fail "the stopped client was not removed by hand-window within 14 s"
t=$(echo "$(date -d "$(cut -c1-23 <<<"$rm_line")" +%s.%N) - $(date -d "$(cut -c1-23 <<<"$new")" +%s.%N)" | bc)
[ "$(echo "$t >= 9.5 && $t <= 11.5" | bc)" = 1 ] ||
	gw_fail "the stopped client was removed $t s after its session was created, want hand-window 10 (+1 s tick)"
s1=$(gw_stats)
[ $(($(adv_stat "sessions created" "$s1") - $(adv_stat "sessions created" "$s0"))) = 1 ] ||
	gw_fail "want exactly one session for the stalled client: $s0 -> $s1"
[ "$(adv_stat clients "$s1")" = 1 ] || gw_fail "clients is not 1 after the removal: $s1"
[ "$(adv_stat "live control sessions" "$s1")" = 1 ] || gw_fail "the stalled client's control session lives on: $s1"
echo "ok: a UDP client stopped mid-handshake was removed $t s after its session was created: ${rm_line#*: client removed}"
kill -KILL "${GW_PID[c2]}"
wait "${GW_PID[c2]}" 2>/dev/null
GW_PID[c2]=
gw_start_client 2
gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 15 || gw_fail "client 2 could not connect afterwards"
ip netns exec "$C2" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client 2: no ping after reconnecting"
echo "ok: client 2 connects afterwards"
adv_flow_check 1
gw_stop_client 1
gw_stop_client 2
adv_stop_server
echo "PASS: adv_udp_stall"
