#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Restarts in TLS mode (issue 10 part 4): a braidd client and a braidd gateway (explicit-exit-notify 1, so
# the gateway tells its clients at a restart, as 2.6 does), pushed ping-restart 20 s:
#  1. SIGHUP on the client: full restart (config read again), the tunnel answers within 5 s, download;
#  2. SIGHUP on the gateway with a route push added to its config: the gateway sends RESTART, reads the config
#     again, the client reconnects within 5 s and gets the new route, download;
#  3. SIGUSR1 on the gateway: soft restart (clients dropped after RESTART, TUN kept), back within 5 s, download;
#  4. a stock openvpn client through the gateway's SIGHUP: back within 5 s, download;
#  5. a braidd multipath client (two paths) and a multipath gateway: SIGHUP on the client, then SIGHUP on the
#     gateway: each time back within 5 s with both paths active, download.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
source "$(dirname "$0")/restart_lib.sh"
TM_BLOB_BYTES=4194304 tm_setup 2

tm_gateway gw "explicit-exit-notify 1" "multipath off"
tm_client cli "connect-retry 1"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not connect"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "start: sha256"

# 1. SIGHUP on the client
t0=$(rs_now)
kill -HUP "${BD_PID[cli]}"
rs_wait_count cli "SIGHUP: configuration read again" 1 5 || fail "client: no reload logged"
el=$(rs_back "$TB_CLI" "$TM_GW_TUN" "$t0" 5 "SIGHUP on the client")
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "after the client's SIGHUP: sha256"
echo "ok: SIGHUP on the braidd client: back in ${el} s, sha256"

# 2. SIGHUP on the gateway, with a new pushed route
echo 'push "route 10.77.0.0 255.255.0.0"' >>"$TB_DIR/gw.conf"
n=$(rs_count cli "state: CONNECTED")
t0=$(rs_now)
kill -HUP "${BD_PID[gw]}"
rs_wait_count gw "SIGHUP: configuration read again" 1 5 || fail "gateway: no reload logged"
grep -qF "shutting down: sent RESTART to 1 client(s)" "$TB_DIR/gw.log" || fail "gateway: no RESTART sent"
rs_wait_count gw "(the socket kept from before the restart)" 1 5 || fail "gateway: the UDP socket was not kept"	# logged just after the reload line
# by default one worker per core: with more than one, the kept socket is the SO_REUSEPORT group of every
# worker, taken whole by the restarted gateway (docs/scaling.md "Workers")
cores=$(getconf _NPROCESSORS_ONLN)
if [ "$cores" -gt 1 ]; then
	nw=$((cores > 64 ? 64 : cores))
	rs_wait_count gw "workers: $nw, sessions steered" 2 5 ||
		fail "gateway: not $nw workers before and after the SIGHUP: $(grep -F 'workers' "$TB_DIR/gw.log")"
fi
rs_wait_count cli "state: CONNECTED" $((n + 1)) 10 || fail "client did not reconnect"
el=$(rs_back "$TB_CLI" "$TM_GW_TUN" "$t0" 5 "SIGHUP on the gateway")
tb_exec "$TB_CLI" ip -o route show 10.77.0.0/16 | grep -q . || fail "client: the route pushed by the re-read config is missing"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "after the gateway's SIGHUP: sha256"
echo "ok: SIGHUP on the gateway: RESTART sent, config read again (new pushed route), back in ${el} s, sha256"

# 3. SIGUSR1 on the gateway
n=$(rs_count cli "state: CONNECTED")
t0=$(rs_now)
kill -USR1 "${BD_PID[gw]}"
rs_wait_count gw "gateway restarted: 1 client(s) dropped" 1 5 || fail "gateway: no soft restart"
rs_wait_count cli "state: CONNECTED" $((n + 1)) 10 || fail "client did not reconnect after SIGUSR1"
el=$(rs_back "$TB_CLI" "$TM_GW_TUN" "$t0" 5 "SIGUSR1 on the gateway")
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "after the gateway's SIGUSR1: sha256"
[ "$(rs_count gw "SIGHUP: configuration read again")" = 1 ] || fail "SIGUSR1 read the config again"
echo "ok: SIGUSR1 on the gateway: soft restart, back in ${el} s, sha256"
bd_stop cli || fail "client exit code $?"

# 4. a stock openvpn client through the gateway's SIGHUP
bd_conf stock "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "remote-cert-tls server" \
	"tls-auth $TB_DIR/pki/ta.key 1" "verb 3" "connect-retry 1"
: >"$TB_DIR/stock.log"
tb_bg "$TB_CLI" openvpn --config "$TB_DIR/stock.conf" --log "$TB_DIR/stock.log"
BD_PID[stock]=$TB_LAST_PID
bd_wait_log stock "Initialization Sequence Completed" 20 || fail "stock client did not connect"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "stock: no ping"
t0=$(rs_now)
kill -HUP "${BD_PID[gw]}"
rs_wait_count gw "SIGHUP: configuration read again" 2 5 || fail "gateway: no second reload"
el=$(rs_back "$TB_CLI" "$TM_GW_TUN" "$t0" 5 "SIGHUP on the gateway (stock client)")
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "stock client after the gateway's SIGHUP: sha256"
echo "ok: stock client through the gateway's SIGHUP: back in ${el} s, sha256"
kill -TERM "${BD_PID[stock]}"
wait "${BD_PID[stock]}" 2>/dev/null
bd_stop gw || fail "gateway exit code $?"

# 5. multipath client and gateway
tm_gateway gw "explicit-exit-notify 1" "multipath on"
mapfile -t paths < <(tm_client_paths cli 2)
tm_client cli "connect-retry 1" "${paths[@]}"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "multipath client did not connect"
tm_wait_active cli 2 15 || fail "multipath: paths not active at start"
for who in cli gw; do
	n=$(rs_count cli "state: CONNECTED")
	t0=$(rs_now)
	kill -HUP "${BD_PID[$who]}"
	rs_wait_count cli "state: CONNECTED" $((n + 1)) 10 || fail "multipath: no reconnect after SIGHUP on $who"
	el=$(rs_back "$TB_CLI" "$TM_GW_TUN" "$t0" 5 "multipath: SIGHUP on $who")
	tm_wait_active cli 2 10 || fail "multipath: paths not active after SIGHUP on $who: $(tm_status cli | tr '\n' ' ')"
	[ "$(tm_get blob)" = "$TM_WANT" ] || fail "multipath: after SIGHUP on $who: sha256"
	echo "ok: multipath: SIGHUP on $who: back in ${el} s, both paths active, sha256"
done
bd_stop cli || fail "multipath client exit code $?"
bd_stop gw || fail "gateway exit code $?"
