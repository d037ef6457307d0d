#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_cfi.sh - `connect-freq-initial N S` (stock 2.6): at most N stateless replies to a first packet per S
# seconds. A UDP gateway with `connect-freq-initial 40 120` serves one stock client (its handshake takes one
# reply); then braid_flood sends 300 spoofed P_CONTROL_HARD_RESET_CLIENT_V2 from 198.18.0.0/15 in 1 s.
# Asserts: exactly 39 more cookie replies, the other resets counted as `connect-freq refused` (every reset
# is one or the other: the flood's sent count), the limit logged once, no session created, and the client's
# tunnel still carries pings.
set -uo pipefail
source "$(dirname "$0")/adv_lib.sh"
gw_require
FLOOD=$BRAID_BIN_DIR/braid_flood
[ -x "$FLOOD" ] || { echo "FAIL: braid_flood not built ($FLOOD)" >&2; exit 1; }
adv_setup 1
ip -n "$GW_NS" route add 198.18.0.0/15 via "$ADV_ADDR" || gw_fail "route to the spoofed prefix"
gw_server_conf "connect-freq-initial 40 120"
gw_start_server
gw_client_conf 1
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "the client did not connect"
s0=$(gw_stats)
out=$(adv_a "$FLOOD" -r 300 -t 1 10.99.0.1 1194) || gw_fail "braid_flood: $out"
sleep 0.5
s1=$(gw_stats)
delta() { echo $(($(adv_stat "$1" "$s1") - $(adv_stat "$1" "$s0"))); }
sent=$(sed -n 's/.*sent \([0-9]*\) packets.*/\1/p' <<<"$out")
rx=$(delta "cookie replies")
refused=$(delta "connect-freq refused")
echo "flood: $sent resets; gateway: $rx cookie replies, $refused refused by connect-freq-initial"
[ "$(adv_stat "cookie replies" "$s0")" -ge 1 ] || gw_fail "the client's handshake got no cookie reply: $s0"
[ $((rx + $(adv_stat "cookie replies" "$s0"))) = 40 ] || gw_fail "cookie replies $s0 -> $s1, want 40 in the window"
[ $((rx + refused)) = "$sent" ] || gw_fail "$rx replies + $refused refused != $sent resets sent"
[ "$(delta "sessions created")" = 0 ] || gw_fail "the flood created sessions: $s0 -> $s1"
[ "$(grep -c "connect-freq-initial: 40 initial replies in 120 s reached" "$GW_DIR/server.log")" = 1 ] ||
	gw_fail "the limit was not logged exactly once"
ip netns exec "$(gw_cns 1)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "the client's tunnel after the flood"
echo "PASS: connect-freq-initial 40 120: $rx + $(adv_stat "cookie replies" "$s0") replies, $refused refused, client up"
