#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_ccd.sh - client-config-dir on a braidd gateway, stock OpenVPN 2.6 clients:
#  * client1's file: ifconfig-push (fixed address), iroute 192.168.51.0/24 (+ the gateway's
#    `route` for it), a push: the gateway reaches 192.168.51.1 behind client1, the pushed route
#    reaches client1, its packets from 192.168.51.1 pass the source check;
#  * client2's file says `disable`: AUTH_FAILED;
#  * ccd-exclusive: client3 has no file: AUTH_FAILED;
#  * push-reset in client1's file drops the global push "route 172.30.0.0 255.255.0.0".
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 3
mkdir -p "$GW_DIR/ccd"
cat >"$GW_DIR/ccd/client1" <<'EOS'
ifconfig-push 10.8.0.50 255.255.255.0
iroute 192.168.51.0 255.255.255.0
push-reset
push "route-gateway 10.8.0.1"
push "topology subnet"
push "route 192.168.60.0 255.255.255.0"
EOS
echo disable >"$GW_DIR/ccd/client2"
gw_server_conf "tls-crypt $GW_DIR/tc.key" "client-config-dir $GW_DIR/ccd" "ccd-exclusive" \
	"route 192.168.51.0 255.255.255.0" 'push "route 172.30.0.0 255.255.0.0"'
gw_start_server
C1=$(gw_cns 1)
ip -n "$C1" addr add 192.168.51.1/24 dev lo
gw_client_conf 1 "tls-crypt $GW_DIR/tc.key"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not connect"
p1=$(gw_peer_id 1)	# 0 with one worker (gw_lib.sh)
gw_pid_ok "$p1" 0 || gw_fail "client1: peer-id '$p1'"
grep -qF "PUSH_REPLY,route-gateway 10.8.0.1,topology subnet,route 192.168.60.0 255.255.255.0,ifconfig 10.8.0.50 255.255.255.0,peer-id $p1," \
	"$GW_DIR/c1.log" || gw_fail "client1: push list not as its ccd file says"
grep -qF "172.30.0.0" "$GW_DIR/c1.log" && gw_fail "client1: push-reset did not drop the global push"
ip -n "$C1" route show | grep -q "^192.168.60.0/24 via 10.8.0.1" || gw_fail "client1: pushed route missing"
ip netns exec "$C1" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client1: ping 10.8.0.1"
ip netns exec "$GW_NS" ping -c 3 -i 0.2 -W 2 -q 192.168.51.1 >/dev/null ||
	gw_fail "iroute: the gateway cannot reach 192.168.51.1 behind client1"
ip netns exec "$C1" ping -c 2 -i 0.2 -W 2 -q -I 192.168.51.1 10.8.0.1 >/dev/null ||
	gw_fail "iroute: packets from 192.168.51.1 (client1's iroute) do not pass"
sleep 1.2
grep -q "^ROUTING_TABLE,192.168.51.0/24,client1," "$GW_DIR/status.txt" || gw_fail "iroute not in the status file"
grep -q "^CLIENT_LIST,client1,.*,10.8.0.50,," "$GW_DIR/status.txt" || gw_fail "ifconfig-push address not in the status file"
echo "ok: ifconfig-push, iroute, push-reset, push"

gw_client_conf 2 "tls-crypt $GW_DIR/tc.key"
gw_start_client 2
gw_wait "$GW_DIR/c2.log" "AUTH_FAILED" 15 || gw_fail "client2 (disable) did not get AUTH_FAILED"
gw_wait "$GW_DIR/server.log" "client2/10.99.0.12" 3
grep -qF "authentication failed: client-config-dir file says 'disable'" "$GW_DIR/server.log" ||
	gw_fail "no 'disable' reason in the gateway log"
gw_client_conf 3 "tls-crypt $GW_DIR/tc.key"
gw_start_client 3
gw_wait "$GW_DIR/c3.log" "AUTH_FAILED" 15 || gw_fail "client3 (no file, ccd-exclusive) did not get AUTH_FAILED"
grep -qF "authentication failed: ccd-exclusive and no client-config-dir file for this common name" \
	"$GW_DIR/server.log" || gw_fail "no ccd-exclusive reason in the gateway log"
echo "ok: disable, ccd-exclusive"
echo "PASS: gw_ccd"
