#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# pathemu accuracy: -d 10 each way on path 1 -> median ping RTT within +-1 ms of 20 ms + the idle baseline.
source "$(dirname "$0")/common.sh"
tb_setup -n 1
srv=$(tb_srv_addr 1)
tb_wait_ping "$TB_CLI" "$srv" || fail "path 1 does not answer"
base=$(pe_ping_rtt_avg "$TB_CLI" "$srv" 50 0.02)
echo "idle baseline RTT (no emulator): $base ms"
tb_emu_start 1 -d 10
for v in 4 6; do
	rtt=$(pe_ping_rtt_median "$TB_CLI" "$(tb_srv_addr 1 $v)" 50 0.02)
	pe_check_timing "IPv$v RTT with -d 10 each way" "$rtt" "$(pe_calc "20 + $base - 1")" "$(pe_calc "20 + $base + 1")" ms
done
# a run-time change applies to the following packets
tb_emu 1 both set delay=25 >/dev/null
rtt=$(pe_ping_rtt_median "$TB_CLI" "$srv" 30 0.02)
pe_check_timing "RTT after 'set delay=25'" "$rtt" "$(pe_calc "50 + $base - 1")" "$(pe_calc "50 + $base + 1")" ms
pe_check_accounting 1 up
pe_check_accounting 1 down
