#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# MPTCP backup under the userspace path manager (issue 14): braidd client `mptcp on`, `mp-path c1`, `mp-path c2`,
# `mptcp-pm userspace` (no endpoints: backup goes by SET_FLAGS with the connection's token and the subflow's
# addresses and ports, the kernel sends MP_PRIO) against a braidd gateway (`mp-path 10.1.2.2`, `mptcp-pm
# userspace`: it follows the path manager's events, so it sees the client's MP_PRIO). Asserts:
# an 8 MiB sha256-verified download with both subflows carrying >= 20 % (client telemetry, MPTCP_FULL_INFO);
# `braidctl set path 10.2.1.2 backup` accepted; the status row of 10.2.1.2 turns `standby` and braidctl's JSON
# row `"backup":true`; the gateway logs the sub-priority event and its `braidctl paths` row of that subflow says
# `up,backup` (the peer's MP_PRIO in its status); a second download: the gateway (the peer, which got MP_PRIO)
# sends < 5 % of it on the backup subflow (client rx counter and the gateway's own `ss -ti` bytes_acked of that subflow); `active`
# again: the rows back to `active` / `up` on both sides, and path 2 carries >= 10 % of a third download; a
# reloaded (SIGRTMIN+1) `mp-backup c2` sets it backup the same way (logged, both rows backup), no reconnect.
set -uo pipefail
TM_BLOB_BYTES=8388608
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 20
tb_exec "$TB_SRV" ip mptcp limits set subflows 2 add_addr_accepted 0

ctl() { "$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/cli.ctl" "$@"; }
# the gateway's bytes_acked on its subflow(s) to the client's ADDR (what it sent there, acknowledged)
gw_acked() {
	tb_exec "$TB_SRV" ss -tinH dst "$1" | grep -o 'bytes_acked:[0-9]*' | awk -F: '{ s += $2 } END { print s + 0 }'
}
download() { # LABEL: a verified download; sets d1 d2 (client rx on each path) and g2 (gateway acked to path 2)
	local a1 a2 ag
	a1=$(mt_path_rx cli 10.1.1.2) a2=$(mt_path_rx cli 10.2.1.2) ag=$(gw_acked 10.2.1.2)
	got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "$1: download sha256 $got, want $TM_WANT"
	sleep 1.2
	d1=$(($(mt_path_rx cli 10.1.1.2) - a1)) d2=$(($(mt_path_rx cli 10.2.1.2) - a2)) g2=$(($(gw_acked 10.2.1.2) - ag))
	echo "  $1: path 1 rx $d1 B, path 2 rx $d2 B (gateway acked on path 2: $g2 B)"
}

mt_gateway gw "mp-path 10.1.2.2" "mptcp-pm userspace" "control-socket $TB_DIR/gw.ctl"
mt_client cli "mp-path c1" "mp-path c2" "mptcp-pm userspace" "control-socket $TB_DIR/cli.ctl"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
mt_wait_created || fail "no subflow created for c2: $(grep 'MPTCP' "$TB_DIR/cli.log")"
[ -z "$(mt_endpoints "$TB_CLI")" ] || fail "userspace PM created endpoints: $(mt_endpoints "$TB_CLI")"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
mt_wait_row 10.2.1.2 active 5 || fail "no active subflow of path 2: $(mt_paths cli)"

download "before"
tot=$((d1 + d2))
[ "$tot" -gt "$TM_BLOB_BYTES" ] || fail "subflows received $tot B in all, want > $TM_BLOB_BYTES"
[ $((d1 * 5)) -gt "$tot" ] && [ $((d2 * 5)) -gt "$tot" ] || fail "a subflow carried < 20 % before: $d1 / $d2"
[ $((g2 * 5)) -gt "$tot" ] || fail "gateway's ss: path 2 acked $g2 B, < 20 % before"

# backup: SET_FLAGS by token, MP_PRIO to the gateway
out=$(ctl set path 10.2.1.2 backup 2>&1) || fail "set path 10.2.1.2 backup refused: $out"
bd_wait_log cli "MANAGEMENT: braid path 10.2.1.2 backup on (1 path)" 3 || fail "no management line: $(grep MANAGEMENT "$TB_DIR/cli.log")"
mt_wait_row 10.2.1.2 standby 5 || fail "status row of path 2 not standby: $(mt_paths cli)"
[ "$(mt_row 10.1.1.2)" = "active " ] || fail "path 1 not active: $(mt_paths cli)"
js=$(ctl status --json) || fail "braidctl status"
grep -q '"local":"10.2.1.2:[0-9]*","remote":"10.1.2.2:1194","state":"up","backup":true' <<<"$js" ||
	fail "braidctl: path 2 not backup: $js"
grep -q '"local":"10.1.1.2:[0-9]*","remote":"10.1.2.2:1194","state":"up","backup":false' <<<"$js" ||
	fail "braidctl: path 1 not active: $js"
# the peer's side: the gateway got MP_PRIO (sub-priority event) and its row of that subflow says backup
bd_wait_log gw "MPTCP: path 10.1.2.2: subflow 10.1.2.2 port 1194 -> 10.2.1.2 port" 1 || fail "gateway: no event of the subflow"
grep -q "MPTCP: path 10.1.2.2: subflow 10.1.2.2 port 1194 -> 10.2.1.2 port [0-9]* priority changed (token [0-9a-f]*, backup)" "$TB_DIR/gw.log" ||
	fail "gateway: no priority-changed event: $(grep MPTCP "$TB_DIR/gw.log")"
mt_wait_gw_row 10.2.1.2 up,backup 5 || fail "gateway's row of 10.2.1.2 not up,backup: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
[ "$(mt_gw_row 10.1.1.2)" = up ] || fail "gateway's row of 10.1.1.2 not up: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
download "backup"
tot=$((d1 + d2))
[ "$tot" -gt "$TM_BLOB_BYTES" ] || fail "subflows received $tot B in all (backup), want > $TM_BLOB_BYTES"
[ $((d2 * 20)) -lt "$tot" ] || fail "the backup subflow still carried $d2 B of $tot (>= 5 %)"
[ $((g2 * 20)) -lt "$tot" ] || fail "gateway's ss: it still sent $g2 B of $tot on the backup subflow (>= 5 %)"
echo "ok: backup: path 2 carried $d2 B of $tot"

# active again: MP_PRIO nobackup, path 2 used again
out=$(ctl set path 10.2.1.2 active 2>&1) || fail "set path 10.2.1.2 active refused: $out"
mt_wait_row 10.2.1.2 active 5 || fail "status row of path 2 not active again: $(mt_paths cli)"
mt_wait_gw_row 10.2.1.2 up 5 || fail "gateway's row of 10.2.1.2 still backup: $("$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths)"
download "active"
tot=$((d1 + d2))
[ $((d2 * 10)) -gt "$tot" ] || fail "path 2 carried $d2 B of $tot after active (< 10 %)"

# a reloaded `mp-backup c2` takes the same way (SET_FLAGS by token), no restart
echo "mp-backup c2" >>"$TB_DIR/cli.conf"
kill -s "$(kill -l RTMIN+1 2>/dev/null || echo 35)" "${BD_PID[cli]}"
bd_wait_log cli "reload: done" 10 || fail "reload: no 'reload: done'"
grep -qE "reload: path [0-9]+ \[AF_INET\]10\.2\.1\.2:[0-9]+ -> \[AF_INET\]10\.1\.2\.2:1194: backup" "$TB_DIR/cli.log" ||
	fail "reload: c2 not set backup: $(grep 'reload' "$TB_DIR/cli.log")"
mt_wait_row 10.2.1.2 standby 5 || fail "status row of path 2 not standby after the reload: $(mt_paths cli)"
mt_wait_gw_row 10.2.1.2 up,backup 5 || fail "gateway's row of 10.2.1.2 not up,backup after the reload"
echo "ok: reloaded mp-backup c2: MP_PRIO by token, both rows backup"
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 1 ] || fail "the client reconnected"

bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: userspace-PM backup: MP_PRIO by token honoured by the peer (path 2: $d2 B once active again), status standby/backup"
