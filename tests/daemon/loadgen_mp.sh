#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# loadgen_mp.sh [SESSIONS] - braid-loadgen's multipath mode (tests/tools/loadgen/lg_mp.c) against a braidd gateway
# with `multipath on` (docs/multipath-negotiation.md, docs/scaling.md "Load generator"). The client namespace has
# two addresses (10.99.0.11, the session sockets and path 0; 10.99.0.111, path 1).
#   1. SESSIONS sessions (default 40), half of them multipath: every session established; every multipath session
#      announced IV_BRAID_MP, was offered `braid-mp 1 65536` and took it up; the gateway's own status JSON
#      (status-json, read while the sessions idle) lists exactly SESSIONS/2 clients with a multipath engine, each
#      with exactly 2 paths, both validated and active, one from each client address; the single-path half has
#      none; the gateway's log has one `multipath negotiated` line per multipath session; every echo answered
#      (loss printed, bound 0), no data packet dropped.
#   2. A fresh gateway, SESSIONS/2 sessions all multipath, held idle: (RSS idle - RSS at start) / sessions printed
#      as the gateway's memory per idle multipath session (loaded host: printed, not asserted), and the bytes its
#      allocator handed out per multipath session (status-json heap.in_use_kb + mapped_kb, idle - before the first
#      session) bounded at 96 KiB: what malloc hands out does not depend on the host's load, and a buffer sized for
#      the engine's bounds (the 580 KB control batch was one, resident whenever the allocator recycled memory)
#      fails it.
source "$(dirname "$0")/gw_lib.sh"
gw_require
N=${1:-40}
LOADGEN=$BRAID_BIN_DIR/braid-loadgen
[ -x "$LOADGEN" ] || { echo "FAIL: braid-loadgen not built ($LOADGEN)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "FAIL: python3 missing" >&2; exit 1; }
gw_setup 1
CNS=$(gw_cns 1)
ip -n "$CNS" addr add 10.99.0.111/24 dev eth0 || gw_fail "second client address"
gw_server_conf "duplicate-cn" "max-clients $((N + 10))" "verb 3" "tls-crypt $GW_DIR/tc.key" "multipath on" \
	"status-json $GW_DIR/status.json 1"

# run NAME SHARE SESSIONS: the load generator against the running gateway; its JSON in $GW_DIR/NAME.json, the
# gateway's status JSON while the sessions idle in $GW_DIR/NAME-gw.json
run() {
	local name=$1 share=$2 n=$3 i
	rm -f "$GW_DIR/$name.ready"
	for ((i = 0; i < 100; i++)); do [ -s "$GW_DIR/status.json" ] && break; sleep 0.05; done
	cp "$GW_DIR/status.json" "$GW_DIR/$name-gw0.json" || gw_fail "$name: no status JSON before the sessions"
	ip netns exec "$CNS" "$LOADGEN" --remote 10.99.0.1:1194 --ca "$GW_DIR/ca.crt" \
		--cert "$GW_DIR/client1.crt" --key "$GW_DIR/client1.key" --wrap crypt --wrap-key "$GW_DIR/tc.key" \
		--bind 10.99.0.11 --mp-bind 10.99.0.111 --mp-share "$share" \
		--sessions "$n" --rate 50 --hs-timeout 20 --retries 3 --pings 3 --ping-interval 300 --ping-after-all \
		--ping-wait 5000 --hold 5 --gateway-pid "${GW_PID[server]}" --ready-file "$GW_DIR/$name.ready" \
		--label "$name" --timeout 50 >"$GW_DIR/$name.json" 2>"$GW_DIR/$name-loadgen.log" &
	local lg=$!
	GW_PIDS+=("$lg")
	for ((i = 0; i < 900; i++)); do
		[ -s "$GW_DIR/$name.ready" ] && break
		kill -0 "$lg" 2>/dev/null || break
		sleep 0.05
	done
	[ -s "$GW_DIR/$name.ready" ] || gw_fail "$name: the load generator never reached its hold"
	sleep 2.5 # the status JSON is written every second; the paths validated within a round trip of learning
	cp "$GW_DIR/status.json" "$GW_DIR/$name-gw.json" || gw_fail "$name: no status JSON"
	wait "$lg" || gw_fail "$name: braid-loadgen exited $?"
}

gw_start_server
run mixed 0.5 "$N"
negotiated=$(grep -c 'multipath negotiated (IV_BRAID_MP' "$GW_DIR/server.log")
python3 - "$GW_DIR/mixed.json" "$GW_DIR/mixed-gw.json" "$N" "$negotiated" <<'PY' || gw_fail "mixed: assertions failed"
import json, sys
r = json.load(open(sys.argv[1])); gw = json.load(open(sys.argv[2])); n = int(sys.argv[3]); neg = int(sys.argv[4])
nmp = n // 2
bad = []
mp = r["mp"]
if r["established"] != n or r["failed"] or r["dropped"]:
    bad.append(f"established {r['established']} of {n}, failed {r['failed']}, dropped {r['dropped']} ({r['fail']})")
if r["mode"] != "mixed": bad.append(f"mode {r['mode']}")
if mp["announced"] != nmp or mp["accepted"] != nmp or mp["not_offered"]:
    bad.append(f"multipath announced {mp['announced']} accepted {mp['accepted']} not offered {mp['not_offered']}, want {nmp}")
if r["established_mp"] != nmp or r["established_sp"] != n - nmp:
    bad.append(f"established sp {r['established_sp']} / mp {r['established_mp']}")
if mp["challenges_answered"] < 2 * nmp: bad.append(f"challenges answered {mp['challenges_answered']} < {2 * nmp}")
if mp["sessions_2_paths_validated"] != nmp:
    bad.append(f"loadgen saw both paths probed in {mp['sessions_2_paths_validated']} sessions, want {nmp}")
if mp["ctl_bad"]: bad.append(f"ctl_bad {mp['ctl_bad']}")
if min(mp["tx_path"]) == 0 or min(mp["rx_path"]) == 0: bad.append(f"per-path datagrams tx {mp['tx_path']} rx {mp['rx_path']}")
if r["pings_sent"] != 3 * n: bad.append(f"pings_sent {r['pings_sent']} != {3 * n}")
if r["pings_replied"] != r["pings_sent"]: bad.append(f"pings_replied {r['pings_replied']} of {r['pings_sent']}")
if r["rx_data_dropped"] or r["rx_truncated"]: bad.append("data packets dropped")
if neg != nmp: bad.append(f"gateway log: {neg} 'multipath negotiated' lines, want {nmp}")
# the gateway's own view: clients with an engine, their paths
clients = gw["clients"]
mpc = [c for c in clients if "engine" in c]
if len(clients) != n: bad.append(f"gateway lists {len(clients)} clients, want {n}")
if len(mpc) != nmp: bad.append(f"gateway lists {len(mpc)} multipath clients, want {nmp}")
validated = 0
for c in mpc:
    ps = c["paths"]
    good = [p for p in ps if p["state"] == "active" and p["validations"] >= 1]
    srcs = sorted(p["remote"].split("]")[-1].rsplit(":", 1)[0] for p in good)  # "[AF_INET]10.99.0.11:PORT"
    if len(ps) == 2 and len(good) == 2 and srcs == ["10.99.0.11", "10.99.0.111"]:
        validated += 1
    else:
        bad.append(f"peer-id {c['peer_id']}: paths {[(p['remote'], p['state'], p['validations']) for p in ps]}")
for c in clients:
    if "engine" not in c and c["paths"]: bad.append(f"single-path peer-id {c['peer_id']} has paths")
rss = {p["phase"]: p["rss_kb"] for p in r["rss"]}
print(f"mixed: {r['established']}/{n} established ({r['established_sp']} single-path, {r['established_mp']} multipath, "
      f"{r['retried']} handshakes started again); gateway: {len(mpc)} multipath clients, {validated} with 2 validated "
      f"active paths; echoes {r['pings_replied']}/{r['pings_sent']} (loss {r['loss']}); challenges answered "
      f"{mp['challenges_answered']}, probes echoed {mp['probes_echoed']}, datagrams per path tx {mp['tx_path']} "
      f"rx {mp['rx_path']}; rss {rss}")
for b in bad[:20]: print(f"mixed: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
gw_stop_server

# a fresh gateway, multipath sessions only: the gateway's memory per idle multipath session
rm -f "$GW_DIR/status.json"
gw_start_server
run mp 1 $((N / 2))
python3 - "$GW_DIR/mp.json" "$GW_DIR/mp-gw.json" $((N / 2)) "$GW_DIR/mp-gw0.json" <<'PY' || gw_fail "mp: assertions failed"
import json, sys
r = json.load(open(sys.argv[1])); gw = json.load(open(sys.argv[2])); n = int(sys.argv[3])
gw0 = json.load(open(sys.argv[4]))
bad = []
if r["established"] != n or r["established_mp"] != n or r["dropped"]: bad.append(f"established {r['established']} mp {r['established_mp']}")
mpc = [c for c in gw["clients"] if "engine" in c]
ok = sum(1 for c in mpc if len(c["paths"]) == 2 and all(p["state"] == "active" for p in c["paths"]))
if ok != n: bad.append(f"gateway: {ok} of {n} multipath clients with 2 active paths")
rss = {p["phase"]: p["rss_kb"] for p in r["rss"]}
if not all(rss.get(k, -1) > 0 for k in ("start", "established", "idle")): bad.append(f"rss {rss}")
else:
    print(f"mp: {n} multipath sessions idle, gateway rss {rss['start']} -> {rss['idle']} KiB: "
          f"{(rss['idle'] - rss['start']) / n:.1f} KiB per idle multipath session (loaded host); "
          f"echo loss {r['loss']}")
# handed out from the arenas or mmap'ed on its own (a large malloc goes either way, by glibc's dynamic threshold)
used = lambda j: j["heap"]["in_use_kb"] + j["heap"]["mapped_kb"]
heap = (used(gw) - used(gw0)) / n
if gw["heap"]["in_use_kb"] == 0:  # a sanitizer's allocator: glibc's arenas stay empty (the release build checks)
    print("mp: the allocator's bytes in use: not known (not glibc's allocator)")
else:
    print(f"mp: the allocator handed out {heap:.1f} KiB per idle multipath session "
          f"({used(gw0)} -> {used(gw)} KiB)")
    if heap > 96: bad.append(f"heap in use {heap:.1f} KiB per idle multipath session, bound 96")
for b in bad: print(f"mp: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
gw_stop_server
echo "PASS: loadgen_mp ($N sessions, half multipath: every one established, every multipath one with 2 validated paths)"
