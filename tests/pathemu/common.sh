# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# common.sh - shared helpers of the pathemu accuracy tests: root check (skip = 77), the test bed, JSON and
# arithmetic through python3 (a project dependency), and checks that print what they measured.
set -euo pipefail
PE_TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
# shellcheck source=../lib/testbed.sh
source "$PE_TESTS_DIR/../lib/testbed.sh"
[ -x "$BRAID_BIN_DIR/pathemu" ] && [ -x "$BRAID_BIN_DIR/pathemu-ctl" ] ||
	{ echo "FAIL: pathemu not built in $BRAID_BIN_DIR" >&2; exit 1; }

fail() { echo "FAIL: $*" >&2; exit 1; }

# pe_stats I DIR: the emulator's stats JSON (without the "ok " prefix)
pe_stats() {
	local r
	r=$(tb_emu "$1" "$2" stats) || fail "stats of path $1 $2: $r"
	echo "${r#ok }"
}

# pe_field JSON NAME
pe_field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

# pe_calc EXPR: python arithmetic (floats)
pe_calc() { python3 -c "from math import *; print(round($1, 4))"; }

# pe_check_range NAME VALUE LO HI UNIT: prints the measurement, fails outside [LO, HI]
pe_check_range() {
	local name=$1 v=$2 lo=$3 hi=$4 unit=${5:-}
	if python3 -c "import sys; sys.exit(0 if $lo <= $v <= $hi else 1)"; then
		echo "ok: $name = $v $unit (accepted $lo .. $hi)"
	else
		fail "$name = $v $unit, outside $lo .. $hi"
	fi
}

# pe_check_timing NAME VALUE LO HI UNIT: a timing accuracy check (delay, jitter, rate). Timing accuracy is a property
# of the release build that the benchmarks use; in the ASan+UBSan build (BRAID_SANITIZED=1, set by CMake) the
# instrumented emulator is slower by design, so there the value is printed and the test checks function only.
pe_check_timing() {
	if [ "${BRAID_SANITIZED:-0}" = 1 ]; then
		echo "info: $1 = $2 ${5:-} (sanitizer build: timing not asserted; release build accepts $3 .. $4)"
	else
		pe_check_range "$@"
	fi
}

# pe_check_accounting I DIR: received = sent + dropped_* + queued
pe_check_accounting() {
	local s
	s=$(pe_stats "$1" "$2")
	python3 - "$s" "$1" "$2" <<'PY' || fail "accounting of path $2 $3"
import json, sys
s = json.loads(sys.argv[1])
rhs = s["sent"] + s["dropped_loss"] + s["dropped_queue"] + s["dropped_down"] + s["queued"]
print(f"path {sys.argv[2]} {sys.argv[3]}: received {s['received']} = sent {s['sent']} + loss {s['dropped_loss']}"
      f" + queue {s['dropped_queue']} + down {s['dropped_down']} + queued {s['queued']} ({'ok' if rhs == s['received'] else 'MISMATCH'})")
sys.exit(0 if rhs == s["received"] and s["received"] > 0 else 1)
PY
}

# pe_ping_rtt_median NS ADDR COUNT INTERVAL [ping args]: the median of the per-packet RTTs in ms (a delay check:
# a busy host adds a few late replies, which move the mean but not the median)
pe_ping_rtt_median() {
	local ns=$1 addr=$2 count=$3 iv=$4 out
	shift 4
	out=$(tb_exec "$ns" ping -c "$count" -i "$iv" -W 2 "$@" "$addr") || fail "ping $addr: $out"
	echo "$out" | sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# pe_ping_rtt_avg NS ADDR COUNT INTERVAL [ping args]: average RTT in ms
pe_ping_rtt_avg() {
	local ns=$1 addr=$2 count=$3 iv=$4 out
	shift 4
	out=$(tb_exec "$ns" ping -q -c "$count" -i "$iv" -W 2 "$@" "$addr") || fail "ping $addr: $out"
	echo "$out" | awk -F/ '/^rtt/ { print $5 }'
}
