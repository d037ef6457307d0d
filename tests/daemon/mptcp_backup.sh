#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# MPTCP backup path (issue 14 part 3-4): braidd client `mptcp on`, `mp-path c1`, `mp-path c2`, `mp-backup c2`
# (the endpoint of c2 is `subflow backup`: its subflow joins with MP_PRIO backup), both paths 20 Mbit/s. A
# 16 MiB upload through the tunnel: while c1 is up the backup subflow carries < 5 % of what c1 carried; then
# c1's link goes down in the middle of the transfer: the backup subflow takes over, the upload completes with
# its sha256 intact, without a reconnect, and c2 carried at least half of what was left. The client runs without
# CAP_BPF / CAP_SYS_ADMIN / CAP_PERFMON (capsh): the eBPF actors are not loaded (the warning is asserted) and the
# backup, which is the path manager's, works all the same.
set -uo pipefail
TM_BLOB_BYTES=16777216
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 20

command -v capsh >/dev/null || fail "capsh missing (packaging/install-deps.sh: libcap2-bin)"
mt_gateway gw
printf '#!/bin/sh\nexec capsh --drop=cap_bpf,cap_sys_admin,cap_perfmon -- -c "exec %s \\"\\$@\\"" -- "$@"\n' \
	"$BRAIDD" >"$TB_DIR/braidd-nobpf" && chmod +x "$TB_DIR/braidd-nobpf"
BRAIDD=$TB_DIR/braidd-nobpf mt_client cli "mp-path c1" "mp-path c2" "mp-backup c2"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
grep -q "MPTCP: path c2: endpoint [0-9]* 10.2.1.2 dev #[0-9]* subflow backup added" "$TB_DIR/cli.log" || fail "no backup endpoint for c2"
grep -q "MPTCP: eBPF subflow actors not loaded (.*): no subflow marks, split ratio or caps; the kernel's scheduler alone spreads the data" "$TB_DIR/cli.log" ||
	fail "no fallback line without CAP_BPF: $(grep 'eBPF' "$TB_DIR/cli.log")"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
# the path manager's events, followed by the daemon
ev='MPTCP: path c2: subflow 10.2.1.2 port [0-9]* -> 10.1.2.2 port 1194 established (token [0-9a-f]*'
for _ in $(seq 1 50); do grep -q "$ev" "$TB_DIR/cli.log" && break; sleep 0.1; done
grep -q "$ev" "$TB_DIR/cli.log" || fail "no established event for the backup subflow: $(grep 'subflow' "$TB_DIR/cli.log")"
for _ in $(seq 1 30); do [ "$(mt_paths cli | wc -l)" = 2 ] && break; sleep 0.2; done
[ "$(mt_paths cli | wc -l)" = 2 ] || fail "want 2 subflows: $(mt_paths cli)"
sleep 1.2
tx1a=$(mt_path_tx cli 10.1.1.2) tx2a=$(mt_path_tx cli 10.2.1.2)

mt_put >"$TB_DIR/put.out" &
put=$!
sleep 3.5	# ~ 8 MB at 20 Mbit/s; the status file is rewritten every second
tx1=$(($(mt_path_tx cli 10.1.1.2) - tx1a)) tx2=$(($(mt_path_tx cli 10.2.1.2) - tx2a))
echo "  before the cut: primary 10.1.1.2 tx $tx1 B, backup 10.2.1.2 tx $tx2 B"
[ "$tx1" -gt 1000000 ] || fail "the primary carried only $tx1 B in 3.5 s"
[ $((tx2 * 20)) -lt "$tx1" ] || fail "the backup subflow carried $tx2 B while the primary was up ($tx1 B)"
tb_link_down 1
wait "$put"
got=$(cat "$TB_DIR/put.out")
grep -q "MPTCP: path c1: subflow 10.1.1.2 port [0-9]* -> 10.1.2.2 port 1194 closed" "$TB_DIR/cli.log" ||
	fail "no closed event for the primary subflow: $(grep 'subflow' "$TB_DIR/cli.log")"
[ "$got" = "$TM_WANT" ] || fail "upload across the cut: sha256 $got, want $TM_WANT"
sleep 1.2
tx2b=$(($(mt_path_tx cli 10.2.1.2) - tx2a))
echo "  after the cut: backup 10.2.1.2 tx $tx2b B in all"
[ $((tx2b * 2)) -ge $((TM_BLOB_BYTES - tx1)) ] || fail "the backup carried $tx2b B, want >= half of the $((TM_BLOB_BYTES - tx1)) B left"
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 1 ] || fail "the client reconnected"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: MPTCP backup: $tx2 B on the backup while the primary carried $tx1 B; after the cut the backup carried $tx2b B, 16 MiB sha256 intact"
