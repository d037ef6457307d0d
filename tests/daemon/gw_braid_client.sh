#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_braid_client.sh - braidd's own TLS client against the braidd gateway (single path), with
# the stock client's profile: UDP and TCP, TLS-EKM and (BRAIDD_KEY_DERIVATION=prf: the client
# does not announce TLS_KEY_EXPORT) the OpenVPN PRF on the gateway side; v4 + v6 ping and a
# 2 MiB sha256-checked download each; SIGTERM with explicit-exit-notify removes the client.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)
TC="tls-crypt $GW_DIR/tc.key"
head -c 2097152 /dev/urandom >"$GW_DIR/blob"
want=$(sha256sum "$GW_DIR/blob" | cut -d' ' -f1)

for proto in udp tcp; do
	for kdf in ekm prf; do
		gw_server_conf "$TC" "server-ipv6 fd00:8::/64"
		[ $proto = tcp ] && echo "proto tcp-server" >>"$GW_DIR/server.conf"
		gw_start_server
		ip netns exec "$GW_NS" /usr/bin/python3 -m http.server 8080 --bind 10.8.0.1 \
			--directory "$GW_DIR" >/dev/null 2>&1 &
		web=$!
		GW_PIDS+=("$web")
		gw_client_conf 1 "$TC" "explicit-exit-notify 1"
		sed -i 's/^suppress-timestamps$//; s/^connect-retry-max 3$//' "$GW_DIR/c1.conf"
		[ $proto = tcp ] && sed -i 's/^proto udp$/proto tcp-client/' "$GW_DIR/c1.conf"
		: >"$GW_DIR/c1.log"
		if [ $kdf = prf ]; then
			BRAIDD_KEY_DERIVATION=prf ip netns exec "$C1" "$BRAIDD" --config "$GW_DIR/c1.conf" \
				--log "$GW_DIR/c1.log" &
		else
			ip netns exec "$C1" "$BRAIDD" --config "$GW_DIR/c1.conf" --log "$GW_DIR/c1.log" &
		fi
		GW_PID[c1]=$!
		GW_PIDS+=("$!")
		gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 ||
			gw_fail "$proto/$kdf: braidd client did not connect"
		gw_wait "$GW_DIR/server.log" ", $(echo $kdf | tr a-z A-Z) keys" 2 ||
			gw_fail "$proto/$kdf: the gateway did not derive by $kdf"
		ip netns exec "$C1" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "$proto/$kdf: ping"
		ip netns exec "$C1" ping -6 -c 2 -i 0.2 -W 2 -q fd00:8::1 >/dev/null || gw_fail "$proto/$kdf: ping6"
		sleep 0.3
		got=$(ip netns exec "$C1" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
		[ "$got" = "$want" ] || gw_fail "$proto/$kdf: 2 MiB download: sha256 mismatch"
		p1=$(gw_peer_id 1)	# 0 with one worker (gw_lib.sh)
		gw_pid_ok "$p1" 0 || gw_fail "$proto/$kdf: peer-id '$p1'"
		gw_stop_client 1
		if [ $proto = udp ]; then
			gw_wait "$GW_DIR/server.log" "client removed (peer-id $p1): explicit exit notification" 3 ||
				gw_fail "$proto/$kdf: explicit exit not seen"
		else
			gw_wait "$GW_DIR/server.log" "client removed (peer-id 0):" 3 || gw_fail "$proto/$kdf: not removed"
		fi
		kill "$web"
		wait "$web" 2>/dev/null
		gw_stop_server
		echo "ok: braidd client, $proto, $kdf"
	done
done
echo "PASS: gw_braid_client"
