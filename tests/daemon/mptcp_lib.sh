# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# mptcp_lib.sh - helpers for the MPTCP-transport tests (docs/braidd.md "MPTCP"), on top of tls_mp_lib.sh:
# a braidd gateway on TCP 10.1.2.2:1194 and a braidd (or stock openvpn) TCP client in the bed of N paths.
#
# mt_bed MBIT                 the bed of 2 paths, each tbf-shaped to MBIT Mbit/s, MPTCP enabled in the client and server
# mt_gateway NAME [lines...]   braidd gateway, proto tcp-server (`mptcp on` unless a line says otherwise)
# mt_client NAME [lines...]    braidd client, proto tcp-client, status in NAME.status every second
# mt_paths NAME                the client's "Braid path" lines (index,local,remote,state,tx_pkts,tx_bytes,rx_pkts,rx_bytes,...)
# mt_path_rx NAME ADDR         rx_bytes of the client path whose local address is ADDR (0 when none)
# mt_endpoints NS              `ip mptcp endpoint show` in NS
# mt_row ADDR                  the states of the client cli's rows whose local address is ADDR ("active " …)
# mt_wait_row ADDR STATE S     wait up to S seconds until mt_row ADDR is exactly STATE
# mt_wait_created              wait (5 s) until cli's log says the userspace PM created path c2's subflow; the
#                              pattern in MT_CREATED; 1 if it did not
# mt_gw_row ADDR               the gateway gw's `braidctl paths` STATE of the client's subflow from ADDR (up / up,backup;
#                              the gateway runs with control-socket $TB_DIR/gw.ctl)
# mt_wait_gw_row ADDR STATE S  wait up to S seconds until mt_gw_row ADDR is STATE
source "$(dirname "${BASH_SOURCE[0]}")/tls_mp_lib.sh"
[ -e /proc/sys/net/mptcp/enabled ] || { echo "SKIP: no MPTCP in this kernel"; exit 77; }

mt_bed() {
	local ns
	tm_setup 2
	tb_tbf 1 "$1"
	tb_tbf 2 "$1"
	for ns in "$TB_CLI" "$TB_SRV"; do tb_exec "$ns" sysctl -qw net.mptcp.enabled=1; done
}

mt_gateway() {
	local name=$1
	shift
	tm_gateway "$name" "proto tcp-server" "mptcp on" "$@"
}

mt_client() {
	local name=$1
	shift
	tm_client "$name" "proto tcp-client" "mptcp on" "$@"
}

mt_paths() { tm_status "$1"; }

mt_path_rx() {
	mt_paths "$1" | awk -F, -v a="[AF_INET]$2:" 'index($3, a) == 1 { s += $9 } END { print s + 0 }'
}

mt_endpoints() { tb_exec "$1" ip mptcp endpoint show; }

mt_row() { mt_paths cli | awk -F, -v a="[AF_INET]$1:" 'index($3, a) == 1 { print $5 }' | sort -u | tr '\n' ' '; }

mt_wait_row() {
	for _ in $(seq 1 $(($3 * 10))); do [ "$(mt_row "$1")" = "$2 " ] && return 0; sleep 0.1; done
	return 1
}

MT_CREATED='MPTCP: path c2: subflow 10.2.1.2 dev #[0-9]* -> 10.1.2.2 port 1194 created (userspace path manager, token [0-9a-f]*)'
mt_gw_row() { "$BRAID_BIN_DIR/braidctl" -s "$TB_DIR/gw.ctl" paths | awk -v a="$1:" 'index($4, a) == 1 { print $5 }'; }

mt_wait_gw_row() {
	for _ in $(seq 1 $(($3 * 10))); do [ "$(mt_gw_row "$1")" = "$2" ] && return 0; sleep 0.1; done
	return 1
}

mt_wait_created() {
	for _ in $(seq 1 50); do grep -q "$MT_CREATED" "$TB_DIR/cli.log" && return 0; sleep 0.1; done
	return 1
}

# mt_path_tx NAME ADDR         tx_bytes of the client path whose local address is ADDR (0 when none)
mt_path_tx() {
	mt_paths "$1" | awk -F, -v a="[AF_INET]$2:" 'index($3, a) == 1 { s += $7 } END { print s + 0 }'
}

# mt_put                       upload $TB_DIR/blob from the client to the gateway's tunnel address (TCP 9000 in
#                              the tunnel); prints the sha256 of what the gateway received
mt_put() {
	local out=$TB_DIR/put.sha i
	rm -f "$out"
	tb_exec "$TB_SRV" python3 -c '
import hashlib, socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 9000)); s.listen(1); s.settimeout(60)
c, _ = s.accept(); c.settimeout(60); h = hashlib.sha256()
while True:
    b = c.recv(1 << 16)
    if not b: break
    h.update(b)
open(sys.argv[2], "w").write(h.hexdigest())' "$TM_GW_TUN" "$out" &
	local rx=$!
	for i in $(seq 1 50); do
		tb_exec "$TB_SRV" ss -ltn "sport = :9000" | grep -q 9000 && break
		sleep 0.1
	done
	tb_exec "$TB_CLI" python3 -c '
import socket, sys
c = socket.create_connection((sys.argv[1], 9000), timeout=60)
with open(sys.argv[2], "rb") as f:
    while True:
        b = f.read(1 << 16)
        if not b: break
        c.sendall(b)
c.shutdown(socket.SHUT_WR); c.recv(1); c.close()' "$TM_GW_TUN" "$TB_DIR/blob"
	wait "$rx"
	cat "$out" 2>/dev/null
}
