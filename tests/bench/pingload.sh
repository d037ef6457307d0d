# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# pingload.sh - workload "pingload" of run-cell.sh (sourced, not run): ping through the tunnel (client -> the
# workload target, every PING_MS ms) first on the idle tunnel for IDLE_SECS s, then while one inner TCP download
# (flowtool.py, app -> client) saturates the paths: the download starts, WARM_SECS s later LOAD_SECS s of pings.
# Results: the ping percentiles idle and under load, "added_p95_ms" = p95 under load - median idle (flowtool.py
# ping), and the download's goodput over its whole duration.
#
# Inputs from run-cell.sh: WNS TARGET WRAP TB_* PING_MS IDLE_SECS WARM_SECS LOAD_SECS TIMEOUT.

WL_PORT=5300

wl_check() {
	isnum "$PING_MS" && isnum "$IDLE_SECS" && isnum "$WARM_SECS" && isnum "$LOAD_SECS" ||
		bad "--ping-ms, --idle-secs, --warm-secs and --load-secs must be numbers"
	"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 2 else 1)" "$PING_MS" ||
		bad "--ping-ms must be at least 2 (ping's minimum interval as root), got '$PING_MS'"
	PL_NIDLE=$("$PY" -c "import sys; print(max(1, round(float(sys.argv[1]) * 1000 / float(sys.argv[2]))))" "$IDLE_SECS" "$PING_MS")
	PL_NLOAD=$("$PY" -c "import sys; print(max(1, round(float(sys.argv[1]) * 1000 / float(sys.argv[2]))))" "$LOAD_SECS" "$PING_MS")
	PL_INTERVAL=$("$PY" -c "import sys; print(float(sys.argv[1]) / 1000)" "$PING_MS")
	# the download outlasts the loaded pings by 1 s
	SECS=$("$PY" -c "import sys; print(float(sys.argv[1]) + float(sys.argv[2]) + 1)" "$WARM_SECS" "$LOAD_SECS" | sed 's/\.0$//')
}

wl_server() {
	# the sender is started by wl_client after the idle pings; only check that nothing else holds the port
	PORT=
}

wl_client() {
	tb_exec "$TB_CLI" ping -n -i "$PL_INTERVAL" -c "$PL_NIDLE" -W 1 "$TARGET" >"$TB_DIR/ping-idle.txt" 2>&1
	tb_bg "$WNS" "${WRAP[@]}" "$PY" "$BENCH_DIR/flowtool.py" send --port $WL_PORT --secs "$SECS" \
		>"$TB_DIR/flow-send.log" 2>&1
	local i
	for i in $(seq 1 100); do
		[ -n "$(tb_exec "$WNS" ss -ltnH "sport = :$WL_PORT")" ] && break
		sleep 0.05
	done
	tb_exec "$TB_CLI" "${WRAP[@]}" "$PY" "$BENCH_DIR/flowtool.py" recv --host "$TARGET" --port $WL_PORT \
		--out "$TB_DIR/flow-recv.json" --timeout "$TIMEOUT" &
	local rpid=$!
	sleep "$WARM_SECS"
	tb_exec "$TB_CLI" ping -n -i "$PL_INTERVAL" -c "$PL_NLOAD" -W 1 "$TARGET" >"$TB_DIR/ping-load.txt" 2>&1
	wait "$rpid"
}

wl_result() {
	local info err
	[ -s "$TB_DIR/flow-recv.json" ] || fail "pingload: the download wrote no log: $(tail -c 300 "$TB_DIR/client.err")"
	err=$(jq -r '.error // empty' "$TB_DIR/flow-recv.json")
	[ -z "$err" ] || fail "pingload: the download failed: $err"
	info=$("$PY" "$BENCH_DIR/flowtool.py" ping --idle "$TB_DIR/ping-idle.txt" --load "$TB_DIR/ping-load.txt" \
		--count-idle "$PL_NIDLE" --count-load "$PL_NLOAD") ||
		fail "pingload: no ping replies (idle: $(tail -2 "$TB_DIR/ping-idle.txt" | tr '\n' ' '), load: $(tail -2 "$TB_DIR/ping-load.txt" | tr '\n' ' '))"
	read -r BYTES DURATION < <(jq -r '"\(.bytes) \(.t1 - .t0)"' "$TB_DIR/flow-recv.json")
	GOODPUT=$("$PY" -c "import sys; print(round(int(sys.argv[1]) * 8 / float(sys.argv[2]) / 1e6, 3))" "$BYTES" "$DURATION")
	WL_INFO="$info, \"ping_ms\": $PING_MS, \"idle_secs\": $IDLE_SECS, \"warm_secs\": $WARM_SECS, \"load_secs\": $LOAD_SECS"
}
