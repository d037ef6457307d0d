#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath path learning is only by authenticated, fresh packets:
#  1. NAT rebinding: router 1 SNATs the client's path-1 packets to 10.1.2.1:40000; mid-download the mapping changes
#     to 10.1.2.1:40001 (new conntrack zone). The server learns the new tuple only from authenticated packets,
#     validates it, the download's sha256 matches.
#  2. Replay: a real data packet captured on the server's path-1 interface is sent again from two other
#     namespaces (routers 1 and 2, other source addresses): counted as replays, no path added.
#  3. Spoof: the same packet with one ciphertext byte flipped: counted as authentication failures, no path added.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
head -c 16777216 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
R1=${TB_R[1]}
tb_emu_start 1 -r 30 -d 5 >/dev/null
tb_emu_start 2 -r 30 -d 10 >/dev/null
tb_exec "$R1" iptables -w -t nat -A POSTROUTING -o r1s -p udp -s "$(tb_cli_addr 1)" -j SNAT --to-source 10.1.2.1:40000 ||
	fail "iptables SNAT in router 1"
mp_pair 2
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
mp_wait_paths srv 2 active 10 || fail "srv: paths not active"
mp_refresh srv
jq -e '.paths[] | select(.remote == "[AF_INET]10.1.2.1:40000")' "$TB_DIR/srv.json" >/dev/null ||
	fail "srv does not see path 1 from the NAT address 10.1.2.1:40000: $(jq -c '[.paths[].remote]' "$TB_DIR/srv.json")"

# 1. NAT rebinding mid-transfer
rebind() {
	tb_exec "$R1" iptables -w -t nat -R POSTROUTING 1 -o r1s -p udp -s "$(tb_cli_addr 1)" -j SNAT --to-source 10.1.2.1:40001 &&
		tb_exec "$R1" iptables -w -t raw -A PREROUTING -j CT --zone 1 || fail "rebinding rules"
}
mp_http_get blob >/dev/null
(tb_exec "$TB_CLI" curl -sf --max-time 60 -o "$TB_DIR/got" "http://10.200.0.1:8080/blob") &
cpid=$!
sleep 1.5
rebind
wait "$cpid" || fail "download across the NAT rebinding failed (curl exit $?)"
[ "$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)" = "$want" ] || fail "download across the NAT rebinding: sha256 mismatch"
mp_wait_paths srv 2 active 10 || fail "srv: not 2 active paths after rebinding: $(jq -c '[.paths[] | [.remote, .state]]' "$TB_DIR/srv.json")"
np=$(jq '[.paths[] | select(.remote == "[AF_INET]10.1.2.1:40001" and .state == "active" and .validations >= 1)] | length' "$TB_DIR/srv.json")
[ "$np" = 1 ] || fail "the rebound tuple 10.1.2.1:40001 is not a validated active path: $(jq -c '[.paths[] | [.remote, .state, .validations]]' "$TB_DIR/srv.json")"
[ "$(jq .engine.paths_learned "$TB_DIR/srv.json")" = 3 ] || fail "srv learned $(jq .engine.paths_learned "$TB_DIR/srv.json") paths, want 3"
[ "$(mp_path_field cli 1 state)" = active ] || fail "cli path 1 is $(mp_path_field cli 1 state) after the rebinding"
echo "ok: NAT rebinding of path 1 mid-transfer: sha256 matches, new tuple learned and validated"

# 2 + 3. capture a real data packet arriving at srv on path 1, replay it from other namespaces, and spoof it
(tb_exec "$TB_SRV" python3 "$(dirname "$0")/mp_capture.py" s1 1194 1000 "$TB_DIR/pkt" 10) &
cap=$!
sleep 0.3
tb_exec "$TB_CLI" ping -c 20 -i 0.05 -s 1200 -q 10.200.0.1 >/dev/null
wait "$cap" || fail "no data packet captured on s1"
python3 - "$TB_DIR/pkt" "$TB_DIR/pkt-bad" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[40] ^= 0x01  # a ciphertext byte (after opcode, peer-id, packet-id and tag)
open(sys.argv[2], "wb").write(d)
PY
mp_refresh srv
learned0=$(jq .engine.paths_learned "$TB_DIR/srv.json")
npaths0=$(jq '.paths | length' "$TB_DIR/srv.json")
replays0=$(jq .tunnel.replays "$TB_DIR/srv.json")
auth0=$(jq .tunnel.auth_failures "$TB_DIR/srv.json")
send() { # NS FILE DST COUNT
	tb_exec "$1" python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
d = open(sys.argv[1], "rb").read()
for _ in range(int(sys.argv[3])): s.sendto(d, (sys.argv[2], 1194))' "$2" "$3" "$4"
}
send "$R1" "$TB_DIR/pkt" "$(tb_srv_addr 1)" 10
send "${TB_R[2]}" "$TB_DIR/pkt" "$(tb_srv_addr 2)" 10
send "$R1" "$TB_DIR/pkt-bad" "$(tb_srv_addr 1)" 10
send "${TB_R[2]}" "$TB_DIR/pkt-bad" "$(tb_srv_addr 2)" 10
sleep 0.3
mp_refresh srv
learned1=$(jq .engine.paths_learned "$TB_DIR/srv.json")
npaths1=$(jq '.paths | length' "$TB_DIR/srv.json")
replays1=$(jq .tunnel.replays "$TB_DIR/srv.json")
auth1=$(jq .tunnel.auth_failures "$TB_DIR/srv.json")
[ "$learned1" = "$learned0" ] || fail "replayed/spoofed packets added paths: learned $learned0 -> $learned1"
[ "$npaths1" = "$npaths0" ] || fail "replayed/spoofed packets changed the path table: $npaths0 -> $npaths1"
[ $((replays1 - replays0)) -ge 20 ] || fail "replays counted $((replays1 - replays0)), want >= 20"
[ $((auth1 - auth0)) = 20 ] || fail "auth failures counted $((auth1 - auth0)), want 20"
jq -e '[.paths[] | select(.remote | test("10\\.[12]\\.2\\.1:[0-9]+$") and (test(":4000[01]$") | not))] | length == 0' \
	"$TB_DIR/srv.json" >/dev/null || fail "a path from a router address appeared"
tb_exec "$TB_CLI" ping -c3 -i0.2 -W2 -q 10.200.0.1 >/dev/null || fail "tunnel broken after the replays"
echo "ok: 20 replayed packets from 2 other sources: $((replays1 - replays0)) replays counted, 20 spoofed: 20 auth failures, paths learned stays $learned1"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
kill "$MP_HTTP_PID"
