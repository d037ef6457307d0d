# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Shared by the ovpn-* systems: stock OpenVPN 2.6 (userspace, disable-dco), AES-256-GCM, tls-crypt, server on srv
# at path 1's address, `server 10.8.0.0 255.255.255.0`, topology subnet, route to the app subnet pushed.
# Settings are OpenVPN defaults otherwise (no tcp-nodelay, no sndbuf/rcvbuf tuning): the baseline is stock.
# Inputs: OVPN_PROTO (udp|tcp), OVPN_WRAP (command prefix for both ends, e.g. "mptcpize run"), OVPN_BIND_ALL,
# OVPN_SERVER_BIN / OVPN_CLIENT_BIN (default openvpn; braidd takes the same files and arguments: the braidd gateway
# and the braidd client without multipath, in unshaped.sh's gw-stock and gw-braid variants).

OVPN_PORT=1194

ovpn_write_configs() {
	local d=$TB_DIR/ovpn sproto cproto
	mkdir -p "$d" || return 1
	bash "$TB_REPO/tests/lib/pki.sh" "$d/pki" client1 >&2 || { echo "PKI generation failed" >&2; return 1; }
	# An MPTCP join towards an announced address needs a listener on that address: OVPN_BIND_ALL=1 drops `local`.
	local OVPN_LOCAL_LINE="local $(tb_srv_addr 1)"
	[ "${OVPN_BIND_ALL:-0}" = 1 ] && OVPN_LOCAL_LINE="# listening on every address (MPTCP joins)"
	if [ "$OVPN_PROTO" = tcp ]; then sproto=tcp-server cproto=tcp-client; else sproto=udp cproto=udp; fi
	cat >"$d/server.conf" <<EOC
dev tun0
dev-type tun
proto $sproto
${OVPN_LOCAL_LINE}
port $OVPN_PORT
topology subnet
server 10.8.0.0 255.255.255.0
push "route 10.9.0.0 255.255.255.0"
ca pki/ca.crt
cert pki/server.crt
key pki/server.key
dh none
tls-crypt pki/tc.key
data-ciphers AES-256-GCM
cipher AES-256-GCM
disable-dco
keepalive 10 60
verb 3
suppress-timestamps
EOC
	cat >"$d/client.conf" <<EOC
client
dev tun0
dev-type tun
proto $cproto
remote $(tb_srv_addr 1) $OVPN_PORT
nobind
ca pki/ca.crt
cert pki/client1.crt
key pki/client1.key
remote-cert-tls server
tls-crypt pki/tc.key
data-ciphers AES-256-GCM
cipher AES-256-GCM
disable-dco
connect-retry 1
verb 3
suppress-timestamps
EOC
}

# ovpn_start: start server and client, wait until the app answers through the tunnel (timeout SYS_TIMEOUT s).
ovpn_start() {
	local d=$TB_DIR/ovpn t=${SYS_TIMEOUT:-30} start=$SECONDS
	ovpn_write_configs || return 1
	# shellcheck disable=SC2086
	tb_bg "$TB_SRV" $OVPN_WRAP "${OVPN_SERVER_BIN:-openvpn}" --cd "$d" --config server.conf --log "$d/server.log" \
		--writepid "$d/server.pid"
	OVPN_SRV_PID=$TB_LAST_PID
	local i
	for i in $(seq 1 50); do
		grep -q "Initialization Sequence Completed" "$d/server.log" 2>/dev/null && break
		kill -0 "$OVPN_SRV_PID" 2>/dev/null || break
		sleep 0.1
	done
	if ! grep -q "Initialization Sequence Completed" "$d/server.log" 2>/dev/null; then
		echo "openvpn server did not start: $(tail -3 "$d/server.log" 2>/dev/null | tr '\n' ' ')" >&2
		return 1
	fi
	# shellcheck disable=SC2086
	tb_bg "$TB_CLI" $OVPN_WRAP "${OVPN_CLIENT_BIN:-openvpn}" --cd "$d" --config client.conf --log "$d/client.log" \
		--writepid "$d/client.pid"
	OVPN_CLI_PID=$TB_LAST_PID
	until grep -q "Initialization Sequence Completed" "$d/client.log" 2>/dev/null; do
		if ! kill -0 "$OVPN_CLI_PID" 2>/dev/null; then
			echo "openvpn client exited: $(tail -3 "$d/client.log" | tr '\n' ' ')" >&2
			return 1
		fi
		if [ $((SECONDS - start)) -ge "$t" ]; then
			echo "openvpn tunnel not up after ${t}s: $(tail -2 "$d/client.log" | tr '\n' ' ')" >&2
			return 1
		fi
		sleep 0.1
	done
	if ! tb_wait_ping "$TB_CLI" "$TB_APP_ADDR" $((t - (SECONDS - start) > 2 ? t - (SECONDS - start) : 2)); then
		echo "tunnel up but $TB_APP_ADDR does not answer through it" >&2
		return 1
	fi
}

# The openvpn processes: with a wrapper the recorded PID may be the wrapper's, so read the pid files.
ovpn_pids() {
	local d=$TB_DIR/ovpn f
	for f in "$d/server.pid" "$d/client.pid"; do
		[ -s "$f" ] && cat "$f"
	done
}
