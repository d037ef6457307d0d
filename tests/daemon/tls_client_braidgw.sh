#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client -> braidd gateway (both halves of Braid, single path): UDP + tls-auth and TCP + tls-crypt,
# EKM and PRF; each: push applied, ping, a sha256-verified download through the tunnel, clean exits; over UDP also a
# sha256-verified upload and the batched I/O of both ends (client vnet TUN; gateway GRO, GSO runs, TUN offloads).
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

# up PORT CELL: a sha256-checked upload of the blob from cli to a sink on the gateway's tunnel address
up() {
	rm -f "$TB_DIR/sink.out"
	tb_bg "$TB_SRV" /usr/bin/python3 "$(dirname "$0")/tcp_sink.py" 10.8.0.1 "$1" "$TB_DIR/sink.out"
	for _ in $(seq 1 100); do
		tb_exec "$TB_SRV" ss -Hltn "sport = :$1" | grep -q . && break
		sleep 0.1
	done
	tb_exec "$TB_CLI" timeout 20 bash -c 'cat "$1" >/dev/tcp/10.8.0.1/"$2"' _ "$TB_DIR/blob" "$1" ||
		fail "$2: upload failed"
	for _ in $(seq 1 100); do [ -s "$TB_DIR/sink.out" ] && break; sleep 0.1; done
	[ "$(cat "$TB_DIR/sink.out" 2>/dev/null)" = "$TC_WANT" ] || fail "$2: upload sha256 mismatch"
}

# gw_field LOG NAME: the number after NAME on the gateway's newest SIGUSR2 stats line
gw_field() {
	local n
	n=$(grep -c "gateway stats:" "$TB_DIR/$1.log")
	kill -USR2 "${BD_PID[$1]}"
	for _ in $(seq 1 40); do
		[ "$(grep -c "gateway stats:" "$TB_DIR/$1.log")" -gt "$n" ] && break
		sleep 0.05
	done
	grep "gateway stats:" "$TB_DIR/$1.log" | tail -n1 | sed -n "s/.*, $2 \([0-9][0-9]*\).*/\1/p"
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
	# both ends batch a single path: the client's vnet TUN splits the upload's super-packets and sends GSO runs,
	# the gateway reads them with GRO and writes the in-order segments to its TUN coalesced
	grep -qF "offloads on (vnet)" "$TB_DIR/cli$n.log" || fail "$cell: the client's TUN has no offloads"
	if [ "$proto" = udp ]; then
		up 5001 "$cell"
		for f in "gro reads" "gso runs" "tun super reads" "tun coalesced"; do
			v=$(gw_field "gw$n" "$f")
			[ "${v:-0}" -gt 0 ] || fail "$cell: the gateway's '$f' is '$v', want > 0"
			echo "  gateway $f: $v"
		done
	fi
	tb_exec "$TB_CLI" ip -o route show 10.9.0.0/24 | grep "dev tun" >/dev/null || fail "$cell: pushed route missing"
	bd_stop "cli$n" || fail "$cell: client exit code $?"
	bd_stop "gw$n" || fail "$cell: gateway exit code $?"
	echo "ok: braidd client -> braidd gateway, $cell ($want): ping + 1 MiB sha256"
done
