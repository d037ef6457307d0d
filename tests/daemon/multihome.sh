#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `multihome` (issue 10 part 3): a braidd gateway bound to the wildcard on a host with two addresses on two
# links, s1 10.1.2.2 (link 1) and s2 10.2.2.2 (link 2). The client reaches the SECOND address over link 1
# (its route to 10.2.2.2 goes through router 1), so the gateway's routing would answer from 10.1.2.2.
#  1. without multihome (stock's behaviour, documented): the answers leave from 10.1.2.2; the stock client
#     rejects them ("Incoming packet rejected from [AF_INET]10.1.2.2:1194") and never connects, the braidd
#     client's connected socket never sees them;
#  2. with multihome: a stock openvpn client and a braidd client connect to 10.2.2.2, every packet they get
#     comes from 10.2.2.2 (tcpdump on the client's link), and a 4 MB download through the tunnel is sha256-checked;
#  3. multipath paths, by default (no multihome): a braidd client with two paths to 10.2.2.2, its session over
#     link 2; path 1 (10.1.1.2 over link 1) is the asymmetric one: the gateway answers it from 10.2.2.2, both
#     paths become active and carry data, download sha256-checked.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=4194304 tm_setup 2
command -v tcpdump >/dev/null || { echo "SKIP: tcpdump not installed"; exit 77; }
GW2=$(tb_srv_addr 2)
tb_exec "$TB_CLI" ip route replace "$GW2/32" via 10.1.1.1 dev c1 || fail "client route to the second address"

gateway() {
	bd_conf gw "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "proto udp" "port 1194" \
		"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/server.crt" "key $TB_DIR/pki/server.key" "dh none" \
		"keepalive 2 20" "tls-auth $TB_DIR/pki/ta.key 0" "verb 4" "$@"
	bd_start gw "$TB_SRV"
	bd_wait_log gw "gateway ready" 10 || fail "gateway did not start"
}
stock_client() {
	bd_conf stock "client" "dev tun" "proto udp" "remote $GW2 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
		"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "remote-cert-tls server" \
		"tls-auth $TB_DIR/pki/ta.key 1" "verb 3"
	: >"$TB_DIR/stock.log"
	tb_bg "$TB_CLI" openvpn --config "$TB_DIR/stock.conf" --log "$TB_DIR/stock.log"
	BD_PID[stock]=$TB_LAST_PID
}
stop_stock() {
	kill -TERM "${BD_PID[stock]}" 2>/dev/null
	wait "${BD_PID[stock]}" 2>/dev/null
	unset "BD_PID[stock]"
}
braid_client() {
	bd_conf cli "client" "dev tun" "proto udp" "remote $GW2 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
		"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "remote-cert-tls server" \
		"tls-auth $TB_DIR/pki/ta.key 1" "verb 4"
	bd_start cli "$TB_CLI"
}

# 1. without multihome
gateway "multipath off"
grep -qF "gateway listening on UDP [AF_INET6][::]:1194" "$TB_DIR/gw.log" ||
	grep -qF "gateway listening on UDP [AF_INET]0.0.0.0:1194" "$TB_DIR/gw.log" || fail "gateway not on the wildcard"
stock_client
bd_wait_log stock "Incoming packet rejected from [AF_INET]$(tb_srv_addr 1):1194" 10 ||
	fail "without multihome: the stock client did not see answers from the first address"
grep -qF "Initialization Sequence Completed" "$TB_DIR/stock.log" && fail "without multihome: the stock client connected"
stop_stock
braid_client
sleep 6
grep -qF "Initialization Sequence Completed" "$TB_DIR/cli.log" && fail "without multihome: the braidd client connected"
bd_stop cli
bd_stop gw || fail "gateway exit code $?"
echo "ok: without multihome: answers from $(tb_srv_addr 1); stock rejects them, braidd never connects (stock's behaviour)"

# 2. with multihome
gateway "multihome" "multipath off"
grep -qF "multihome: each client is answered from the address it talks to" "$TB_DIR/gw.log" || fail "no multihome line"
tb_bg "$TB_CLI" tcpdump -l -n -i c1 -c 200 udp and src port 1194 >"$TB_DIR/dump" 2>/dev/null
DUMP_PID=$TB_LAST_PID
sleep 1
stock_client
bd_wait_log stock "Initialization Sequence Completed" 20 || fail "multihome: the stock client did not connect"
grep -qF "Incoming packet rejected" "$TB_DIR/stock.log" && fail "multihome: the stock client rejected a packet"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "multihome: stock: no ping through the tunnel"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "multihome: stock: 4 MB download sha256"
stop_stock
echo "ok: multihome: stock client to $GW2 connected, sha256"
braid_client
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "multihome: the braidd client did not connect"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "multihome: braidd: no ping through the tunnel"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "multihome: braidd: 4 MB download sha256"
kill "$DUMP_PID" 2>/dev/null
wait "$DUMP_PID" 2>/dev/null
n_ok=$(grep -c "IP $GW2.1194 >" "$TB_DIR/dump")
n_bad=$(grep -c "IP $(tb_srv_addr 1).1194 >" "$TB_DIR/dump")
[ "$n_ok" -ge 20 ] && [ "$n_bad" = 0 ] ||
	fail "multihome: on the client's link $n_ok packets came from $GW2 and $n_bad from $(tb_srv_addr 1)"
echo "ok: multihome: braidd client to $GW2 connected, sha256; $n_ok gateway packets on link 1, all from $GW2"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"

# 3. multipath paths learned by the gateway, without multihome; the session itself goes over link 2 again
tb_exec "$TB_CLI" ip route del "$GW2/32" via 10.1.1.1 dev c1 || fail "cannot remove the client route"
gateway "multipath on" "mp-scheduler ratio 1:1"
tb_bg "$TB_CLI" tcpdump -l -n -i c1 udp and src port 1194 >"$TB_DIR/dump2" 2>/dev/null
DUMP_PID=$TB_LAST_PID
sleep 1
bd_conf cli "client" "dev tun" "proto udp" "remote $GW2 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "remote-cert-tls server" \
	"tls-auth $TB_DIR/pki/ta.key 1" "verb 4" "status $TB_DIR/cli.status 1" $'mp-path 10.1.1.2\nmp-path 10.2.1.2'
bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "multipath: the braidd client did not connect"
tm_wait_active cli 2 15 || fail "multipath: paths not active: $(tm_status cli | tr '\n' ' ')"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "multipath: 4 MB download sha256"
sleep 2	# the status file is rewritten every second
rx1=$(tm_path_field cli 1 rx_bytes)
[ "${rx1:-0}" -gt 100000 ] || fail "multipath: path 1 (the asymmetric one) received only ${rx1:-0} bytes"
kill "$DUMP_PID" 2>/dev/null
wait "$DUMP_PID" 2>/dev/null
n_ok=$(grep -c "IP $GW2.1194 >" "$TB_DIR/dump2")
n_bad=$(grep -c "IP $(tb_srv_addr 1).1194 >" "$TB_DIR/dump2")
[ "$n_ok" -ge 20 ] && [ "$n_bad" = 0 ] ||
	fail "multipath: on link 1 $n_ok packets came from $GW2 and $n_bad from $(tb_srv_addr 1)"
echo "ok: multipath without multihome: path 1 answered from $GW2 ($n_ok packets, $rx1 bytes received), both paths active, sha256"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
