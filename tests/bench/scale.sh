#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scale.sh - sessions held vs gateway RSS, handshakes/s: braid-loadgen (tests/tools/loadgen) against a braidd
# gateway and against stock `openvpn --server`, same configuration, same run (issue 16; docs/scaling.md).
# Opt-in, not in CI (root, minutes to hours). One JSON line per run appended to OUT (the loadgen's report
# plus system/n/rep); tests/bench/scale_plot.py turns the file into plots and the table in docs/scaling.md.
#
#   sudo tests/bench/scale.sh [-o OUT] [-n "250 1000 2500"] [-s "braidd stock"] [-r RATE] [-k REPS]
#                             [-H HOLD_S] [-w none|auth|crypt]
#
# Each run: a fresh gateway (one namespace, `server 10.8.0.0 255.255.0.0`, duplicate-cn, max-clients 65000,
# keepalive 10 60), N sessions at RATE new/s from one client namespace (one address, N ports), one 84-byte
# ICMP echo per session through its tunnel, HOLD_S s idle (keepalives), RSS at start / after the echoes /
# after the hold, the gateway's CPU seconds and the UDP datagrams its namespace dropped for a full receive
# buffer. Per-idle-session memory = (RSS idle - RSS start) / sessions held.
BRAID_BIN_DIR=${BRAID_BIN_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin}
source "$(dirname "$0")/../daemon/gw_lib.sh"
OUT=docs/bench/scale.jsonl
NS_LIST="250 1000 2500"
SYSTEMS="braidd stock"
RATE=200
REPS=1
HOLD=20
WRAP=crypt
while getopts "o:n:s:r:k:H:w:" o; do
	case $o in
	o) OUT=$OPTARG ;; n) NS_LIST=$OPTARG ;; s) SYSTEMS=$OPTARG ;; r) RATE=$OPTARG ;;
	k) REPS=$OPTARG ;; H) HOLD=$OPTARG ;; w) WRAP=$OPTARG ;;
	*) sed -n 3,15p "$0"; exit 2 ;;
	esac
done
BRAIDD=$BRAID_BIN_DIR/braidd
LOADGEN=$BRAID_BIN_DIR/braid-loadgen
gw_require
[ -x "$LOADGEN" ] || { echo "braid-loadgen not built ($LOADGEN)" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"
gw_setup 1
CNS=$(gw_cns 1)
case $WRAP in
crypt) WRAPLINE="tls-crypt $GW_DIR/tc.key"; WRAPARGS=(--wrap crypt --wrap-key "$GW_DIR/tc.key") ;;
auth) WRAPLINE="tls-auth $GW_DIR/ta.key 0"; WRAPARGS=(--wrap auth --wrap-key "$GW_DIR/ta.key") ;;
*) WRAPLINE="# no wrap"; WRAPARGS=() ;;
esac
printf '%s\n' "dev tun" "topology subnet" "server 10.8.0.0 255.255.0.0" "port 1194" "local 10.99.0.1" \
	"ca $GW_DIR/ca.crt" "cert $GW_DIR/server.crt" "key $GW_DIR/server.key" "dh none" "keepalive 10 60" \
	"duplicate-cn" "max-clients 65000" "verb 3" "status $GW_DIR/status.txt 5" "status-version 2" \
	"$WRAPLINE" >"$GW_DIR/braidd.conf"
# stock 2.6 answers at most 100 new handshakes per 10 s by default
{ cat "$GW_DIR/braidd.conf"; echo "connect-freq-initial 1000000 10"; } >"$GW_DIR/stock.conf"

start_gw() {
	local sys=$1 i
	: >"$GW_DIR/$sys.log"
	if [ "$sys" = braidd ]; then
		ip netns exec "$GW_NS" "$BRAIDD" --config "$GW_DIR/braidd.conf" --log "$GW_DIR/$sys.log" &
		GWP=$!
		GW_PIDS+=("$GWP")
		gw_wait "$GW_DIR/$sys.log" "gateway ready" 15 || gw_fail "braidd did not start"
	else
		ip netns exec "$GW_NS" openvpn --cd "$GW_DIR" --config "$GW_DIR/stock.conf" --log "$GW_DIR/$sys.log" &
		GWP=$!
		GW_PIDS+=("$GWP")
		gw_wait "$GW_DIR/$sys.log" "Initialization Sequence Completed" 15 || gw_fail "openvpn did not start"
	fi
	sleep 1 # let its RSS settle
}

# UDP datagrams the gateway namespace's kernel dropped for a full socket receive buffer (RcvbufErrors)
udp_drops() {
	ip netns exec "$GW_NS" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 } else print $c["RcvbufErrors"] }' /proc/net/snmp
}

stop_gw() {
	local i
	kill "$GWP" 2>/dev/null
	for ((i = 0; i < 100; i++)); do kill -0 "$GWP" 2>/dev/null || break; sleep 0.1; done
	kill -9 "$GWP" 2>/dev/null
	wait "$GWP" 2>/dev/null
	ip -n "$GW_NS" link del tun0 2>/dev/null
	return 0
}

for ((rep = 1; rep <= REPS; rep++)); do
	for n in $NS_LIST; do
		for sys in $SYSTEMS; do
			start_gw "$sys"
			drops0=$(udp_drops)
			t_lim=$((n / (RATE < 20 ? RATE : 20) + HOLD + 300))
			ip netns exec "$CNS" "$LOADGEN" --remote 10.99.0.1:1194 --ca "$GW_DIR/ca.crt" \
				--cert "$GW_DIR/client1.crt" --key "$GW_DIR/client1.key" "${WRAPARGS[@]}" \
				--sessions "$n" --rate "$RATE" --pings 1 --ping-wait 10000 --hs-timeout 120 \
				--hold "$HOLD" --gateway-pid "$GWP" --label "$sys" --timeout "$t_lim" \
				>"$GW_DIR/run.json" 2>"$GW_DIR/loadgen.log"
			rc=$?
			cpu=$(awk '{print $14 + $15}' "/proc/$GWP/stat" 2>/dev/null || echo -1)
			drops=$(($(udp_drops) - drops0))
			stop_gw
			python3 - "$GW_DIR/run.json" "$sys" "$n" "$rep" "$rc" "$cpu" "$WRAP" "$(nproc)" \
				"$(cut -d' ' -f1-3 /proc/loadavg)" "$drops" >>"$OUT" <<'PY'
import json, os, sys
raw = open(sys.argv[1]).read().strip()
r = json.loads(raw) if raw else {"error": "no report"}
r.update(system=sys.argv[2], n=int(sys.argv[3]), rep=int(sys.argv[4]), rc=int(sys.argv[5]),
         gw_cpu_s=int(sys.argv[6]) / os.sysconf("SC_CLK_TCK"), wrap=sys.argv[7], cores=int(sys.argv[8]),
         loadavg=sys.argv[9], gw_udp_rcvbuf_errors=int(sys.argv[10]), host_loaded=True)
rss = {p["phase"]: p["rss_kb"] for p in r.get("rss", [])}
held = r.get("held", 0)
if held and rss.get("idle", -1) > 0 and rss.get("start", -1) > 0:
    r["kb_per_idle_session"] = round((rss["idle"] - rss["start"]) / held, 2)
print(json.dumps(r, sort_keys=True))
print(f"{r['system']:6} n={r['n']:5} held={held} hs/s={r.get('handshakes_per_s')} "
      f"rss={rss} kb/session={r.get('kb_per_idle_session')} loss={r.get('loss')}", file=sys.stderr)
PY
		done
	done
done
