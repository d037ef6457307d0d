#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath braidd over 2 and then 3 paths of the bed: ping v4 + v6 inside the tunnel, a 10 MB download over
# IPv4 and one over IPv6 (inner) whose sha256 must match; every path validated on both ends, every path carried
# data in both directions (status file counters); the server learned exactly N paths; clean SIGTERM exit.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
tb_setup -n 3 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
head -c 10485760 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
# the paths differ a little, so EDF must really split (and not just take the first)
tb_emu_start 1 -r 40 -d 5 >/dev/null
tb_emu_start 2 -r 30 -d 10 >/dev/null
tb_emu_start 3 -r 20 -d 15 >/dev/null

for n in 2 3; do
	mp_pair "$n"
	tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "$n paths: no IPv4 ping through the tunnel"
	tb_exec "$TB_CLI" ping -c3 -i0.2 -W2 -q 10.200.0.1 >/dev/null || fail "$n paths: IPv4 ping loss"
	tb_exec "$TB_CLI" ping -6 -c3 -i0.2 -W2 -q fd00:200::1 >/dev/null || fail "$n paths: IPv6 ping loss"
	mp_wait_paths cli "$n" active 10 || fail "$n paths: cli: not all paths active: $(jq -c '[.paths[].state]' "$TB_DIR/cli.json")"
	mp_wait_paths srv "$n" active 10 || fail "$n paths: srv: not all paths active: $(jq -c '[.paths[].state]' "$TB_DIR/srv.json")"
	got=$(mp_http_get blob) 
	[ "$got" = "$want" ] || fail "$n paths: IPv4 10 MB download sha256 $got, want $want"
	got=$(mp_http_get blob fd00:200::1)
	[ "$got" = "$want" ] || fail "$n paths: IPv6 10 MB download sha256 $got, want $want"
	mp_refresh srv
	mp_refresh cli
	[ "$(jq .engine.paths_learned "$TB_DIR/srv.json")" = "$n" ] ||
		fail "$n paths: srv learned $(jq .engine.paths_learned "$TB_DIR/srv.json") paths, want $n"
	[ "$(jq .engine.paths_learned "$TB_DIR/cli.json")" = 0 ] || fail "$n paths: cli learned a path it did not configure"
	[ "$(jq .tunnel.auth_failures "$TB_DIR/cli.json")" = 0 ] || fail "$n paths: auth failures on a good key"
	for ((i = 1; i <= n; i++)); do
		srv_tx=$(mp_path_field srv "$i" tx_bytes)
		cli_tx=$(mp_path_field cli "$i" wire_tx_pkts)
		cli_rx=$(mp_path_field cli "$i" rx_bytes)
		# 20 MB went down: every path carries a real part of it (> 1 MB); the client's pure ACKs take the
		# lowest-delay path (traffic class), but its probes and reports go up every path
		[ "$srv_tx" -gt 1000000 ] || fail "$n paths: path $i: srv sent only $srv_tx data bytes on it"
		[ "$cli_rx" -gt 1000000 ] || fail "$n paths: path $i: cli received only $cli_rx data bytes on it"
		[ "$cli_tx" -gt 10 ] || fail "$n paths: path $i: cli sent only $cli_tx datagrams on it"
		echo "  path $i: srv tx $srv_tx B, cli rx $cli_rx B, cli datagrams sent $cli_tx"
	done
	total=$(jq '[.paths[].rx_bytes] | add' "$TB_DIR/cli.json")
	[ "$total" -ge 20971520 ] || fail "$n paths: cli received $total data bytes in all, want >= 20 MB"
	bd_stop cli || fail "$n paths: cli exit code $? after SIGTERM, want 0"
	bd_stop srv || fail "$n paths: srv exit code $? after SIGTERM, want 0"
	grep -qF "closed (routes and addresses removed)" "$TB_DIR/srv.log" || fail "no TUN close log line"
	echo "ok: $n paths: ping v4+v6, 2 x 10 MB sha256 (inner v4 and v6), traffic on every path, $n paths learned"
done
kill "$MP_HTTP_PID"
