#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tls_reload_paths.sh - a braidd TLS client (multipath to a braidd gateway) reloaded (SIGRTMIN+1) with mp-path
# lines added and removed, its session kept: path 2 added -> both paths active and both carry a download
# (per-path bytes from the status file, sha256 intact); path 1 removed during a download -> sha256 intact,
# one path left in the status; then a SIGUSR1 restart reconnects with the reloaded lines (path 2 only), not
# the ones the client started with.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
tm_setup 2
tb_emu_start 1 -r 20 -d 5 >/dev/null	# 20 Mbit/s each: one path alone cannot carry a download
tb_emu_start 2 -r 20 -d 5 >/dev/null
RL=$(kill -l RTMIN+1 2>/dev/null) || RL=35
A1=$(tb_cli_addr 1) A2=$(tb_cli_addr 2)
tm_gateway gw "multipath on"
tm_client cli "mp-path $A1"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
tm_wait_active cli 1 10 || fail "path 1 not active: $(tm_status cli)"
reload() {	# reload the client, wait for its Nth "reload: done"
	kill -s "$RL" "${BD_PID[cli]}"
	for ((k = 0; k < 100; k++)); do
		[ "$(grep -c 'reload: done' "$TB_DIR/cli.log")" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "client: no reload $1"
}
rx() { local v; v=$(tm_path_field cli "$1" rx_bytes); echo "${v:-0}"; }

# 1. path 2 added: both active, both carry the download
echo "mp-path $A2" >>"$TB_DIR/cli.conf"
reload 1
grep -qF "reload: mp-path $A2 added" "$TB_DIR/cli.log" || fail "no 'added' line"
tm_wait_active cli 2 15 || fail "the added path is not active: $(tm_status cli)"
sleep 1.2
b1=$(rx 1) b2=$(rx 2)
got=$(tm_get blob)
[ "$got" = "$TM_WANT" ] || fail "download over both paths: sha256 $got, want $TM_WANT"
sleep 1.2	# one status rewrite
d1=$(($(rx 1) - b1)) d2=$(($(rx 2) - b2))
echo "per-path client rx bytes during the 8 MiB download: path 1 +$d1, path 2 +$d2"
[ "$d1" -gt 1000000 ] && [ "$d2" -gt 1000000 ] || fail "both paths should carry the download: $(tm_status cli)"
echo "ok: path 2 added by reload, both paths carry traffic"

# 2. path 1 removed during a (throttled) download
tb_exec "$TB_CLI" curl -sf --max-time 60 --limit-rate 1M "http://$TM_GW_TUN:8080/blob" | sha256sum |
	cut -d' ' -f1 >"$TB_DIR/got2" &
GET=$!
sleep 1.5
sed -i "/^mp-path $A1\$/d" "$TB_DIR/cli.conf"
reload 2
grep -qF "reload: mp-path $A1 removed, its paths are gone" "$TB_DIR/cli.log" || fail "no removal line"
kill -0 "$GET" 2>/dev/null || fail "the download ended before the reload (no overlap)"
wait "$GET"
[ "$(cat "$TB_DIR/got2")" = "$TM_WANT" ] || fail "download across the removal: sha256 $(cat "$TB_DIR/got2")"
sleep 1.2
[ "$(tm_status cli | wc -l)" = 1 ] && [ -z "$(tm_path_field cli 1 state)" ] ||
	fail "after the removal the status should show path 2 only: $(tm_status cli)"
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 1 ] || fail "the session restarted"
grep -q "needs a restart" "$TB_DIR/cli.log" && fail "a restart named: $(grep 'needs a restart' "$TB_DIR/cli.log")"
echo "ok: path 1 removed by reload during a download, sha256 intact, session kept"

# 3. a SIGUSR1 restart reconnects with the reloaded lines
kill -USR1 "${BD_PID[cli]}"
for ((k = 0; k < 200; k++)); do
	[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 2 ] && break
	sleep 0.1
done
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 2 ] || fail "no reconnect after SIGUSR1"
bd_wait_log cli "1 path socket(s)" 5 || fail "the restarted session does not use 1 path socket"
tm_wait_active cli 1 15 || fail "no active path after the restart: $(tm_status cli)"
sleep 1.2
[ "$(tm_status cli | wc -l)" = 1 ] && [ -z "$(tm_path_field cli 1 state)" ] &&
	[ "$(tm_path_field cli 2 state)" = active ] || fail "after SIGUSR1: not path 2 only: $(tm_status cli)"
got=$(tm_get blob)
[ "$got" = "$TM_WANT" ] || fail "download after the restart: sha256 $got"
echo "ok: the SIGUSR1 restart uses the reloaded path set (path 2 only)"
grep "reload: " "$TB_DIR/cli.log" | sed 's/^/  /'
bd_stop cli || fail "cli exit code $? (a sanitizer report or leak?)"
bd_stop gw || fail "gw exit code $? (a sanitizer report or leak?)"
echo "PASS: tls_reload_paths"
