#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `mp-path auto` in a braidd TLS client against a braidd gateway, on a bed with no source routing (a default
# route per interface): the client starts with interfaces c1 and c2, and a third interface c3 (its own router
# and default route) is plugged in mid-transfer (tb_if_add 3).
# Asserts: auto uses c1 and c2 at start and never the tunnel or lo; it logs `using interface c3` after c3 appears,
# with the `mp-cap c3 15` given by interface name before c3 existed,
# and a path on c3 turns active (status file) without a restart; an 8 MiB download started before c3 appeared
# completes with the right sha256; c3 then carries more than 1 MB of its interface byte counters during a
# second download (sha256 checked); c3 removed (tb_if_del 3): its path is dropped and a third download works;
# a live reload adding `mp-backup c2` makes c2's path standby, removing it makes it active again.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_TB_OPTS=--no-rules tm_setup 2
tb_tbf 1 20
tb_tbf 2 20
tm_gateway gw "multipath on"
tm_client cli "mp-path auto" "mp-auto-exclude dummy*" "mp-cap c3 15"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
bd_wait_log cli "multipath negotiated with the server" 5 || fail "client did not negotiate multipath"
tm_wait_active cli 2 10 || fail "auto: not 2 active paths: $(tm_status cli)"
grep -q "mp-path auto: using interface c1" "$TB_DIR/cli.log" || fail "auto did not use c1"
grep -q "mp-path auto: using interface c2" "$TB_DIR/cli.log" || fail "auto did not use c2"
! grep -E "mp-path auto: using interface (tun|lo)" "$TB_DIR/cli.log" || fail "auto used the tunnel or lo"

echo ready >"$TB_DIR/small"
[ "$(tm_get small)" = "$(sha256sum <"$TB_DIR/small" | cut -d' ' -f1)" ] || fail "http server not answering"
tb_exec "$TB_CLI" curl -sf --max-time 60 --limit-rate 1500K "http://$TM_GW_TUN:8080/blob" -o "$TB_DIR/got1" &
curl_pid=$!
sleep 1.5
kill -0 "$curl_pid" 2>/dev/null || { wait "$curl_pid"; fail "the first download ended before c3 appeared (curl exit $?)"; }
tb_if_add 3 || fail "tb_if_add 3"
tb_tbf 3 20
bd_wait_log cli "mp-path auto: using interface c3 (cap 15 Mbit/s)" 5 || fail "auto did not pick up c3 (with its mp-cap)"
tm_wait_active cli 3 10 || fail "no third active path after c3 appeared: $(tm_status cli)"
wait "$curl_pid" || fail "the download across c3's arrival failed (curl exit $?)"
got=$(sha256sum <"$TB_DIR/got1" | cut -d' ' -f1)
[ "$got" = "$TM_WANT" ] || fail "download across c3's arrival: sha256 $got, want $TM_WANT"

b3=$(tb_if_bytes "$TB_CLI" c3)
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "second download sha256 $got, want $TM_WANT"
d3=$(($(tb_if_bytes "$TB_CLI" c3) - b3))
echo "  c3 carried $d3 B of the second 8 MiB download"
[ "$d3" -gt 1000000 ] || fail "c3 carried only $d3 bytes after being added"

tb_if_del 3 || fail "tb_if_del 3"
bd_wait_log cli "mp-path auto: interface c3 dropped" 5 || fail "c3's path not dropped after c3 went"
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "third download (c3 gone) sha256 $got, want $TM_WANT"
# a live reload (SIGRTMIN+1) with `mp-backup c2`: the auto path on c2 turns backup (standby), then back
RL=$(kill -l RTMIN+1 2>/dev/null) || RL=35
echo "mp-backup c2" >>"$TB_DIR/cli.conf"
kill -s "$RL" "${BD_PID[cli]}"
bd_wait_log cli "reload: mp-path auto: path" 5 || fail "reload: mp-backup c2 not applied"
grep -qE "reload: mp-path auto: path [0-9]+ on c2: backup$" "$TB_DIR/cli.log" || fail "reload: c2 not backup"
for ((k = 0; k < 100; k++)); do
	[ "$(tm_status cli | awk -F, '$5 == "standby"' | wc -l)" = 1 ] && break
	sleep 0.1
done
[ "$(tm_status cli | awk -F, '$5 == "standby"' | wc -l)" = 1 ] || fail "reload: no standby path: $(tm_status cli)"
sed -i '/^mp-backup c2$/d' "$TB_DIR/cli.conf"
kill -s "$RL" "${BD_PID[cli]}"
for ((k = 0; k < 50; k++)); do
	grep -qE "reload: mp-path auto: path [0-9]+ on c2: active$" "$TB_DIR/cli.log" && break
	sleep 0.1
done
grep -qE "reload: mp-path auto: path [0-9]+ on c2: active$" "$TB_DIR/cli.log" || fail "reload: c2 not active again"
tm_wait_active cli 2 10 || fail "reload: not 2 active paths again: $(tm_status cli)"
grep -q "needs a restart" "$TB_DIR/cli.log" && fail "reload: a restart named"
echo "ok: mp-backup c2 by reload: c2's auto path standby, then active again"
! grep -q "SIGUSR1\|Restart" "$TB_DIR/cli.log" || fail "the client restarted"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: mp-path auto: c1+c2 at start, c3 picked up mid-transfer and carried $d3 B, dropped when removed; 3 x sha256"
