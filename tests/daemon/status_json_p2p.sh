#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `status-json FILE [S]` on the static-key (p2p) peer (docs/braidd.md "Status file" / "JSON status file"):
# a single-path static-key pair, srv with `status-json FILE 1` AND `status FILE2 1` (the static-key
# status file is the same JSON), 400 pings of 1000 bytes through the tunnel, then:
#  - FILE is one JSON object with exactly the documented top-level keys, role p2p, up, not multipath;
#  - its tunnel counters carried the pings (tun_write_pkts and link_rx_pkts >= 400, tun_write_bytes >=
#    400 x 1028) and equal the `status` file's keys;
#  - refreshed every second by rename (a hard link keeps the old inode; no FILE.tmp left);
#  - current when the peers stop (its time >= the stop time).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || { echo "FAIL: jq not installed (packaging/install-deps.sh)" >&2; exit 1; }
bd_require
tb_setup -n 1 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
J=$TB_DIR/srv.json S=$TB_DIR/srv.status
bd_pair AES-256-GCM "status-json $J 1" "status $S 1"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
tb_exec "$TB_CLI" ping -q -c 400 -i 0.005 -s 1000 10.200.0.1 >/dev/null || fail "pings lost"
sleep 2.3	# two refreshes

got=$(jq -c 'keys' "$J") || fail "$J is not JSON: $(head -c 300 "$J")"
# single path: no scheduler and no engine (multipath only)
want='["backend","failovers","multipath","paths","role","time","tunnel","up","uptime_s","version"]'
[ "$got" = "$want" ] || fail "keys $got, want $want"
[ "$(jq -c 'keys' "$S")" = "$got" ] || fail "status-json and status keys differ: $(jq -c keys "$S")"
[ "$(jq -c '.tunnel | keys' "$S")" = "$(jq -c '.tunnel | keys' "$J")" ] || fail "tunnel keys differ"
check() { jq -e "$1" "$J" >/dev/null || fail "not ($1): $(jq -c . "$J" | head -c 1500)"; }
check '.version == 1 and .role == "p2p" and .up == true and .multipath == false and .failovers == 0 and .backend == "userspace"'
check '.tunnel.tun_write_pkts >= 400 and .tunnel.link_rx_pkts >= 400 and .tunnel.tun_write_bytes >= 411200'
check '.tunnel.tun_read_pkts >= 400 and .tunnel.link_tx_pkts >= 400 and .tunnel.auth_failures == 0'
echo "ok: keys and counters ($(jq -c '.tunnel | {tun_write_pkts, tun_write_bytes, link_rx_pkts}' "$J"))"

ln "$J" "$J.old" || fail "ln"
t1=$(jq .time "$J.old")
sleep 2.2
t2=$(jq .time "$J")
[ "$t2" -gt "$t1" ] || fail "not refreshed: $t1 -> $t2"
[ "$(stat -c %i "$J")" != "$(stat -c %i "$J.old")" ] || fail "not replaced by rename"
[ "$(jq .time "$J.old")" = "$t1" ] || fail "the old file changed"
[ ! -e "$J.tmp" ] || fail "a .tmp file left"
echo "ok: refreshed every second, replaced by rename"

stop=$(date +%s)
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
[ "$(jq .time "$J")" -ge "$stop" ] || fail "not current at exit ($(jq .time "$J") < $stop)"
echo "PASS: status_json_p2p"
