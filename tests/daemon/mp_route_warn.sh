#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The "leaves via another interface" warning (issue 10 part 2): a client path whose packets would leave through
# another interface than the one it names. It happens only when braidd can bind the socket neither to its
# device (SO_BINDTODEVICE) nor its sends (IP_UNICAST_IF): BRAID_TEST_NO_DEVBIND=1 (test only, docs/braidd.md)
# stands for a host that refuses both. Bed without source policy routing (tb_setup --no-rules: a default route
# per interface, c1 metric 100, c2 200): `ip route get 10.1.2.2 from 10.2.1.2` says c1.
# Asserts: exactly one warning line "path N (c2 ...): leaves via c1, not c2: its packets do not take the path's
# interface", still one after more route checks (address events on the client make braidd scan its paths
# again: rate-limited to one line per change of the route); the status file flags the c2 path (route
# "leaves via c1, not c2", route_ok false, route_warnings 1) and not the c1 path (route_ok, 0 warnings); the
# warning is true: during a 4 MB upload through the tunnel c2 sends (almost) nothing, c1 carries it; sha256 ok.
# Then the knob's own line is checked and, as a control, the same bed without the knob binds c2 and warns not.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
tb_setup -n 2 --no-rules >/dev/null 2>&1 || fail "tb_setup --no-rules"
bd_keygen "$TB_DIR/key"
head -c 4194304 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
dev=$(tb_exec "$TB_CLI" ip -o route get 10.1.2.2 from 10.2.1.2 | sed -n 's/.* dev \([^ ]*\).*/\1/p')
[ "$dev" = c1 ] || fail "bed: a packet from c2's address to 10.1.2.2 leaves via '$dev', want c1"

bd_conf srv "dev tun" "lport 1194" "secret $TB_DIR/key 0" "ifconfig 10.200.0.1 10.200.0.2" "verb 4" \
	"status $TB_DIR/srv.json 1" "mp-path 10.1.2.2"
cli_conf() {
	bd_conf cli "dev tun" "nobind" "secret $TB_DIR/key 1" "ifconfig 10.200.0.2 10.200.0.1" "verb 4" \
		"status $TB_DIR/cli.json 1" "mp-path c1 10.1.2.2 1194" "mp-path c2 10.1.2.2 1194"
}
cli_conf
bd_start srv "$TB_SRV"
bd_wait_log srv "Initialization Sequence Completed" || fail "srv did not start"
BRAID_TEST_NO_DEVBIND=1 bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" || fail "cli did not start"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
bd_wait_log cli "leaves via c1, not c2" 5 || fail "no 'leaves via c1, not c2' warning"
grep -q "BRAID_TEST_NO_DEVBIND=1: socket on c2 not bound to its interface (test only)" "$TB_DIR/cli.log" ||
	fail "no test-knob line for c2"
# more scans: address events on both client interfaces (braidd looks at every path's route again)
for k in 1 2 3; do
	tb_exec "$TB_CLI" ip addr add "10.1.1.$((50 + k))/24" dev c1
	tb_exec "$TB_CLI" ip addr add "10.2.1.$((50 + k))/24" dev c2
	sleep 0.3
done
sleep 1.2	# housekeeping runs too
pat="multipath: path [0-9] \(c2 \[AF_INET\]10\.2\.1\.2:[0-9]+ -> \[AF_INET\]10\.1\.2\.2:1194\): leaves via c1, not c2: its packets do not take the path's interface"
n=$(grep -cE "$pat" "$TB_DIR/cli.log")
[ "$n" = 1 ] || fail "the warning was logged $n times, want exactly once: $(grep 'leaves via' "$TB_DIR/cli.log")"
[ "$(grep -c 'leaves via' "$TB_DIR/cli.log")" = 1 ] || fail "another 'leaves via' line: $(grep 'leaves via' "$TB_DIR/cli.log")"
mp_refresh cli
sleep 0.2
c2=$(jq -c '[.paths[] | select(.dev == "c2")][0] | {route, route_ok, route_warnings}' "$TB_DIR/cli.json")
[ "$c2" = '{"route":"leaves via c1, not c2","route_ok":false,"route_warnings":1}' ] || fail "status c2 path: $c2"
c1=$(jq -c '[.paths[] | select(.dev == "c1")][0] | {route_ok, route_warnings}' "$TB_DIR/cli.json")
[ "$c1" = '{"route_ok":true,"route_warnings":0}' ] || fail "status c1 path: $c1"

# the warning is true: c2 carries (almost) nothing of an upload, c1 all of it
mp_up_start 9000 up.sum
tx1=$(tb_exec "$TB_CLI" cat /sys/class/net/c1/statistics/tx_bytes)
tx2=$(tb_exec "$TB_CLI" cat /sys/class/net/c2/statistics/tx_bytes)
mp_up_send blob 9000 || fail "upload through the tunnel"
wait "$MP_UP_PID"
d1=$(($(tb_exec "$TB_CLI" cat /sys/class/net/c1/statistics/tx_bytes) - tx1))
d2=$(($(tb_exec "$TB_CLI" cat /sys/class/net/c2/statistics/tx_bytes) - tx2))
[ "$(cut -d' ' -f1 "$TB_DIR/up.sum")" = "$want" ] || fail "upload sha256 $(cat "$TB_DIR/up.sum"), want $want"
echo "  upload: c1 sent $d1 B, c2 sent $d2 B"
[ "$d1" -gt 4194304 ] || fail "c1 sent $d1 B of a 4 MB upload"
[ "$d2" -lt 65536 ] || fail "c2 sent $d2 B: the packets did not all leave via c1 as warned"
bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"

# control: the same bed without the knob: bound to c2, no warning, c2 carries its share
cli_conf
bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" || fail "cli (no knob) did not start"
mp_wait_paths cli 2 active 10 || fail "cli (no knob): not both paths active"
sleep 1
! grep -q "leaves via" "$TB_DIR/cli.log" || fail "cli (no knob) warned: $(grep 'leaves via' "$TB_DIR/cli.log")"
mp_refresh cli
sleep 0.2
[ "$(jq '[.paths[] | select(.route_ok and .route_warnings == 0)] | length' "$TB_DIR/cli.json")" = 2 ] ||
	fail "cli (no knob) status: $(jq -c '[.paths[] | {dev, route, route_ok, route_warnings}]' "$TB_DIR/cli.json")"
bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"
bd_stop srv || fail "srv exit code $? after SIGTERM, want 0"
echo "ok: 'leaves via c1, not c2' logged once, status route_ok false / route_warnings 1; c2 sent $d2 B of the upload, c1 $d1 B; sha256; without the knob no warning"
