#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The control surface in the TLS client and the gateway (docs/control-protocol.md): a braidd gateway with
# `multipath on` and `control-socket`, a braidd client with 2 mp-path lines and its own `control-socket`,
# and a stock openvpn client.
#  1. client: status (role, state, remote, proto, cipher, multipath, 2 active paths, counters), the status
#     and paths tables, paths --json; gateway commands are refused;
#  2. client: `set path 1 backup` -> the status shows path 1 standby + backup, the log says so; active again;
#  3. gateway: status (counters, one object per client: CN, real address, virtual address, braid-mp with
#     2 paths / stock with 1), `clients` table, `paths CN` per client, `set client CN path 0 cap 5` on the
#     multipath client's engine, `set` without a client and on the stock client refused;
#  4. gateway: `kill client1` -> "killed 1", the gateway log says it was removed by the control socket, the
#     client is told RESTART and reconnects (listed again with a new ID, 2 paths); `kill` of nobody refused.
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

tm_gateway gw "multipath on" "control-socket $GS"
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
got=$(jq -r '[.version, .role, .state, .remote, .proto, .cipher, .multipath, .scheduler, (.paths | length),
	([.paths[] | select(.state == "active")] | length)] | map(tostring) | join(" ")' <<<"$js")
[ "$got" = "1 client up [AF_INET]$SRV:1194 udp AES-256-GCM true edf 2 2" ] || fail "client status: '$got' from $js"
[ "$(jq '.tunnel.tun_write_bytes > 0 and .tunnel.link_rx_bytes > 0 and .tunnel.pings_tx >= 0' <<<"$js")" = true ] ||
	fail "client status counters: $(jq -c .tunnel <<<"$js")"
[ "$(jq -r '[.paths[].local] | sort | join(" ")' <<<"$js")" = "[AF_INET]$(tb_cli_addr 1):0 [AF_INET]$(tb_cli_addr 2):0" ] ||
	[ "$(jq -r '[.paths[].local | sub(":[0-9]+$"; "")] | sort | join(" ")' <<<"$js")" = "[AF_INET]$(tb_cli_addr 1) [AF_INET]$(tb_cli_addr 2)" ] ||
	fail "client paths' local addresses: $(jq -c '[.paths[].local]' <<<"$js")"
cctl status >"$TB_DIR/cstatus.txt" || fail "client: braidctl status failed"
grep -qx "client: up" "$TB_DIR/cstatus.txt" && grep -qx "  remote: $SRV:1194 (udp)" "$TB_DIR/cstatus.txt" &&
	grep -qx "  cipher: AES-256-GCM" "$TB_DIR/cstatus.txt" && grep -qx "tunnel: multipath" "$TB_DIR/cstatus.txt" ||
	{ cat "$TB_DIR/cstatus.txt" >&2; fail "client status table header"; }
[ "$(grep -cE "^[01] +10\.[12]\.1\.2:[0-9]+ +$SRV:1194 +active " "$TB_DIR/cstatus.txt")" = 2 ] ||
	{ cat "$TB_DIR/cstatus.txt" >&2; fail "client status table: want 2 active paths"; }
[ "$(cctl paths | grep -cE "^[01] +10\.[12]\.1\.2:[0-9]+ +$SRV:1194 +active ")" = 2 ] || fail "client paths table: $(cctl paths)"
[ "$(cctl paths --json | jq -c '[.paths[].index] | sort')" = "[0,1]" ] || fail "client paths --json: $(cctl paths --json)"
expect_err 1 "braidctl: braidd: clients: no clients here (not a gateway)" cctl clients
expect_err 1 "braidctl: braidd: kill: no clients here (not a gateway)" cctl kill client1
expect_err 1 "braidctl: braidd: paths: no clients here (not a gateway)" cctl paths client1
expect_err 2 "braidctl: kill: missing the client" gctl kill
echo "ok: client status: up, remote $SRV:1194, AES-256-GCM, multipath with 2 active paths; gateway commands refused"

# 2. set a path backup on the client
pstate() { cctl status --json | jq -r ".paths[] | select(.index == $1) | .state"; }
cctl set path 1 backup || fail "client: set path 1 backup"
[ "$(pstate 1)" = standby ] || fail "client path 1 is $(pstate 1) after backup, want standby"
[ "$(cctl status --json | jq -c '[.paths[] | {index, backup}] | sort_by(.index)')" = '[{"index":0,"backup":false},{"index":1,"backup":true}]' ] ||
	fail "client backup flags: $(cctl status --json | jq -c '[.paths[] | {index, backup}]')"
grep -q "control: path 1 .* -> .*: backup$" "$TB_DIR/cli.log" || fail "client log has no 'control: path 1 ... backup'"
cctl set path 1 active || fail "client: set path 1 active"
[ "$(pstate 1)" = active ] || fail "client path 1 is $(pstate 1) after active, want active"
echo "ok: client set path 1 backup -> standby + backup flag, active again"

# 3. the gateway
js=$(gctl status --json) || fail "gateway: status --json failed"
[ "$(jq -r '[.version, .role, .proto, .gateway.clients, (.clients | length)] | map(tostring) | join(" ")' <<<"$js")" = "1 gateway udp 2 2" ] ||
	fail "gateway status: $js"
c1=$(jq -c '.clients[] | select(.cn == "client1")' <<<"$js")
c2=$(jq -c '.clients[] | select(.cn == "client2")' <<<"$js")
[ "$(jq -r '[.state, .kind, .paths, .cipher, (.real | startswith("'"$(tb_cli_addr 1)"':") or startswith("'"$(tb_cli_addr 2)"':")),
	(.virtual | startswith("10.8.0.")), (.rx_bytes > 0), (.since > 0)] | map(tostring) | join(" ")' <<<"$c1")" = \
	"active braid-mp 2 AES-256-GCM true true true true" ] || fail "gateway: client1 object: $c1"
[ "$(jq -r '[.state, .kind, .paths, (.real | startswith("'"$TB_APP_ADDR"':")), (.virtual | startswith("10.8.0."))] | map(tostring) | join(" ")' <<<"$c2")" = \
	"active stock 1 true true" ] || fail "gateway: client2 object: $c2"
id1=$(jq .id <<<"$c1")
[ "$(gctl clients --json | jq -c '[.clients[] | .cn] | sort')" = '["client1","client2"]' ] || fail "gateway clients --json"
gctl clients >"$TB_DIR/clients.txt" || fail "gateway: braidctl clients failed"
grep -qE "^$id1 +client1 +10\.[12]\.1\.2:[0-9]+ +10\.8\.0\.[0-9]+ +active +braid-mp +2 " "$TB_DIR/clients.txt" &&
	grep -qE "^[0-9]+ +client2 +10\.9\.0\.2:[0-9]+ +10\.8\.0\.[0-9]+ +active +stock +1 " "$TB_DIR/clients.txt" ||
	{ cat "$TB_DIR/clients.txt" >&2; fail "gateway clients table"; }
gctl status | grep -qx "gateway: 2 client(s) (max 1024), udp" || fail "gateway status table: $(gctl status)"
[ "$(gctl paths client1 --json | jq -r '[.cn, (.paths | length), ([.paths[] | select(.state == "active")] | length)] | map(tostring) | join(" ")')" = "client1 2 2" ] ||
	fail "gateway paths client1: $(gctl paths client1 --json)"
[ "$(gctl paths "$id1" --json | jq -r .cn)" = client1 ] || fail "gateway paths by ID $id1"
[ "$(gctl paths client2 --json | jq -r '[(.paths | length), (.paths[0].remote | startswith("[AF_INET]'"$TB_APP_ADDR"':"))] | map(tostring) | join(" ")')" = "1 true" ] ||
	fail "gateway paths client2: $(gctl paths client2 --json)"
[ "$(gctl paths --json | jq -c '[.clients[] | {cn, n: (.paths | length)}] | sort_by(.cn)')" = '[{"cn":"client1","n":2},{"cn":"client2","n":1}]' ] ||
	fail "gateway paths (all): $(gctl paths --json)"
gctl set client client1 path 0 cap 5 || fail "gateway: set client client1 path 0 cap 5"
[ "$(gctl paths client1 --json | jq '.paths[] | select(.index == 0) | .cap_mbit')" = 5 ] || fail "gateway: client1 path 0 cap not 5"
grep -q "control: client client1: path 0 .*, capped$" "$TB_DIR/gw.log" || fail "gateway log has no cap line"
gctl set client client1 path 0 nocap || fail "gateway: nocap"
expect_err 1 "braidctl: braidd: set: this is a gateway: name the client (set client CN|ID ...)" gctl set scheduler edf
expect_err 1 "braidctl: braidd: set client: 'client2' is not a multipath client" gctl set client client2 path 0 backup
expect_err 1 "braidctl: braidd: set client: no client 'nobody'" gctl set client nobody scheduler edf
echo "ok: gateway status/clients/paths: client1 braid-mp 2 paths, client2 stock 1 path; set client cap 5"

# 4. kill
out=$(gctl kill client1) || fail "gateway: kill client1"
[ "$out" = "killed 1" ] || fail "kill client1 printed '$out'"
grep -q "^.*client1/.*: client removed (peer-id [0-9]*): killed by the control socket$" "$TB_DIR/gw.log" ||
	fail "gateway log has no 'client removed ... killed by the control socket'"
bd_wait_log cli "server sent RESTART" 5 || fail "client was not told RESTART"
for _ in $(seq 1 300); do [ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" -ge 2 ] && break; sleep 0.05; done
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" -ge 2 ] || fail "client did not reconnect after kill"
tm_wait_active cli 2 15 || fail "client paths not active after reconnect"
c1=$(gctl clients --json | jq -c '.clients[] | select(.cn == "client1")')
[ -n "$c1" ] && [ "$(jq .id <<<"$c1")" != "$id1" ] || fail "client1 not listed again with a new ID: $c1"
[ "$(cctl status --json | jq -r '[.state, (.paths | length), .tunnel.restarts] | map(tostring) | join(" ")')" = "up 2 1" ] ||
	fail "client after reconnect: $(cctl status --json | jq -c '[.state, (.paths | length), .tunnel.restarts]')"
expect_err 1 "braidctl: braidd: kill: no client 'nobody'" gctl kill nobody
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client: no ping after reconnect"
echo "ok: kill client1: removed (logged), RESTART, reconnected with a new ID (was $id1), 2 paths active"

kill -TERM "$STOCK_PID"; wait "$STOCK_PID" 2>/dev/null
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
[ ! -e "$CS" ] && [ ! -e "$GS" ] || fail "control sockets not removed at exit"
echo "ok: control surface of the TLS client and the gateway"
