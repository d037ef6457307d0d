#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidctl on the management interface of the TLS client and the gateway (docs/man/braidctl.8): a braidd
# gateway with `multipath on`, `control-socket` and a TCP `management` listener with a password file, a braidd
# client with 2 mp-path lines and its own `control-socket`, and a stock openvpn client.
#  1. client: status (state CONNECTED, remote, 2 paths up, counters), the status and paths tables,
#     paths --json; the gateway commands are refused with exact messages;
#  2. client: `set path 1 backup` -> path 1 flagged backup (and logged), active again;
#  3. gateway: status (counters, one object per client: CN, real and virtual address, braid true with 2 paths
#     / false with 1), `clients` table, `paths CN` per client and of all clients, `set client CN path 0 cap 5`
#     on the multipath client's engine, `set` without a client and on the stock client refused; the same
#     over --tcp with the password file; no password and a wrong one refused (exit 1);
#  4. gateway: `kill client1` -> "killed 1", the gateway log says it was removed by the management interface,
#     the client is told RESTART and reconnects (listed again with a new ID, 2 paths); `kill` of nobody refused.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
BRAIDCTL=${BRAIDCTL:-$BRAID_BIN_DIR/braidctl}
[ -x "$BRAIDCTL" ] || { echo "FAIL: braidctl not built ($BRAIDCTL)" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
TM_BLOB_BYTES=1048576 tm_setup 2
GS=$TB_DIR/gw.sock CS=$TB_DIR/cli.sock
gctl() { "$BRAIDCTL" -s "$GS" "$@"; }
cctl() { "$BRAIDCTL" -s "$CS" "$@"; }
# expect_err CODE STDERR-LINE CMD...: exit code and first stderr line exactly
expect_err() {
	local want_rc=$1 want=$2 rc out
	shift 2
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = "$want_rc" ] && [ "$(head -n1 <<<"$out")" = "$want" ] || fail "$*: exit $rc '$out', want $want_rc '$want'"
}
SRV=$(tb_srv_addr 1)
echo "s3cret pw" >"$TB_DIR/mgmt.pw"
echo "wrong" >"$TB_DIR/bad.pw"

tm_gateway gw "multipath on" "control-socket $GS" "management 127.0.0.1 7505 $TB_DIR/mgmt.pw"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}" "control-socket $CS"
cat >"$TB_DIR/stock.conf" <<EOC
client
dev tun
proto udp
remote $SRV 1194
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
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client: no ping"
tb_wait_ping "$TB_APP" "$TM_GW_TUN" 10 || fail "stock client: no ping"
[ "$(stat -c %a "$CS")" = 600 ] && [ "$(stat -c %a "$GS")" = 600 ] || fail "control sockets not 0600"

# 1. the client's status
js=$(cctl status --json) || fail "client: status --json failed"
got=$(jq -r '[.role, .state.name, .state.remote, .state.remote_port, (.state.tun4 | startswith("10.8.0.")), (.paths | length),
	([.paths[] | select(.state == "up")] | length), (.tunnel.tun_write_bytes > 0), (.tunnel.link_read_bytes > 0)] | map(tostring) | join(" ")' <<<"$js")
[ "$got" = "tunnel CONNECTED $SRV 1194 true 2 2 true true" ] || fail "client status: '$got' from $js"
[ "$(jq -r '[.paths[].local | sub(":[0-9]+$"; "")] | sort | join(" ")' <<<"$js")" = "$(tb_cli_addr 1) $(tb_cli_addr 2)" ] ||
	fail "client paths' local addresses: $(jq -c '[.paths[].local]' <<<"$js")"
cctl status >"$TB_DIR/cstatus.txt" || fail "client: braidctl status failed"
grep -qE "^tunnel: CONNECTED \(SUCCESS\) since " "$TB_DIR/cstatus.txt" && grep -qx "  remote: $SRV:1194" "$TB_DIR/cstatus.txt" &&
	grep -qE "^  tunnel address: 10\.8\.0\.[0-9]+" "$TB_DIR/cstatus.txt" || { cat "$TB_DIR/cstatus.txt" >&2; fail "client status header"; }
[ "$(grep -cE "^[01] +c[12] +10\.[12]\.1\.2:[0-9]+ +$SRV:1194 +up " "$TB_DIR/cstatus.txt")" = 2 ] ||
	{ cat "$TB_DIR/cstatus.txt" >&2; fail "client status table: want 2 paths up"; }
[ "$(cctl paths | grep -cE "^[01] +c[12] +10\.[12]\.1\.2:[0-9]+ +$SRV:1194 +up ")" = 2 ] || fail "client paths table: $(cctl paths)"
[ "$(cctl paths --json | jq -c '[.paths[].id] | sort')" = "[0,1]" ] || fail "client paths --json: $(cctl paths --json)"
expect_err 1 "braidctl: $CS is not a gateway (no client list)" cctl clients
expect_err 1 "braidctl: braidd: The 'kill' command is not supported by the current daemon mode" cctl kill client1
expect_err 1 "braidctl: $CS is not a gateway (no client list)" cctl paths client1
expect_err 2 "braidctl: kill: missing the client" gctl kill
echo "ok: client status: CONNECTED, remote $SRV:1194, 2 paths up; gateway commands refused"

# 2. set a path backup on the client
pback() { cctl paths --json | jq -r ".paths[] | select(.id == $1) | .backup"; }
cctl set path 1 backup || fail "client: set path 1 backup"
[ "$(pback 1) $(pback 0)" = "true false" ] || fail "client backup flags: $(cctl paths --json)"
grep -q "MANAGEMENT: braid path 1 backup on (1 path)" "$TB_DIR/cli.log" || fail "client log has no 'braid path 1 backup on'"
cctl set path 1 active || fail "client: set path 1 active"
[ "$(pback 1)" = false ] || fail "client path 1 still backup after active"
echo "ok: client set path 1 backup -> backup flag, active again"

# 3. the gateway
js=$(gctl status --json) || fail "gateway: status --json failed"
[ "$(jq -r '[.role, .state.name, .load.nclients, (.clients | length)] | map(tostring) | join(" ")' <<<"$js")" = "gateway CONNECTED 2 2" ] ||
	fail "gateway status: $js"
c1=$(jq -c '.clients[] | select(.cn == "client1")' <<<"$js")
c2=$(jq -c '.clients[] | select(.cn == "client2")' <<<"$js")
[ "$(jq -r '[.braid, .paths, .paths_up, (.real | startswith("'"$(tb_cli_addr 1)"':") or startswith("'"$(tb_cli_addr 2)"':")),
	(.virtual | startswith("10.8.0.")), (.rx_bytes > 0), (.since > 0)] | map(tostring) | join(" ")' <<<"$c1")" = \
	"true 2 2 true true true true" ] || fail "gateway: client1 object: $c1"
[ "$(jq -r '[.braid, .paths, (.real | startswith("'"$TB_APP_ADDR"':")), (.virtual | startswith("10.8.0."))] | map(tostring) | join(" ")' <<<"$c2")" = \
	"false 1 true true" ] || fail "gateway: client2 object: $c2"
id1=$(jq .cid <<<"$c1")
[ "$(gctl clients --json | jq -c '[.clients[] | .cn] | sort')" = '["client1","client2"]' ] || fail "gateway clients --json"
gctl clients >"$TB_DIR/clients.txt" || fail "gateway: braidctl clients failed"
grep -qE "^$id1 +client1 +10\.[12]\.1\.2:[0-9]+ +10\.8\.0\.[0-9]+ +braid-mp +2 " "$TB_DIR/clients.txt" &&
	grep -qE "^[0-9]+ +client2 +10\.9\.0\.2:[0-9]+ +10\.8\.0\.[0-9]+ +stock +1 " "$TB_DIR/clients.txt" ||
	{ cat "$TB_DIR/clients.txt" >&2; fail "gateway clients table"; }
gctl status >"$TB_DIR/gstatus.txt" || fail "gateway: braidctl status"
grep -qE "^gateway: CONNECTED \(SUCCESS\) since " "$TB_DIR/gstatus.txt" && grep -qx "  clients: 2" "$TB_DIR/gstatus.txt" &&
	grep -qE "^$id1 +client1 " "$TB_DIR/gstatus.txt" || { cat "$TB_DIR/gstatus.txt" >&2; fail "gateway status table"; }
[ "$(gctl paths client1 --json | jq -r '[(.paths | length), ([.paths[] | select(.state == "up")] | length)] | map(tostring) | join(" ")')" = "2 2" ] ||
	fail "gateway paths client1: $(gctl paths client1 --json)"
[ "$(gctl paths "$id1" --json | jq '.paths | length')" = 2 ] || fail "gateway paths by ID $id1"
[ "$(gctl paths client2 --json | jq -r '[(.paths | length), (.paths[0].remote | startswith("'"$TB_APP_ADDR"':"))] | map(tostring) | join(" ")')" = "1 true" ] ||
	fail "gateway paths client2: $(gctl paths client2 --json)"
[ "$(gctl paths --json | jq -c '[.clients[] | {cn, n: (.paths | length)}] | sort_by(.cn)')" = '[{"cn":"client1","n":2},{"cn":"client2","n":1}]' ] ||
	fail "gateway paths (all): $(gctl paths --json)"
gctl paths | grep -qE "^client $id1 client1 " || fail "gateway paths (all) table: $(gctl paths)"
gctl set client client1 path 0 cap 5 || fail "gateway: set client client1 path 0 cap 5"
[ "$(gctl paths client1 --json | jq '.paths[] | select(.id == 0) | .cap_bps')" = 5000000 ] || fail "gateway: client1 path 0 cap not 5"
gctl set client client1 path 0 nocap || fail "gateway: nocap"
expect_err 1 "braidctl: braidd: braid scheduler: a gateway names the client: braid client-scheduler CID ..." gctl set scheduler edf
expect_err 1 "braidctl: braidd: braid path: client $(jq .cid <<<"$c2") is a single-path client" gctl set client client2 path 0 backup
expect_err 1 "braidctl: no client 'nobody' (braidctl clients lists them)" gctl set client nobody scheduler edf
# the TCP listener with its password
tctl() { tb_exec "$TB_SRV" "$BRAIDCTL" --tcp 127.0.0.1:7505 "$@"; }
[ "$(tctl -p "$TB_DIR/mgmt.pw" clients --json | jq -c '[.clients[] | .cn] | sort')" = '["client1","client2"]' ] ||
	fail "clients over --tcp with the password"
expect_err 1 "braidctl: 127.0.0.1:7505 asks for the management password: give it with --password-file FILE" tctl clients
expect_err 1 "braidctl: 127.0.0.1:7505 refused the password from $TB_DIR/bad.pw (ERROR: bad password)" tctl -p "$TB_DIR/bad.pw" clients
expect_err 1 "braidctl: cannot connect to 127.0.0.1:7506: Connection refused (is braidd running with 'management 127.0.0.1 7506'?)" \
	tb_exec "$TB_SRV" "$BRAIDCTL" --tcp 127.0.0.1:7506 status
echo "ok: gateway status/clients/paths: client1 braid-mp 2 paths, client2 stock 1 path; set client cap 5; --tcp with password"

# 4. kill
out=$(gctl kill client1) || fail "gateway: kill client1"
[ "$out" = "killed 1" ] || fail "kill client1 printed '$out'"
grep -q "^.*client1/.*: client removed (peer-id [0-9]*): killed by the management interface$" "$TB_DIR/gw.log" ||
	fail "gateway log has no 'client removed ... killed by the management interface'"
bd_wait_log cli "server sent RESTART" 5 || fail "client was not told RESTART"
for _ in $(seq 1 300); do [ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" -ge 2 ] && break; sleep 0.05; done
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" -ge 2 ] || fail "client did not reconnect after kill"
tm_wait_active cli 2 15 || fail "client paths not active after reconnect"
c1=$(gctl clients --json | jq -c '.clients[] | select(.cn == "client1")')
[ -n "$c1" ] && [ "$(jq .cid <<<"$c1")" != "$id1" ] || fail "client1 not listed again with a new ID: $c1"
[ "$(cctl status --json | jq -r '[.state.name, (.paths | length)] | map(tostring) | join(" ")')" = "CONNECTED 2" ] ||
	fail "client after reconnect: $(cctl status --json)"
out=$(gctl --json kill "$(jq .cid <<<"$c2")") || fail "gateway: kill by ID"
[ "$out" = '{"killed":1}' ] || fail "kill by ID printed '$out'"
expect_err 1 "braidctl: braidd: common name 'nobody' not found" gctl kill nobody
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client: no ping after reconnect"
echo "ok: kill client1: removed (logged), RESTART, reconnected with a new ID (was $id1), 2 paths up; kill by ID"

kill -TERM "$STOCK_PID"; wait "$STOCK_PID" 2>/dev/null
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
[ ! -e "$CS" ] && [ ! -e "$GS" ] || fail "control sockets not removed at exit"
echo "ok: braidctl on the management interface of the TLS client and the gateway"
