#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_basic.sh - one stock OpenVPN 2.6 client -> braidd gateway, for every
# {UDP, TCP} x {AES-256-GCM, CHACHA20-POLY1305} x {tls-auth, tls-crypt, none}: the client connects, pings the
# gateway's tunnel address, downloads 4 MiB from a web server on the gateway (sha256 checked),
# and the status file (version 2) lists it with the pushed address and the negotiated cipher. Over UDP also a 4 MiB
# upload (sha256 checked) and the gateway's batched I/O counted: GSO runs, TUN super-packets split, coalesced writes.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)

gw_serve_blob 4194304
want=$GW_WANT
st=

for proto in udp tcp; do
for cipher in AES-256-GCM CHACHA20-POLY1305; do
	for wrap in tls-auth tls-crypt none; do
		case $wrap in
		tls-auth) s="tls-auth $GW_DIR/ta.key 0"; c="tls-auth $GW_DIR/ta.key 1" ;;
		tls-crypt) s="tls-crypt $GW_DIR/tc.key"; c="tls-crypt $GW_DIR/tc.key" ;;
		none) s=""; c="" ;;
		esac
		if [ "$proto" = tcp ]; then
			gw_server_conf "$s" "proto tcp-server"
			gw_start_server
			grep -qF "gateway listening on TCP" "$GW_DIR/server.log" ||
				gw_fail "$proto/$cipher/$wrap: the gateway is not listening on TCP"
			gw_client_conf 1 "$c" "data-ciphers $cipher" "proto tcp-client"
			sed -i 's/^proto udp$//' "$GW_DIR/c1.conf"
		else
			gw_server_conf "$s"
			gw_start_server
			gw_client_conf 1 "$c" "data-ciphers $cipher"
		fi
		gw_start_client 1
		gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 ||
			gw_fail "$proto/$cipher/$wrap: the client did not connect"
		grep -qF "cipher $cipher" "$GW_DIR/c1.log" ||
			gw_fail "$proto/$cipher/$wrap: the client's log does not show the pushed cipher"
		ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null ||
			gw_fail "$proto/$cipher/$wrap: no ping reply from the gateway's tunnel address"
		got=$(ip netns exec "$C1" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum |
			cut -d' ' -f1)
		[ "$got" = "$want" ] || gw_fail "$proto/$cipher/$wrap: 4 MiB download: sha256 mismatch"
		if [ "$proto" = udp ]; then
			# the gateway's batched I/O: the download's TCP super-packets read from the vnet TUN, split,
			# sent in UDP GSO runs; the upload's in-order segments written to the TUN coalesced
			gw_sink_start 5001
			up=$(gw_upload 1 "$GW_DIR/blob" 5001)
			[ "$up" = "$want" ] || gw_fail "$proto/$cipher/$wrap: 4 MiB upload: sha256 '$up'"
			st=$(gw_stats)
			for f in "gso runs" "tun super reads" "tun coalesced"; do
				[ "$(gw_stat "$f" "$st")" -gt 0 ] 2>/dev/null ||
					gw_fail "$proto/$cipher/$wrap: '$f' not > 0: $st"
			done
			grep -qF "gateway I/O: UDP GSO + GRO, TUN with offloads (vnet)" "$GW_DIR/server.log" ||
				gw_fail "$proto/$cipher/$wrap: the gateway's socket/TUN offloads are not on"
		fi
		gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,client1,10.99.0.11:" 3 ||
			gw_fail "$proto/$cipher/$wrap: the status file does not list client1"
		pid=$(gw_peer_id 1)
		gw_pid_ok "$pid" 0 || gw_fail "$proto/$cipher/$wrap: first session's peer-id '$pid'"
		grep -q "^CLIENT_LIST,client1,10\.99\.0\.11:[0-9]*,10\.8\.0\.2,,[0-9]*,[0-9]*,.*,UNDEF,0,$pid,$cipher\$" \
			"$GW_DIR/status.txt" || gw_fail "$proto/$cipher/$wrap: status line wrong: $(grep CLIENT_LIST, "$GW_DIR/status.txt")"
		grep -q "^ROUTING_TABLE,10\.8\.0\.2,client1,10\.99\.0\.11:" "$GW_DIR/status.txt" ||
			gw_fail "$proto/$cipher/$wrap: routing table line missing"
		gw_stop_client 1
		gw_stop_server
		echo "ok: $proto / $cipher / $wrap${st:+ (gso runs $(gw_stat "gso runs" "$st"), tun super reads $(gw_stat "tun super reads" "$st"), tun coalesced $(gw_stat "tun coalesced" "$st"))}"
		st=
	done
done
done
echo "PASS: gw_basic"
