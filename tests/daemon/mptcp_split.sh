#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# MPTCP subflow actors (issue 14 part 3-4): braidd client `mptcp on`, `mp-path c1`, `mp-path c2`,
# `mp-scheduler ratio 3:1`, both paths shaped to 20 Mbit/s. braidd loads bpf/mptcp_sockops.bpf.c into its
# cgroup and publishes the paths' weights; a 16 MiB sha256-verified upload through the tunnel must then be
# split 3:1 between the two subflows within +-10 % (per-subflow bytes sent, from the kernel's telemetry in the
# status file); without the actors the kernel's scheduler would split ~1:1 on equal paths. Asserts the log
# lines (actors attached, marks/weights per path, detached at exit with throttles > 0).
set -uo pipefail
TM_BLOB_BYTES=16777216
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 20

mt_gateway gw
mt_client cli "mp-path c1" "mp-path c2" "mp-scheduler ratio 3:1"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
grep -q "MPTCP: eBPF subflow actors attached to this process's cgroup" "$TB_DIR/cli.log" || fail "actors not attached: $(grep 'MPTCP' "$TB_DIR/cli.log")"
grep -q "MPTCP: path c1: subflows from 10.1.1.2 dev #[0-9]* get mark 0xb7a10001, weight 3," "$TB_DIR/cli.log" || fail "path c1 not published"
grep -q "MPTCP: path c2: subflows from 10.2.1.2 dev #[0-9]* get mark 0xb7a10002, weight 1," "$TB_DIR/cli.log" || fail "path c2 not published"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
for _ in $(seq 1 30); do [ "$(mt_paths cli | wc -l)" = 2 ] && break; sleep 0.2; done
sleep 1.2
tx1a=$(mt_path_tx cli 10.1.1.2) tx2a=$(mt_path_tx cli 10.2.1.2)

got=$(mt_put) && [ "$got" = "$TM_WANT" ] || fail "upload sha256 $got, want $TM_WANT"
sleep 1.2	# one status rewrite
tx1=$(($(mt_path_tx cli 10.1.1.2) - tx1a)) tx2=$(($(mt_path_tx cli 10.2.1.2) - tx2a))
echo "  subflow 10.1.1.2 (weight 3): tx $tx1 B, subflow 10.2.1.2 (weight 1): tx $tx2 B"
[ "$tx2" -gt 0 ] || fail "path 2 carried nothing: $tx1 / $tx2"
# 3:1 within +-10 %: 2.7 <= tx1/tx2 <= 3.3
[ $((tx1 * 10)) -ge $((tx2 * 27)) ] && [ $((tx1 * 10)) -le $((tx2 * 33)) ] ||
	fail "split $tx1 : $tx2 = $(awk -v a="$tx1" -v b="$tx2" 'BEGIN { printf "%.2f", a / b }') : 1, want 3 : 1 +-10 %"
bd_stop cli || fail "client exit code $?"
grep -q "MPTCP: eBPF subflow actors detached (subflows throttled to their share [1-9][0-9]* times)" "$TB_DIR/cli.log" ||
	fail "no detach line with throttles: $(grep 'actors detached' "$TB_DIR/cli.log")"
bd_stop gw || fail "gateway exit code $?"
echo "ok: MPTCP split 3:1 enforced by the sockops actors: $tx1 / $tx2 B ($(awk -v a="$tx1" -v b="$tx2" 'BEGIN { printf "%.2f", a / b }') : 1) of a 16 MiB sha256-verified upload"
