#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_tcp.sh - braidd gateway with `proto tcp-server` and a stock OpenVPN 2.6 client over
# `proto tcp-client`, tls-auth and tls-crypt, auth-user-pass-verify: ping, a 4 MiB sha256-checked
# download, then the client's renegotiations (reneg-sec 3, credentials re-verified each time) keep
# the tunnel up without ping loss, and closing the TCP connection removes the client at once.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)

gw_serve_blob 4194304
want=$GW_WANT

printf '#!/bin/sh\n[ "$username" = alice ] && [ "$password" = pw ]\n' >"$GW_DIR/verify.sh"
chmod 755 "$GW_DIR/verify.sh"
printf 'alice\npw\n' >"$GW_DIR/up.txt"

for wrap in tls-auth tls-crypt; do
	case $wrap in
	tls-auth) s="tls-auth $GW_DIR/ta.key 0"; c="tls-auth $GW_DIR/ta.key 1" ;;
	tls-crypt) s="tls-crypt $GW_DIR/tc.key"; c="tls-crypt $GW_DIR/tc.key" ;;
	esac
	gw_server_conf "$s" "proto tcp-server" "script-security 2" \
		"auth-user-pass-verify $GW_DIR/verify.sh via-env"
	gw_start_server
	grep -qF "gateway listening on TCP" "$GW_DIR/server.log" || gw_fail "$wrap: not listening on TCP"
	gw_client_conf 1 "$c" "proto tcp-client" "reneg-sec 3" "auth-user-pass $GW_DIR/up.txt"
	sed -i 's/^proto udp$//' "$GW_DIR/c1.conf"
	gw_start_client 1
	gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 ||
		gw_fail "$wrap: the TCP client did not connect"
	ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null ||
		gw_fail "$wrap: no ping reply over TCP"
	got=$(ip netns exec "$C1" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || gw_fail "$wrap: 4 MiB download over TCP: sha256 mismatch"
	# renegotiation: the client starts one after 3 s; data keeps flowing on the new key
	gw_wait "$GW_DIR/server.log" "renegotiated, data key 1 (user re-verified)" 10 ||
		gw_fail "$wrap: no renegotiation to key 1"
	# TCP: a packet on a key not yet authorised must not end the connection (it waits)
	loss=$(ip netns exec "$C1" ping -c 25 -i 0.2 -W 2 -q 10.8.0.1 | sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p')
	[ "$loss" = 0 ] || gw_fail "$wrap: $loss % ping loss across renegotiations"
	grep -q "renegotiated, data key 2 (user re-verified)" "$GW_DIR/server.log" ||
		gw_fail "$wrap: no second renegotiation during the pings"
	grep -q "client removed" "$GW_DIR/server.log" && gw_fail "$wrap: the client was removed during renegotiation"
	gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,client1,10.99.0.11:" 3 ||
		gw_fail "$wrap: status file does not list the TCP client"
	gw_stop_client 1
	gw_wait "$GW_DIR/server.log" "client removed (peer-id 0): connection closed by the client" 5 ||
		gw_fail "$wrap: closing the TCP connection did not remove the client"
	# the status file is rewritten once a second: give a loaded host a few rewrites
	for ((k = 0; k < 50; k++)); do
		grep -q "^CLIENT_LIST," "$GW_DIR/status.txt" || break
		sleep 0.1
	done
	grep -q "^CLIENT_LIST," "$GW_DIR/status.txt" && gw_fail "$wrap: removed client still in the status file after 5 s"
	gw_stop_server
	echo "ok: tcp / $wrap"
done
echo "PASS: gw_tcp"
