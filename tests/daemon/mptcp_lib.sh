# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# mptcp_lib.sh - helpers for the MPTCP-transport tests (docs/braidd.md "MPTCP"), on top of tls_mp_lib.sh:
# a braidd gateway on TCP 10.1.2.2:1194 and a braidd (or stock openvpn) TCP client in the bed of N paths.
#
# mt_gateway NAME [lines...]   braidd gateway, proto tcp-server (`mptcp on` unless a line says otherwise)
# mt_client NAME [lines...]    braidd client, proto tcp-client, status in NAME.status every second
# mt_paths NAME                the client's "Braid path" lines (index,local,remote,state,tx_pkts,tx_bytes,rx_pkts,rx_bytes,...)
# mt_path_rx NAME ADDR         rx_bytes of the client path whose local address is ADDR (0 when none)
# mt_endpoints NS              `ip mptcp endpoint show` in NS
source "$(dirname "${BASH_SOURCE[0]}")/tls_mp_lib.sh"
[ -e /proc/sys/net/mptcp/enabled ] || { echo "SKIP: no MPTCP in this kernel"; exit 77; }

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
