# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The systems the bench knows, in the order they run within a cell. Adding one = a systems/<name>.sh file defining
# sys_start, sys_target, sys_pids (optional: SYS_SERVER_NS_NAME app|srv, SYS_WRAP, sys_sample, sys_info) plus one
# line here. A name may also be a variant of a file with an argument: bench_system_file maps it.
#   braid                  systems/braid.sh, scheduler edf (the daemon's default)
#   braid-<sched>          systems/braid.sh with BRAID_SCHED=<sched> (rtt, mpip, lowest-rtt, backup, redundant);
#   braid-mptcp            systems/braid-mptcp.sh: braidd over kernel MPTCP (`mptcp on`), beside ovpn-mptcp and mptcp
#   braid-ratio            "ratio RATE1:RATE2": static shares set to the cell's path rates (1:1 when unshaped)
BENCH_SYSTEMS=(
	ovpn-udp
	ovpn-tcp
	ovpn-mptcp
	mptcp
	braid-mptcp
	braid
	braid-rtt
	braid-ratio
	braid-mpip
	braid-lowest-rtt
	braid-backup
	braid-redundant
)
# The VPN peers (opt-in: tests/bench/peers/build-peers.sh builds them into $BRAID_PEERS_DIR or build/peers): run-cell.sh
# and bench.py --systems accept them; a grid's default systems stay BENCH_SYSTEMS.
BENCH_PEER_SYSTEMS=(glorytun mlvpn)
# The braid schedulers as systems (braid = edf), for grids and the smoke test.
BENCH_BRAID_SCHEDULERS=(braid braid-rtt braid-ratio braid-mpip braid-lowest-rtt braid-backup braid-redundant)

# bench_system_file NAME: set BENCH_SYS_FILE to the file that implements system NAME and, for braid-<sched>,
# BRAID_SCHED; the caller then sources the file in the same shell. braid-ratio reads RATE1/RATE2/SHAPED (the cell's
# rates, reduced by their greatest common divisor at 0.1 Mbit/s resolution). Returns 1 if NAME is not known.
bench_system_file() {
	local name=$1 dir
	dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	BENCH_SYS_FILE=
	case $name in
	braid-ratio)
		if [ "${SHAPED:-1}" = 0 ]; then
			BRAID_SCHED="ratio 1:1"
		else
			BRAID_SCHED=$(awk -v a="${RATE1:-0}" -v b="${RATE2:-0}" 'BEGIN {
				a = int(a * 10 + 0.5); b = int(b * 10 + 0.5)
				if (a == 0 || b == 0) { print "ratio 1:1"; exit }
				x = a; y = b; while (y) { t = x % y; x = y; y = t }
				printf "ratio %d:%d\n", a / x, b / x }')
		fi
		;;
	braid-edf | braid-rtt | braid-mpip | braid-lowest-rtt | braid-backup | braid-redundant)
		BRAID_SCHED=${name#braid-}
		;;
	*)
		[ -f "$dir/$name.sh" ] || return 1
		BENCH_SYS_FILE=$dir/$name.sh
		return 0
		;;
	esac
	BENCH_SYS_FILE=$dir/braid.sh
}
