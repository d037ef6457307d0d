#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_push_interop.sh - the PUSH_REPLY a stock OpenVPN 2.6 client receives from braidd is the one
# it receives from stock `openvpn --server` with the same configuration, option for option and
# in the same order, for: topology subnet + server-ipv6 + user pushes; net30; a `comp-lzo no`
# client with `compress migrate`; a ccd file with push-reset/push/ifconfig-push; a ChaCha-only
# client; `server ... nopool` + `ifconfig-pool`; the long form (`mode server`, `ifconfig`,
# `ifconfig-pool`, pushed route-gateway/topology). The only difference allowed: 2.6 adds `dyn-tls-crypt` to protocol-flags (braidd does
# not offer dynamic tls-crypt), removed before comparing. The client also pings 10.8.0.1 when a topology was pushed.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
mkdir -p "$GW_DIR/ccd"
TC="tls-crypt $GW_DIR/tc.key"

scenario() {	# scenario NAME "server lines" "client lines"  (lines separated by '|')
	local name=$1 slines=$2 clines=$3 impl got
	for impl in openvpn braidd; do
		IFS='|' read -r -a s <<<"$slines"
		IFS='|' read -r -a c <<<"$clines"
		gw_server_conf "$TC" "${s[@]}"
		grep -q '^topology net30$' "$GW_DIR/server.conf" && sed -i '/^topology subnet$/d' "$GW_DIR/server.conf"
		grep -q ' nopool$\|^mode server$' "$GW_DIR/server.conf" &&
			sed -i '/^server 10.8.0.0 255.255.255.0$/d' "$GW_DIR/server.conf"
		if [ $impl = braidd ]; then
			gw_start_server
		else
			: >"$GW_DIR/server.log"
			ip netns exec "$GW_NS" openvpn --cd "$GW_DIR" --config "$GW_DIR/server.conf" \
				--log "$GW_DIR/server.log" &
			GW_PID[server]=$!
			GW_PIDS+=("$!")
			gw_wait "$GW_DIR/server.log" "Initialization Sequence Completed" 10 || gw_fail "$name: stock server"
		fi
		gw_client_conf 1 "$TC" "${c[@]}"
		gw_start_client 1
		gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "$name/$impl: connect"
		got=$(sed -n "s/.*PUSH: Received control message: '\(PUSH_REPLY.*\)'.*/\1/p" "$GW_DIR/c1.log" |
			sed 's/ dyn-tls-crypt//')
		[ -n "$got" ] || gw_fail "$name/$impl: no PUSH_REPLY in the client log"
		# (without a pushed topology, e.g. after push-reset, the client has no usable route)
		if [[ "$got" == *topology* ]]; then
			ip netns exec "$(gw_cns 1)" ping -c 1 -W 2 -q 10.8.0.1 >/dev/null ||
				gw_fail "$name/$impl: no ping reply from 10.8.0.1"
		fi
		if [ $impl = braidd ]; then	# peer-id 0 as stock's with one worker; with N its worker's first slot
			p=$(gw_peer_id 1)
			gw_pid_ok "$p" 0 || gw_fail "$name: braidd's peer-id '$p'"
			got=${got/,peer-id $p,/,peer-id 0,}
		fi
		eval "push_$impl=\$got"
		gw_stop_client 1
		gw_stop_server
	done
	[ "$push_openvpn" = "$push_braidd" ] ||
		gw_fail "$name: PUSH_REPLY differs:
  openvpn: $push_openvpn
  braidd:  $push_braidd"
	echo "ok: $name: $push_braidd"
}

scenario "subnet+v6+push" "server-ipv6 fd00:8::/64|push \"route 192.168.0.0 255.255.0.0\"|push \"dhcp-option DNS 10.8.0.1\"" ""
scenario "net30" "topology net30" ""
scenario "net30+v6" "topology net30|server-ipv6 fd00:8::/64" ""
scenario "compress migrate" "compress migrate" "comp-lzo no"
printf 'ifconfig-push 10.8.0.77 255.255.255.0\npush-reset\npush "route 172.16.0.0 255.255.0.0"\n' >"$GW_DIR/ccd/client1"
scenario "ccd push-reset" "client-config-dir $GW_DIR/ccd|push \"route 192.168.0.0 255.255.0.0\"" ""
rm -f "$GW_DIR/ccd/client1"
scenario "chacha-only client" "keepalive 5 30" "data-ciphers CHACHA20-POLY1305"
scenario "nopool + ifconfig-pool" "server 10.8.0.0 255.255.255.0 nopool|ifconfig-pool 10.8.0.100 10.8.0.110" ""
scenario "mode server long form" "mode server|tls-server|ifconfig 10.8.0.1 255.255.255.0|ifconfig-pool 10.8.0.20 10.8.0.30|push \"route-gateway 10.8.0.1\"|push \"topology subnet\"" ""
echo "PASS: gw_push_interop"
