#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client: pushed-option handling against a stock openvpn 2.6 server.
#   pull-filter ignore (the route is not installed) and reject (restart with the option named);
#   topology net30 + pushed `compress stub-v2` (ping + sha256 download);
#   the server's HALT (management `client-kill CID HALT`) -> braidd exits 0; UDP over IPv6;
#   explicit-exit-notify as an OCC EXIT data packet when the server did not push cc-exit.
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

mgmt() { # COMMAND: one management command on the stock server, prints the reply
	tb_exec "$TB_SRV" python3 - "$1" <<'EOP'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", 7505), timeout=5)
f = s.makefile("rwb", buffering=0)
f.readline()                       # >INFO greeting
f.write(sys.argv[1].encode() + b"\r\n")
print(f.readline().decode().strip())
f.write(b"quit\r\n")
EOP
}

tc_server srv1 udp tls-auth "management 127.0.0.1 7505"
tc_client pf1 udp tls-auth 'pull-filter ignore "route 10.9."' 'pull-filter accept "dhcp-option DNS 10.8."'
bd_wait_log pf1 "Initialization Sequence Completed" 15 || fail "pull-filter ignore: client did not come up"
grep -qF "pushed option removed by pull-filter: 'route 10.9.0.0 255.255.255.0'" "$TB_DIR/pf1.log" ||
	fail "pull-filter ignore not logged"
tb_exec "$TB_CLI" ip -o route show 10.9.0.0/24 | grep . >/dev/null && fail "filtered route was installed"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "pull-filter ignore: no ping"
# the server halts this client (CID 0: the first client of this server)
reply=$(mgmt "client-kill 0 HALT")
[[ $reply == SUCCESS* ]] || fail "management client-kill: $reply"
pid=${BD_PID[pf1]}
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid" 2>/dev/null && fail "HALT: braidd still running"
wait "$pid"
rc=$?
unset "BD_PID[pf1]"
[ "$rc" = 0 ] || fail "HALT: exit status $rc, want 0"
grep -qF "server sent HALT" "$TB_DIR/pf1.log" || fail "HALT not logged"
echo "ok: pull-filter ignore (route not installed); server HALT -> exit 0"

tc_client pf2 udp tls-auth 'pull-filter reject "dhcp-option"' "connect-retry 1"
bd_wait_log pf2 "pushed option rejected by pull-filter: 'dhcp-option DNS 10.8.0.53': restarting" 15 ||
	fail "pull-filter reject: no error"
grep -q "Initialization Sequence Completed (server" "$TB_DIR/pf2.log" && fail "pull-filter reject: connected anyway"
bd_stop pf2 || fail "pf2 exit code $?"
tc_server_stop
echo "ok: pull-filter reject -> restart, never up"

tc_server srv2 udp tls-crypt "topology net30" "compress stub-v2" 'push "compress stub-v2"'
tc_client cz udp tls-crypt
bd_wait_log cz "Initialization Sequence Completed" 15 || fail "net30/stub-v2: client did not come up"
grep -qF "compression stub framing" "$TB_DIR/cz.log" || fail "stub-v2: framing not enabled"
tb_exec "$TB_CLI" ip -o addr show | grep "inet 10.8.0.6 peer 10.8.0.5/32" >/dev/null ||
	fail "net30: want 10.8.0.6 peer 10.8.0.5: $(tb_exec "$TB_CLI" ip -o addr show | grep 10.8.0)"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "net30/stub-v2: no ping"
tc_transfer "net30 + compress stub-v2" cz
bd_stop cz || fail "cz exit code"
tc_server_stop
echo "ok: topology net30 + pushed compress stub-v2: ping + sha256 download"

# IPv6 transport: the stock server on its IPv6 address, braidd with `proto udp6`
tc_server srv3 udp6 tls-auth "local $(tb_srv_addr 1 6)" 'push "redirect-gateway def1 ipv6"'
bd_conf v6 "client" "dev tun" "proto udp6" "remote $(tb_srv_addr 1 6) 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "remote-cert-tls server" "verb 4" \
	"tls-auth $TB_DIR/pki/ta.key 1"
bd_start v6 "$TB_CLI"
bd_wait_log v6 "Initialization Sequence Completed (server [AF_INET6]" 15 || fail "IPv6 transport: client did not come up"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "IPv6 transport: no ping"
tc_transfer "IPv6 transport" v6
r6=$(tb_exec "$TB_CLI" ip -6 -o route show "$(tb_srv_addr 1 6)")
grep -q "via fd0b:1:1::1 dev c1" <<<"$r6" || fail "redirect-gateway ipv6: no host route to the server: '$r6'"
r6=$(tb_exec "$TB_CLI" ip -6 -o route show ::/1)
grep -q "dev tun" <<<"$r6" || fail "redirect-gateway ipv6: ::/1 not on the TUN: '$r6'"
r4=$(tb_exec "$TB_CLI" ip -o route show 0.0.0.0/1)
grep -q "dev tun" <<<"$r4" || fail "redirect-gateway def1: 0.0.0.0/1 not on the TUN: '$r4'"
bd_stop v6 || fail "v6 exit code"
tc_server_stop
r6=$(tb_exec "$TB_CLI" ip -6 -o route show "$(tb_srv_addr 1 6)")
[ -z "$r6" ] || fail "IPv6 host route to the server left behind: '$r6'"
echo "ok: UDP over IPv6 with redirect-gateway def1 ipv6 (::/1 + 8000::/1, IPv6 host route): ping + sha256 download"

# explicit-exit-notify without cc-exit: an OCC EXIT data packet (PRF derivation so that dropping the pushed
# protocol-flags leaves the keys as the server has them)
tc_server srv4 udp tls-auth
BRAIDD_KEY_DERIVATION=prf tc_client occ udp tls-auth 'pull-filter ignore "protocol-flags"' "explicit-exit-notify 2"
bd_wait_log occ "Initialization Sequence Completed" 15 || fail "OCC exit: client did not come up"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "OCC exit: no ping"
bd_stop occ || fail "occ exit code $?"
grep -qF "sending exit notification to the server (OCC EXIT, 2 s)" "$TB_DIR/occ.log" || fail "OCC EXIT not sent"
for _ in $(seq 1 40); do grep -qF "remote-exit" "$OV_LOG" && break; sleep 0.05; done
grep -qF "OCC exit message received by peer" "$OV_LOG" ||
	fail "server did not get the OCC EXIT"
st=$(grep "final stats" "$TB_DIR/occ.log")
[ "$(grep -c . <<<"$st")" = 1 ] || fail "no final stats line"
el=$(( $(date -d "$(grep -m1 'SIGTERM\[hard' "$TB_DIR/occ.log" | cut -c1-23)" +%s%3N) ))
ex=$(( $(date -d "$(grep -m1 'final stats' "$TB_DIR/occ.log" | cut -c1-23)" +%s%3N) ))
[ $((ex - el)) -ge 1900 ] || fail "explicit-exit-notify 2: exited after $((ex - el)) ms, want the 2 s notification window"
tc_server_stop
echo "ok: explicit-exit-notify without cc-exit: the server logged the OCC exit message"
