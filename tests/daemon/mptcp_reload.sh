#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Live reload (SIGRTMIN+1) of a braidd client over MPTCP (issue 14; docs/braidd.md "Live reload" table): `mptcp on`,
# `mp-path c1`, `mp-path c2`, kernel path manager. Reload 1 adds `mp-backup c2` and `verb 5`: applied live (the
# verb; c2's subflow set backup through the path manager, MP_PRIO: its endpoint shows `backup`, logged per
# subflow). Reload 2 removes the `mp-path c2` line and adds `mptcp-pm userspace`: both logged as needing a
# restart, nothing of them applied (c2's endpoint and subflow stay, pm_type stays 0). The session survives
# both (one "Initialization Sequence Completed", no reconnect) and a download after them is sha256-verified.
set -uo pipefail
TM_BLOB_BYTES=4194304
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 20
RL=$(kill -l RTMIN+1 2>/dev/null) || RL=35

mt_gateway gw
mt_client cli "mp-path c1" "mp-path c2"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
bd_wait_log cli "MPTCP: the connection to [AF_INET]10.1.2.2:1194 is multipath TCP" 2 || fail "client did not log MPTCP"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
for _ in $(seq 1 50); do [ "$(mt_paths cli | awk -F, '$5 == "active"' | wc -l)" = 2 ] && break; sleep 0.1; done
[ "$(mt_paths cli | awk -F, '$5 == "active"' | wc -l)" = 2 ] || fail "want 2 active subflows: $(mt_paths cli)"

# reload 1: mp-backup c2 + verb 5, applied
sed -i 's/^verb 4$/verb 5/' "$TB_DIR/cli.conf"
echo "mp-backup c2" >>"$TB_DIR/cli.conf"
kill -s "$RL" "${BD_PID[cli]}"
bd_wait_log cli "reload: done" 10 || fail "reload 1: no 'reload: done'"
grep -qF "reload: verb 5" "$TB_DIR/cli.log" || fail "reload 1: verb not applied: $(grep 'reload' "$TB_DIR/cli.log")"
grep -qE "reload: path [0-9]+ \[AF_INET\]10\.2\.1\.2:[0-9]+ -> \[AF_INET\]10\.1\.2\.2:1194: backup" "$TB_DIR/cli.log" ||
	fail "reload 1: c2 not set backup: $(grep 'reload' "$TB_DIR/cli.log")"
mt_endpoints "$TB_CLI" | grep -q "10.2.1.2 id [0-9]* subflow backup dev c2" || fail "reload 1: endpoint of c2 not backup: $(mt_endpoints "$TB_CLI")"
echo "ok: reload 1: verb and mp-backup c2 applied (MP_PRIO through the endpoint)"

# reload 2: mp-path c2 removed + mptcp-pm userspace: restart needed, nothing applied

n0=$(grep -c "reload: done" "$TB_DIR/cli.log")
sed -i '/^mp-path c2$/d; /^mp-backup c2$/d' "$TB_DIR/cli.conf"
echo "mptcp-pm userspace" >>"$TB_DIR/cli.conf"
kill -s "$RL" "${BD_PID[cli]}"
for _ in $(seq 1 100); do [ "$(grep -c "reload: done" "$TB_DIR/cli.log")" -gt "$n0" ] && break; sleep 0.1; done
[ "$(grep -c "reload: done" "$TB_DIR/cli.log")" -gt "$n0" ] || fail "reload 2: no 'reload: done'"
grep -qF "reload: option mp-path changed (lines added or removed: MPTCP endpoints), needs a restart (SIGHUP); nothing of mp-path changed" "$TB_DIR/cli.log" ||
	fail "reload 2: no restart line for mp-path: $(grep 'reload' "$TB_DIR/cli.log")"
grep -qF "reload: option mptcp-pm changed, needs a restart (SIGHUP)" "$TB_DIR/cli.log" ||
	fail "reload 2: no restart line for mptcp-pm: $(grep 'reload' "$TB_DIR/cli.log")"
[ "$(tb_exec "$TB_CLI" sysctl -n net.mptcp.pm_type)" = 0 ] || fail "reload 2: pm_type changed"
mt_endpoints "$TB_CLI" | grep -q "10.2.1.2 id [0-9]* subflow backup dev c2" || fail "reload 2: endpoint of c2 gone: $(mt_endpoints "$TB_CLI")"
echo "ok: reload 2: mp-path removal and mptcp-pm logged as needing a restart, nothing changed"

got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "download after the reloads: sha256 $got, want $TM_WANT"
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 1 ] || fail "the client reconnected"
grep -q "RECONNECTING\|Restart pause" "$TB_DIR/cli.log" && fail "the client restarted: $(grep 'RECONNECTING\|Restart' "$TB_DIR/cli.log")"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: MPTCP reload: applied and restart-needed options as documented, session kept, 4 MiB sha256 after"
