#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath over TLS never reaches a stock peer (docs/multipath-negotiation.md):
#  1. a braidd gateway with `multipath on` serves a stock openvpn client (in the app namespace) and a braidd
#     client with 2 mp-paths at the same time: the braidd client is multipath, the stock client is never
#     offered braid-mp (its PUSH_REPLY has no braid-mp), both ping and download (sha256-verified);
#  2. a braidd client with 2 mp-path lines against a stock openvpn server: no braid-mp pushed, single path:
#     the server receives UDP from the client's path-1 address only (iptables counters), no float in its log,
#     ping + sha256-verified download work;
#  3. a braidd client with `multipath off` against the multipath gateway: not announced, not offered, single
#     path, ping + download work;
#  4. restarts: a multipath gateway with explicit-exit-notify stops (RESTART to the client), a new gateway
#     starts: the client restarts, negotiates multipath again (new path sockets), 2 paths active, download.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=4194304 tm_setup 2
mapfile -t paths < <(tm_client_paths "" 2)

# 1. stock client and braidd multipath client on one gateway
tm_gateway gw "multipath on"
tm_client cli "${paths[@]}"
cat >"$TB_DIR/stock.conf" <<EOC
client
dev tun
proto udp
remote $(tb_srv_addr 1) 1194
nobind
ca $TB_DIR/pki/ca.crt
cert $TB_DIR/pki/client2.crt
key $TB_DIR/pki/client2.key
remote-cert-tls server
tls-auth $TB_DIR/pki/ta.key 1
verb 4
EOC
tb_bg "$TB_APP" openvpn --cd "$TB_DIR" --config "$TB_DIR/stock.conf" --log "$TB_DIR/stock.log"
STOCK_PID=$TB_LAST_PID
bd_wait_log cli "multipath negotiated with the server" 15 || fail "braidd client: multipath not negotiated"
for _ in $(seq 1 200); do grep -q "Initialization Sequence Completed" "$TB_DIR/stock.log" && break; sleep 0.05; done
grep -q "Initialization Sequence Completed" "$TB_DIR/stock.log" || fail "stock client did not come up"
grep -q "PUSH: Received control message" "$TB_DIR/stock.log" || fail "stock client log has no PUSH_REPLY line"
grep "PUSH: Received control message" "$TB_DIR/stock.log" | grep -q "braid-mp" && fail "stock client was offered braid-mp"
grep -q "client2/.*multipath negotiated" "$TB_DIR/gw.log" && fail "gateway negotiated multipath with the stock client"
tm_wait_active cli 2 10 || fail "braidd client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client: no ping"
tb_wait_ping "$TB_APP" "$TM_GW_TUN" 10 || fail "stock client: no ping"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "braidd client download: sha256 mismatch"
got=$(tb_exec "$TB_APP" curl -sf --max-time 30 "http://$TM_GW_TUN:8080/blob" | sha256sum | cut -d' ' -f1)
[ "$got" = "$TM_WANT" ] || fail "stock client download: sha256 $got"
[ "$(grep -c "learned from an authenticated packet" "$TB_DIR/gw.log")" = 2 ] || fail "gateway learned other than 2 paths"
grep -q "floated" "$TB_DIR/gw.log" && fail "a client floated on the gateway"
kill -TERM "$STOCK_PID"; wait "$STOCK_PID" 2>/dev/null
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: one gateway: braidd client on 2 paths + stock client single path, both ping and download"

# 2. braidd client with mp-path lines -> stock openvpn server
cat >"$TB_DIR/stocksrv.conf" <<EOC
dev tun
topology subnet
server 10.8.0.0 255.255.255.0
server-ipv6 fd00:8::/64
proto udp
port 1194
local $(tb_srv_addr 1)
ca $TB_DIR/pki/ca.crt
cert $TB_DIR/pki/server.crt
key $TB_DIR/pki/server.key
dh none
keepalive 2 20
tls-auth $TB_DIR/pki/ta.key 0
verb 4
EOC
for i in 1 2; do
	tb_exec "$TB_SRV" iptables -w -A INPUT -p udp --dport 1194 -s "$(tb_cli_addr "$i")" || fail "iptables counter $i"
done
tb_bg "$TB_SRV" openvpn --cd "$TB_DIR" --config "$TB_DIR/stocksrv.conf" --log "$TB_DIR/stocksrv.log"
SRV_PID=$TB_LAST_PID
for _ in $(seq 1 100); do grep -qs "Initialization Sequence Completed" "$TB_DIR/stocksrv.log" && break; sleep 0.05; done
tm_client cli2 "${paths[@]}"
bd_wait_log cli2 "Initialization Sequence Completed" 15 || fail "braidd client -> stock server: not up"
grep -q "IV_BRAID_MP=1" "$TB_DIR/stocksrv.log" || echo "  (stock server did not log the peer-info)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client -> stock server: no ping"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "braidd client -> stock server: download sha256 mismatch"
grep -q "multipath negotiated" "$TB_DIR/cli2.log" && fail "braidd client turned multipath on with a stock server"
grep -q "multipath: UDP" "$TB_DIR/cli2.log" && fail "braidd client opened path sockets with a stock server"
sleep 1.2
[ -z "$(tm_status cli2)" ] || fail "client status shows paths: $(tm_status cli2)"
cnt() { tb_exec "$TB_SRV" iptables -w -nvxL INPUT | awk -v a="$1" '{ for (i = 2; i <= NF; i++) if ($i == a) { print $1; exit } }'; }
p1=$(cnt "$(tb_cli_addr 1)") p2=$(cnt "$(tb_cli_addr 2)")
[ "${p1:-0}" -gt 100 ] || fail "stock server got only ${p1:-0} packets from path 1"
[ "${p2:-x}" = 0 ] || fail "stock server got ${p2:-?} packets from the client's path-2 address (must be 0)"
grep -qE "floated|float from" "$TB_DIR/stocksrv.log" && fail "stock server log shows a float"
bd_stop cli2 || fail "client exit code $?"
kill -TERM "$SRV_PID"; wait "$SRV_PID" 2>/dev/null
echo "ok: braidd client with 2 mp-paths -> stock server: single path ($p1 packets from path 1, 0 from path 2)"

# 3. multipath off: the gateway offers nothing
tm_gateway gw3 "multipath on"
tm_client cli3 "multipath off"
bd_wait_log cli3 "Initialization Sequence Completed" 15 || fail "multipath off: client not up"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "multipath off: no ping"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "multipath off: download sha256 mismatch"
grep -q "multipath negotiated" "$TB_DIR/gw3.log" && fail "multipath off: the gateway negotiated multipath"
grep -q "multipath negotiated" "$TB_DIR/cli3.log" && fail "multipath off: the client negotiated multipath"
bd_stop cli3 || fail "client exit code $?"
bd_stop gw3 || fail "gateway exit code $?"
echo "ok: braidd client with 'multipath off' -> multipath gateway: single path, ping + download"

# 4. the gateway goes away and comes back: the client's engine is torn down and set up again
tm_gateway gw4 "multipath on" "explicit-exit-notify 1"
mapfile -t paths < <(tm_client_paths "" 2)
# connect-retry 3: the client's restart pause outlasts gw4's one-second exit wait, so its new reset
# cannot reach gw4 (whose cookie gw5 would not know: the client would then wait out its hand-window,
# as it would with a stock server); hand-window 10 bounds that case if it happens anyway
tm_client cli4 "${paths[@]}" "connect-retry 3" "hand-window 10"
tm_wait_active cli4 2 10 || fail "restart: client paths not active"
bd_stop gw4 || fail "gateway exit code $?"
tm_gateway gw5 "multipath on"
for _ in $(seq 1 300); do
	[ "$(grep -c "multipath negotiated with the server" "$TB_DIR/cli4.log")" -ge 2 ] && break
	sleep 0.1
done
[ "$(grep -c "multipath negotiated with the server" "$TB_DIR/cli4.log")" = 2 ] || fail "restart: client did not negotiate multipath again"
sleep 1.2
tm_wait_active cli4 2 10 || fail "restart: paths not active with the new gateway: $(tm_status cli4)"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "restart: download sha256 mismatch"
[ "$(grep -c "learned from an authenticated packet, validating" "$TB_DIR/gw5.log")" = 2 ] || fail "restart: new gateway did not learn 2 paths"
bd_stop cli4 || fail "client exit code $?"
bd_stop gw5 || fail "gateway exit code $?"
echo "ok: gateway restart: the client set its multipath data plane up again (2 paths, download)"
