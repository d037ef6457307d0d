# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# restart_lib.sh - helpers for the restart and outage tests (issue 10 part 4), on top of lib.sh.
#
# rs_now                          wall clock in seconds with fractions
# rs_back NS ADDR T0 LIMIT WHAT   wait (up to 150 s) until ADDR answers a ping from NS; fail unless that
#                                 was within LIMIT s of T0; print the seconds it took
# rs_count NAME TEXT              how many lines of NAME's log contain TEXT
# rs_wait_count NAME TEXT N [S]   wait until NAME's log has at least N lines with TEXT
rs_now() { date +%s.%N; }

rs_back() {
	local ns=$1 addr=$2 t0=$3 limit=$4 what=$5 el k
	for ((k = 0; k < 500; k++)); do
		tb_exec "$ns" ping -c1 -W0.3 -q "$addr" >/dev/null 2>&1 && break
	done
	el=$(awk -v a="$(rs_now)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
	awk -v e="$el" -v l="$limit" 'BEGIN { exit !(e <= l) }' ||
		fail "$what: the tunnel answered ${el} s after the event, want <= ${limit} s"
	echo "$el"
}

rs_count() { grep -cF -- "$2" "$TB_DIR/$1.log" 2>/dev/null; }

rs_wait_count() {
	local name=$1 text=$2 n=$3 timeout=${4:-10} k
	for ((k = 0; k < timeout * 20; k++)); do
		[ "$(rs_count "$name" "$text")" -ge "$n" ] && return 0
		sleep 0.05
	done
	return 1
}
