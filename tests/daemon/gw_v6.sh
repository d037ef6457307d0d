#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_v6.sh - braidd gateway with `topology net30` and `server-ipv6`, stock OpenVPN 2.6 clients:
#  * client1 gets what 2.6 pushes for net30 (route 10.8.0.1, topology net30, ifconfig 10.8.0.6
#    10.8.0.5) plus ifconfig-ipv6 fd00:8::1000/64 fd00:8::1; IPv4 and IPv6 pings and an IPv6
#    sha256-checked download work;
#  * ifconfig-pool-persist: the file records "client1,10.8.0.6,fd00:8::1000"; after a gateway
#    restart client2 connects first and client1 still gets its persisted addresses;
#  * the outer transport over IPv6 (proto udp6): the status file shows [fd99::11]:PORT.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 2
C1=$(gw_cns 1)
TC="tls-crypt $GW_DIR/tc.key"
head -c 2097152 /dev/urandom >"$GW_DIR/blob"
want=$(sha256sum "$GW_DIR/blob" | cut -d' ' -f1)

gw_server_conf "$TC" "server-ipv6 fd00:8::/64" "ifconfig-pool-persist $GW_DIR/ipp.txt 1"
sed -i 's/^topology subnet$/topology net30/' "$GW_DIR/server.conf"
gw_start_server
ip netns exec "$GW_NS" /usr/bin/python3 -c '
import http.server, socket, sys, os
class S(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6
    def server_bind(self):
        # IP_FREEBIND (15): the TUN address may still be tentative (DAD) when this starts
        self.socket.setsockopt(socket.SOL_IP, 15, 1)
        super().server_bind()
os.chdir(sys.argv[1])
S(("fd00:8::1", 8080), http.server.SimpleHTTPRequestHandler).serve_forever()' "$GW_DIR" >/dev/null 2>&1 &
GW_PIDS+=("$!")
gw_client_conf 1 "$TC"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not connect"
p1=$(gw_peer_id 1)	# 0 with one worker (gw_lib.sh)
gw_pid_ok "$p1" 0 || gw_fail "client1: peer-id '$p1'"
grep -qF "PUSH_REPLY,tun-ipv6,route 10.8.0.1,topology net30,ping 10,ping-restart 60,ifconfig-ipv6 fd00:8::1000/64 fd00:8::1,ifconfig 10.8.0.6 10.8.0.5,peer-id $p1," \
	"$GW_DIR/c1.log" || gw_fail "net30/IPv6 push list differs from 2.6's"
ip netns exec "$C1" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "net30: ping 10.8.0.1"
ip netns exec "$C1" ping -6 -c 2 -i 0.2 -W 2 -q fd00:8::1 >/dev/null || gw_fail "IPv6: ping fd00:8::1"
got=$(ip netns exec "$C1" curl -sS -g --max-time 20 "http://[fd00:8::1]:8080/blob" 2>"$GW_DIR/curl6.err" | sha256sum | cut -d' ' -f1)
[ "$got" = "$want" ] || gw_fail "IPv6: 2 MiB download: sha256 mismatch ($(head -c 300 "$GW_DIR/curl6.err"))"
sleep 1.2
grep -q "^CLIENT_LIST,client1,10.99.0.11:[0-9]*,10.8.0.6,fd00:8::1000," "$GW_DIR/status.txt" ||
	gw_fail "status: client1 v4/v6 addresses: $(grep CLIENT_LIST, "$GW_DIR/status.txt")"
grep -q "^ROUTING_TABLE,fd00:8::1000,client1," "$GW_DIR/status.txt" || gw_fail "status: no IPv6 route"
echo "ok: net30 + IPv6"

gw_wait "$GW_DIR/ipp.txt" "client1,10.8.0.6,fd00:8::1000" 3 || gw_fail "ifconfig-pool-persist: file: $(cat "$GW_DIR/ipp.txt" 2>&1)"
gw_stop_client 1
gw_stop_server
gw_start_server
gw_client_conf 2 "$TC"
gw_start_client 2
gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 15 || gw_fail "client2 did not connect"
grep -qF "ifconfig 10.8.0.10 10.8.0.9," "$GW_DIR/c2.log" || gw_fail "client2 took client1's persisted address"
: >"$GW_DIR/c1.log"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not reconnect"
grep -qF "ifconfig-ipv6 fd00:8::1000/64 fd00:8::1,ifconfig 10.8.0.6 10.8.0.5," "$GW_DIR/c1.log" ||
	gw_fail "client1 did not get its persisted addresses back"
echo "ok: ifconfig-pool-persist"
gw_stop_client 1
gw_stop_client 2
gw_stop_server

# the outer transport over IPv6 (proto udp6, local fd99::1)
gw_server_conf "$TC" "server-ipv6 fd00:8::/64"
sed -i 's/^local 10.99.0.1$/local fd99::1/; s/^topology subnet$/topology net30/' "$GW_DIR/server.conf"
echo "proto udp6" >>"$GW_DIR/server.conf"
gw_start_server
grep -qF "gateway listening on UDP [AF_INET6]" "$GW_DIR/server.log" || gw_fail "udp6: not on IPv6: $(grep listening "$GW_DIR/server.log")"
gw_client_conf 1 "$TC"
sed -i 's/^remote 10.99.0.1 1194$/remote fd99::1 1194/; s/^proto udp$/proto udp6/' "$GW_DIR/c1.conf"
: >"$GW_DIR/c1.log"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "udp6: client1 did not connect"
ip netns exec "$C1" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "udp6: ping 10.8.0.1"
ip netns exec "$C1" ping -6 -c 2 -i 0.2 -W 2 -q fd00:8::1 >/dev/null || gw_fail "udp6: ping fd00:8::1"
gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,client1,[fd99::11]:" 3 ||
	gw_fail "udp6: real address not [fd99::11]:PORT: $(grep CLIENT_LIST, "$GW_DIR/status.txt")"
echo "ok: IPv6 outer transport"
echo "PASS: gw_v6"
