#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_workers.sh - gateway throughput vs worker count (issue 16 acceptance: throughput per gateway
# CPU-second with 2 workers >= 0.85x the 1-worker figure; docs/scaling.md "Workers"). Opt-in, root, not in
# CI. For each worker count W: a fresh braidd gateway with `workers W`, K stock OpenVPN 2.6 clients (one
# namespace each), each running one iperf3 TCP upload of T seconds to the gateway's tunnel address at once;
# the gateway's CPU seconds from /proc/PID/task/*/stat (utime + stime of every thread) over the transfer.
# One JSON line per W appended to OUT: workers, clients, seconds, mbit (sum of the receivers' rates),
# gw_cpu_s, mbit_per_cpu_s, threads. A count the gateway refuses (`braidd --test-config`) gives a line with
# "refused" and braidd's message instead; with W > 1 also the sessions per worker (the 4-tuple hash places
# them: with few clients one worker may get them all, read sessions_per_worker) and the load average.
#
#   sudo tests/bench/gw_workers.sh [-o OUT] [-w "1 2"] [-k CLIENTS] [-t SECONDS]
BRAID_BIN_DIR=${BRAID_BIN_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin}
source "$(dirname "$0")/../daemon/gw_lib.sh"
OUT=docs/bench/gw_workers.jsonl
WLIST="1 2"
K=2
T=5
while getopts "o:w:k:t:" o; do
	case $o in
	o) OUT=$OPTARG ;; w) WLIST=$OPTARG ;; k) K=$OPTARG ;; t) T=$OPTARG ;;
	*) sed -n 3,13p "$0"; exit 2 ;;
	esac
done
JL="$(dirname "$0")/jsonline.py"
gw_require
command -v iperf3 >/dev/null || { echo "FAIL: iperf3 missing (packaging/install-deps.sh)" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"
gw_setup "$K"
TCK=$(getconf CLK_TCK)

# gw_cpu_ticks PID: utime + stime of every thread of PID, in clock ticks
gw_cpu_ticks() {
	local s=0 f rest
	for f in /proc/"$1"/task/*/stat; do
		rest=$(sed 's/^.*) //' "$f" 2>/dev/null) || continue
		set -- $rest
		s=$((s + ${12} + ${13}))	# fields 14, 15 of stat (utime, stime), after pid and comm
	done
	echo "$s"
}

for W in $WLIST; do
	gw_server_conf "workers $W"
	if ! msg=$("$BRAIDD" --test-config --config "$GW_DIR/server.conf" 2>&1); then
		python3 "$JL" n:workers="$W" n:clients="$K" b:refused=true s:message="$(tail -1 <<<"$msg")" >>"$OUT"
		echo "workers $W: refused: $(tail -1 <<<"$msg")"
		continue
	fi
	gw_start_server
	for i in $(seq 1 "$K"); do	# one iperf3 server per client (a server serves one test at a time)
		rm -f "$GW_DIR/iperf-s$i.pid"
		ip netns exec "$GW_NS" iperf3 -s -B 10.8.0.1 -D -p $((5200 + i)) -I "$GW_DIR/iperf-s$i.pid" \
			--logfile "$GW_DIR/iperf-s$i.log"
	done
	for i in $(seq 1 "$K"); do
		gw_client_conf "$i"
		gw_start_client "$i"
	done
	for i in $(seq 1 "$K"); do
		gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 30 || gw_fail "client $i did not connect"
		[ -s "$GW_DIR/iperf-s$i.pid" ] && GW_PIDS+=("$(tr -dc 0-9 <"$GW_DIR/iperf-s$i.pid")")
	done
	sleep 0.5
	gpid=${GW_PID[server]}
	c0=$(gw_cpu_ticks "$gpid")
	cl=()
	for i in $(seq 1 "$K"); do
		ip netns exec "$(gw_cns "$i")" iperf3 -c 10.8.0.1 -p $((5200 + i)) -t "$T" -J >"$GW_DIR/iperf$i.json" &
		cl+=("$!")
	done
	wait "${cl[@]}"
	c1=$(gw_cpu_ticks "$gpid")
	threads=$(ls /proc/"$gpid"/task | wc -l)
	mbit=0
	for i in $(seq 1 "$K"); do
		r=$(jq -r '.end.sum_received.bits_per_second // 0' "$GW_DIR/iperf$i.json" 2>/dev/null)
		mbit=$(echo "$mbit + ${r:-0} / 1000000" | bc -l)
	done
	# sessions per worker (SIGUSR2's "worker W: sessions S" lines; "-" with one worker)
	spw=-
	if [ "$W" -gt 1 ]; then
		kill -USR2 "$gpid"
		sleep 0.5
		spw=$(grep -o "worker [0-9]*: sessions [0-9]*" "$GW_DIR/server.log" | tail -n "$W" |
			awk '{print $4}' | paste -sd/)
	fi
	cpu=$(echo "($c1 - $c0) / $TCK" | bc -l)
	per=$(echo "if ($cpu > 0) $mbit / $cpu else 0" | bc -l)
	python3 "$JL" n:workers="$W" n:clients="$K" n:seconds="$T" n:mbit="$(printf %.1f "$mbit")" \
		n:gw_cpu_s="$(printf %.2f "$cpu")" n:mbit_per_cpu_s="$(printf %.1f "$per")" n:threads="$threads" \
		s:sessions_per_worker="$spw" n:loadavg="$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT"
	echo "workers $W: $(printf %.1f "$mbit") Mbit/s over $K clients, gateway CPU $(printf %.2f "$cpu") s," \
		"$(printf %.1f "$per") Mbit per CPU-second, $threads thread(s), sessions per worker $spw"
	for i in $(seq 1 "$K"); do gw_stop_client "$i"; done
	gw_stop_server
	for i in $(seq 1 "$K"); do
		[ -s "$GW_DIR/iperf-s$i.pid" ] && kill "$(tr -dc 0-9 <"$GW_DIR/iperf-s$i.pid")" 2>/dev/null
	done
done
