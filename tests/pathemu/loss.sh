#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# pathemu accuracy: loss models on path 1, up direction only (the down direction is set loss-free so every
# missing echo reply is an up-direction drop). 10,000 pings at 0.5 ms spacing per model.
#  uniform -l 2: measured loss within 2 % +- 4 sigma, sigma = sqrt(p(1-p)/n) (binomial).
#  GE p=1 r=75 1-h=50 1-k=3 (seed 004 Table 1 row 4): analytic stationary loss pi_G*0.03 + pi_B*0.5 with
#    pi_B = p/(p+r) = 3.618 %, within 4 sigma of the Markov-modulated sequence:
#    sigma^2 = [P(1-P) + 2 pi_G pi_B (lB-lG)^2 lam/(1-lam)] / n, lam = 1-p-r. (One-way 3.6 % is ~7 % round
#    trip: the Table 1 figure, which the seed measured with ping through both directions.)
#    Mean loss-burst length vs the analytic P(L)/(P(L)-P(LL)) = 1.058, within +-0.1.
#  Both: the receiver's count of lost pings equals the emulator's dropped_loss (and bursts = loss_bursts).
source "$(dirname "$0")/common.sh"
tb_setup -n 1
srv=$(tb_srv_addr 1)
N=10000

# run_pings: prints "lost bursts" seen by the receiver (missing icmp_seq runs out of 1..N)
run_pings() {
	tb_exec "$TB_CLI" ping -n -c "$N" -i 0.0005 -W 1 "$srv" 2>&1 | python3 -c '
import re, sys
n = int(sys.argv[1])
got = set(int(m.group(1)) for m in re.finditer(r"icmp_seq=(\d+) ", sys.stdin.read()))
lost = [s not in got for s in range(1, n + 1)]
bursts = sum(1 for i, l in enumerate(lost) if l and (i == 0 or not lost[i - 1]))
print(sum(lost), bursts)' "$N"
}

check_model() {
	local name=$1 want=$2 sigma=$3 s lost bursts got
	read -r lost bursts < <(run_pings)
	s=$(pe_stats 1 up)
	got=$(pe_calc "100 * $lost / $N")
	pe_check_range "$name loss over $N pings" "$got" "$(pe_calc "$want - 4 * $sigma")" "$(pe_calc "$want + 4 * $sigma")" %
	[ "$lost" = "$(pe_field "$s" dropped_loss)" ] ||
		fail "$name: receiver lost $lost, emulator dropped_loss $(pe_field "$s" dropped_loss)"
	[ "$bursts" = "$(pe_field "$s" loss_bursts)" ] ||
		fail "$name: receiver saw $bursts loss bursts, emulator counted $(pe_field "$s" loss_bursts)"
	echo "ok: $name receiver and emulator agree: $lost lost in $bursts bursts"
	LAST_BURST=$(pe_calc "$lost / $bursts")
}

tb_emu_start 1 -s 11
tb_emu 1 down set loss=0 ge=off >/dev/null
tb_wait_ping "$TB_CLI" "$srv" || fail "path 1 does not answer"
tb_emu 1 up set loss=2 >/dev/null
tb_emu 1 up quit >/dev/null # restart the up direction so its counters start at 0
sleep 0.2
tb_bg "${TB_R[1]}" "$BRAID_BIN_DIR/pathemu" -q 1 -c "$TB_DIR/emu-1-up.sock" -s 11 -l 2
for _ in $(seq 50); do tb_emu 1 up stats >/dev/null 2>&1 && break; sleep 0.05; done
check_model "uniform 2%" 2 "$(pe_calc "100 * sqrt(0.02 * 0.98 / $N)")"

tb_emu 1 up quit >/dev/null
sleep 0.2
tb_bg "${TB_R[1]}" "$BRAID_BIN_DIR/pathemu" -q 1 -c "$TB_DIR/emu-1-up.sock" -s 11 -g 1,75,3,50
for _ in $(seq 50); do tb_emu 1 up stats >/dev/null 2>&1 && break; sleep 0.05; done
read -r want sigma wburst < <(python3 - "$N" <<'PY'
import sys
from math import sqrt
n = int(sys.argv[1]); p, r, lg, lb = 0.01, 0.75, 0.03, 0.50
pb = p / (p + r); pg = 1 - pb; lam = 1 - p - r
P = pg * lg + pb * lb
var = (P * (1 - P) + 2 * pg * pb * (lb - lg) ** 2 * lam / (1 - lam)) / n
pll = pg * lg * ((1 - p) * lg + p * lb) + pb * lb * (r * lg + (1 - r) * lb)
print(round(100 * P, 4), round(100 * sqrt(var), 4), round(P / (P - pll), 4))
PY
)
check_model "GE 1,75,3,50" "$want" "$sigma"
pe_check_range "GE mean loss burst" "$LAST_BURST" "$(pe_calc "$wburst - 0.1")" "$(pe_calc "$wburst + 0.1")" packets
pe_check_accounting 1 up
pe_check_accounting 1 down
