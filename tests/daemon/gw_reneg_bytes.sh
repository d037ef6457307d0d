#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_reneg_bytes.sh - `reneg-bytes` on the braidd gateway: a stock OpenVPN 2.6 client downloads 4 MiB
# (sha256 checked) through a gateway configured with reneg-bytes 1000000; the gateway starts soft resets
# as the data channel's byte count passes the limit, the client runs a new TLS handshake (its log shows
# one more "Control Channel: TLSv1" line) and the download is not disturbed; the same with reneg-pkts.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)

gw_serve_blob 4194304
want=$GW_WANT

for limit in "reneg-bytes 1000000" "reneg-pkts 1500"; do
	gw_server_conf "tls-crypt $GW_DIR/tc.key" "$limit"
	gw_start_server
	gw_client_conf 1 "tls-crypt $GW_DIR/tc.key"
	gw_start_client 1
	gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 ||
		gw_fail "$limit: the client did not connect"
	n0=$(grep -c "Control Channel: TLSv1" "$GW_DIR/c1.log")
	got=$(ip netns exec "$C1" curl -s --max-time 30 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || gw_fail "$limit: 4 MiB download: sha256 mismatch"
	# the limit is checked once a second: give the last soft reset time to finish
	for _ in $(seq 1 40); do
		[ "$(grep -c "Control Channel: TLSv1" "$GW_DIR/c1.log")" -gt "$n0" ] && break
		sleep 0.1
	done
	n1=$(grep -c "Control Channel: TLSv1" "$GW_DIR/c1.log")
	[ "$n1" -gt "$n0" ] || gw_fail "$limit: no renegotiation after 4 MiB (TLS handshakes $n0 -> $n1 times)"
	ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null ||
		gw_fail "$limit: no ping after the renegotiation"
	gw_stop_client 1
	gw_stop_server
	echo "ok: $limit: $((n1 - n0)) renegotiation(s) during 4 MiB, download and ping fine"
done
echo "PASS: gw_reneg_bytes"
