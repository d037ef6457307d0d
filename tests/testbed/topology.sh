#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bed reaches every address over the right path, IPv4 and IPv6, with N = 2 and 3 paths.
set -euo pipefail
source "$(dirname "$0")/../lib/testbed.sh"
[ "$(id -u)" -eq 0 ] || exit 77

fail() { echo "FAIL: $*" >&2; exit 1; }

rx_packets() { tb_exec "$1" cat "/sys/class/net/$2/statistics/rx_packets"; }

check_bed() {
	local n=$1 i v a before after
	tb_setup -n "$n"
	for ((i = 1; i <= n; i++)); do
		for v in 4 6; do
			a=$(tb_srv_addr "$i" "$v")
			tb_exec "$TB_CLI" ping -c1 -W2 -q "$a" >/dev/null || fail "cli -> srv path $i IPv$v ($a)"
		done
		# source policy routing: a packet from path I's address crosses router I, whatever the destination
		for v in 4 6; do
			before=$(rx_packets "${TB_R[i]}" "r${i}c")
			tb_exec "$TB_CLI" ping -c5 -i0.01 -W2 -q -I "$(tb_cli_addr "$i" "$v")" "$(tb_srv_addr 1 "$v")" >/dev/null ||
				fail "ping from path $i address IPv$v"
			after=$(rx_packets "${TB_R[i]}" "r${i}c")
			[ $((after - before)) -ge 5 ] || fail "path $i IPv$v source routing: router $i saw $((after - before)) packets, want >= 5"
		done
	done
	tb_exec "$TB_CLI" ping -c1 -W2 -q "$TB_APP_ADDR" >/dev/null || fail "cli -> app IPv4"
	tb_exec "$TB_CLI" ping -c1 -W2 -q "$TB_APP_ADDR6" >/dev/null || fail "cli -> app IPv6"
	tb_exec "$TB_APP" ping -c1 -W2 -q "$(tb_cli_addr 1)" >/dev/null || fail "app -> cli IPv4"
	# unique names: every namespace carries the run id
	[ "$(ip netns list | grep -c "^$TB_ID-")" -eq $((n + 3)) ] || fail "expected $((n + 3)) namespaces for $TB_ID"
	echo "ok: $n paths, v4+v6, source routing per path ($TB_ID)"
	tb_cleanup
}

check_bed 2
check_bed 3
