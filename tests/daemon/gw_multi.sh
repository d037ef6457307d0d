#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_multi.sh - three stock OpenVPN 2.6 clients on one braidd gateway (UDP, tls-crypt):
#  * each gets the next pool address and peer-id (client i: 10.8.0.(i+1), peer-id i-1);
#  * the status file (version 2) lists all three with their virtual addresses;
#  * client-to-client: client1 pings client2 and client3 through braidd itself (c2c counter);
#  * without client-to-client the packets go to the TUN: with ip_forward=0 in the gateway's
#    namespace client1 cannot reach client2 (braidd does not route them), with ip_forward=1 the
#    kernel routes them back into the tunnel;
#  * a client that leaves frees its address and peer-id: a new client gets them.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 3

start_all() {
	local i
	for i in 1 2 3; do
		gw_client_conf "$i" "tls-crypt $GW_DIR/tc.key" "explicit-exit-notify 1"
		gw_start_client "$i"
		gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 15 ||
			gw_fail "client$i did not connect"
	done
}

gw_server_conf "tls-crypt $GW_DIR/tc.key" "client-to-client"
gw_start_server
start_all
declare -A P
for i in 1 2 3; do
	P[$i]=$(gw_peer_id "$i")	# i - 1 with one worker (gw_lib.sh, gw_pid_ok)
	gw_pid_ok "${P[$i]}" $((i - 1)) || gw_fail "client$i: peer-id '${P[$i]}'"
	grep -qF "ifconfig 10.8.0.$((i + 1)) 255.255.255.0,peer-id ${P[$i]}," "$GW_DIR/c$i.log" ||
		gw_fail "client$i: wrong address or peer-id pushed"
done
sleep 1.2
for i in 1 2 3; do
	grep -q "^CLIENT_LIST,client$i,10\.99\.0\.1$i:[0-9]*,10\.8\.0\.$((i + 1)),,.*,UNDEF,$((i - 1)),${P[$i]},AES-256-GCM\$" \
		"$GW_DIR/status.txt" || gw_fail "status file: no line for client$i: $(cat "$GW_DIR/status.txt")"
	grep -q "^ROUTING_TABLE,10\.8\.0\.$((i + 1)),client$i,10\.99\.0\.1$i:" "$GW_DIR/status.txt" ||
		gw_fail "status file: no route for client$i"
done
[ "$(grep -c '^CLIENT_LIST,' "$GW_DIR/status.txt")" = 3 ] || gw_fail "status file: not exactly 3 clients"

ip netns exec "$GW_NS" sysctl -qw net.ipv4.ip_forward=0
ip netns exec "$(gw_cns 1)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.3 >"$GW_DIR/ping.log" 2>&1 ||
	gw_fail "client-to-client: client1 cannot ping client2"
ip netns exec "$(gw_cns 1)" ping -c 2 -i 0.2 -W 2 -q 10.8.0.4 >/dev/null ||
	gw_fail "client-to-client: client1 cannot ping client3"
c2c=$(gw_stats | sed -n 's/.* c2c \([0-9]*\),.*/\1/p')
[ "${c2c:-0}" -ge 10 ] || gw_fail "client-to-client: only ${c2c:-0} packets forwarded inside braidd (want >= 10)"
echo "ok: client-to-client ($c2c packets inside braidd)"

# without client-to-client
for i in 1 2 3; do gw_stop_client "$i"; done
gw_stop_server
gw_server_conf "tls-crypt $GW_DIR/tc.key"
gw_start_server
start_all
ip netns exec "$(gw_cns 1)" ping -c 2 -i 0.2 -W 1 -q 10.8.0.3 >/dev/null 2>&1 &&
	gw_fail "no client-to-client, ip_forward=0: client1 reached client2"
c2c=$(gw_stats | sed -n 's/.* c2c \([0-9]*\),.*/\1/p')
[ "$c2c" = 0 ] || gw_fail "no client-to-client: $c2c packets forwarded inside braidd"
ip netns exec "$GW_NS" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$(gw_cns 1)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.3 >"$GW_DIR/ping.log" 2>&1 ||
	gw_fail "no client-to-client, ip_forward=1: the kernel did not route client1 -> client2"
echo "ok: without client-to-client the packets go through the TUN"

# client2 leaves; client2 again gets its address back, peer-id 1 is reused (one worker; with N its new
# 4-tuple may hash to another worker: a free peer-id of that one, with 2 other sessions live: <= 2N + N - 1)
p2=$(gw_peer_id 2)
gw_stop_client 2
gw_wait "$GW_DIR/server.log" "client2/10.99.0.12" 1
gw_wait "$GW_DIR/server.log" "client removed (peer-id $p2)" 5 || gw_fail "client2 not removed on exit"
: >"$GW_DIR/c2.log"
gw_start_client 2
gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 15 || gw_fail "client2 did not reconnect"
n2=$(gw_peer_id 2)
if [ "$(gw_workers)" -le 1 ]; then [ "$n2" = "$p2" ]; else gw_pid_ok "$n2" 2; fi ||
	gw_fail "client2: peer-id '$n2' after reconnecting (had $p2)"
grep -qF "ifconfig 10.8.0.3 255.255.255.0,peer-id $n2," "$GW_DIR/c2.log" ||
	gw_fail "client2 did not get 10.8.0.3 / peer-id $n2 back"
echo "PASS: gw_multi"
