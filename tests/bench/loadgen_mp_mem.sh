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
source "$(dirname "$0")/../daemon/gw_lib.sh"
gw_require
N=${1:?usage: loadgen_mp_mem.sh N [SHARE] [HOLD]}
SHARE=${2:-1}
HOLD=${3:-20}
gw_setup 1
CNS=$(gw_cns 1)
ip -n "$CNS" addr add 10.99.0.111/24 dev eth0 || gw_fail "second client address"
gw_server_conf "duplicate-cn" "max-clients $((N + 10))" "verb 3" "tls-crypt $GW_DIR/tc.key" "multipath on" \
	"keepalive 10 60" "status-json $GW_DIR/status.json 1"
# a /16 pool: a /24 holds 253 clients
sed -i 's/^server 10.8.0.0 255.255.255.0$/server 10.8.0.0 255.255.0.0/' "$GW_DIR/server.conf"
gw_start_server
ip netns exec "$CNS" "$BRAID_BIN_DIR/braid-loadgen" --remote 10.99.0.1:1194 --ca "$GW_DIR/ca.crt" \
	--cert "$GW_DIR/client1.crt" --key "$GW_DIR/client1.key" --wrap crypt --wrap-key "$GW_DIR/tc.key" \
	--bind 10.99.0.11 --mp-bind 10.99.0.111 --mp-share "$SHARE" --sessions "$N" --rate 50 --hs-timeout 30 \
	--retries 3 --pings 3 --ping-interval 300 --ping-wait 5000 --hold "$HOLD" \
	--gateway-pid "${GW_PID[server]}" --ready-file "$GW_DIR/ready" --label "mem-$N-$SHARE" \
	--timeout $((N / 10 + HOLD + 120)) >"$GW_DIR/lg.json" 2>"$GW_DIR/lg.log" &
lg=$!
GW_PIDS+=("$lg")
while [ ! -s "$GW_DIR/ready" ] && kill -0 "$lg" 2>/dev/null; do sleep 0.5; done
sleep $((HOLD - 2))
cp "$GW_DIR/status.json" "$GW_DIR/gw.json"
wait "$lg" || gw_fail "braid-loadgen exited $?"
python3 - "$GW_DIR/lg.json" "$GW_DIR/gw.json" "$N" "$SHARE" "$HOLD" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
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
                  "echo_loss": r["loss"], "mp_rx_dups": r["mp"]["rx_dups"], "loadgen_cpu_s": r.get("loadgen_cpu_s"),
                  "loadavg": sys.argv[6]}))
PY
gw_stop_server
