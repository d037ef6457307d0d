#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The gateway's ANNOUNCE under the userspace path manager (issue 14): a braidd gateway `proto tcp-server`,
# `mptcp on`, no `local` (it listens on the wildcard address, so the joins to an announced address are
# accepted), `mp-path 10.1.2.2`, `mp-path 10.2.2.2`, `mptcp-pm userspace`; a braidd client `mptcp on` with the
# kernel path manager and no endpoints (add_addr_accepted 1). Asserts: no endpoints in the gateway's namespace;
# the gateway announced 10.2.2.2 on the connection (ANNOUNCE by token, logged) and not 10.1.2.2 (the initial
# subflow's); the client's kernel opened a subflow to the announced address (status row with remote
# 10.2.2.2:1194, `ss` in the client's namespace); an 8 MiB sha256-verified download with that subflow carrying
# >= 20 % (client telemetry); the gateway's status (PM events) shows the joined subflow.
set -uo pipefail
TM_BLOB_BYTES=8388608
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 20
tb_exec "$TB_CLI" ip mptcp limits set subflows 2 add_addr_accepted 1
[ "$(tb_exec "$TB_SRV" sysctl -n net.mptcp.pm_type)" = 0 ] || fail "gateway namespace pm_type not 0 at start"

# the announced address's rows of the client: state and rx_bytes
ann_rows() { mt_paths cli | awk -F, 'index($4, "[AF_INET]10.2.2.2:1194") == 1'; }
ann_rx() { ann_rows | awk -F, '{ s += $9 } END { print s + 0 }'; }

bd_conf gw "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "server-ipv6 fd00:8::/64" \
	"proto tcp-server" "port 1194" "ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/server.crt" \
	"key $TB_DIR/pki/server.key" "dh none" "keepalive 2 20" "tls-auth $TB_DIR/pki/ta.key 0" "verb 4" \
	"mptcp on" "mp-path 10.1.2.2" "mp-path 10.2.2.2" "mptcp-pm userspace"
bd_start gw "$TB_SRV"
bd_wait_log gw "gateway ready" 10 || fail "braidd gateway did not start"
grep -q "gateway listening on MPTCP \[AF_INET\]0.0.0.0:1194" "$TB_DIR/gw.log" || fail "gateway not on the wildcard: $(grep listening "$TB_DIR/gw.log")"
grep -q "MPTCP: mptcp-pm userspace: net.mptcp.pm_type 0 -> 1 in this namespace" "$TB_DIR/gw.log" || fail "gateway pm_type not set: $(grep MPTCP "$TB_DIR/gw.log")"
mt_client cli
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
bd_wait_log cli "MPTCP: the connection to [AF_INET]10.1.2.2:1194 is multipath TCP" 2 || fail "client did not log MPTCP"

announced='MPTCP: path 10.2.2.2: 10.2.2.2 announced (userspace path manager, token [0-9a-f]*)'
for _ in $(seq 1 50); do grep -q "$announced" "$TB_DIR/gw.log" && break; sleep 0.1; done
grep -q "$announced" "$TB_DIR/gw.log" || fail "gateway did not announce 10.2.2.2: $(grep MPTCP "$TB_DIR/gw.log")"
! grep -q "MPTCP: path 10.1.2.2: .* announced" "$TB_DIR/gw.log" || fail "gateway announced the initial subflow's address"
[ -z "$(mt_endpoints "$TB_SRV")" ] || fail "userspace PM created endpoints on the gateway: $(mt_endpoints "$TB_SRV")"
for _ in $(seq 1 50); do [ -n "$(ann_rows)" ] && break; sleep 0.1; done
[ -n "$(ann_rows)" ] || fail "client has no subflow to the announced 10.2.2.2: $(mt_paths cli)"
tb_exec "$TB_CLI" ss -tnH state established dst 10.2.2.2 | grep -q '10.2.1.2:[0-9]* *10.2.2.2:1194' ||
	fail "no established subflow 10.2.1.2 -> 10.2.2.2:1194 in the client's ss: $(tb_exec "$TB_CLI" ss -tnH dst 10.2.2.2)"
[ "$(ann_rows | awk -F, '{ print $5 }' | sort -u)" = active ] || fail "the announced subflow not active: $(mt_paths cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"

a0=$(ann_rx)
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "download sha256 $got, want $TM_WANT"
sleep 1.2
d=$(($(ann_rx) - a0))
echo "  announced subflow 10.2.1.2 -> 10.2.2.2:1194 received $d B of the $TM_BLOB_BYTES B download"
[ $((d * 5)) -gt "$TM_BLOB_BYTES" ] || fail "the subflow to the announced address carried $d B (< 20 %)"
# the gateway's PM events: the join arrived at 10.2.2.2 (its path's subflow established)
grep -q "MPTCP: path 10.2.2.2: subflow 10.2.2.2 port 1194 -> 10.2.1.2 port [0-9]* established" "$TB_DIR/gw.log" ||
	fail "gateway did not log the join: $(grep 'MPTCP' "$TB_DIR/gw.log")"

bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
grep -q "MPTCP: net.mptcp.pm_type restored to 0" "$TB_DIR/gw.log" || fail "no pm_type restore line on the gateway"
echo "ok: gateway ANNOUNCE (userspace PM): the client joined 10.2.2.2 and it carried $d B of 8 MiB"
