#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-cell.sh - one benchmark run: fresh test bed, emulated paths, one SYSTEM, one WORKLOAD, ONE JSON line on
# stdout, teardown. Diagnostics go to stderr. Exit 0 when the run succeeded ("ok": true), 1 when it failed (the
# JSON line is still printed, with "error"), 2 on bad arguments (no JSON).
#
#   run-cell.sh -s SYSTEM -w http|iperf1|iperf4|failover|pingload [options]
#     --paths N            paths in the bed (default 2; 1 for single-path cells)
#     --rate1/--rate2 M    path rate in Mbit/s (0 = no rate limit)         default 10
#     --rtt1/--rtt2 MS     path round-trip time; RTT/2 one-way delay each direction   default 20
#     --loss SPEC          none | uniform:PCT | ge:P,R,1-K,1-H (percent; seed 004's Gilbert-Elliott) on every
#                          path, both directions                           default none
#     --unshaped           no emulator at all (raw veths)
#     --queue-ms MS|auto   emulator queue limit in ms of serialisation (tail drop); auto = max(50, RTT of the
#                          path), i.e. at least one path BDP                default auto
#     --shaper pathemu|tbf|htb   who shapes rate and queue: pathemu (default; rate, queue, delay, loss in one
#                          model) or the kernel's tbf / htb+bfifo (rate, and a tail-drop queue of --queue-ms) with
#                          pathemu in delay-only mode (-D) for the delay and the loss; pathemu runs only when the
#                          cell has a delay or a loss or the workload cuts a path. Recorded as "shaper".
#     --tbf-burst B|auto   tbf/htb bucket in bytes; auto = max(16384, 4 ms of the rate)   default auto
#     --size MB            http file size in MiB (default 16, the seed's)
#     --secs N             iperf duration (default 10)
#     --timeout S          cap on the workload (default 180)
#     --gate BUSY:TIMEOUT  tb_quiet before the transfer (default 20:60); --no-gate skips it
#     --scenario NAME --run N --seed N   labels copied into the JSON (seed also seeds the emulator)
#   -w failover (failover.sh): one TCP flow, a path cut during it; goodput in 50 ms bins around the cut
#     --cut-after S --post S   cut S s after the flow starts (default 3), keep the flow S s more (default 3)
#     --cut blackhole|down     silent pathemu blackhole (default) or link down;  --cut-path 1|2 (default 1)
#   -w pingload (pingload.sh): pings through the tunnel idle, then during one TCP download
#     --ping-ms MS (default 20) --idle-secs S (3) --warm-secs S (2) --load-secs S (5)
#
# Systems are tests/bench/systems/<name>.sh or a variant of one (see registry.sh).

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/../.." && pwd)
export TB_REPO=$REPO
PY=/usr/bin/python3

usage() {
	sed -n '4,30p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
bad() {
	echo "run-cell.sh: $*" >&2
	exit 2
}
isnum() { [[ $1 =~ ^[0-9]+([.][0-9]+)?$ ]]; }

SYSTEM= WORKLOAD= PATHS=2 RATE1=10 RATE2=10 RTT1=20 RTT2=20 LOSS=none SHAPED=1 QMS=auto SHAPER=pathemu TBURST=auto
SIZE_MB=16 SECS=10 TIMEOUT=180 GATE=20:60 SCENARIO=adhoc RUN=0 SEED=1
CUT_AFTER=3 POST=3 CUT_MODE=blackhole CUT_PATH=1 PING_MS=20 IDLE_SECS=3 WARM_SECS=2 LOAD_SECS=5 WL_INFO=
while [ $# -gt 0 ]; do
	case $1 in
	-s | --system) SYSTEM=$2; shift 2 ;;
	-w | --workload) WORKLOAD=$2; shift 2 ;;
	--paths) PATHS=$2; shift 2 ;;
	--rate1) RATE1=$2; shift 2 ;;
	--rate2) RATE2=$2; shift 2 ;;
	--rtt1) RTT1=$2; shift 2 ;;
	--rtt2) RTT2=$2; shift 2 ;;
	--loss) LOSS=$2; shift 2 ;;
	--unshaped) SHAPED=0; shift ;;
	--queue-ms) QMS=$2; shift 2 ;;
	--shaper) SHAPER=$2; shift 2 ;;
	--tbf-burst) TBURST=$2; shift 2 ;;
	--size) SIZE_MB=$2; shift 2 ;;
	--secs) SECS=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--gate) GATE=$2; shift 2 ;;
	--no-gate) GATE=none; shift ;;
	--scenario) SCENARIO=$2; shift 2 ;;
	--run) RUN=$2; shift 2 ;;
	--seed) SEED=$2; shift 2 ;;
	--cut-after) CUT_AFTER=$2; shift 2 ;;
	--post) POST=$2; shift 2 ;;
	--cut) CUT_MODE=$2; shift 2 ;;
	--cut-path) CUT_PATH=$2; shift 2 ;;
	--ping-ms) PING_MS=$2; shift 2 ;;
	--idle-secs) IDLE_SECS=$2; shift 2 ;;
	--warm-secs) WARM_SECS=$2; shift 2 ;;
	--load-secs) LOAD_SECS=$2; shift 2 ;;
	-h | --help) usage ;;
	*) bad "unknown option '$1' (see --help)" ;;
	esac
done

source "$BENCH_DIR/systems/registry.sh"
[ -n "$SYSTEM" ] || bad "missing -s SYSTEM (one of: ${BENCH_SYSTEMS[*]})"
known=0
for s in "${BENCH_SYSTEMS[@]}" "${BENCH_PEER_SYSTEMS[@]}"; do [ "$s" = "$SYSTEM" ] && known=1; done
[ $known = 1 ] || bad "unknown system '$SYSTEM' (one of: ${BENCH_SYSTEMS[*]})"
case $WORKLOAD in
http | iperf1 | iperf4 | failover | pingload) ;;
*) bad "unknown workload '$WORKLOAD' (http, iperf1, iperf4, failover, pingload)" ;;
esac
for v in PATHS RATE1 RATE2 RTT1 RTT2 SIZE_MB SECS TIMEOUT RUN SEED; do
	isnum "${!v}" || bad "--${v,,} must be a non-negative number, got '${!v}'"
done
[[ $PATHS =~ ^[12]$ ]] || bad "--paths must be 1 or 2, got '$PATHS'"
[ "$QMS" = auto ] || isnum "$QMS" || bad "--queue-ms must be a number or auto, got '$QMS'"
case $SHAPER in pathemu | tbf | htb) ;; *) bad "--shaper must be pathemu, tbf or htb, got '$SHAPER'" ;; esac
[ "$TBURST" = auto ] || [[ $TBURST =~ ^[0-9]+$ ]] || bad "--tbf-burst must be a number of bytes or auto, got '$TBURST'"
LOSS_MODEL=${LOSS%%:*} LOSS_PARAMS=
case $LOSS in
none) LOSS_PARAMS= ;;
uniform:*)
	LOSS_PARAMS=${LOSS#uniform:}
	isnum "$LOSS_PARAMS" || bad "--loss uniform:PCT needs a number, got '$LOSS_PARAMS'"
	;;
ge:*)
	LOSS_PARAMS=${LOSS#ge:}
	[[ $LOSS_PARAMS =~ ^[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+$ ]] ||
		bad "--loss ge:P,R,1-K,1-H needs four comma-separated percentages, got '$LOSS_PARAMS'"
	;;
*) bad "--loss must be none, uniform:PCT or ge:P,R,1-K,1-H, got '$LOSS'" ;;
esac
if [ "$GATE" != none ]; then
	[[ $GATE =~ ^[0-9]+:[0-9]+$ ]] || bad "--gate must be BUSY_PCT:TIMEOUT_S, got '$GATE'"
fi

case $WORKLOAD in failover | pingload) source "$BENCH_DIR/$WORKLOAD.sh"; wl_check ;; esac

source "$REPO/tests/lib/testbed.sh"
bench_system_file "$SYSTEM" || bad "unknown system '$SYSTEM': no file for it in $BENCH_DIR/systems"
source "$BENCH_SYS_FILE"

FILE_BYTES=$("$PY" -c "import sys; print(int(float(sys.argv[1]) * 1048576))" "$SIZE_MB")

# ---- result fields --------------------------------------------------------------------------------------------
ERROR= OK=false GOODPUT= BYTES= DURATION= RETR= TUN_RETR= IPERF_RETR= CPU= CPU_DETAIL= GATED=null GATE_BUSY=
GATE_WAIT= HOST_BUSY= SETUP_S= SYS_INFO= CLEAN=null FINISHED=0 DELAY_EMU= BURST1= BURST2= QD_INFO=
T_START=$SECONDS
TS=$(date -u +%Y-%m-%dT%H:%M:%SZ)
KERNEL=$(uname -r)
V_OVPN=$(openvpn --version 2>/dev/null | head -1 | awk '{print $2}')
V_IPERF=$(iperf3 --version 2>/dev/null | head -1 | awk '{print $2}')
V_CURL=$(curl --version 2>/dev/null | head -1 | awk '{print $2}')

# finish: tear the bed down, check that nothing is left, print the JSON line, exit.
finish() {
	local st=$?
	[ $FINISHED = 1 ] && return
	FINISHED=1
	# a run that ends without fail() (a signal, an exit from a sourced file) still says so in its line
	[ "$OK" = true ] || [ -n "$ERROR" ] || ERROR="run-cell.sh ended early without an error message (status $st)"
	local id=$TB_ID dir=$TB_DIR q1 q2
	[ -n "$TB_DIR" ] && [ $SHAPED = 1 ] && [ $SHAPER != pathemu ] && shaper_stats
	tb_cleanup >/dev/null 2>&1
	if [ -n "$id" ]; then
		if [ -z "$(ip netns list | grep -- "^$id-")" ] && [ ! -e "$dir" ]; then CLEAN=true; else CLEAN=false; fi
	fi
	if [ "$QMS" = auto ]; then
		q1=$(qms_for "$RTT1") q2=$(qms_for "$RTT2")
	else
		q1=$QMS q2=$QMS
	fi
	[ $SHAPED = 1 ] || { q1= q2=; }
	[ "$PATHS" = 1 ] && { RATE2= RTT2= q2= BURST2=; }
	[ $SHAPED = 0 ] && { RATE1= RATE2= RTT1= RTT2= SHAPER=none; }
	local okb=false
	[ "$OK" = true ] && okb=true
	"$PY" "$BENCH_DIR/jsonline.py" \
		s:ts="$TS" s:scenario="$SCENARIO" s:system="$SYSTEM" s:workload="$WORKLOAD" n:run="$RUN" \
		n:paths="$PATHS" b:shaped=$([ $SHAPED = 1 ] && echo true || echo false) s:shaper="$SHAPER" \
		n:rate1="$RATE1" n:rate2="$RATE2" n:rtt1="$RTT1" n:rtt2="$RTT2" \
		s:loss_model="$LOSS_MODEL" s:loss_params="$LOSS_PARAMS" n:qms1="$q1" n:qms2="$q2" n:seed="$SEED" \
		n:size_bytes="$([ "$WORKLOAD" = http ] && echo "$FILE_BYTES")" n:secs="$([ "$WORKLOAD" != http ] && echo "$SECS")" \
		s:delay_emu="$DELAY_EMU" n:burst1_bytes="$BURST1" n:burst2_bytes="$BURST2" r:"$QD_INFO" \
		b:ok=$okb s:error="$ERROR" n:goodput_mbps="$GOODPUT" n:bytes="$BYTES" n:duration_s="$DURATION" \
		n:retransmits="$RETR" n:iperf_retransmits="$IPERF_RETR" n:tunnel_retransmits="$TUN_RETR" \
		n:cpu="$CPU" j:cpu_pids="$CPU_DETAIL" j:gated="$GATED" n:gate_busy_pct="$GATE_BUSY" \
		n:gate_wait_s="$GATE_WAIT" n:host_busy_pct="$HOST_BUSY" n:host_load1="$(cut -d' ' -f1 /proc/loadavg)" \
		n:setup_s="$SETUP_S" n:total_s=$((SECONDS - T_START)) j:clean="$CLEAN" \
		s:kernel="$KERNEL" j:versions="{\"openvpn\": \"$V_OVPN\", \"iperf3\": \"$V_IPERF\", \"curl\": \"$V_CURL\"}" \
		r:"$SYS_INFO" r:"$WL_INFO"
	[ "$OK" = true ] && exit 0
	exit 1
}
fail() {
	[ -n "$ERROR" ] || ERROR="$*"
	echo "run-cell.sh: $SYSTEM/$WORKLOAD: $*" >&2
	finish
}
# testbed failures become a JSON error line instead of a bare exit
tb_die() { fail "testbed: $*"; }

qms_for() { # queue limit for a path of RTT $1 (ms)
	"$PY" -c "import sys; print(max(50.0, float(sys.argv[1])))" "$1" | sed 's/\.0$//'
}
burst_for() { # tbf/htb bucket for a path of rate $1 Mbit/s
	if [ "$TBURST" = auto ]; then
		"$PY" -c "import sys; print(max(16384, int(float(sys.argv[1]) * 1e6 / 8 * 0.004)))" "$1"
	else
		echo "$TBURST"
	fi
}
# shaper_stats: the kernel qdiscs' bytes sent and drops per path (both directions summed) into QD_INFO (JSON)
shaper_stats() {
	local i b d parts=()
	for i in $(seq 1 "$PATHS"); do
		read -r b d < <(tb_qdisc_stats "$i" 2>/dev/null) || continue
		parts+=("n:qdisc${i}_sent_bytes=$b" "n:qdisc${i}_dropped=$d")
	done
	[ ${#parts[@]} -gt 0 ] && QD_INFO=$("$PY" "$BENCH_DIR/jsonline.py" "${parts[@]}" | sed 's/^{//; s/}$//')
}
half() { "$PY" -c "import sys; print(float(sys.argv[1]) / 2)" "$1" | sed 's/\.0$//'; }

# /proc readings
cpu_ticks() { # sum of utime+stime of the given pids; "pid:ticks" lines on stdout
	local pid
	for pid in "$@"; do
		[ -r "/proc/$pid/stat" ] || continue
		# fields after the ")" of comm: state is $1, utime $12, stime $13
		echo "$pid:$(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}'):$(cat "/proc/$pid/comm")"
	done
}
host_stat() { head -1 /proc/stat | awk '{t=0; for (i=2;i<=9;i++) t+=$i; print t, $5+$6}'; }
retrans() { tb_exec "$1" awk '/^Tcp:/ { if (h) { print $13; exit } h=1 }' /proc/net/snmp; }

# ---- bed + paths ------------------------------------------------------------------------------------------------
tb_setup -n "$PATHS"
rc=$?
[ $rc = 0 ] || { ERROR="testbed setup failed (rc $rc)"; [ $rc = 77 ] && ERROR="needs root"; finish; }
trap 'finish' EXIT
trap 'ERROR="interrupted"; finish' INT TERM HUP

if [ $SHAPED = 1 ]; then
	[ $SHAPER = pathemu ] && DELAY_EMU=pathemu || DELAY_EMU=none
	# with a kernel shaper pathemu (delay-only) is needed for a delay, a loss model or a blackhole cut
	if [ $SHAPER != pathemu ] && { [ "$RTT1" != 0 ] || { [ "$PATHS" = 2 ] && [ "$RTT2" != 0 ]; } ||
		[ "$LOSS" != none ] || [ "$WORKLOAD" = failover ]; }; then
		DELAY_EMU=pathemu-delay-only
	fi
	for i in $(seq 1 "$PATHS"); do
		rate_v=RATE$i rtt_v=RTT$i
		q=$QMS
		[ "$q" = auto ] && q=$(qms_for "${!rtt_v}")
		if [ $SHAPER = pathemu ]; then
			opts=(-r "${!rate_v}" -Q "$q")
		else
			b=$(burst_for "${!rate_v}")
			printf -v "BURST$i" %s "$b"
			[ "${!rate_v}" = 0 ] || "tb_$SHAPER" "$i" "${!rate_v}" "$q" "$b" || fail "$SHAPER on path $i failed"
			[ $DELAY_EMU = pathemu-delay-only ] || continue
			opts=(-D)
		fi
		opts+=(-d "$(half "${!rtt_v}")" -s $((SEED * 10 + i)))
		case $LOSS_MODEL in
		uniform) opts+=(-l "$LOSS_PARAMS") ;;
		ge) opts+=(-g "$LOSS_PARAMS") ;;
		esac
		[ -x "$BRAID_BIN_DIR/pathemu" ] || fail "pathemu not built at $BRAID_BIN_DIR/pathemu (build the tree)"
		tb_emu_start "$i" "${opts[@]}" 2>"$TB_DIR/emu-$i.err" ||
			fail "pathemu on path $i did not start: $(head -c 300 "$TB_DIR/emu-$i.err")"
	done
fi

# ---- system -----------------------------------------------------------------------------------------------------
t0=$(date +%s.%N)
SYS_TIMEOUT=${SYS_TIMEOUT:-30}
sys_start 2>"$TB_DIR/sys.err" || fail "$SYSTEM did not come up: $(tail -c 400 "$TB_DIR/sys.err" | tr '\n' ' ')"
SETUP_S=$("$PY" -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))" "$t0" "$(date +%s.%N)")
TARGET=$(sys_target)
case ${SYS_SERVER_NS_NAME:-app} in
app) WNS=$TB_APP ;;
srv) WNS=$TB_SRV ;;
*) fail "system $SYSTEM: SYS_SERVER_NS_NAME must be app or srv" ;;
esac
read -r -a WRAP <<<"${SYS_WRAP:-}"

# ---- workload server ----------------------------------------------------------------------------------------------
if [ "$WORKLOAD" = http ]; then
	mkdir -p "$TB_DIR/www"
	head -c "$FILE_BYTES" /dev/urandom >"$TB_DIR/www/file" || fail "cannot create the test file"
	# python's http.server: dynamically linked, so `mptcpize run` can turn its socket into MPTCP (busybox is static)
	tb_bg "$WNS" "${WRAP[@]}" "$PY" -m http.server 8080 --bind 0.0.0.0 --directory "$TB_DIR/www" \
		>"$TB_DIR/httpd.log" 2>&1
	PORT=8080
elif declare -F wl_server >/dev/null; then
	wl_server
else
	tb_bg "$WNS" "${WRAP[@]}" iperf3 -s -1 -p 5201 >"$TB_DIR/iperf-s.log" 2>&1
	PORT=5201
fi
for i in $(seq 1 100); do
	[ -z "$PORT" ] || [ -n "$(tb_exec "$WNS" ss -ltnH "sport = :$PORT")" ] && break
	sleep 0.05
done
[ -z "$PORT" ] || [ -n "$(tb_exec "$WNS" ss -ltnH "sport = :$PORT")" ] || fail "workload server did not listen on :$PORT"

# ---- gate ---------------------------------------------------------------------------------------------------------
if [ "$GATE" != none ]; then
	g0=$SECONDS
	if tb_quiet "${GATE%%:*}" "${GATE##*:}"; then GATED=true; else GATED=false; fi
	GATE_BUSY=$TB_QUIET_BUSY GATE_WAIT=$((SECONDS - g0))
fi

# ---- transfer -----------------------------------------------------------------------------------------------------
mapfile -t SPIDS < <(sys_pids)
mapfile -t C0 < <(cpu_ticks "${SPIDS[@]}")
read -r H0T H0I < <(host_stat)
R0=$(retrans "$WNS")
[ "$WNS" = "$TB_SRV" ] || TR0=$(retrans "$TB_SRV")
w0=$(date +%s.%N)
if [ "$WORKLOAD" = http ]; then
	tb_exec "$TB_CLI" "${WRAP[@]}" timeout "$TIMEOUT" curl -sS -o /dev/null --max-time "$TIMEOUT" \
		-w '%{http_code} %{size_download} %{time_total}\n' "http://$TARGET:8080/file" \
		>"$TB_DIR/client.out" 2>"$TB_DIR/client.err" &
elif declare -F wl_client >/dev/null; then
	wl_client >"$TB_DIR/client.out" 2>"$TB_DIR/client.err" &
else
	np=1
	[ "$WORKLOAD" = iperf4 ] && np=4
	tb_exec "$TB_CLI" "${WRAP[@]}" timeout "$((TIMEOUT + SECS))" iperf3 -c "$TARGET" -p 5201 -R -t "$SECS" \
		-P "$np" -J >"$TB_DIR/client.out" 2>"$TB_DIR/client.err" &
fi
WPID=$!
while kill -0 "$WPID" 2>/dev/null; do
	declare -F sys_sample >/dev/null && sys_sample
	sleep 0.5
done
wait "$WPID"
wrc=$?
declare -F sys_sample >/dev/null && sys_sample
w1=$(date +%s.%N)
mapfile -t C1 < <(cpu_ticks "${SPIDS[@]}")
read -r H1T H1I < <(host_stat)
R1=$(retrans "$WNS")
[ "$WNS" = "$TB_SRV" ] || TR1=$(retrans "$TB_SRV")

# ---- results ------------------------------------------------------------------------------------------------------
RETR=$((R1 - R0))
[ -n "${TR0:-}" ] && TUN_RETR=$((TR1 - TR0))
[ "$((H1T - H0T))" -gt 0 ] && HOST_BUSY=$((100 * ((H1T - H0T) - (H1I - H0I)) / (H1T - H0T)))
WALL=$("$PY" -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$w0" "$w1")
if [ ${#SPIDS[@]} -gt 0 ]; then
	read -r CPU CPU_DETAIL < <("$PY" - "$WALL" "$(getconf CLK_TCK)" "${C0[*]}" "${C1[*]}" <<'EOF'
import json, sys
wall, hz = float(sys.argv[1]), float(sys.argv[2])
def parse(s):
    out = {}
    for item in s.split():
        pid, ticks, comm = item.split(':', 2)
        out[pid] = (int(ticks), comm)
    return out
a, b = parse(sys.argv[3]), parse(sys.argv[4])
det = {}
for pid, (t1, comm) in b.items():
    if pid in a:
        det[f'{comm}:{pid}'] = round(100.0 * (t1 - a[pid][0]) / hz / wall, 1)
print(round(sum(det.values()), 1) if det else 'null', json.dumps(det, separators=(',', ':')))
EOF
	)
fi
declare -F sys_info >/dev/null && SYS_INFO=$(sys_info)

if declare -F wl_result >/dev/null; then
	wl_result
elif [ $wrc != 0 ]; then
	fail "workload client failed (rc $wrc): $(tail -c 300 "$TB_DIR/client.err" | tr '\n' ' ')$(head -c 300 "$TB_DIR/client.out" | tr '\n' ' ')"
fi
if [ "$WORKLOAD" = http ]; then
	read -r code size ttotal <"$TB_DIR/client.out"
	[ "$code" = 200 ] || fail "http status '$code' from http://$TARGET:8080/file"
	[ "$size" = "$FILE_BYTES" ] || fail "http got $size bytes, expected $FILE_BYTES"
	BYTES=$size DURATION=$ttotal
	GOODPUT=$("$PY" -c "import sys; print(round(int(sys.argv[1]) * 8 / float(sys.argv[2]) / 1e6, 3))" "$size" "$ttotal")
elif declare -F wl_result >/dev/null; then
	: # set by wl_result
else
	read -r GOODPUT BYTES DURATION IPERF_RETR < <("$PY" - "$TB_DIR/client.out" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    r, s = d['end']['sum_received'], d['end']['sum_sent']
    print(round(r['bits_per_second'] / 1e6, 3), r['bytes'], round(r['seconds'], 3), s.get('retransmits', 'null'))
except (ValueError, KeyError) as e:
    print('null null null null')
EOF
	)
	[ "$GOODPUT" != null ] || fail "iperf3 JSON unreadable: $(grep -o '"error":.*' "$TB_DIR/client.out" | head -c 200)"
fi
"$PY" -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$GOODPUT" || fail "zero goodput"
OK=true
finish
