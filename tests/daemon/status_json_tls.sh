#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `status-json FILE N` of the TLS client and the gateway (docs/braidd.md "JSON status file"): a braidd gateway
# (`multipath on`) and a braidd client with 2 mp-path lines, both with `status-json ... 1`, a 4 MiB download
# through both paths (sha256 checked), then:
#  - each file is one JSON object with exactly the documented top-level keys (and a gateway client's keys);
#  - the client: role client, up, state up, multipath, scheduler edf, remote = the gateway's address, dev,
#    ifconfig_local 10.8.0.2, tunnel byte AND packet counters that carried the download (tun_write_bytes >=
#    the blob, link_rx_pkts >= blob/1500), 2 paths active whose wire_rx_bytes add up to >= the blob;
#  - the gateway: gateway.clients 1, one client client1 with virtual_address 10.8.0.2, multipath, scheduler,
#    tx_bytes >= the blob, 2 paths; gateway.tun_read_pkts and link_tx_pkts count the multipath client's
#    packets (>= blob/1500);
#  - the files are refreshed (time grows) and written by rename (no FILE.tmp left, a new inode);
#  - `scheduler` follows `braidctl set scheduler` on the client.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
BRAIDCTL=${BRAIDCTL:-$BRAID_BIN_DIR/braidctl}
[ -x "$BRAIDCTL" ] || { echo "FAIL: braidctl not built ($BRAIDCTL)" >&2; exit 1; }
command -v jq >/dev/null || { echo "FAIL: jq not installed (packaging/install-deps.sh)" >&2; exit 1; }
TM_BLOB_BYTES=4194304 tm_setup 2
GJ=$TB_DIR/gw.json CJ=$TB_DIR/cli.json CS=$TB_DIR/cli.sock
BLOB=4194304 MINPKTS=$((4194304 / 1500))

tm_gateway gw "multipath on" "status-json $GJ 1"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}" "status-json $CJ 1" "control-socket $CS"
bd_wait_log cli "multipath negotiated with the server" 15 || fail "braidd client: multipath not negotiated"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client: no ping"
for _ in $(seq 1 100); do tb_exec "$TB_CLI" curl -sf -I --max-time 2 -o /dev/null "http://$TM_GW_TUN:8080/blob" && break; sleep 0.1; done
tb_exec "$TB_CLI" curl -sf --max-time 60 "http://$TM_GW_TUN:8080/blob" -o "$TB_DIR/got" || fail "download failed"
[ "$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)" = "$TM_WANT" ] || fail "download sha256"
sleep 2.5	# two refreshes after the download

# keys FILE JQPATH WANT: the sorted keys of an object, exactly
keys() {
	local got
	got=$(jq -c "$2 | keys" "$1") || fail "$1 is not JSON: $(head -c 300 "$1")"
	[ "$got" = "$3" ] || fail "$1 $2 keys: $got, want $3"
}
PATHKEYS=$(jq -c '.paths[0] | keys' "$CJ")
keys "$CJ" . '["backend","cipher","dev","engine","failovers","ifconfig_ipv6_local","ifconfig_local","multipath","paths","remote","role","scheduler","state","tcp_super","time","tunnel","up","uptime_s","version"]'
keys "$CJ" .tunnel '["auth_failures","auth_read_bytes","ctl_dropped","keys_removed","link_rx_bytes","link_rx_pkts","link_tx_bytes","link_tx_pkts","malformed","no_peer","pings_rx","pings_tx","renegotiations","replays","restarts","tun_read_bytes","tun_read_pkts","tun_write_bytes","tun_write_pkts"]'
NW=$(bd_workers "$TB_DIR/gw.log")
if [ "$NW" -gt 1 ]; then	# `workers N`: the per-worker array and each client's worker
	keys "$GJ" . '["clients","gateway","heap","role","time","uptime_s","version","workers"]'
	keys "$GJ" '.workers[0]' '["clients","handed_over","handover_dropped","link_handed_over","link_rx_pkts","link_taken","link_tx_pkts","received","sessions_created","steered_by_hash","steered_by_pid","tun_read_pkts","tun_write_pkts","worker"]'
	[ "$(jq '.workers | length' "$GJ")" = "$NW" ] || fail "workers: not $NW entries"
	[ "$(jq '[.workers[].clients] | add' "$GJ")" = 1 ] || fail "workers: clients do not add up to 1"
	CW=',"worker"'
else
	keys "$GJ" . '["clients","gateway","heap","role","time","uptime_s","version"]'
	CW=
fi
keys "$GJ" .gateway '["auth_failed","bad_source","c2c_forwarded","clients","clients_removed","connect_freq_refused","cookie_rejected","cookie_replies","data_auth_failed","data_unknown_peer","float_refused","floats","gone_rx_bytes","gone_tx_bytes","link_rx_pkts","link_tx_pkts","max_clients","max_clients_refused","sessions_created","tcp_super_rejected","tcp_super_rx","tcp_super_tx","tun_no_route","tun_read_pkts","tun_write_pkts"]'
keys "$GJ" '.clients[0]' '["backend","cipher","client_id","common_name","engine","failovers","multipath","paths","peer_id","real_address","rx_bytes","scheduler","since","state","tcp_super","tx_bytes","up","username","virtual_address","virtual_ipv6_address"'"$CW]"
keys "$GJ" .heap '["free_kb","in_use_kb","mapped_kb","rss_kb","trimmed_kb","trims"]'
check0() { jq -e "$2" "$1" >/dev/null || fail "$1: not ($2): $(jq -c "${3:-.}" "$1" | head -c 600)"; }
check0 "$GJ" '.heap.rss_kb > 1000 and .heap.in_use_kb >= 0 and .heap.free_kb >= 0 and .heap.mapped_kb >= 0 and .heap.trims >= 0 and .heap.trimmed_kb >= 0' .heap
# the path objects: the same as the static-key status file's (one writer)
[ "$(jq -c '.clients[0].paths[0] | keys' "$GJ")" = "$PATHKEYS" ] || fail "gateway path keys differ from the client's"
echo "$PATHKEYS" | jq -e 'index("wire_rx_pkts") and index("rtt_ms") and index("state")' >/dev/null || fail "path keys: $PATHKEYS"
echo "ok: the documented keys, exactly"

# check FILE JQ-EXPRESSION: true
check() { jq -e "$2" "$1" >/dev/null || fail "$1: not ($2): $(jq -c . "$1" | head -c 1500)"; }
check "$CJ" '.version == 1 and .role == "client" and .up == true and .state == "up" and .multipath == true'
check "$CJ" '.backend == "userspace" and .scheduler == "edf" and .dev == "tun0" and .ifconfig_local == "10.8.0.2" and .failovers == 0'
check "$CJ" ".remote == \"[AF_INET]$(tb_srv_addr 1 4):1194\""
check "$CJ" ".tunnel.tun_write_bytes >= $BLOB and .tunnel.tun_write_pkts >= $MINPKTS and .tunnel.link_rx_pkts >= $MINPKTS"
check "$CJ" ".tunnel.link_rx_bytes >= $BLOB and .tunnel.link_tx_pkts > 0 and .tunnel.tun_read_pkts > 0"
check "$CJ" ".tunnel.auth_failures == 0 and .tunnel.replays == 0 and .tunnel.restarts == 0"
check "$CJ" "(.paths | length) == 2 and all(.paths[]; .state == \"active\") and ([.paths[].wire_rx_bytes] | add) >= $BLOB"
check "$CJ" '.engine.paths_learned >= 0 and .engine.rx_delivered > 0'
check "$GJ" '.version == 1 and .role == "gateway" and .gateway.clients == 1 and (.clients | length) == 1'
check "$GJ" '.clients[0] | .common_name == "client1" and .virtual_address == "10.8.0.2" and .up == true and .state == "up"'
check "$GJ" '.clients[0] | .multipath == true and .scheduler == "edf" and .client_id == 0 and (.paths | length) == 2'
check "$GJ" ".clients[0].tx_bytes >= $BLOB and .gateway.tun_read_pkts >= $MINPKTS and .gateway.link_tx_pkts >= $MINPKTS"
check "$GJ" ".gateway.link_rx_pkts > 0 and .gateway.tun_write_pkts > 0 and .gateway.auth_failed == 0"
check "$GJ" "([.clients[0].paths[].wire_tx_bytes] | add) >= $BLOB"
echo "ok: client and gateway counters carried the download ($(jq -c '.tunnel | {tun_write_bytes, link_rx_pkts}' "$CJ"), gateway $(jq -c '.gateway | {tun_read_pkts, link_tx_pkts}' "$GJ"))"

# refreshed, by rename: a hard link keeps the old inode (so it cannot be reused), the name gets a new one
ln "$CJ" "$CJ.old" && ln "$GJ" "$GJ.old" || fail "ln"
t1=$(jq .time "$CJ.old") g1=$(jq .time "$GJ.old")
sleep 2.2
t2=$(jq .time "$CJ") g2=$(jq .time "$GJ")
[ "$t2" -gt "$t1" ] && [ "$g2" -gt "$g1" ] || fail "not refreshed: client $t1 -> $t2, gateway $g1 -> $g2"
[ "$(stat -c %i "$CJ")" != "$(stat -c %i "$CJ.old")" ] && [ "$(stat -c %i "$GJ")" != "$(stat -c %i "$GJ.old")" ] ||
	fail "not replaced by rename (rewritten in place)"
[ "$(jq .time "$CJ.old")" = "$t1" ] || fail "the old file changed"
[ ! -e "$CJ.tmp" ] && [ ! -e "$GJ.tmp" ] || fail "a .tmp file left"
echo "ok: refreshed every second, replaced by rename"

# the scheduler name follows a change
"$BRAIDCTL" -s "$CS" set scheduler lowest-rtt >/dev/null || fail "braidctl set scheduler lowest-rtt"
sleep 2.2
check "$CJ" '.scheduler == "lowest-rtt"'
echo "ok: scheduler follows braidctl set scheduler"

bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
check "$CJ" '.up == true or .up == false'
echo "ok: JSON status files of the TLS client and the gateway"
