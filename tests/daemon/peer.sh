#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Peer address rules (OpenVPN point to point):
#  1. srv has no remote: it learns the client from its first authenticated packet;
#  2. without float, a client that moves to path 2 (new source address) is dropped unread
#     (wrong_peer) until srv's ping-restart forgets the old peer; then it is learned again;
#  3. with float, the move is followed at once after authentication ("peer float" log line).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bd_require
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"

# client moved to path 2: bound to its path-2 address, so policy routing sends it over router 2
move_client() {
	bd_stop cli || fail "cli exit code $?"
	sed -i "s/^nobind\$/local $(tb_cli_addr 2)\nlport 5000/" "$TB_DIR/cli.conf"
	bd_start cli "$TB_CLI"
	bd_wait_log cli "Initialization Sequence Completed" || fail "moved cli did not start"
}

# 1 + 2: no float
bd_pair AES-256-GCM "keepalive 1 4" -- "keepalive 1 30"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping before the move"
bd_wait_log srv "Peer Connection Initiated with [AF_INET]$(tb_cli_addr 1):" 2 || fail "srv did not learn path 1"
move_client
tb_exec "$TB_CLI" ping -c2 -i0.2 -W1 -q 10.200.0.1 >/dev/null 2>&1 && fail "moved client got through without float"
stats=$(bd_stats srv)
[ "$(bd_stat_field "$stats" wrong_peer)" -ge 2 ] || fail "srv wrong_peer too low: $stats"
bd_wait_log srv "Inactivity timeout (--ping-restart), restarting" 8 || fail "srv did not ping-restart"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping after srv's ping-restart"
bd_wait_log srv "Peer Connection Initiated with [AF_INET]$(tb_cli_addr 2):5000" 2 ||
	fail "srv did not learn the client on path 2"
grep -qF "peer float" "$TB_DIR/srv.log" && fail "srv floated without float"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
echo "ok: peer learned from authenticated packets; no float: moved peer dropped until ping-restart"

# 3: float
bd_pair AES-256-GCM "float" -- "keepalive 1 30"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "float: no ping before the move"
move_client
tb_wait_ping "$TB_CLI" 10.200.0.1 3 || fail "float: no ping after the move"
bd_wait_log srv "peer float: [AF_INET]$(tb_cli_addr 1):" 2 || fail "float: no 'peer float' line"
grep -F "peer float" "$TB_DIR/srv.log" | grep -qF -- "-> [AF_INET]$(tb_cli_addr 2):5000" ||
	fail "float: wrong new address"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
echo "ok: float follows an authenticated peer to its new address"
