#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_loadgen.sh [SESSIONS] [WRAP] - braid-loadgen (tests/tools/loadgen) against a braidd gateway AND a stock
# `openvpn --server` with the same configuration, one after the other in the same namespaces:
# every session established (TLS, PUSH_REQUEST/PUSH_REPLY, pushed keys), a reply to every ICMP echo sent
# through every tunnel to the gateway's tunnel address, the gateway's status file lists every session
# (CLIENT_LIST lines, status-version 2), the gateway's RSS read from /proc. Default 200 sessions, tls-crypt.
# Uses gw_lib.sh (one client namespace: all sessions from one address, many ports; duplicate-cn).
source "$(dirname "$0")/gw_lib.sh"
gw_require
N=${1:-200}
WRAP=${2:-crypt}
LOADGEN=$BRAID_BIN_DIR/braid-loadgen
[ -x "$LOADGEN" ] || { echo "FAIL: braid-loadgen not built ($LOADGEN)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 missing" >&2; exit 1; }
gw_setup 1
case $WRAP in
crypt) WRAPLINE="tls-crypt $GW_DIR/tc.key"; WRAPARGS=(--wrap crypt --wrap-key "$GW_DIR/tc.key") ;;
auth) WRAPLINE="tls-auth $GW_DIR/ta.key 0"; WRAPARGS=(--wrap auth --wrap-key "$GW_DIR/ta.key") ;;
*) WRAPLINE=""; WRAPARGS=() ;;
esac
gw_server_conf "duplicate-cn" "max-clients $((N + 50))" "verb 3" "$WRAPLINE"
CNS=$(gw_cns 1)

# run_loadgen NAME PID: N sessions at 50/s (a handshake not done in 20 s starts again from a new port, at most 3
# times, as a real client's would: counted, not failed), 3 echoes each once every handshake ended; the status file
# is read while the sessions idle
run_loadgen() {
	local name=$1 pid=$2 listed i
	rm -f "$GW_DIR/$name.ready"
	ip netns exec "$CNS" "$LOADGEN" --remote 10.99.0.1:1194 --ca "$GW_DIR/ca.crt" \
		--cert "$GW_DIR/client1.crt" --key "$GW_DIR/client1.key" "${WRAPARGS[@]}" \
		--sessions "$N" --rate 50 --hs-timeout 20 --retries 3 --pings 3 --ping-interval 300 --ping-after-all \
		--ping-wait 5000 --hold 4 \
		--gateway-pid "$pid" --ready-file "$GW_DIR/$name.ready" --label "$name" --timeout 100 \
		>"$GW_DIR/$name.json" 2>"$GW_DIR/$name-loadgen.log" &
	local lg=$!
	GW_PIDS+=("$lg")
	for ((i = 0; i < 1800; i++)); do
		[ -s "$GW_DIR/$name.ready" ] && break
		kill -0 "$lg" 2>/dev/null || break
		sleep 0.05
	done
	[ -s "$GW_DIR/$name.ready" ] || gw_fail "$name: the load generator never reached its hold"
	sleep 1.5 # status file: written every second
	listed=$(grep -c '^CLIENT_LIST,client1,' "$GW_DIR/status.txt")
	wait "$lg" || gw_fail "$name: braid-loadgen exited $?"
	python3 - "$GW_DIR/$name.json" "$N" "$listed" "$name" <<'PY' || gw_fail "$name: assertions failed"
import json, sys
r = json.load(open(sys.argv[1])); n = int(sys.argv[2]); listed = int(sys.argv[3]); name = sys.argv[4]
bad = []
if r["established"] != n: bad.append(f"established {r['established']} of {n} (fail {r['fail']})")
if r["failed"] or r["dropped"]: bad.append(f"failed {r['failed']} dropped {r['dropped']}")
if r["pings_sent"] != 3 * n: bad.append(f"pings_sent {r['pings_sent']} != {3 * n}")
if r["pings_replied"] != r["pings_sent"]: bad.append(f"pings_replied {r['pings_replied']} of {r['pings_sent']}")
if r["sessions_all_replies"] != n: bad.append(f"sessions_all_replies {r['sessions_all_replies']}")
if r["rx_data_dropped"] or r["rx_truncated"]: bad.append("data packets dropped")
if listed != n: bad.append(f"status lists {listed} sessions, want {n}")
rss = {p["phase"]: p["rss_kb"] for p in r["rss"]}
if not all(rss.get(k, -1) > 0 for k in ("start", "established", "idle")): bad.append(f"rss {rss}")
print(f"{name}: {r['established']}/{n} established ({r['retried']} handshakes started again), "
      f"{r['handshakes_per_s']} handshakes/s, "
      f"{r['pings_replied']}/{r['pings_sent']} echoes answered, rtt p50 {r['rtt_ms']['p50']} ms, "
      f"status lists {listed}, rss {rss}")
for b in bad: print(f"{name}: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

gw_start_server
run_loadgen braidd "${GW_PID[server]}"
gw_stop_server

# stock openvpn, the same configuration file (plus connect-freq-initial: braidd has no such limit by default)
: >"$GW_DIR/stock.log"
rm -f "$GW_DIR/status.txt"
# stock 2.6 answers at most 100 new handshakes per 10 s by default (connect-freq-initial): lift it
{ cat "$GW_DIR/server.conf"; echo "connect-freq-initial 100000 10"; } >"$GW_DIR/stock.conf"
ip netns exec "$GW_NS" openvpn --cd "$GW_DIR" --config "$GW_DIR/stock.conf" --log "$GW_DIR/stock.log" &
GW_PID[stock]=$!
GW_PIDS+=("$!")
gw_wait "$GW_DIR/stock.log" "Initialization Sequence Completed" 15 || gw_fail "stock openvpn server did not start"
run_loadgen stock "${GW_PID[stock]}"
gw_stop stock
echo "PASS: gw_loadgen ($N sessions, wrap $WRAP): braidd and stock openvpn"
