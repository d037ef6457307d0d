#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bed's second shaper (run-cell.sh --shaper tbf|htb): kernel tbf/htb for rate and queue, pathemu -D
# (delay-only) for delay and loss, on path 1.
#  1. tbf 20 Mbit/s: iperf3 TCP cli->srv 4 s within +-10 % of 20 x 0.955 (TCP/IP/Ethernet overhead, testbed.md).
#  2. htb 20 Mbit/s (+ bfifo of 50 ms): the same.
#  3. pathemu -D -d 15 each way on top of tbf: median ping RTT within +-1 ms of 30 ms + the idle baseline
#     (timing asserted in the release build only, like pathemu.delay).
#  4. UDP 30 Mbit/s offered into tbf 20 + pathemu -D: received within +-10 % of 20 x 1400/1442, the drops are
#     the kernel qdisc's (> 0), pathemu drops nothing (no queue of its own) and its accounting adds up.
#  5. pathemu -D refuses a rate or a queue limit at run time (the control socket) and on its command line.
source "$(dirname "$0")/common.sh"
tb_setup -n 1
srv=$(tb_srv_addr 1)
tb_wait_ping "$TB_CLI" "$srv" || fail "path 1 does not answer"
base=$(pe_ping_rtt_avg "$TB_CLI" "$srv" 30 0.02)
echo "idle baseline RTT (no shaper): $base ms"
if tb_quiet 50 5; then gated=true; else gated=false; fi
echo "host busy before the runs: ${TB_QUIET_BUSY}% (gated: $gated)"

tcp_goodput() { # PORT: iperf3 TCP cli->srv for 4 s, received Mbit/s
	tb_bg "$TB_SRV" iperf3 -s -p "$1" -1 >/dev/null
	sleep 0.3
	local out
	out=$(tb_exec "$TB_CLI" iperf3 -c "$srv" -p "$1" -t 4 -J) || fail "iperf3 TCP: $out"
	python3 -c 'import json,sys; print(round(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/1e6, 3))' <<<"$out"
}
want=$(pe_calc "20 * 0.955")
lo=$(pe_calc "$want * 0.9") hi=$(pe_calc "$want * 1.1")

tb_tbf 1 20 50 16384 || fail "tbf on path 1"
tb_exec "${TB_R[1]}" tc qdisc show dev r1s | grep -q 'tbf.*rate 20Mbit' || fail "no tbf on r1s"
pe_check_range "TCP goodput through tbf 20 Mbit/s" "$(tcp_goodput 5321)" "$lo" "$hi" Mbit/s

tb_htb 1 20 50 16384 || fail "htb on path 1"
tb_exec "${TB_R[1]}" tc class show dev r1s | grep -q 'htb 1:10.*rate 20Mbit' || fail "no htb class on r1s"
pe_check_range "TCP goodput through htb 20 Mbit/s" "$(tcp_goodput 5322)" "$lo" "$hi" Mbit/s

tb_tbf 1 20 50 16384 || fail "tbf on path 1 (again)"
tb_emu_start 1 -D -d 15
s=$(pe_stats 1 up)
[ "$(pe_field "$s" delay_only)" = True ] && [ "$(pe_field "$s" qms)" = 0 ] && [ "$(pe_field "$s" rate_mbit)" = 0 ] ||
	fail "pathemu -D stats: $s"
rtt=$(pe_ping_rtt_median "$TB_CLI" "$srv" 50 0.02)
pe_check_timing "RTT through tbf + pathemu -D -d 15 each way" "$rtt" "$(pe_calc "30 + $base - 1")" "$(pe_calc "30 + $base + 1")" ms

read -r _ qd0 < <(tb_qdisc_stats 1)
tb_bg "$TB_SRV" iperf3 -s -p 5323 -1 >/dev/null
sleep 0.3
out=$(tb_exec "$TB_CLI" iperf3 -c "$srv" -p 5323 -u -b 30M -l 1400 -t 3 -J) || fail "iperf3 UDP: $out"
udp=$(python3 -c '
import json, sys
s = json.load(sys.stdin)["end"]["sum"]
print(round((s["packets"] - s["lost_packets"]) * 1400 * 8 / s["seconds"] / 1e6, 3))' <<<"$out")
uwant=$(pe_calc "20 * 1400 / (1400 + 8 + 20 + 14)")
pe_check_range "UDP received, 30 offered into tbf 20 + pathemu -D" "$udp" "$(pe_calc "$uwant * 0.9")" "$(pe_calc "$uwant * 1.1")" Mbit/s
read -r _ qd1 < <(tb_qdisc_stats 1)
s=$(pe_stats 1 up)
[ $((qd1 - qd0)) -gt 0 ] || fail "30 Mbit/s into tbf 20 caused no qdisc drop ($qd0 -> $qd1)"
[ "$(pe_field "$s" dropped_queue)" = 0 ] || fail "pathemu -D tail-dropped: $s"
echo "ok: drops by the tbf qdisc: $((qd1 - qd0)), by pathemu: 0 (received $(pe_field "$s" received))"
pe_check_accounting 1 up
pe_check_accounting 1 down

r=$(tb_emu 1 up set rate=10) && fail "set rate=10 accepted in delay-only mode: $r"
[ "$r" = "error: set: rate=10 refused in delay-only mode (no rate or queue model; use 0)" ] || fail "reply '$r'"
r=$(tb_emu 1 up set qms=20) && fail "set qms=20 accepted in delay-only mode: $r"
echo "ok: delay-only refuses rate and qms at run time"
err=$("$BRAID_BIN_DIR/pathemu" -q 9 -c "$TB_DIR/x.sock" -D -r 20 2>&1) && fail "pathemu -D -r 20 started"
case $err in *"-r: rate=20 refused in delay-only mode"*) echo "ok: '$err'" ;; *) fail "pathemu -D -r 20: '$err'" ;; esac
echo "PASS"
