#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Paths named by interface on a bed with no source policy routing (tb_setup --no-rules: one default route per
# interface, metric 100/200, as DHCP leaves it; the kernel alone sends everything out c1). Client `mp-path c1` and
# `mp-path c2` to one server address: each socket is bound to its interface, so both links carry the session.
# c2's default route is missing at start: braidd says so (log, status route_ok false, "no route via c2") and
# path 2 comes up once the route is added, without a restart; `braidctl status` flags it under the table, then not
# (the path object of `braid paths` carries route_ok false and the route while the check flags it).
# Asserts: the bed really has no source routing (ip route get from c2's address says c1); both paths active with
# dev c1/c2 and route_ok in the status file; a 16 MB download through the tunnel has the right sha256; the
# interface byte counters of c1 and c2 each carry more than 30 % of the bytes of both (equal 50 Mbit/s links).
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

dev=$(tb_exec "$TB_CLI" ip -o route get 10.1.2.2 from 10.2.1.2 | sed -n 's/.* dev \([^ ]*\).*/\1/p')
[ "$dev" = c1 ] || fail "bed: a packet from c2's address to 10.1.2.2 leaves via '$dev', want c1 (no source routing)"
[ -z "$(tb_exec "$TB_CLI" ip rule | grep -v -e 'lookup local' -e 'lookup main' -e 'lookup default')" ] ||
	fail "bed: ip rules left: $(tb_exec "$TB_CLI" ip rule)"

tb_exec "$TB_CLI" ip route del default via 10.2.1.1 dev c2 || fail "cannot remove c2's default route"

bd_conf srv "dev tun" "lport 1194" "secret $TB_DIR/key 0" "ifconfig 10.200.0.1 10.200.0.2" "verb 4" \
	"status $TB_DIR/srv.json 1" "mp-path 10.1.2.2"
bd_conf cli "dev tun" "nobind" "secret $TB_DIR/key 1" "ifconfig 10.200.0.2 10.200.0.1" "verb 4" \
	"status $TB_DIR/cli.json 1" "mp-path c1 10.1.2.2 1194" "mp-path c2 10.1.2.2 1194" \
	"control-socket $TB_DIR/cli.sock"
bd_start srv "$TB_SRV"
bd_wait_log srv "Initialization Sequence Completed" || fail "srv did not start"
bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" || fail "cli did not start"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
bd_wait_log cli "no route via c2" 5 || fail "no 'no route via c2' warning while c2 has no route"
mp_refresh cli
[ "$(jq '[.paths[] | select(.dev == "c2" and .route_ok == false)] | length' "$TB_DIR/cli.json")" = 1 ] ||
	fail "status: c2 path not flagged: $(jq -c '[.paths[] | {dev, route, route_ok, state}]' "$TB_DIR/cli.json")"
"$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/cli.sock" status >"$TB_DIR/table.txt" || fail "braidctl status"
grep -qE '^! path [0-9] \(c2\): no route via c2 \(.*\): its packets do not leave through c2$' "$TB_DIR/table.txt" ||
	fail "braidctl status does not flag c2: $(cat "$TB_DIR/table.txt")"
tb_exec "$TB_CLI" ip route add default via 10.2.1.1 dev c2 metric 200 || fail "cannot add c2's default route"
mp_wait_paths cli 2 active 10 || fail "cli: not both paths active: $(jq -c '[.paths[] | {dev, state, route}]' "$TB_DIR/cli.json")"
[ "$(jq -r '[.paths[].dev] | sort | join(",")' "$TB_DIR/cli.json")" = "c1,c2" ] ||
	fail "cli: path devices $(jq -c '[.paths[].dev]' "$TB_DIR/cli.json"), want c1,c2"
[ "$(jq '[.paths[] | select(.route_ok)] | length' "$TB_DIR/cli.json")" = 2 ] ||
	fail "cli: route check: $(jq -c '[.paths[] | {dev, route, route_ok}]' "$TB_DIR/cli.json")"
grep -q "socket bound to \[AF_INET\]10.2.1.2:[0-9]* on c2" "$TB_DIR/cli.log" || fail "no 'bound ... on c2' log line"
"$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/cli.sock" status >"$TB_DIR/table.txt" || fail "braidctl status"
! grep -q '^! path' "$TB_DIR/table.txt" || fail "braidctl status still flags a path: $(cat "$TB_DIR/table.txt")"

b1=$(tb_if_bytes "$TB_CLI" c1)
b2=$(tb_if_bytes "$TB_CLI" c2)
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "16 MB download sha256 $got, want $want"
d1=$(($(tb_if_bytes "$TB_CLI" c1) - b1))
d2=$(($(tb_if_bytes "$TB_CLI" c2) - b2))
total=$((d1 + d2))
echo "  c1 $d1 B, c2 $d2 B ($((100 * d1 / total)) % / $((100 * d2 / total)) %)"
[ $((100 * d1)) -gt $((30 * total)) ] || fail "c1 carried $d1 of $total bytes (<= 30 %)"
[ $((100 * d2)) -gt $((30 * total)) ] || fail "c2 carried $d2 of $total bytes (<= 30 %)"
bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"
bd_stop srv || fail "srv exit code $? after SIGTERM, want 0"
kill "$MP_HTTP_PID" 2>/dev/null
echo "ok: interface-named paths on a bed without ip rules: sha256, c1 $d1 B / c2 $d2 B"
