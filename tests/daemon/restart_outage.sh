#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# All paths gone (issue 10 part 4: suspend/resume, roaming): a braidd TLS client (nobind) to a braidd gateway
# (pushed ping 2, ping-restart 20) over a bed with two client links. Both links go down for 90 s (OUTAGE_S),
# then come back with NEW addresses (10.I.1.2 -> 10.I.1.3, routes as a DHCP client would set them). The client
# must reconnect with no action within ping-restart + 5 s of the links' return; its log says
# "state: RECONNECTING" during the outage and "state: CONNECTED" after it; a 4 MB download is sha256-checked.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
source "$(dirname "$0")/restart_lib.sh"
OUTAGE_S=${OUTAGE_S:-90}
PING_RESTART=20
TM_BLOB_BYTES=4194304 tm_setup 2

tm_gateway gw "multipath off"
tm_client cli
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not connect"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "start: sha256"
grep -qF "ping-restart $PING_RESTART" "$TB_DIR/gw.conf" || grep -qF "keepalive 2 $PING_RESTART" "$TB_DIR/gw.conf" ||
	fail "the gateway does not push ping-restart $PING_RESTART"

# all links down
t_down=$(rs_now)
tb_exec "$TB_CLI" ip link set c1 down
tb_exec "$TB_CLI" ip link set c2 down
rs_wait_count cli "state: RECONNECTING" 1 $((PING_RESTART + 5)) || fail "no RECONNECTING during the outage"
sleep "$(awk -v d="$t_down" -v n="$(rs_now)" -v o="$OUTAGE_S" 'BEGIN { s = o - (n - d); print (s > 0 ? s : 0) }')"
tb_exec "$TB_CLI" ping -c1 -W1 -q "$TM_GW_TUN" >/dev/null 2>&1 && fail "the tunnel answered during the outage"
n_conn=$(rs_count cli "state: CONNECTED")

# back, with new addresses (what a DHCP client does after a resume)
t_up=$(rs_now)
for i in 1 2; do
	tb_exec "$TB_CLI" ip addr del "10.$i.1.2/24" dev "c$i"
	tb_exec "$TB_CLI" ip addr add "10.$i.1.3/24" dev "c$i"
	tb_exec "$TB_CLI" ip link set "c$i" up
	tb_exec "$TB_CLI" ip route replace "10.$i.2.0/24" via "10.$i.1.1" dev "c$i"
done
tb_exec "$TB_CLI" ip route replace default via 10.1.1.1 dev c1
el=$(rs_back "$TB_CLI" "$TM_GW_TUN" "$t_up" $((PING_RESTART + 5)) "after the outage")
rs_wait_count cli "state: CONNECTED" $((n_conn + 1)) 5 || fail "no CONNECTED after the outage"
last=$(grep -F "state: " "$TB_DIR/cli.log" | tail -n1)
[[ $last == *"state: CONNECTED"* ]] || fail "the last state is not CONNECTED: $last"
grep -qF "client1/10.1.1.3:" "$TB_DIR/gw.log" || fail "the gateway did not see the client's new address"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "after the outage: sha256"
echo "ok: all links down ${OUTAGE_S} s, back with new addresses: tunnel back ${el} s after the links (limit $((PING_RESTART + 5)) s), RECONNECTING then CONNECTED, sha256"
grep -E "state: |network change" "$TB_DIR/cli.log" | sed "s/^/    /"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
