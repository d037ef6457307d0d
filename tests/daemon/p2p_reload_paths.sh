#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# p2p_reload_paths.sh - mp-path lines removed, added and changed by a live reload (SIGRTMIN+1) of a static-key
# multipath client, with no restart of the tunnel: path 2's line removed during a 12 MiB download (sha256
# intact, the path gone from the status), added back as a backup path (standby), then changed (its line
# rewritten and mp-backup dropped: removed and added, active; both paths carry the next download); a broken
# mp-path line is refused with the parser's error and the running paths stay.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
command -v curl >/dev/null || fail "curl missing"
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
RL=$(kill -l RTMIN+1 2>/dev/null) || RL=35
tb_emu_start 1 -r 20 -d 5 >/dev/null	# 20 Mbit/s each: one path alone cannot carry a download
tb_emu_start 2 -r 20 -d 5 >/dev/null
head -c 12582912 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum "$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
mp_pair 2
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping"
mp_wait_paths cli 2 active 10 || fail "client paths not active"
A2=$(tb_cli_addr 2)
L2="mp-path $A2 $(tb_srv_addr 2) 1194"
npaths() { mp_json cli '.paths | length'; }
reload() {	# reload the client, wait for its Nth "reload: done"
	local n=$1
	kill -s "$RL" "${BD_PID[cli]}"
	for ((k = 0; k < 100; k++)); do
		[ "$(grep -c 'reload: done' "$TB_DIR/cli.log")" -ge "$n" ] && return 0
		sleep 0.1
	done
	fail "client: no reload $n"
}

# 1. remove path 2 during a download (throttled so that the reload lands in the middle)
mp_http_get blob 10.200.0.1 --limit-rate 2M >"$TB_DIR/got1" &
GET=$!
sleep 1.2
grep -vxF "$L2" "$TB_DIR/cli.conf" >"$TB_DIR/cli.conf.new" && mv "$TB_DIR/cli.conf.new" "$TB_DIR/cli.conf"
reload 1
grep -qF "reload: mp-path $A2 removed, its paths are gone" "$TB_DIR/cli.log" || fail "no removal line"
grep -q "needs a restart" "$TB_DIR/cli.log" && fail "a restart named: $(grep 'needs a restart' "$TB_DIR/cli.log")"
kill -0 "$GET" 2>/dev/null || fail "the download ended before the reload (no overlap)"
wait "$GET"
[ "$(cat "$TB_DIR/got1")" = "$want" ] || fail "download across the removal: sha256 $(cat "$TB_DIR/got1") != $want"
n=$(npaths)
[ "$n" = 1 ] || fail "after the removal: $n paths in the status, want 1"
[ "$(mp_json cli '.paths[0].local' | grep -c "$A2")" = 0 ] || fail "path 2 still in the status"
echo "ok: path 2 removed by reload during a download, sha256 intact, 1 path left"

# 2. add it back as a backup path: it comes up (probed) and stands by
printf '%s\n' "$L2" "mp-backup $A2" >>"$TB_DIR/cli.conf"
reload 2
grep -qF "reload: mp-path $A2 $(tb_srv_addr 2) added, backup" "$TB_DIR/cli.log" || fail "no 'added, backup' line"
mp_wait_paths cli 1 standby 15 || fail "the added backup path is not standby"
mp_wait_paths cli 1 active 5 || fail "path 1 not active"
echo "ok: path 2 added back as a backup by reload, standby"

# 3. change the line (no port now: the same server port by default) and drop mp-backup: removed and added
# again as an active path; both paths carry the next download
sed -i "/^mp-backup $A2\$/d; s|^$L2\$|mp-path $A2 $(tb_srv_addr 2)|" "$TB_DIR/cli.conf"
reload 3
[ "$(grep -cF "reload: mp-path $A2 removed, its paths are gone" "$TB_DIR/cli.log")" = 2 ] ||
	fail "the changed line was not removed"
grep -qxE ".*reload: mp-path $A2 $(tb_srv_addr 2) added" "$TB_DIR/cli.log" || fail "no 'added' line (active)"
mp_wait_paths cli 2 active 15 || fail "both paths not active after the change"
mp_wait_paths srv 2 active 15 || fail "the server has not validated the changed path"
b1=$(mp_path_field cli 1 tx_bytes) b2=$(mp_path_field cli 2 tx_bytes)
c1=$(mp_path_field cli 1 rx_bytes) c2=$(mp_path_field cli 2 rx_bytes)
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "download over both paths: sha256 $got != $want"
mp_refresh cli
t1=$(($(mp_path_field cli 1 tx_bytes) - b1)) t2=$(($(mp_path_field cli 2 tx_bytes) - b2))
r1=$(($(mp_path_field cli 1 rx_bytes) - c1)) r2=$(($(mp_path_field cli 2 rx_bytes) - c2))
echo "per-path client bytes during the download: path 1 rx +$r1 tx +$t1, path 2 rx +$r2 tx +$t2"
[ "$r1" -gt 1000000 ] && [ "$r2" -gt 1000000 ] || fail "both paths should carry the download"
echo "ok: the changed line is active again, both paths carry traffic"

# 4. a broken mp-path line: refused, nothing changed
echo "mp-path 192.0.2.7 $(tb_srv_addr 2) 99999" >>"$TB_DIR/cli.conf"
reload 4
grep -qE "\[error\] reload: $TB_DIR/cli.conf:[0-9]+: option 'mp-path'" "$TB_DIR/cli.log" || fail "no parser error for the bad line: $(grep 'reload:' "$TB_DIR/cli.log" | tail -3)"
grep -qF "the configuration does not parse; nothing changed" "$TB_DIR/cli.log" || fail "broken config: no error"
mp_wait_paths cli 2 active 5 || fail "broken config: the paths changed"
grep -q "192.0.2.7" <(mp_json cli '.paths[].local') && fail "broken config: its path was added"
grep "reload: .*cli.conf" "$TB_DIR/cli.log" | sed 's/.*\[error\] //'
echo "ok: a broken mp-path line is refused, the two paths keep running"

[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 1 ] || fail "the tunnel restarted"
grep -q "RECONNECTING\|SIGUSR1" "$TB_DIR/cli.log" && fail "a restart"
grep "reload: " "$TB_DIR/cli.log" | sed 's/^/  /'
bd_stop cli || fail "cli exit code $? (a sanitizer report or leak?)"
bd_stop srv || fail "srv exit code $? (a sanitizer report or leak?)"
echo "PASS: p2p_reload_paths"
