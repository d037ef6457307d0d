#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# MPTCP userspace path manager and PM events in the status (issue 14 part 2): braidd client `mptcp on`, `mp-path c1`, `mp-path c2`,
# `mptcp-pm userspace` (braidd sets net.mptcp.pm_type=1 in its namespace, restores it at exit) against a braidd
# gateway with the kernel path manager. Asserts: no endpoints in the client's namespace; braidd opened the second
# path's subflow itself (SUBFLOW_CREATE by token, logged); an 8 MiB sha256-verified download with both subflows
# carrying >= 20 % (status telemetry); path 2's link down: its subflow destroyed (logged), the status row of
# 10.2.1.2 "failed" (from the path manager's closed event), the session alive; link up: the subflow re-created,
# the row active again and path 2 carries data of a second verified download; pm_type restored at exit.
# The gateway has no mp-path lines: it follows the path manager's events only (logged, no endpoints): after
# `braidctl set path 10.2.1.2 backup` on the client (MP_PRIO) its `braidctl paths` row of that subflow says
# `up,backup` and the priority change is logged; `active` again: `up`.
set -uo pipefail
TM_BLOB_BYTES=8388608
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 20
tb_exec "$TB_SRV" ip mptcp limits set subflows 2 add_addr_accepted 0
[ "$(tb_exec "$TB_CLI" sysctl -n net.mptcp.pm_type)" = 0 ] || fail "client namespace pm_type not 0 at start"

mt_gateway gw "control-socket $TB_DIR/gw.ctl"
mt_client cli "mp-path c1" "mp-path c2" "mptcp-pm userspace" "control-socket $TB_DIR/cli.ctl"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
grep -q "MPTCP: mptcp-pm userspace: net.mptcp.pm_type 0 -> 1 in this namespace" "$TB_DIR/cli.log" || fail "pm_type not set: $(grep MPTCP "$TB_DIR/cli.log")"
[ "$(tb_exec "$TB_CLI" sysctl -n net.mptcp.pm_type)" = 1 ] || fail "pm_type not 1 while braidd runs"
bd_wait_log cli "MPTCP: the connection to [AF_INET]10.1.2.2:1194 is multipath TCP" 2 || fail "client did not log MPTCP"
mt_wait_created || fail "no subflow created for c2: $(grep 'MPTCP' "$TB_DIR/cli.log")"
[ -z "$(mt_endpoints "$TB_CLI")" ] || fail "userspace PM created endpoints: $(mt_endpoints "$TB_CLI")"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
mt_wait_row 10.2.1.2 active 5 || fail "no active subflow of path 2: $(mt_paths cli)"

got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "download sha256 $got, want $TM_WANT"
sleep 1.2
rx1=$(mt_path_rx cli 10.1.1.2) rx2=$(mt_path_rx cli 10.2.1.2)
tot=$((rx1 + rx2))
echo "  userspace PM: subflow 10.1.1.2 rx $rx1 B, subflow 10.2.1.2 rx $rx2 B"
[ "$tot" -gt "$TM_BLOB_BYTES" ] || fail "subflows received $tot bytes in all, want > $TM_BLOB_BYTES"
[ $((rx1 * 5)) -gt "$tot" ] && [ $((rx2 * 5)) -gt "$tot" ] || fail "a subflow carried < 20 %: $rx1 / $rx2"

# the gateway without mp-path lines follows the events only and shows the client's MP_PRIO
grep -q "MPTCP: following the path manager's events (no mp-path lines: no endpoints)" "$TB_DIR/gw.log" ||
	fail "gateway: events not followed: $(grep MPTCP "$TB_DIR/gw.log")"
[ -z "$(mt_endpoints "$TB_SRV")" ] || fail "gateway created endpoints: $(mt_endpoints "$TB_SRV")"
mt_wait_gw_row 10.2.1.2 up 5 || fail "gateway's row of 10.2.1.2 not up: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
out=$("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/cli.ctl" set path 10.2.1.2 backup 2>&1) || fail "set path backup refused: $out"
mt_wait_gw_row 10.2.1.2 up,backup 5 || fail "gateway's row of 10.2.1.2 not up,backup: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
[ "$(mt_gw_row 10.1.1.2)" = up ] || fail "gateway's row of 10.1.1.2 not up: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
grep -q "MPTCP: subflow 10.1.2.2 port 1194 -> 10.2.1.2 port [0-9]* priority changed (token [0-9a-f]*, backup)" "$TB_DIR/gw.log" ||
	fail "gateway: no priority-changed line: $(grep MPTCP "$TB_DIR/gw.log")"
out=$("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/cli.ctl" set path 10.2.1.2 active 2>&1) || fail "set path active refused: $out"
mt_wait_gw_row 10.2.1.2 up 5 || fail "gateway's row of 10.2.1.2 still backup: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
echo "ok: gateway without mp-path: the client's MP_PRIO in its paths row (up,backup, then up)"

# path 2 cut: braidd destroys its subflow; the closed event turns its status row to failed
tb_link_down 2
bd_wait_log cli "MPTCP: path c2: gone (interface down or address gone)" 5 || fail "path c2 not seen going down"
grep -q "MPTCP: path c2: subflow 10.2.1.2 port [0-9]* -> 10.1.2.2 port 1194 closed (interface down or address gone" "$TB_DIR/cli.log" ||
	fail "subflow of c2 not destroyed: $(grep 'c2' "$TB_DIR/cli.log")"
mt_wait_row 10.2.1.2 failed 5 || fail "status row of path 2 not failed after the cut: $(mt_paths cli)"
ctl=$("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/cli.ctl" status --json) || fail "braidctl status"
grep -q '"local":"10.2.1.2:[0-9]*","remote":"10.1.2.2:1194","state":"down"' <<<"$ctl" || fail "braidctl: path 2 not down: $ctl"
echo "ok: path 2 cut: subflow destroyed, status failed, braidctl down"

# back: the subflow re-created, the row active, path 2 carries part of a second download
tb_link_up 2
for _ in $(seq 1 100); do [ "$(grep -c "$MT_CREATED" "$TB_DIR/cli.log")" -ge 2 ] && break; sleep 0.1; done
[ "$(grep -c "$MT_CREATED" "$TB_DIR/cli.log")" -ge 2 ] || fail "subflow of c2 not re-created: $(grep 'c2' "$TB_DIR/cli.log")"
mt_wait_row 10.2.1.2 active 10 || fail "path 2 not active again: $(mt_paths cli)"
rx2a=$(mt_path_rx cli 10.2.1.2)
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "download after the return: sha256 $got"
sleep 1.2
rx2b=$(mt_path_rx cli 10.2.1.2)
echo "  after the return: path 2 received $((rx2b - rx2a)) B of the second download"
[ $(((rx2b - rx2a) * 5)) -gt "$TM_BLOB_BYTES" ] || fail "the re-created subflow carried $((rx2b - rx2a)) B (< 20 %)"
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 1 ] || fail "the client reconnected"

bd_stop cli || fail "client exit code $?"
grep -q "MPTCP: net.mptcp.pm_type restored to 0" "$TB_DIR/cli.log" || fail "no pm_type restore line"
[ "$(tb_exec "$TB_CLI" sysctl -n net.mptcp.pm_type)" = 0 ] || fail "pm_type not restored"
bd_stop gw || fail "gateway exit code $?"
echo "ok: userspace path manager: subflows $rx1 / $rx2 B, cut -> failed, return -> re-created and carrying $((rx2b - rx2a)) B"
