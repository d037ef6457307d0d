#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A stock OpenVPN 2.6 TCP client against a braidd gateway in MPTCP mode (issue 14): the gateway listens on
# an MPTCP socket with `mp-path s2` (a `signal` endpoint it adds and removes at exit); the stock client's
# plain TCP connection is accepted as TCP ("plain TCP" in the gateway's log), ping and an 8 MiB
# sha256-verified download through the tunnel, with no TCP super-packet frame either way (nothing offered: the
# gateway's log and status JSON, 0 frames); then a braidd client over MPTCP to the same gateway gets
# the signalled address as a second subflow; at exit the gateway's endpoint is gone.
set -uo pipefail
source "$(dirname "$0")/mptcp_lib.sh"
tm_setup 2
for ns in "$TB_CLI" "$TB_SRV"; do tb_exec "$ns" sysctl -qw net.mptcp.enabled=1; done

mt_gateway gw "mp-path s2" "status-json $TB_DIR/gw.json 1"
grep -q "gateway listening on MPTCP \[AF_INET\]10.1.2.2:1194" "$TB_DIR/gw.log" || fail "gateway not on MPTCP"
grep -q "MPTCP: path s2: endpoint [0-9]* 10.2.2.2 port 1194 dev #[0-9]* signal added" "$TB_DIR/gw.log" || fail "no signal endpoint"
mt_endpoints "$TB_SRV" | grep -q "10.2.2.2 port 1194 id [0-9]* signal dev s2" || fail "endpoints: $(mt_endpoints "$TB_SRV")"

bd_conf ovpn "client" "dev tun" "proto tcp-client" "remote $(tb_srv_addr 1) 1194" "nobind" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
	"remote-cert-tls server" "tls-auth $TB_DIR/pki/ta.key 1" "verb 3"
: >"$TB_DIR/ovpn.log"
tb_bg "$TB_CLI" openvpn --config "$TB_DIR/ovpn.conf" --log "$TB_DIR/ovpn.log"
opid=$TB_LAST_PID
for _ in $(seq 1 200); do grep -q "Initialization Sequence Completed" "$TB_DIR/ovpn.log" && break; sleep 0.1; done
grep -q "Initialization Sequence Completed" "$TB_DIR/ovpn.log" || fail "stock openvpn did not come up: $(tail -5 "$TB_DIR/ovpn.log")"
grep -q "TCP connection accepted (peer-id 0), plain TCP: the client (or a middlebox) does not speak MPTCP" "$TB_DIR/gw.log" ||
	fail "gateway did not log the stock client as plain TCP"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping from the stock client"
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "stock client download: sha256 $got"
sleep 1.2	# one status rewrite
python3 - "$TB_DIR/gw.json" <<'PY' || fail "stock client: TCP super-packet frames in the gateway's status: $(cat "$TB_DIR/gw.json")"
import json, sys
j = json.load(open(sys.argv[1]))
g = j["gateway"]
assert (g["tcp_super_tx"], g["tcp_super_rx"], g["tcp_super_rejected"]) == (0, 0, 0), g
assert [c["tcp_super"] for c in j["clients"]] == [False], j["clients"]
PY
! grep -qi "super-packet frames" "$TB_DIR/gw.log" || fail "gateway offered frames to the stock client: $(grep -i super "$TB_DIR/gw.log")"
kill -TERM "$opid"
wait "$opid"
echo "ok: stock openvpn tcp-client -> braidd gateway (MPTCP listener): plain TCP, ping, 8 MiB sha256, 0 super-packet frames"

tb_exec "$TB_CLI" ip mptcp limits set subflows 2 add_addr_accepted 2	# no mp-path lines: the host's limits
mt_client cli
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "braidd client did not come up"
bd_wait_log cli "is multipath TCP" 2 || fail "braidd client not on MPTCP"
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "braidd client download: sha256 $got"
for _ in $(seq 1 30); do [ "$(mt_paths cli | wc -l)" = 2 ] && break; sleep 0.2; done
mt_paths cli | grep -q ",\[AF_INET\]10.2.2.2:1194," || { tb_exec "$TB_CLI" ss -Mni; tb_exec "$TB_CLI" nstat -az | grep -i mptcp | grep -v " 0 "; tb_exec "$TB_SRV" nstat -az | grep -i mptcp | grep -v " 0 "; tb_exec "$TB_SRV" ip mptcp limits; fail "no subflow to the signalled 10.2.2.2: $(mt_paths cli)"; }
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
[ -z "$(mt_endpoints "$TB_SRV")" ] || fail "gateway endpoints left after exit: $(mt_endpoints "$TB_SRV")"
echo "ok: signal endpoint: the braidd client got a subflow to 10.2.2.2; removed at exit"
