#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# loadgen_mp_mem.sh N [SHARE] [HOLD] - the braidd gateway's memory per idle session by mode (docs/scaling.md "Load
# generator", memory): a fresh gateway with `multipath on` in a network namespace, N braid-loadgen sessions of which
# SHARE (default 1: all) are multipath (second path from a second client address), 3 echoes each as it comes up
# (50 new sessions/s: no burst of echoes), HOLD seconds idle
# (default 20: the engines' idle arrays are trimmed every 8 s), then one JSON line: established, multipath sessions
# with 2 active paths in the gateway's status JSON, RSS start / idle, KiB per idle session, loadavg.
# Root, opt-in, not in CI (a loaded host's numbers are labelled by its loadavg).
#
# The issue-16 acceptance run (10,000 mixed sessions, each >= 1 MiB both ways, then 60 s idle) is the same with
# more traffic per session, set through the environment:
#   LG_RATE=25 LG_PINGS=750 LG_PING_SIZE=1400 LG_PING_INTERVAL=100 loadgen_mp_mem.sh 10000 0.5 60
# (750 echoes of 1,400 bytes = 1,050,000 bytes each way; `sessions_min_bytes` counts the sessions whose echoes and
# replies each reached 1 MiB, `mp_sessions_echoes_both_paths` the multipath ones that used both paths both ways).
# KEEP_DIR=D keeps the generator's report and log, the gateway's status JSON and a count of its log lines by kind.
# `kb_budget` is the issue's target for that mix: SHARE x 256 KB + (1 - SHARE) x 64 KB per idle session.
source "$(dirname "$0")/../daemon/gw_lib.sh"
gw_require
N=${1:?usage: loadgen_mp_mem.sh N [SHARE] [HOLD]}
SHARE=${2:-1}
HOLD=${3:-20}
RATE=${LG_RATE:-50}
PINGS=${LG_PINGS:-3}
PSIZE=${LG_PING_SIZE:-84}
PINT=${LG_PING_INTERVAL:-300}
gw_setup 1
CNS=$(gw_cns 1)
ip -n "$CNS" addr add 10.99.0.111/24 dev eth0 || gw_fail "second client address"
gw_server_conf "duplicate-cn" "max-clients ${LG_MAX_CLIENTS:-$((N + 10))}" "verb 3" "tls-crypt $GW_DIR/tc.key" "multipath on" \
	"keepalive 10 60" "status-json $GW_DIR/status.json 1"
# a /16 pool: a /24 holds 253 clients
sed -i 's/^server 10.8.0.0 255.255.255.0$/server 10.8.0.0 255.255.0.0/' "$GW_DIR/server.conf"
gw_start_server
ip netns exec "$CNS" "$BRAID_BIN_DIR/braid-loadgen" --remote 10.99.0.1:1194 --ca "$GW_DIR/ca.crt" \
	--cert "$GW_DIR/client1.crt" --key "$GW_DIR/client1.key" --wrap crypt --wrap-key "$GW_DIR/tc.key" \
	--bind 10.99.0.11 --mp-bind 10.99.0.111 --mp-share "$SHARE" --sessions "$N" --rate "$RATE" --hs-timeout 30 \
	--retries 3 --pings "$PINGS" --ping-size "$PSIZE" --ping-interval "$PINT" --ping-wait 5000 --hold "$HOLD" \
	--min-bytes 1048576 \
	--gateway-pid "${GW_PID[server]}" --ready-file "$GW_DIR/ready" --label "mem-$N-$SHARE" \
	--timeout $((N / RATE + PINGS * PINT / 1000 + HOLD + 300)) >"$GW_DIR/lg.json" 2>"$GW_DIR/lg.log" &
lg=$!
GW_PIDS+=("$lg")
while [ ! -s "$GW_DIR/ready" ] && kill -0 "$lg" 2>/dev/null; do sleep 0.5; done
sleep $((HOLD - 2))
cp "$GW_DIR/status.json" "$GW_DIR/gw.json"
[ -n "$KEEP_DIR" ] && mkdir -p "$KEEP_DIR" && cp "/proc/${GW_PID[server]}/smaps" "$KEEP_DIR/gw.smaps"
wait "$lg" || gw_fail "braid-loadgen exited $?"
if [ -n "$KEEP_DIR" ]; then	# for a look afterwards: the reports, the gateway's status and its log lines by kind
	mkdir -p "$KEEP_DIR" && cp "$GW_DIR/lg.json" "$GW_DIR/gw.json" "$GW_DIR/lg.log" "$KEEP_DIR/"
	cut -d' ' -f3- "$GW_DIR/server.log" | sed 's/[0-9][0-9]*/N/g' | sort | uniq -c | sort -rn >"$KEEP_DIR/server-kinds.txt"
fi
peak=$(awk '/^VmHWM/ {print $2}' "/proc/${GW_PID[server]}/status")
python3 - "$GW_DIR/lg.json" "$GW_DIR/gw.json" "$N" "$SHARE" "$HOLD" "$(cut -d' ' -f1-3 /proc/loadavg)" "$peak" \
	"$(gw_workers)" <<'PY'
import json, sys, time
r = json.load(open(sys.argv[1])); gw = json.load(open(sys.argv[2]))
rss = {p["phase"]: p["rss_kb"] for p in r["rss"]}
held = r["established"] - r["dropped"]
mp2 = sum(1 for c in gw["clients"] if "engine" in c and len(c["paths"]) == 2
          and all(p["state"] == "active" for p in c["paths"]))
print(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "sessions": int(sys.argv[3]),
                  "mp_share": float(sys.argv[4]), "hold_s": int(sys.argv[5]), "established": r["established"],
                  "established_mp": r["established_mp"], "held": held, "gw_mp_clients_2_active_paths": mp2,
                  "rss_start_kb": rss.get("start"), "rss_idle_kb": rss.get("idle"),
                  "kb_per_idle_session": round((rss["idle"] - rss["start"]) / held, 1) if held else None,
                  "kb_budget": round(float(sys.argv[4]) * 256 + (1 - float(sys.argv[4])) * 64, 1),
                  "rss_peak_kb": int(sys.argv[7]), "gw_workers": sys.argv[8], "rate": r["rate"],
                  "ping_size": r["ping_size"], "pings_per_session": r["pings_per_session"],
                  "sessions_min_bytes": r["sessions_min_bytes"], "min_bytes": r["min_bytes"],
                  "session_reply_bytes_min": r["session_reply_bytes_min"],
                  "mp_sessions_echoes_both_paths": r["mp_sessions_echoes_both_paths"],
                  "handshakes_per_s": r["handshakes_per_s"], "retried": r["retried"], "failed": r["failed"],
                  "echo_loss": r["loss"], "mp_rx_dups": r["mp"]["rx_dups"], "loadgen_cpu_s": r.get("loadgen_cpu_s"),
                  "loadavg": sys.argv[6]}))
PY
gw_stop_server
