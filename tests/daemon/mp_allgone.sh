#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# All paths gone on a static-key multipath session (issue 10 part 4, the TLS client's twin is restart_outage):
# a client with two paths (ping 1, ping-restart 6) to a server (ping 1, ping-restart 6). Both client links go
# down (rtnetlink sees them). Asserts, as docs/braidd.md says: the client logs
# "Inactivity timeout (--ping-restart), restarting" and "state: RECONNECTING (ping-restart)" within
# ping-restart + 3 s; its status has every path down (state failed or probing, none active) and tunnel.restarts
# counted; the tunnel does not answer. Then one link comes back: "state: CONNECTED" follows, the tunnel answers
# within ping-restart + 5 s, that path is active again and a 4 MB download has the right sha256.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
source "$(dirname "$0")/restart_lib.sh"
bd_require
PR=6
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
head -c 4194304 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
mp_pair 2 "ping 1" "ping-restart $PR" -- "ping 1" "ping-restart $PR"
mp_wait_paths cli 2 active 10 || fail "cli: not both paths active at start"
[ "$(mp_http_get blob)" = "$want" ] || fail "start: sha256"

t_down=$(rs_now)
tb_link_down 1
tb_link_down 2
rs_wait_count cli "Inactivity timeout (--ping-restart), restarting" 1 $((PR + 3)) ||
	fail "cli: no ping-restart within $((PR + 3)) s of both links going down"
rs_wait_count cli "state: RECONNECTING (ping-restart)" 1 2 || fail "cli: no 'state: RECONNECTING (ping-restart)'"
el_pr=$(awk -v a="$(rs_now)" -v b="$t_down" 'BEGIN { printf "%.1f", a - b }')
mp_refresh cli
sleep 0.2
[ "$(jq '.tunnel.restarts' "$TB_DIR/cli.json")" -ge 1 ] || fail "cli status: tunnel.restarts $(jq '.tunnel.restarts' "$TB_DIR/cli.json"), want >= 1"
[ "$(jq '[.paths[] | select(.state == "active" or .state == "standby" or .state == "degraded")] | length' "$TB_DIR/cli.json")" = 0 ] ||
	fail "cli status: a path still usable with both links down: $(jq -c '[.paths[] | {dev, state}]' "$TB_DIR/cli.json")"
[ "$(jq '.paths | length' "$TB_DIR/cli.json")" = 2 ] || fail "cli status: $(jq '.paths | length' "$TB_DIR/cli.json") paths, want the 2 configured"
tb_exec "$TB_CLI" ping -c1 -W1 -q 10.200.0.1 >/dev/null 2>&1 && fail "the tunnel answered with both links down"
sleep 3	# a second ping-restart period with nothing: the client keeps trying (no exit)
kill -0 "${BD_PID[cli]}" 2>/dev/null || fail "cli exited with every path gone"
n_conn=$(rs_count cli "state: CONNECTED")

t_up=$(rs_now)
tb_link_up 2
el=$(rs_back "$TB_CLI" 10.200.0.1 "$t_up" $((PR + 5)) "one link back")
rs_wait_count cli "state: CONNECTED" $((n_conn + 1)) 5 || fail "cli: no 'state: CONNECTED' after the link came back"
mp_wait_paths cli 1 active 10 || fail "cli: path 2 not active: $(jq -c '[.paths[] | {local, state}]' "$TB_DIR/cli.json")"
[ "$(mp_path_field cli 2 state)" = active ] || fail "cli: the active path is not path 2: $(jq -c '[.paths[] | {local, state}]' "$TB_DIR/cli.json")"
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "after one link came back: sha256 $got, want $want"
bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"
bd_stop srv || fail "srv exit code $? after SIGTERM, want 0"
kill "$MP_HTTP_PID" 2>/dev/null
echo "ok: static-key multipath, all paths gone: ping-restart ${el_pr} s after the cut, RECONNECTING, paths down in status; one link back: tunnel ${el} s later, CONNECTED, sha256"
