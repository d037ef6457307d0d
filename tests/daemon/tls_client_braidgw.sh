#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client -> braidd gateway (both halves of Braid, single path): UDP + tls-auth and TCP + tls-crypt,
# EKM and PRF; each: push applied, ping, a sha256-verified download through the tunnel, clean exits.
set -uo pipefail
TC_BLOB_BYTES=1048576
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

gw_start() { # NAME PROTO WRAP [lines...]
	local name=$1 proto=$2 wrap=$3
	shift 3
	bd_conf "$name" "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "proto $proto" "port 1194" \
		"local $(tb_srv_addr 1)" "ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/server.crt" \
		"key $TB_DIR/pki/server.key" "dh none" "keepalive 2 20" "verb 4" \
		'push "route 10.9.0.0 255.255.255.0"' "$(tc_wrap_lines 0 "$wrap")" "$@"
	bd_start "$name" "$TB_SRV"
	bd_wait_log "$name" "gateway ready" 10 || fail "braidd gateway $name did not start"
}

n=0
for cell in "udp tls-auth ekm" "tcp tls-crypt prf" "udp none prf" "tcp tls-auth ekm"; do
	read -r proto wrap kd <<<"$cell"
	n=$((n + 1))
	sp=$proto cp=$proto
	[ "$proto" = tcp ] && sp=tcp-server cp=tcp-client
	want="TLS-EKM"
	[ "$kd" = prf ] && want="OpenVPN PRF"
	gw_start "gw$n" "$sp" "$wrap"
	BRAIDD_KEY_DERIVATION=$kd tc_client "cli$n" "$cp" "$wrap"
	bd_wait_log "cli$n" "Initialization Sequence Completed" 15 || fail "$cell: client did not come up"
	grep -qF "key-derivation $want" "$TB_DIR/cli$n.log" || fail "$cell: want $want"
	tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "$cell: no ping"
	tc_transfer "$cell" "cli$n"
	tb_exec "$TB_CLI" ip -o route show 10.9.0.0/24 | grep "dev tun" >/dev/null || fail "$cell: pushed route missing"
	bd_stop "cli$n" || fail "$cell: client exit code $?"
	bd_stop "gw$n" || fail "$cell: gateway exit code $?"
	echo "ok: braidd client -> braidd gateway, $cell ($want): ping + 1 MiB sha256"
done
