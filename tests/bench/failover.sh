# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# failover.sh - workload "failover" of run-cell.sh (sourced, not run): one inner TCP flow (flowtool.py, app ->
# client through the system) for CUT_AFTER + POST seconds; CUT_AFTER s after it starts, path CUT_PATH is cut
# (CUT_MODE blackhole: pathemu drops everything both ways, the link stays up; down: both veth ends of the path go
# down, as tb_link_down). The receiver logs its application bytes in 10 ms bins; flowtool.py failover turns them
# into 50 ms bins from the cut and the time until the goodput is back at >= 50 % of the surviving path's emulated
# rate ("failover_back_ms", definition in flowtool.py), plus "inner_reset" (the flow did not end with a clean EOF).
#
# Inputs from run-cell.sh: WNS TARGET WRAP TB_* RATE1 RATE2 CUT_AFTER POST CUT_PATH CUT_MODE TIMEOUT.
# Results: GOODPUT BYTES DURATION (the whole flow) and WL_INFO (JSON members).

WL_PORT=5300

wl_check() {
	[ "$PATHS" = 2 ] || bad "-w failover needs --paths 2 (a path to cut and one to survive)"
	[[ $CUT_PATH =~ ^[12]$ ]] || bad "--cut-path must be 1 or 2, got '$CUT_PATH'"
	case $CUT_MODE in blackhole | down) ;; *) bad "--cut must be blackhole or down, got '$CUT_MODE'" ;; esac
	[ "$SHAPED" = 1 ] && [ "$SHAPER" = pathemu ] || [ "$CUT_MODE" = down ] ||
		bad "--cut blackhole needs the pathemu shaper (use --cut down otherwise)"
	isnum "$CUT_AFTER" && isnum "$POST" || bad "--cut-after and --post must be numbers of seconds"
	SECS=$("$PY" -c "import sys; print(float(sys.argv[1]) + float(sys.argv[2]))" "$CUT_AFTER" "$POST" | sed 's/\.0$//')
}

wl_server() {
	# the flow outlasts the analysed window (cut + POST) by 0.5 s, so that its end is never read as a dip
	tb_bg "$WNS" "${WRAP[@]}" "$PY" "$BENCH_DIR/flowtool.py" send --port $WL_PORT --secs "$("$PY" -c "import sys; print(float(sys.argv[1]) + 0.5)" "$SECS")" \
		>"$TB_DIR/flow-send.log" 2>&1
	PORT=$WL_PORT
}

# runs in the background (a subshell): receiver, then the cut at CUT_AFTER s
wl_client() {
	tb_exec "$TB_CLI" "${WRAP[@]}" "$PY" "$BENCH_DIR/flowtool.py" recv --host "$TARGET" --port $WL_PORT \
		--out "$TB_DIR/flow-recv.json" --timeout "$TIMEOUT" &
	local rpid=$!
	sleep "$CUT_AFTER"
	date +%s.%N >"$TB_DIR/cut-time"
	if [ "$CUT_MODE" = blackhole ]; then tb_blackhole "$CUT_PATH"; else tb_link_down "$CUT_PATH"; fi
	date +%s.%N >"$TB_DIR/cut-done"
	wait "$rpid"
}

wl_result() {
	local cut done_t cap info
	[ -s "$TB_DIR/flow-recv.json" ] || fail "failover: the receiver wrote no log: $(tail -c 300 "$TB_DIR/client.err")"
	cut=$(cat "$TB_DIR/cut-time" 2>/dev/null) done_t=$(cat "$TB_DIR/cut-done" 2>/dev/null)
	[ -n "$cut" ] || fail "failover: the path was never cut"
	if [ "$CUT_PATH" = 1 ]; then cap=$RATE2; else cap=$RATE1; fi
	info=$("$PY" "$BENCH_DIR/flowtool.py" failover --recv "$TB_DIR/flow-recv.json" --cut "$cut" --capacity "$cap" \
		--post "$POST") || fail "failover: analysis failed: $info"
	read -r BYTES DURATION < <(jq -r '"\(.bytes) \(.t1 - .t0)"' "$TB_DIR/flow-recv.json")
	GOODPUT=$("$PY" -c "import sys; print(round(int(sys.argv[1]) * 8 / float(sys.argv[2]) / 1e6, 3))" "$BYTES" "$DURATION")
	WL_INFO="$info, \"cut_mode\": \"$CUT_MODE\", \"cut_path\": $CUT_PATH, \"cut_after_s\": $CUT_AFTER, \"post_s\": $POST, \"cut_cmd_ms\": $("$PY" -c "import sys; print(round((float(sys.argv[2]) - float(sys.argv[1])) * 1000, 1))" "$cut" "$done_t")"
}
