#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One IPv4 path and one IPv6 path in a single static-key multipath session, named by interface on a bed with no
# source routing: `mp-path c1 10.1.2.2 1194` (IPv4, from the remote's family) and `mp-path c2 fd0b:2:2::2 1194`
# (IPv6); the server listens on 10.1.2.2 and fd0b:2:2::2.
# Asserts: the client binds an IPv4 socket on c1 and an IPv6 one on c2; both paths active on both ends; a 16 MB
# download (sha256) has each path carry more than 2 MB (status) and each interface more than 15 % of the bytes
# (a path whose packets left by the other interface would leave its own near 0; the split itself follows the
# engine's view of the two links and was 27/73 once under ASan load).
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
tb_setup -n 2 --no-rules >/dev/null 2>&1 || fail "tb_setup --no-rules"
bd_keygen "$TB_DIR/key"
head -c 16777216 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
tb_tbf 1 50
tb_tbf 2 50

bd_conf srv "dev tun" "lport 1194" "secret $TB_DIR/key 0" "ifconfig 10.200.0.1 10.200.0.2" "verb 4" \
	"status $TB_DIR/srv.json 1" "mp-path 10.1.2.2" "mp-path fd0b:2:2::2"
bd_conf cli "dev tun" "nobind" "secret $TB_DIR/key 1" "ifconfig 10.200.0.2 10.200.0.1" "verb 4" \
	"status $TB_DIR/cli.json 1" "mp-path c1 10.1.2.2 1194" "mp-path c2 fd0b:2:2::2 1194"
bd_start srv "$TB_SRV"
bd_wait_log srv "Initialization Sequence Completed" || fail "srv did not start"
bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" || fail "cli did not start"
grep -q "UDPv4 socket bound to \[AF_INET\]10.1.1.2:[0-9]* on c1" "$TB_DIR/cli.log" || fail "no IPv4 socket on c1"
grep -q "UDPv6 socket bound to \[AF_INET6\]fd0b:2:1::2.*on c2" "$TB_DIR/cli.log" || fail "no IPv6 socket on c2"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
mp_wait_paths cli 2 active 10 || fail "cli: not both paths active: $(jq -c '[.paths[] | {dev, local, state, route}]' "$TB_DIR/cli.json")"
mp_wait_paths srv 2 active 10 || fail "srv: not both paths active: $(jq -c '[.paths[] | {remote, state}]' "$TB_DIR/srv.json")"
b1=$(tb_if_bytes "$TB_CLI" c1)
b2=$(tb_if_bytes "$TB_CLI" c2)
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "16 MB download sha256 $got, want $want"
d1=$(($(tb_if_bytes "$TB_CLI" c1) - b1))
d2=$(($(tb_if_bytes "$TB_CLI" c2) - b2))
total=$((d1 + d2))
mp_refresh cli
r4=$(jq '[.paths[] | select(.local | startswith("[AF_INET]")) | .rx_bytes] | add' "$TB_DIR/cli.json")
r6=$(jq '[.paths[] | select(.local | startswith("[AF_INET6]")) | .rx_bytes] | add' "$TB_DIR/cli.json")
echo "  IPv4 path rx $r4 B, IPv6 path rx $r6 B; c1 $d1 B, c2 $d2 B"
[ "${r4:-0}" -gt 2000000 ] && [ "${r6:-0}" -gt 2000000 ] || fail "a path carried too little: v4 $r4 B, v6 $r6 B"
[ $((100 * d1)) -gt $((15 * total)) ] && [ $((100 * d2)) -gt $((15 * total)) ] ||
	fail "interfaces: c1 $d1 B, c2 $d2 B of $total"
bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"
bd_stop srv || fail "srv exit code $? after SIGTERM, want 0"
kill "$MP_HTTP_PID" 2>/dev/null
echo "ok: one IPv4 and one IPv6 path in one session: sha256, v4 $r4 B, v6 $r6 B"
