#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# management-client, management-up-down and cr-response, braidd against stock openvpn 2.6 on the same
# scripts (mgmt_outgoing.script for the client's interface, mgmt_outgoing_srv.script for the server's):
#   run 1  stock client  -> stock server     (the reference transcripts)
#   run 2  braidd client -> stock server     (client role: >UPDOWN: blocks, cr-response, connect out)
#   run 3  stock client  -> braidd gateway   (gateway role: >CLIENT:CR_RESPONSE,CID,KID,B64 + ENV)
# The client connects OUT to the driver (management-client; mgmt_drive.py listen:); mgmt_compare.py:
# the normalised transcripts equal (the >UPDOWN:ENV names and values too, except pid/start time/config
# directory; names stock gives and braidd does not are listed in mgmt_drive.py UPDOWN_SKIP). Then: a
# braidd client whose management client goes away exits ("Triggering management exit"), and one whose
# management client does not listen fails at start.
#   mgmt_outgoing.sh
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
tc_setup

printf 'user1\npass1\n' >"$TB_DIR/up.txt"
SRV_LINES=("management 127.0.0.1 7505" "management-client-auth")
CLI_LINES=("client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind"
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key"
	"remote-cert-tls server" "verb 4" "tls-auth $TB_DIR/pki/ta.key 1" "management-hold"
	"management 127.0.0.1 7507" "management-client" "management-up-down" "auth-user-pass $TB_DIR/up.txt")

run() { # NAME SERVER(openvpn|braidd) CLIENT(openvpn|braidd)
	local name=$1 srv=$2 cli=$3 sd cd
	if [ "$srv" = openvpn ]; then
		tc_server "srv$name" udp tls-auth "${SRV_LINES[@]}"
	else	# braidd with the stock server's configuration (tc_server's lines)
		tc_server "srv$name" udp tls-auth "${SRV_LINES[@]}"
		tc_server_stop
		bd_start "srv$name" "$TB_SRV"
		bd_wait_log "srv$name" "Initialization Sequence Completed" 10 || fail "$name: braidd gateway"
	fi
	tb_bg "$TB_SRV" python3 "$HERE/mgmt_drive.py" 127.0.0.1:7505 "$HERE/mgmt_outgoing_srv.script" \
		"$TB_DIR/$name.srv.json"
	sd=$TB_LAST_PID
	# the server's driver first: a >CLIENT:CONNECT before it connects would be missed
	for _ in $(seq 1 100); do grep -q "MANAGEMENT: Client connected" "$TB_DIR/srv$name.log" && break; sleep 0.05; done
	grep -q "MANAGEMENT: Client connected" "$TB_DIR/srv$name.log" || fail "$name: the server's driver did not connect"
	tc_mgmt_listen "$TB_CLI" 7507 "$HERE/mgmt_outgoing.script" "$TB_DIR/$name.cli.json"
	cd=$TB_LAST_PID
	sleep 0.2
	if [ "$cli" = openvpn ]; then
		printf '%s\n' "${CLI_LINES[@]}" >"$TB_DIR/cli$name.conf"
		: >"$TB_DIR/cli$name.log"
		tb_bg "$TB_CLI" openvpn --cd "$TB_DIR" --config "$TB_DIR/cli$name.conf" --log "$TB_DIR/cli$name.log"
	else
		bd_conf "cli$name" "${CLI_LINES[@]}"
		bd_start "cli$name" "$TB_CLI"
	fi
	wait "$cd" || fail "$name: the client's script failed ($(tail -c 800 "$TB_DIR/$name.cli.json"))"
	wait "$sd" || fail "$name: the server's script failed ($(tail -c 800 "$TB_DIR/$name.srv.json"))"
	if [ "$srv" = openvpn ]; then tc_server_stop; else bd_stop "srv$name"; fi
	echo "ok: run $name ($cli client, $srv server)"
}

run 1 openvpn openvpn
run 2 openvpn braidd
run 3 braidd openvpn
[ -n "${MGMT_KEEP:-}" ] && cp "$TB_DIR"/*.json "$MGMT_KEEP"/

python3 "$HERE/mgmt_compare.py" "$TB_DIR/1.cli.json" "$TB_DIR/2.cli.json" ||
	fail "client role: the transcripts differ"
python3 "$HERE/mgmt_compare.py" "$TB_DIR/1.srv.json" "$TB_DIR/3.srv.json" ||
	fail "gateway role: the transcripts differ"
# what the comparison must have seen (a transcript without them would compare equal too)
for f in 1.cli 2.cli; do
	python3 - "$TB_DIR/$f.json" <<'PY' || fail "$f: UPDOWN blocks or the cr-response reply missing"
import json, sys
t = json.load(open(sys.argv[1]))
n = t["notes"]
up, down = n.index(">UPDOWN:UP"), n.index(">UPDOWN:DOWN")
conn = [i for i, x in enumerate(n) if ",CONNECTED,SUCCESS," in x][0]
ex = [i for i, x in enumerate(n) if ",EXITING," in x][0]
assert up < conn < down < ex, (up, conn, down, ex)
env = n[up + 1]
for want in ("dev=tun0", "ifconfig_local=10.8.0.2", "common_name=server", "trusted_ip=10.1.2.2",
             "route_network_1=10.9.0.0", "foreign_option_1=dhcp-option DNS 10.8.0.53", "X509_0_CN=server"):
    assert (" " + want + " ") in (env + " "), want
assert dict(t["replies"])["cr-response dGVzdHJlc3BvbnNl"] == ["SUCCESS: command succeeded"]
PY
done
grep -q "^>CLIENT:CR_RESPONSE,0,1,dGVzdHJlc3BvbnNl$" <(python3 -c "import json,sys; print('\n'.join(json.load(open(sys.argv[1]))['raw']))" "$TB_DIR/3.srv.json") ||
	fail "braidd gateway: no >CLIENT:CR_RESPONSE,0,1,dGVzdHJlc3BvbnNl"
grep -q "MANAGEMENT: Connected to management server at \[AF_INET\]127.0.0.1:7507" "$TB_DIR/cli2.log" ||
	fail "braidd client: no 'Connected to management server' line"
grep -q "SENT CONTROL \[server\]: 'CR_RESPONSE,\[...\]'" "$TB_DIR/cli2.log" || fail "braidd client: CR_RESPONSE not logged"
grep -q "dGVzdHJlc3BvbnNl" "$TB_DIR/cli2.log" && fail "braidd client logged the challenge response"
echo "ok: stock and braidd transcripts equal (client and gateway role)"

# the gateway role's hold and >UPDOWN: stock server and braidd gateway, management-client, management-hold,
# management-up-down
sed "s|@DIR@|$TB_DIR|" "$HERE/mgmt_updown_srv.script" >"$TB_DIR/updown.script"
MG_UD=("management 127.0.0.1 7511" "management-client" "management-hold" "management-up-down")
for srv in openvpn braidd; do
	rm -f "$TB_DIR/up"
	if [ "$srv" = braidd ]; then	# the stock server's configuration, the management lines added
		tc_server "ud$srv" udp tls-auth
		tc_server_stop
		printf '%s\n' "${MG_UD[@]}" >>"$TB_DIR/ud$srv.conf"
	fi
	tc_mgmt_listen "$TB_SRV" 7511 "$TB_DIR/updown.script" "$TB_DIR/ud-$srv.json"
	ud=$TB_LAST_PID
	if [ "$srv" = openvpn ]; then tc_server "ud$srv" udp tls-auth "${MG_UD[@]}"; else bd_start "ud$srv" "$TB_SRV"; fi
	for _ in $(seq 1 200); do [ -e "$TB_DIR/up" ] && break; sleep 0.05; done
	[ -e "$TB_DIR/up" ] || fail "up-down $srv: no >UPDOWN:UP ($(tail -c 600 "$TB_DIR/ud-$srv.json" 2>/dev/null))"
	if [ "$srv" = openvpn ]; then tc_server_stop; else bd_stop "ud$srv"; fi
	wait "$ud" || fail "up-down $srv: the driver's script failed ($(tail -c 800 "$TB_DIR/ud-$srv.json"))"
done
python3 "$HERE/mgmt_compare.py" "$TB_DIR/ud-openvpn.json" "$TB_DIR/ud-braidd.json" ||
	fail "gateway role: the >UPDOWN transcripts differ"
python3 - "$TB_DIR/ud-braidd.json" <<'PY' || fail "braidd gateway: >UPDOWN blocks missing"
import json, sys
n = json.load(open(sys.argv[1]))["notes"]
up, down = n.index(">UPDOWN:UP"), n.index(">UPDOWN:DOWN")
assert up < down, (up, down)
assert " dev=tun0 " in (" " + n[up + 1] + " "), n[up + 1]
PY
grep -q "management-hold: waiting for 'hold release' before serving" "$TB_DIR/udbraidd.log" &&
	grep -q "management-hold: released: serving" "$TB_DIR/udbraidd.log" || fail "braidd gateway: no hold, or no release"
echo "ok: gateway role: held until 'hold release', then >UPDOWN:UP / DOWN with ENV as stock's"

# the management client goes away: braidd ends (as stock: "Triggering management exit")
rm -f "$TB_DIR/ready"
tb_bg "$TB_CLI" python3 -c 'import socket, sys; s=socket.create_server(("127.0.0.1",7507)); open(sys.argv[1], "w").close(); c,_=s.accept(); c.recv(100); c.close()' "$TB_DIR/ready"
for _ in $(seq 1 100); do [ -e "$TB_DIR/ready" ] && break; sleep 0.05; done
bd_conf cli4 "${CLI_LINES[@]}"
bd_start cli4 "$TB_CLI"
bd_wait_log cli4 "Triggering management exit" 10 || fail "no management exit when the management client left: $(tail -5 "$TB_DIR/cli4.log")"
for _ in $(seq 1 100); do kill -0 "${BD_PID[cli4]}" 2>/dev/null || break; sleep 0.05; done
kill -0 "${BD_PID[cli4]}" 2>/dev/null && fail "braidd still runs after its management client left"
echo "ok: braidd exits when its management client disconnects"
# nobody listens: braidd does not start
bd_conf cli5 "${CLI_LINES[@]}"
bd_start cli5 "$TB_CLI"
wait "${BD_PID[cli5]}" && fail "braidd started without its management client"
grep -q "MANAGEMENT: connect to \[AF_INET\]127.0.0.1:7507 failed: Connection refused" "$TB_DIR/cli5.log" ||
	fail "no 'connect ... failed' line: $(tail -3 "$TB_DIR/cli5.log")"
echo "ok: braidd refuses to start when its management client does not listen"
echo "PASS: mgmt_outgoing"
