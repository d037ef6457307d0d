#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client: remote failover and restarts against a stock openvpn 2.6 server.
#   three remotes in order: UDP port without a server (hand-window expiry -> next), TCP port refused
#   (-> next at once), the real server; the server's RESTART at its exit (explicit-exit-notify) -> reconnect
#   once it is back; ping-restart when the server stops answering; pushed `comp-lzo no` -> 0xFA framing;
#   no nobind -> the UDP socket binds lport 1194; connect-retry back-off and connect-retry-max; remote-random (a logged permutation, tried in that order).
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup
S=$(tb_srv_addr 1)

tc_server srv1 udp tls-auth "explicit-exit-notify 1" "keepalive 1 4"
bd_conf cli "client" "dev tun" "remote $S 1195 udp" "remote $S 1196 tcp-client" "remote $S 1194 udp" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
	"remote-cert-tls server" "verb 4" "tls-auth $TB_DIR/pki/ta.key 1" "hand-window 3" "connect-retry 1"
bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed (server [AF_INET]$S:1194)" 20 ||
	fail "did not reach the third remote"
grep -n "UDP link remote\|TCP connect to\|Initialization Sequence Completed (server" "$TB_DIR/cli.log" >"$TB_DIR/order"
sed -n 1p "$TB_DIR/order" | grep -F "UDP link remote: [AF_INET]$S:1195" >/dev/null || fail "first attempt not remote 1: $(cat "$TB_DIR/order")"
sed -n 2p "$TB_DIR/order" | grep -F "TCP connect to [AF_INET]$S:1196 failed: Connection refused" >/dev/null ||
	fail "second attempt not the refused TCP remote: $(cat "$TB_DIR/order")"
sed -n 3p "$TB_DIR/order" | grep -F "UDP link remote: [AF_INET]$S:1194" >/dev/null || fail "third attempt: $(cat "$TB_DIR/order")"
grep -qF "TLS key negotiation failed to occur within 3 seconds (hand-window)" "$TB_DIR/cli.log" ||
	fail "hand-window expiry not logged for remote 1"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "no ping via remote 3"
# without nobind a UDP client binds lport 1194, as OpenVPN does
grep -qF "Peer Connection Initiated with [AF_INET]$(tb_cli_addr 1):1194" "$OV_LOG" ||
	fail "UDP client without nobind: source port is not 1194"
echo "ok: remotes tried in order (hand-window expiry, TCP refused, then connected); bound to port 1194"

# the server exits: it tells us RESTART; we reconnect when it is back
tc_server_stop
bd_wait_log cli "server sent RESTART" 10 || fail "no RESTART from the exiting server"
tc_server srv1b udp tls-auth "keepalive 1 4"
for _ in $(seq 1 300); do
	[ "$(grep -c 'Initialization Sequence Completed (server' "$TB_DIR/cli.log")" -ge 2 ] && break
	sleep 0.1
done
[ "$(grep -c 'Initialization Sequence Completed (server' "$TB_DIR/cli.log")" -ge 2 ] || fail "no reconnect after RESTART"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "no ping after the reconnect"
echo "ok: server RESTART -> reconnected"

# the server stops answering: ping-restart (pushed ping-restart 4)
kill -STOP "$OV_PID"
bd_wait_log cli "Inactivity timeout (--ping-restart), restarting" 12 || { kill -CONT "$OV_PID"; fail "no ping-restart"; }
kill -CONT "$OV_PID"
for _ in $(seq 1 300); do
	[ "$(grep -c 'Initialization Sequence Completed (server' "$TB_DIR/cli.log")" -ge 3 ] && break
	sleep 0.1
done
[ "$(grep -c 'Initialization Sequence Completed (server' "$TB_DIR/cli.log")" -ge 3 ] || fail "no reconnect after ping-restart"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "no ping after ping-restart"
bd_stop cli || fail "cli exit code $?"
tc_server_stop
echo "ok: ping-restart -> reconnected"

# pushed comp-lzo no: every data packet carries the 0xFA byte
tc_server srv2 udp tls-crypt "comp-lzo no" 'push "comp-lzo no"'
tc_client cz udp tls-crypt
bd_wait_log cz "Initialization Sequence Completed" 15 || fail "comp-lzo no: client did not come up"
grep -qF "compression stub framing" "$TB_DIR/cz.log" || fail "comp-lzo no: framing not enabled"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "comp-lzo no: no ping"
tc_transfer "comp-lzo no" cz
grep -q "unknown IP version" "$OV_LOG" && fail "comp-lzo no: server saw unframed packets"
bd_stop cz || fail "cz exit code"
tc_server_stop
echo "ok: pushed comp-lzo no: ping + sha256 download with 0xFA framing"

# connect-retry back-off and connect-retry-max: a single refused TCP remote; OpenVPN's pause rule is
# connect-retry seconds for 5 rounds, then doubling per round up to the maximum (here 2 s); 7 rounds, exit 1
bd_conf crm "client" "dev tun" "remote $S 1196 tcp-client" "nobind" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "verb 4" "connect-retry 1 2" "connect-retry-max 7"
bd_start crm "$TB_CLI"
pid=${BD_PID[crm]}
for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid" 2>/dev/null && fail "connect-retry-max: still running after 15 s"
wait "$pid"
rc=$?
unset "BD_PID[crm]"
[ "$rc" = 1 ] || fail "connect-retry-max: exit status $rc, want 1"
[ "$(grep -c 'TCP connect to .* failed: Connection refused' "$TB_DIR/crm.log")" = 7 ] ||
	fail "connect-retry-max 7: want 7 attempts, got $(grep -c 'failed: Connection refused' "$TB_DIR/crm.log")"
pauses=$(sed -n 's/.*Restart pause, \([0-9]*\) second.*/\1/p' "$TB_DIR/crm.log" | tr '\n' ' ')
[ "$pauses" = "1 1 1 1 2 2 " ] || fail "connect-retry back-off: pauses '$pauses', want '1 1 1 1 2 2 '"
grep -qF "All connections have been connect-retry-max (7) times unsuccessful, exiting" "$TB_DIR/crm.log" ||
	fail "connect-retry-max: no exit reason"
echo "ok: connect-retry 1 2 / connect-retry-max 7: pauses $pauses-> 7 attempts, exit 1"

# remote-random: 4 remotes (ports 1201..1204, nothing listens), 12 starts; each start logs a permutation and
# tries its first remote first; not all 12 orders are the same (chance (1/24)^11 with a working shuffle)
bd_conf rr "client" "dev tun" "remote $S 1201 udp" "remote $S 1202 udp" "remote $S 1203 udp" "remote $S 1204 udp" \
	"remote-random" "nobind" "ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
	"verb 4"
orders=()
for i in $(seq 1 12); do
	bd_start rr "$TB_CLI"
	bd_wait_log rr "UDP link remote:" 5 || fail "remote-random: run $i did not start"
	bd_stop rr || fail "remote-random: run $i exit code $?"
	order=$(sed -n 's/.*remote-random: remotes in the order //p' "$TB_DIR/rr.log")
	[ "$(tr ' ' '\n' <<<"$order" | sort | tr '\n' ' ')" = "1 2 3 4 " ] || fail "remote-random: '$order' is not a permutation"
	first=$(( $(cut -d' ' -f1 <<<"$order") + 1200 ))
	grep -qF "UDP link remote: [AF_INET]$S:$first" "$TB_DIR/rr.log" || fail "remote-random: order '$order' but tried $(grep -m1 'UDP link remote' "$TB_DIR/rr.log")"
	orders+=("$order")
done
[ "$(printf '%s\n' "${orders[@]}" | sort -u | wc -l)" -gt 1 ] || fail "remote-random: 12 starts, always the order ${orders[0]}"
echo "ok: remote-random: 12 starts, $(printf '%s\n' "${orders[@]}" | sort -u | wc -l) distinct orders, first remote tried first"
