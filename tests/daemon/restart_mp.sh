#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Restarts in static-key multipath mode (issue 10 part 4; the field report: SIGHUP on the client left the
# tunnel dead > 2 min, path stuck `probing`, srv counting replays). Two paths, ping-restart 60 s:
#  1. SIGHUP on cli (full restart, config read again: a scheduler change takes effect): the tunnel answers
#     within 5 s, srv renews its engine on the new packet-id sequence without a restart of its own, both paths
#     active again on both ends, 4 MB sha256-checked download, srv counted no replays;
#  2. SIGUSR1 on srv: back within 5 s, both paths active, download.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
source "$(dirname "$0")/restart_lib.sh"
bd_require
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
TB_BLOB=$TB_DIR/blob
head -c 4194304 /dev/urandom >"$TB_BLOB"
want=$(sha256sum <"$TB_BLOB" | cut -d' ' -f1)
mp_http_start

mp_pair 2 "keepalive 1 60" -- "keepalive 1 60"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
mp_wait_paths cli 2 active 10 || fail "cli: paths not active at start"
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "start: sha256 $got, want $want"
[ "$(mp_json cli '.scheduler | startswith("ratio")')" = false ] || fail "cli already runs the ratio scheduler"

# 1. SIGHUP on cli; the changed option: the scheduler
echo "mp-scheduler ratio 1:1" >>"$TB_DIR/cli.conf"
t0=$(rs_now)
kill -HUP "${BD_PID[cli]}"
rs_wait_count cli "SIGHUP: configuration read again" 1 5 || fail "cli: no reload logged"
el=$(rs_back "$TB_CLI" 10.200.0.1 "$t0" 5 "multipath SIGHUP on cli")
bd_wait_log srv "multipath: the peer restarted" 5 || fail "srv did not renew its engine"
[ "$(rs_count srv "process restarting")" = 0 ] || fail "srv restarted itself"
mp_wait_paths cli 2 active 10 || fail "cli: paths not active after SIGHUP: $(jq -c '[.paths[].state]' "$TB_DIR/cli.json")"
mp_wait_paths srv 2 active 10 || fail "srv: paths not active after SIGHUP: $(jq -c '[.paths[].state]' "$TB_DIR/srv.json")"
[ "$(mp_json cli '.scheduler | startswith("ratio")')" = true ] || fail "cli: the scheduler from the re-read config is not in effect"
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "after SIGHUP: sha256 $got, want $want"
replays=$(mp_json srv .tunnel.replays)
[ "$replays" -le 5 ] || fail "srv counted $replays replays after the client's restart"
echo "ok: multipath SIGHUP on cli: back in ${el} s, config re-read (scheduler ratio), both paths active, sha256, srv replays $replays"

# 2. SIGUSR1 on srv
t0=$(rs_now)
kill -USR1 "${BD_PID[srv]}"
el=$(rs_back "$TB_CLI" 10.200.0.1 "$t0" 5 "multipath SIGUSR1 on srv")
rs_wait_count cli "multipath: the peer restarted" 1 5 || fail "cli did not renew its engine"
mp_wait_paths cli 2 active 10 || fail "cli: paths not active after SIGUSR1"
mp_wait_paths srv 2 active 10 || fail "srv: paths not active after SIGUSR1"
got=$(mp_http_get blob)
[ "$got" = "$want" ] || fail "after SIGUSR1: sha256 $got, want $want"
echo "ok: multipath SIGUSR1 on srv: back in ${el} s, both paths active, sha256"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
