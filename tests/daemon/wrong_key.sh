#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The client has a different static key: nothing crosses the tunnel, the server counts and logs
# authentication failures, and never learns the client as its peer (an unauthenticated packet
# must not set the peer address).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bd_require
tb_setup -n 1 >/dev/null 2>&1 || fail "tb_setup"

bd_keygen "$TB_DIR/key"
bd_keygen "$TB_DIR/otherkey"
cmp -s "$TB_DIR/key" "$TB_DIR/otherkey" && fail "two generated keys are identical"
BD_CLI_KEY=otherkey bd_pair AES-256-GCM "keepalive 1 30" -- "keepalive 1 30"

tb_exec "$TB_CLI" ping -c3 -i0.2 -W1 -q 10.200.0.1 >/dev/null 2>&1 && fail "ping crossed with a wrong key"
bd_wait_log srv "authentication failed: packet from [AF_INET]$(tb_cli_addr 1):" 5 ||
	fail "no authentication-failure log line on srv"
stats=$(bd_stats srv)
af=$(bd_stat_field "$stats" auth_failures)
[ "${af:-0}" -ge 3 ] || fail "srv auth_failures=$af, want >= 3 (3 pings + keepalives): $stats"
[ "$(bd_stat_field "$stats" tun_write)" = 0 ] || fail "srv wrote to its tun: $stats"
grep -qF "Peer Connection Initiated" "$TB_DIR/srv.log" && fail "srv accepted an unauthenticated peer"
# the server never learned a peer, so it has nothing to send to: its replies are impossible
[ "$(bd_stat_field "$stats" link_tx)" = 0 ] || fail "srv sent packets without a peer: $stats"
cstats=$(bd_stats cli)
[ "$(bd_stat_field "$cstats" tun_write)" = 0 ] || fail "cli wrote to its tun: $cstats"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
echo "ok: wrong key: no traffic, auth_failures=$af, peer not learned"
