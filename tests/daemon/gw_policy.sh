#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_policy.sh - client policies of a braidd gateway with stock OpenVPN 2.6 clients:
#  * same common name twice: without duplicate-cn the newer connection replaces the older one
#    (which is removed and its address reused); with duplicate-cn both stay, two addresses;
#  * max-clients 1: a second client gets no session;
#  * float: client1's address changes mid-session; its next DATA_V2 packets (valid peer-id)
#    move the session and pings keep working;
#  * keepalive 1 2: a client killed without notice is removed after 2 x ping-restart;
#  * connect-freq 1 30: a second new session within 30 s is refused;
#  * a client whose packets come from another client's exact address (another certificate) does
#    not float there: its packets are dropped, both sessions stay.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 3
TC="tls-crypt $GW_DIR/tc.key"
as_client1() { sed -i "s|client$1\.crt|client1.crt|; s|client$1\.key|client1.key|" "$GW_DIR/c$1.conf"; }

# duplicate common name, without duplicate-cn
gw_server_conf "$TC"
gw_start_server
gw_client_conf 1 "$TC"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not connect"
p1=$(gw_peer_id_at 10.99.0.11)	# 0, then 1 with one worker (gw_lib.sh, gw_pid_ok)
gw_pid_ok "$p1" 0 || gw_fail "client1: peer-id '$p1'"
gw_client_conf 3 "$TC"
as_client1 3
gw_start_client 3
gw_wait "$GW_DIR/c3.log" "Initialization Sequence Completed" 15 || gw_fail "second client1 did not connect"
p3=$(gw_peer_id_at 10.99.0.13)
gw_pid_ok "$p3" 1 || gw_fail "the newer client1: peer-id '$p3'"
gw_wait "$GW_DIR/server.log" "client removed (peer-id $p1): replaced by a newer connection with the same common name" \
	5 || gw_fail "the older client1 session was not replaced"
# with one worker the older session is dropped before the newer one's address is chosen: it gets 10.8.0.2
# again; with `workers N` the older one may live on another worker, which drops it when the newer one's
# name reaches it over the ring, so the newer one may get the next free address (docs/scaling.md)
a3=10.8.0.2
[ "$(gw_workers)" -gt 1 ] && grep -qF "ifconfig 10.8.0.3 255.255.255.0,peer-id $p3," "$GW_DIR/c3.log" && a3=10.8.0.3
grep -qF "ifconfig $a3 255.255.255.0,peer-id $p3," "$GW_DIR/c3.log" ||
	gw_fail "the newer client1 did not get the released address 10.8.0.2 (peer-id $p3)"
sleep 1.2
[ "$(grep -c '^CLIENT_LIST,client1,' "$GW_DIR/status.txt")" = 1 ] || gw_fail "status: not exactly one client1"
gw_stop_client 1
gw_stop_client 3
gw_stop_server
echo "ok: same CN replaces the older session"

gw_server_conf "$TC" "duplicate-cn"
gw_start_server
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "dup: client1 did not connect"
: >"$GW_DIR/c3.log"
gw_start_client 3
gw_wait "$GW_DIR/c3.log" "Initialization Sequence Completed" 15 || gw_fail "dup: second client1 did not connect"
ip netns exec "$(gw_cns 1)" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "dup: first client1 lost"
ip netns exec "$(gw_cns 3)" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "dup: second client1 lost"
sleep 1.2
grep -q "^CLIENT_LIST,client1,10.99.0.11:.*,10.8.0.2,," "$GW_DIR/status.txt" &&
	grep -q "^CLIENT_LIST,client1,10.99.0.13:.*,10.8.0.3,," "$GW_DIR/status.txt" ||
	gw_fail "dup: status does not list both client1 sessions: $(grep CLIENT_LIST, "$GW_DIR/status.txt")"
gw_stop_client 1
gw_stop_client 3
gw_stop_server
echo "ok: duplicate-cn keeps both"

# max-clients 1
gw_server_conf "$TC" "max-clients 1"
gw_start_server
: >"$GW_DIR/c1.log"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "max-clients: client1 did not connect"
gw_client_conf 2 "$TC"
gw_start_client 2
sleep 3
grep -qF "Initialization Sequence Completed" "$GW_DIR/c2.log" && gw_fail "max-clients 1: a second client connected"
s=$(gw_stats)
[[ "$s" == *"sessions created 1,"* ]] || gw_fail "max-clients: $s"
[[ "$s" =~ max-clients\ refused\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] || gw_fail "max-clients: nothing refused: $s"
gw_stop_client 2
echo "ok: max-clients"

# float: client1 moves from 10.99.0.11 to 10.99.0.61
C1=$(gw_cns 1)
ip netns exec "$C1" sysctl -qw net.ipv4.conf.eth0.promote_secondaries=1
ip -n "$C1" addr add 10.99.0.61/24 dev eth0
ip -n "$C1" addr del 10.99.0.11/24 dev eth0
ip netns exec "$C1" ping -c 3 -i 0.3 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "float: no ping after the address change"
pf=$(gw_peer_id_at 10.99.0.11)
gw_pid_ok "$pf" 0 || gw_fail "float: client1's peer-id '$pf'"
gw_wait "$GW_DIR/server.log" "client1: peer-id $pf floated from 10.99.0.11:" 3 || gw_fail "float: not logged"
grep -q "floated from 10.99.0.11:[0-9]* to 10.99.0.61:" "$GW_DIR/server.log" || gw_fail "float: wrong addresses"
sleep 1.2
grep -q "^CLIENT_LIST,client1,10.99.0.61:" "$GW_DIR/status.txt" || gw_fail "float: status shows the old address"
gw_stop_client 1
gw_stop_server
echo "ok: float"

# inactivity: keepalive 1 2 -> the gateway drops a silent client after 4 s
gw_server_conf "$TC" "keepalive 1 2"
sed -i 's/^keepalive 10 60$//' "$GW_DIR/server.conf"
gw_start_server
gw_client_conf 2 "$TC"
gw_start_client 2
gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 15 || gw_fail "timeout: client2 did not connect"
grep -qF "ping 1,ping-restart 2," "$GW_DIR/c2.log" || gw_fail "keepalive 1 2 not pushed as ping 1,ping-restart 2"
p2=$(gw_peer_id 2)
gw_pid_ok "$p2" 0 || gw_fail "timeout: client2's peer-id '$p2'"
kill -9 "${GW_PID[c2]}"
t0=$(date +%s)
gw_wait "$GW_DIR/server.log" "client removed (peer-id $p2): inactivity timeout (ping-restart)" 8 ||
	gw_fail "timeout: the silent client was not removed"
t1=$(date +%s)
[ $((t1 - t0)) -ge 3 ] || gw_fail "timeout: removed after $((t1 - t0)) s, before 2 x ping-restart"
echo "ok: silent client removed after $((t1 - t0)) s"
gw_stop_server

# connect-freq 1 30: a second new session within 30 s is refused
gw_server_conf "$TC" "connect-freq 1 30"
gw_start_server
: >"$GW_DIR/c1.log"
: >"$GW_DIR/c2.log"
gw_client_conf 1 "$TC"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "connect-freq: client1 did not connect"
gw_start_client 2
sleep 3
grep -qF "Initialization Sequence Completed" "$GW_DIR/c2.log" && gw_fail "connect-freq 1 30: a second client connected"
s=$(gw_stats)
[[ "$s" == *"sessions created 1,"* ]] || gw_fail "connect-freq: $s"
[[ "$s" =~ connect-freq\ refused\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 1 ] || gw_fail "connect-freq: nothing refused: $s"
echo "ok: connect-freq"
gw_stop_client 1
gw_stop_client 2
gw_stop_server

# no float onto another client's address: client1 and client2 both on port 5000, then client1
# takes client2's IP; its packets now come from client2's exact address and must be dropped
gw_server_conf "$TC"
gw_start_server
for i in 1 2; do
	gw_client_conf "$i" "$TC" "lport 5000"
	sed -i 's/^nobind$//' "$GW_DIR/c$i.conf"
	: >"$GW_DIR/c$i.log"
	gw_start_client "$i"
	gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 15 || gw_fail "float-refusal: client$i"
done
C1=$(gw_cns 1)
sleep 1.2
before=$(grep '^CLIENT_LIST,' "$GW_DIR/status.txt" | cut -d, -f2,3 | sort)
[ "$(grep -c ':5000$' <<<"$before")" = 2 ] || gw_fail "float-refusal: clients not on port 5000: $before"
ip netns exec "$C1" sysctl -qw net.ipv4.conf.eth0.promote_secondaries=1
ip -n "$C1" addr add 10.99.0.12/24 dev eth0
for a in $(ip -n "$C1" -4 -o addr show dev eth0 | awk '{print $4}'); do
	[ "$a" = 10.99.0.12/24 ] || ip -n "$C1" addr del "$a" dev eth0
done
ip netns exec "$C1" ping -c 3 -i 0.2 -W 1 -q 10.8.0.1 >/dev/null 2>&1 &&
	gw_fail "float-refusal: client1 got through from client2's address"
s=$(gw_stats)
[[ "$s" =~ floats\ refused\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -ge 3 ] || gw_fail "float-refusal: $s"
[[ "$s" == *" floats 0,"* ]] || gw_fail "float-refusal: a float happened: $s"
# give 10.99.0.12 back to client2 (client1's ARP requests taught the gateway its MAC for it)
ip -n "$C1" addr add 10.99.0.11/24 dev eth0
ip -n "$C1" addr del 10.99.0.12/24 dev eth0
ip -n "$GW_NS" neigh flush 10.99.0.12 2>/dev/null
ip netns exec "$(gw_cns 2)" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "float-refusal: client2 lost"
sleep 1.2
after=$(grep '^CLIENT_LIST,' "$GW_DIR/status.txt" | cut -d, -f2,3 | sort)
# client2 keeps its address; client1 may have floated back to its own new address, never to .12
grep -qx "client2,10.99.0.12:5000" <<<"$after" && ! grep -q "^client1,10.99.0.12:" <<<"$after" ||
	gw_fail "float-refusal: addresses changed: $before -> $after"
echo "ok: no float onto another certificate's address"
echo "PASS: gw_policy"
