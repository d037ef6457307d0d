#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cluster_async.sh - a clustered gateway (cluster-etcd, a real etcd in its namespace) whose store stops
# answering while a client connects: the connect's etcd requests (revoked/, ccd/, the address claim) run
# from the event loop, so the gateway keeps serving its other clients. Client 1 connects with etcd up and
# pings every 50 ms; etcd's port is then blackholed (nftables drop in the gateway's namespace) and client 2
# connects: its lookup times out after 1 s and it is refused (AUTH_FAILED, "... (cluster-etcd) is not
# reachable"); etcd back, client 2 connects (auth-retry nointeract) with a claimed address. Asserted: client
# 1 lost no ping and no reply took 700 ms or more (a blocking lookup held the loop for 1 s per request, up to
# 3 per connect), the refusal and its reason, client 2's address key in etcd, `reads failed 1` in the
# cluster stats.
set -uo pipefail
# the default worker count (one per core): each worker's etcd requests run on its own loop, so whichever
# workers the two clients land on, client 1's is never held by client 2's lookup
unset GW_TEST_WORKERS
source "$(dirname "$0")/gw_lib.sh"
source "$(dirname "$0")/etcd_lib.sh"
gw_require
for t in etcd nft jq; do command -v "$t" >/dev/null || gw_fail "$t not installed (packaging/install-deps.sh)"; done
gw_setup 2
etcd_start "$GW_NS" "$GW_DIR" http://127.0.0.1:2379 http://127.0.0.1:2379 ||
	gw_fail "etcd did not start: $(tail -n 5 "$GW_DIR/etcd.log")"
GW_PIDS+=("$ETCD_PID")

gw_server_conf "cluster-etcd http://127.0.0.1:2379" "cluster-ttl 10"
gw_start_server
gw_client_conf 1
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 20 || gw_fail "client 1 did not connect"
ip netns exec "$(gw_cns 1)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client 1: no ping"

ip netns exec "$(gw_cns 1)" ping -i 0.05 -c 80 -W 2 10.8.0.1 >"$GW_DIR/ping1" 2>&1 &
ping1=$!
sleep 0.5
{ ip netns exec "$GW_NS" nft add table inet etcdblock &&
	ip netns exec "$GW_NS" nft add chain inet etcdblock out '{ type filter hook output priority 0; }' &&
	ip netns exec "$GW_NS" nft add rule inet etcdblock out tcp dport 2379 drop; } || gw_fail "nft"
gw_client_conf 2 "auth-retry nointeract"
gw_start_client 2
gw_wait "$GW_DIR/server.log" "is not reachable" 15 || gw_fail "client 2 was not refused while etcd was away"
grep -q "cluster: reading braid/revoked/[0-9]* from etcd failed: Connection timed out" "$GW_DIR/server.log" ||
	gw_fail "no 'reading ... from etcd failed: Connection timed out' line"
gw_wait "$GW_DIR/c2.log" "AUTH_FAILED" 10 || gw_fail "client 2 was not sent AUTH_FAILED"
ip netns exec "$GW_NS" nft delete table inet etcdblock
wait "$ping1"
sed -n '/packets transmitted/,$p' "$GW_DIR/ping1"
grep -q " 0% packet loss" "$GW_DIR/ping1" || gw_fail "client 1 lost pings while client 2's lookup waited"
max=$(sed -n 's/^rtt .* = [0-9.]*\/[0-9.]*\/\([0-9.]*\)\/.*/\1/p' "$GW_DIR/ping1")
[ -n "$max" ] && python3 -c "import sys; sys.exit(0 if $max < 700 else 1)" ||
	gw_fail "client 1's slowest ping reply took $max ms while client 2's lookup waited (the loop stalled)"
gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 30 || gw_fail "client 2 did not connect once etcd was back"
a2=$(sed -n 's/.*net_addr_v4_add: \([0-9.]*\)\/.*/\1/p' "$GW_DIR/c2.log" | tail -n 1)
[ "$(etcd_get "braid/addr/$a2")" = "gw 1" ] || gw_fail "client 2's address $a2 is not claimed in etcd"
ip netns exec "$(gw_cns 2)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client 2: no ping"
cs=$(kill -USR2 "${GW_PID[server]}"; sleep 0.5; grep "cluster stats:" "$GW_DIR/server.log" | tail -n 1)
[[ $cs == *"reads failed 1"* ]] || gw_fail "cluster stats: $cs (want reads failed 1)"
gw_stop_client 2
gw_stop_client 1
gw_stop_server
echo "PASS: cluster_async: client 1's slowest ping $max ms while client 2's lookup timed out; client 2 at $a2 after"
