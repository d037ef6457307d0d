#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `mp-class ... redundant` in the TLS roles (issue 17): a braidd gateway (`multipath on`) and a braidd client with
# 2 mp-paths (20 Mbit/s, 5 / 10 ms), both with `mp-class proto icmp dscp ef redundant` and `status-json`:
#  1. 100 EF pings: the client copied every request and the gateway every reply exactly once (engine
#     class_copies 100 each; the gateway's per client), the receivers dropped the copies (rx_dup_copies 100 each);
#  2. 250 EF pings at 50/s while path 1 (it also carries the control channel) is blackholed: 250 answered, none
#     twice.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
command -v jq >/dev/null || { echo "FAIL: jq not installed (packaging/install-deps.sh)" >&2; exit 1; }
TM_BLOB_BYTES=65536 tm_setup 2
GJ=$TB_DIR/gw.json CJ=$TB_DIR/cli.json
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 10 >/dev/null
rule="mp-class proto icmp dscp ef redundant"
tm_gateway gw "multipath on" "status-json $GJ 1" "$rule"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}" "status-json $CJ 1" "$rule"
bd_wait_log cli "multipath negotiated with the server" 15 || fail "client: multipath not negotiated"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping"
sleep 1.2

# counters: "client class_copies, client rx_dup_copies, gateway class_copies, gateway rx_dup_copies"
counters() {
	echo "$(jq -r '"\(.engine.class_copies) \(.engine.rx_dup_copies)"' "$CJ")" \
		"$(jq -r '.clients[0].engine | "\(.class_copies) \(.rx_dup_copies)"' "$GJ")"
}
efping() { # COUNT OUT
	tb_exec "$TB_CLI" ping -n -c "$1" -i 0.02 -W 2 -Q 0xb8 "$TM_GW_TUN" >"$TB_DIR/$2" 2>&1
}
check_ping() { # OUT COUNT WHAT
	grep -qF "$2 packets transmitted, $2 received," "$TB_DIR/$1" ||
		fail "$3: $(grep -F 'packets transmitted' "$TB_DIR/$1")"
	! grep -qF "DUP!" "$TB_DIR/$1" || fail "$3: duplicate replies: $(grep -cF 'DUP!' "$TB_DIR/$1")"
}

# 1. exact copies both ways
read -r c0 d0 g0 e0 <<<"$(counters)"
efping 100 ping1
check_ping ping1 100 "100 EF pings"
sleep 2.2	# two refreshes of both files
read -r c1 d1 g1 e1 <<<"$(counters)"
echo "EF pings: client copies $((c1 - c0)) dropped $((d1 - d0)); gateway copies $((g1 - g0)) dropped $((e1 - e0))"
[ $((c1 - c0)) = 100 ] || fail "client copied $((c1 - c0)) of 100 EF requests"
[ $((g1 - g0)) = 100 ] || fail "gateway copied $((g1 - g0)) of 100 EF replies"
[ $((e1 - e0)) = 100 ] || fail "gateway dropped $((e1 - e0)) duplicate requests, want 100"
[ $((d1 - d0)) = 100 ] || fail "client dropped $((d1 - d0)) duplicate replies, want 100"
echo "ok: TLS client and gateway: 100 EF requests and replies copied once, the copies dropped (100 each)"

# 2. blackhole of path 1 under the EF stream
(efping 250 pingcut) &
ppid=$!
sleep 1.5
tb_blackhole 1
wait "$ppid"
check_ping pingcut 250 "250 EF pings across the blackhole of path 1"
echo "ok: blackhole of path 1: 250 of 250 EF pings answered once"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
