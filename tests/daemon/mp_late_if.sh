#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Paths whose address or interface is missing at start (the issue's "cannot open UDP socket ... Cannot assign
# requested address", exit 1): `mp-path c3 10.1.2.2 1194` names an interface that does not exist yet and
# `mp-path 10.2.1.9 10.1.2.2 1194` an address not configured yet; the client also has `mp-path c1`.
# Asserts: braidd starts and logs that it waits for both; the session runs on c1; the address 10.2.1.9 added to c2
# and the interface c3 plugged in (tb_if_add 3) turn their paths active without a restart and each carries bytes of
# a 16 MB download (sha256), `mp-cap c3 25` applies to c3's path (status cap_mbit); c3 unplugged (tb_if_del 3): its path goes down, a second download still works.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
tb_setup -n 2 --no-rules >/dev/null 2>&1 || fail "tb_setup --no-rules"
bd_keygen "$TB_DIR/key"
head -c 16777216 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
tb_tbf 1 30
tb_tbf 2 30

bd_conf srv "dev tun" "lport 1194" "secret $TB_DIR/key 0" "ifconfig 10.200.0.1 10.200.0.2" "verb 4" \
	"status $TB_DIR/srv.json 1" "mp-path 10.1.2.2"
bd_conf cli "dev tun" "nobind" "secret $TB_DIR/key 1" "ifconfig 10.200.0.2 10.200.0.1" "verb 4" \
	"status $TB_DIR/cli.json 1" "mp-path c1 10.1.2.2 1194" "mp-path c3 10.1.2.2 1194" \
	"mp-path 10.2.1.9 10.1.2.2 1194" "mp-cap c3 25"
bd_start srv "$TB_SRV"
bd_wait_log srv "Initialization Sequence Completed" || fail "srv did not start"
bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" || fail "cli did not start with a missing interface and address"
grep -q "waiting for an IPv4 address on c3" "$TB_DIR/cli.log" || fail "no 'waiting for ... c3' line"
grep -q "waiting for local address \[AF_INET\]10.2.1.9" "$TB_DIR/cli.log" || fail "no 'waiting for 10.2.1.9' line"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel on c1"
mp_wait_paths cli 1 active 10 || fail "cli: c1 path not active"

tb_exec "$TB_CLI" ip addr add 10.2.1.9/24 dev c2 || fail "ip addr add"
tb_if_add 3 || fail "tb_if_add 3"
tb_tbf 3 30
mp_wait_paths cli 3 active 10 || fail "cli: not 3 active paths: $(jq -c '[.paths[] | {dev, local, state, route}]' "$TB_DIR/cli.json")"
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "16 MB download sha256 $got, want $want"
mp_refresh cli
for d in c2 c3; do
	rx=$(jq --arg d "$d" '[.paths[] | select(.dev == $d) | .rx_bytes] | add // 0' "$TB_DIR/cli.json")
	echo "  $d: rx $rx B"
	[ "$rx" -gt 1000000 ] || fail "the late path on $d carried only $rx bytes"
done
[ "$(jq .tunnel.restarts "$TB_DIR/cli.json")" = 0 ] || fail "cli restarted"
[ "$(jq '[.paths[] | select(.dev == "c3") | .cap_mbit] | add' "$TB_DIR/cli.json")" = 25 ] ||
	fail "mp-cap c3 25 not on c3's path: $(jq -c '[.paths[] | {dev, cap_mbit}]' "$TB_DIR/cli.json")"

tb_if_del 3 || fail "tb_if_del 3"
bd_wait_log cli "an IPv4 address on c3 is down" 5 || fail "no 'c3 ... down' line"
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "download after c3 went: sha256 $got, want $want"
bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"
bd_stop srv || fail "srv exit code $? after SIGTERM, want 0"
kill "$MP_HTTP_PID" 2>/dev/null
echo "ok: a missing interface and a missing address at start: waited for, used once there (sha256), c3 removed"
