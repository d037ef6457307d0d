#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The management interface's braid extension (docs/management.md "Braid extensions", the GUI's contract in
# gui/README.md) on a two-path TLS session: braidd client (mp-path c1, c2; management on a unix socket)
# -> braidd gateway (multipath on; management on a unix socket), plus one stock openvpn client.
#  1. client `braid paths`: 2 objects that keep the contract (mgmt_braid.py checks keys, types, ranges),
#     `braid paths text`: the header line, 2 rows, END;
#  2. events on: path 1 blackholed in the emulator during a ping stream -> a `down` event for it, within
#     2 s of the cut (measured and printed); restored -> `up`;
#  3. backup / cap / disable / enable / weight / scheduler: each seen in the next `braid paths` (weight
#     and backup also in the traffic share of a download), errors answered ERROR and counted;
#  4. path-remove / path-add at run time: `removed` event, the path back and up;
#  5. gateway: `braid clients` (the braid client: braid true, 2 paths up; the stock client: braid false,
#     1 path), `braid client-paths CID` for both, an unknown CID -> ERROR; `braid client-scheduler` and a
#     ratio weight 0 / 1 on the client's second path at the gateway, seen in the bytes of a download.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
MB() { python3 "$HERE/mgmt_braid.py" "$@"; }
TM_BLOB_BYTES=4194304 tm_setup 2
tb_emu_start 1 -r 40 -d 5 >/dev/null
tb_emu_start 2 -r 40 -d 5 >/dev/null
GS=$TB_DIR/gw.sock CS=$TB_DIR/cli.sock
tm_gateway gw "multipath on" "management $GS unix"
tm_client cli "mp-path $(tb_cli_addr 1)" "mp-path $(tb_cli_addr 2)" "management $CS unix" "mp-scheduler edf"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping"

# ---- 1. braid paths
# rtt_ms is null until a path answered within a whole interval (1 s): wait for both
for _ in $(seq 1 30); do
	P=$(MB "$CS" paths 2) || fail "braid paths: $P"
	[[ $P != *'"rtt_ms": null'* ]] && break
	sleep 0.1
done
echo "$P" | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert sorted(o["id"] for o in p) == [0, 1], p
assert all(o["state"] == "up" and not o["backup"] and o["cap_bps"] == 0 for o in p), p
assert all(o["rtt_ms"] is not None and o["rtt_ms"] > 0 for o in p), p
assert sorted(o["local"].split(":")[0] for o in p) == ["10.1.1.2", "10.2.1.2"], p
assert all(o["remote"] == "10.1.2.2:1194" for o in p), p
' || fail "braid paths objects: $P"
echo "ok: braid paths: 2 objects keep the contract: $P"
T=$(MB "$CS" cmd "braid paths text")
[ "$(sed -n 1p <<<"$T")" = "HEADER,BRAID_PATH,ID,IFNAME,LOCAL,REMOTE,STATE,BACKUP,RTT_MS,LOSS_PCT,TX_BPS,RX_BPS,TX_BYTES,RX_BYTES,SHARE_PCT,CAP_BPS,WEIGHT" ] ||
	fail "braid paths text header: $T"
[ "$(grep -c '^BRAID_PATH,[01],.*,up,' <<<"$T")" = 2 ] && [ "$(tail -n1 <<<"$T")" = END ] || fail "braid paths text: $T"
echo "ok: braid paths text: header, 2 rows, END"

# ---- 2. events: a cut path is down within 2 s
EV=$TB_DIR/events
: >"$EV"
MB "$CS" watch "$EV" 30 &	# a 30 s period: what comes sooner is the at-once event of a change
WATCH=$!
trap 'kill $WATCH 2>/dev/null; tb_cleanup' EXIT
for _ in $(seq 1 40); do [ "$(grep -c ' up ' "$EV")" -ge 2 ] && break; sleep 0.1; done
[ "$(grep -c ' up ' "$EV")" -ge 2 ] || fail "no periodic events: $(cat "$EV")"
tb_bg "$TB_CLI" ping -q -i 0.05 -w 30 "$TM_GW_TUN"
PING=$TB_LAST_PID
sleep 1
cut=$(date +%s.%N)
tb_blackhole 1
down=
for _ in $(seq 1 100); do
	down=$(awk -v t="$cut" '$1 >= t && $2 == "down" && index($0, "\"id\":0,") { print $1; exit }' "$EV")
	[ -n "$down" ] && break
	sleep 0.05
done
[ -n "$down" ] || fail "no down event for path 0 within 5 s of the cut: $(tail -n 5 "$EV")"
lat=$(awk -v a="$cut" -v b="$down" 'BEGIN { printf "%.3f", b - a }')
echo "measured: down event $lat s after the cut"
awk -v l="$lat" 'BEGIN { exit !(l <= 2.0) }' || fail "down event $lat s after the cut (> 2 s)"
rest=$(date +%s.%N)
tb_restore 1
up=
for _ in $(seq 1 200); do
	up=$(awk -v t="$rest" '$1 >= t && $2 == "up" && index($0, "\"id\":0,") { print $1; exit }' "$EV")
	[ -n "$up" ] && break
	sleep 0.05
done
[ -n "$up" ] || fail "no up event for path 0 within 10 s of the restore: $(tail -n 5 "$EV")"
kill "$PING" 2>/dev/null
grep -q INVALID "$EV" && fail "an event broke the contract: $(grep INVALID "$EV" | head -n 3)"
echo "ok: events: path 0 down $lat s after the cut, up $(awk -v a="$rest" -v b="$up" 'BEGIN { printf "%.3f", b - a }') s after the restore; $(wc -l <"$EV") events valid"

# ---- 3. changes
field() { MB "$CS" paths | python3 -c "import json,sys; print([o for o in json.load(sys.stdin) if o['id'] == $1][0]['$2'])"; }
expect() { # CMD WANT
	local got
	got=$(MB "$CS" cmd "$1")
	[ "$got" = "$2" ] || fail "'$1' answered '$got', want '$2'"
}
expect "braid path $(tb_cli_addr 2) backup on" "SUCCESS: braid path $(tb_cli_addr 2) updated"
[ "$(field 1 backup)" = True ] || fail "path 1 not backup after 'backup on'"
for _ in $(seq 1 20); do grep -q '"id":1,.*"backup":true' "$EV" && break; sleep 0.1; done
grep -q '"id":1,.*"backup":true' "$EV" || fail "no event for the backup change"
# traffic share: a download goes on path 0 only while path 1 is backup
b0=$(field 1 rx_bytes)
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download with path 1 backup: sha256"
b1=$(field 1 rx_bytes)
echo "path 1 (backup) received $((b1 - b0)) bytes during a 4 MiB download"
[ $((b1 - b0)) -lt 400000 ] || fail "backup path 1 carried $((b1 - b0)) bytes of a 4 MiB download"
expect "braid path $(tb_cli_addr 2) backup off" "SUCCESS: braid path $(tb_cli_addr 2) updated"
[ "$(field 1 backup)" = False ] || fail "path 1 still backup after 'backup off'"
expect "braid path 1 cap 3000000" "SUCCESS: braid path 1 updated"
[ "$(field 1 cap_bps)" = 3000000 ] || fail "cap not shown: $(field 1 cap_bps)"
expect "braid path 1 cap 0" "SUCCESS: braid path 1 updated"
[ "$(field 1 cap_bps)" = 0 ] || fail "cap 0 not shown"
expect "braid path path1 disable" "SUCCESS: braid path path1 updated"
[ "$(field 1 state)" = disabled ] || fail "path 1 is $(field 1 state) after disable"
sleep 1.5
[ "$(field 1 state)" = disabled ] || fail "path 1 is $(field 1 state) 1.5 s after disable"
grep -q '"id":1,.*"state":"disabled"' "$EV" || fail "no disabled event"
expect "braid path path1 enable" "SUCCESS: braid path path1 updated"
for _ in $(seq 1 50); do [ "$(field 1 state)" = up ] && break; sleep 0.1; done
[ "$(field 1 state)" = up ] || fail "path 1 is $(field 1 state) after enable"
expect "braid path 1 weight 3" "ERROR: the scheduler is 'edf': a weight needs 'ratio' (braid scheduler ratio W0:W1...)"
expect 'braid scheduler "ratio 1:1"' "SUCCESS: braid scheduler set to ratio 1:1"
expect "braid path 1 weight 0" "SUCCESS: braid path 1 updated"
[ "$(field 1 weight)" = 0 ] && [ "$(field 0 weight)" = 1 ] || fail "weights not shown: $(MB "$CS" paths)"
b0=$(field 1 tx_bytes)
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download with weight 0: sha256"
b1=$(field 1 tx_bytes)
echo "path 1 (weight 0 at the client) sent $((b1 - b0)) bytes during a 4 MiB download"
[ $((b1 - b0)) -lt 400000 ] || fail "weight-0 path 1 carried $((b1 - b0)) bytes"
expect "braid scheduler edf" "SUCCESS: braid scheduler set to edf"
expect "braid scheduler fastest" "ERROR: braid scheduler: 'fastest' is not a scheduler (edf, rtt, ratio W0:W1... or ratio IF=W ..., mpip, lowest-rtt, backup, redundant)"
expect "braid path wlan9 backup on" "ERROR: no path wlan9"
expect "braid path 1 cap lots" "ERROR: braid path IF backup on|off | disable | enable | cap BPS (0..10^12) | weight W (0..1000000)"
expect "braid frobnicate" "ERROR: unknown braid command 'frobnicate', enter 'braid help'"
sleep 1.1	# the rejection log is rate-limited to a line a second per kind: this one is logged, with the count
expect "braid clients" "ERROR: braid clients: not a gateway"
grep -q 'braid command refused: braid clients: not a gateway (bad_arguments, 5 so far)' "$TB_DIR/cli.log" ||
	fail "refused commands not counted: $(grep 'so far' "$TB_DIR/cli.log" | tail -n 2)"
grep -q "unknown braid command 'frobnicate'.*(unknown_command, 1 so far)" "$TB_DIR/cli.log" || fail "unknown not counted"
echo "ok: backup, cap, disable/enable, weight, scheduler applied and shown; 6 refused commands counted"

# ---- 4. path-remove / path-add
expect "braid path-remove $(tb_cli_addr 2)" "SUCCESS: braid path-remove $(tb_cli_addr 2) done"
for _ in $(seq 1 30); do grep -q '"id":1,.*"state":"removed"' "$EV" && break; sleep 0.1; done
grep -q '"id":1,.*"state":"removed"' "$EV" || fail "no removed event: $(tail -n 4 "$EV")"
MB "$CS" paths 1 >/dev/null || fail "not 1 path after path-remove: $(MB "$CS" paths)"
expect "braid path-remove $(tb_cli_addr 1)" "ERROR: braid path-remove $(tb_cli_addr 1): it has the session's last paths"
expect "braid path-add $(tb_cli_addr 2)" "SUCCESS: braid path-add $(tb_cli_addr 2) done"
expect "braid path-add $(tb_cli_addr 2)" "ERROR: braid path-add $(tb_cli_addr 2): mp-path $(tb_cli_addr 2) is there already (braid path-remove it first)"
expect "braid path-add 10.1.1.2/24" "ERROR: braid path-add 10.1.1.2/24: command line: option 'mp-path': local address '10.1.1.2/24' is neither a numeric IPv4 or IPv6 address nor an interface name (1..15 characters, no '/' or ':')"
expect "braid path-add $(tb_cli_addr 1) 10.9.9.9" "ERROR: braid path-add $(tb_cli_addr 1): a TLS client's paths go to the server it connected to: give only the local address"
tm_wait_active cli 2 10 || fail "the added path is not active: $(tm_status cli)"
MB "$CS" paths 2 >/dev/null || fail "not 2 paths after path-add"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download after path-add: sha256"
echo "ok: path-remove (removed event, the last path refused), path-add (up again, download sha256 matches)"

# ---- 5. gateway: braid clients with a braid client and a stock one
bd_conf stock "client" "dev tun" "dev-type tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client2.crt" "key $TB_DIR/pki/client2.key" \
	"remote-cert-tls server" "tls-auth $TB_DIR/pki/ta.key 1" "verb 3" "ifconfig-noexec" "route-noexec"
: >"$TB_DIR/stock.log"
tb_bg "$TB_CLI" openvpn --config "$TB_DIR/stock.conf" --log "$TB_DIR/stock.log"
STOCK=$TB_LAST_PID
for _ in $(seq 1 100); do grep -q "Initialization Sequence Completed" "$TB_DIR/stock.log" && break; sleep 0.1; done
grep -q "Initialization Sequence Completed" "$TB_DIR/stock.log" || fail "stock client did not connect"
C=$(MB "$GS" cmd "braid clients")
echo "$C" | python3 -c '
import json, sys
ls = sys.stdin.read().strip().split("\n")
assert ls[-1] == "END", ls
c = {o["cn"]: o for o in map(json.loads, ls[:-1])}
assert set(c) == {"client1", "client2"}, c
# the path removed and added again at the client is a new path; the old one lingers (down) at the gateway
assert c["client1"]["braid"] is True and c["client1"]["paths"] >= 2 and c["client1"]["paths_up"] == 2, c
assert c["client2"]["braid"] is False and c["client2"]["paths"] == 1 and c["client2"]["paths_up"] == 1, c
assert all(isinstance(o["cid"], int) for o in c.values()), c
open(sys.argv[1], "w").write("%d %d" % (c["client1"]["cid"], c["client2"]["cid"]))
' "$TB_DIR/cids" || fail "braid clients: $C"
read -r cid1 cid2 <"$TB_DIR/cids"
for cid in "$cid1" "$cid2"; do
	R=$(MB "$GS" cmd "braid client-paths $cid")
	[ "$(tail -n1 <<<"$R")" = END ] || fail "client-paths $cid: $R"
	n=0
	while read -r ln; do
		[ "$ln" = END ] && break
		MB check "$ln" >/dev/null || fail "client-paths $cid: $(MB check "$ln"): $ln"
		n=$((n + 1))
	done <<<"$R"
	if [ "$cid" = "$cid2" ]; then [ "$n" = 1 ]; else [ "$n" -ge 2 ]; fi || fail "client-paths $cid: $n paths: $R"
done
expect_gw() { local got; got=$(MB "$GS" cmd "$1"); [ "$got" = "$2" ] || fail "gw '$1' answered '$got', want '$2'"; }
expect_gw "braid client-paths 999" "ERROR: no client 999"
# the ratio weight at the gateway, on the download's direction: client1's path from 10.2.1.2 gets weight 0
gp=$(MB "$GS" cmd "braid client-paths $cid1" | python3 -c '
import json, sys
print([o["id"] for o in map(json.loads, sys.stdin.read().split("\n")[:-2]) if o["remote"].startswith("10.2.1.2:") and o["state"] == "up"][0])') ||
	fail "no up gateway path from 10.2.1.2: $(MB "$GS" cmd "braid client-paths $cid1")"
expect_gw "braid client-scheduler $cid1 ratio 1:1" "SUCCESS: braid scheduler set to ratio 1:1"
expect_gw "braid client-path $cid1 $gp weight 0" "SUCCESS: braid path $gp updated"
lfield() { MB "$CS" paths | python3 -c "import json,sys; print([o for o in json.load(sys.stdin) if o['local'].startswith('$1:')][0]['$2'])"; }
b0=$(lfield 10.2.1.2 rx_bytes) a0=$(lfield 10.1.1.2 rx_bytes)
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download with gateway weight 0: sha256"
b1=$(lfield 10.2.1.2 rx_bytes) a1=$(lfield 10.1.1.2 rx_bytes)
echo "gateway weight 0 on the path to 10.2.1.2: it carried $((b1 - b0)) bytes of a 4 MiB download, the other $((a1 - a0))"
[ $((b1 - b0)) -lt 400000 ] && [ $((a1 - a0)) -gt 4000000 ] || fail "weight 0 not followed: $((b1 - b0)) / $((a1 - a0)) bytes"
expect_gw "braid client-path $cid1 $gp weight 1" "SUCCESS: braid path $gp updated"
b0=$(lfield 10.2.1.2 rx_bytes)
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download with gateway weights 1:1: sha256"
b1=$(lfield 10.2.1.2 rx_bytes)
echo "gateway weights 1:1: the path to 10.2.1.2 carried $((b1 - b0)) bytes of a 4 MiB download"
[ $((b1 - b0)) -gt 1000000 ] || fail "weight 1 not followed: $((b1 - b0)) bytes"
expect_gw "braid client-path $cid1 $gp backup on" "SUCCESS: braid path $gp updated"
expect_gw "braid client-path $cid2 0 backup on" "ERROR: braid path: client $cid2 is a single-path client"
expect_gw "braid paths on 0" "ERROR: braid paths on N: N is 1..86400 seconds"
echo "ok: gateway: braid clients (client1 braid 2 paths up, client2 stock 1 path), client-paths valid"
kill "$STOCK" 2>/dev/null
kill "$WATCH" 2>/dev/null
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: all"
