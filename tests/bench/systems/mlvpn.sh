# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System mlvpn (a peer, opt-in): MLVPN 2.3.5-gb934d49, built by tests/bench/peers/build-peers.sh into
# $BRAID_PEERS_DIR (default <repo>/build/peers). One MLVPN link per path (client address I -> server address I,
# port 5080+I), bandwidth_upload at the cell's rate (bytes/s) on both sides, reorder buffer 64 (its docs'
# suggestion), password auth, encrypted data. Without the binary the run fails with a line naming the script.
SYS_SERVER_NS_NAME=app

mlvpn_conf() { # ROLE FILE
	local role=$1 f=$2 d=$TB_DIR/mlvpn i rate bw ip gw
	if [ "$role" = server ]; then ip=10.8.2.1/30 gw=10.8.2.2; else ip=10.8.2.2/30 gw=10.8.2.1; fi
	{
		printf '[general]\nstatuscommand = "%s"\nmode = "%s"\nip4 = "%s"\nip4_gateway = "%s"\n' \
			"$d/updown.sh" "$role" "$ip" "$gw"
		[ "$role" = client ] && printf 'ip4_routes = "10.9.0.0/24"\n'
		printf 'mtu = 1444\ntuntap = "tun"\ninterface_name = "mlvpn0"\ntimeout = 30\npassword = "%s"\n' \
			"$(cat "$d/password")"
		printf 'cleartext_data = 0\nreorder_buffer_size = 64\nloss_tolerence = 100\n'
		for ((i = 1; i <= ${TB_NPATHS:-1}; i++)); do
			rate=RATE$i
			rate=${!rate:-0}
			bw=0
			[ "${SHAPED:-1}" = 1 ] && [ "$rate" != 0 ] &&
				bw=$("$PY" -c "import sys; print(int(float(sys.argv[1]) * 1e6 / 8))" "$rate")
			printf '[path%d]\n' "$i"
			if [ "$role" = server ]; then
				printf 'bindhost = "%s"\nbindport = %d\n' "$(tb_srv_addr "$i")" $((5080 + i))
			else
				printf 'bindhost = "%s"\nremotehost = "%s"\nremoteport = %d\n' "$(tb_cli_addr "$i")" \
					"$(tb_srv_addr "$i")" $((5080 + i))
			fi
			[ "$bw" = 0 ] || printf 'bandwidth_upload = %s\n' "$bw"
		done
	} >"$f"
	chmod 600 "$f"
}

sys_start() {
	local d=$TB_DIR/mlvpn bin=${BRAID_PEERS_DIR:-$TB_REPO/build/peers}/mlvpn t=${SYS_TIMEOUT:-30}
	[ -x "$bin" ] || { echo "mlvpn not built ($bin): run tests/bench/peers/build-peers.sh" >&2; return 1; }
	mkdir -p "$d" && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$d/password" || return 1
	cat >"$d/updown.sh" <<'UPDOWN'
#!/bin/sh
# MLVPN status command: $1 device, $2 event; IP4, IP4_GATEWAY, IP4_ROUTES, MTU from mlvpn's environment
[ "$2" = tuntap_up ] || exit 0
ip link set dev "$1" mtu "$MTU" up
ip addr replace "$IP4" dev "$1"
for r in $IP4_ROUTES; do ip route replace "$r" via "$IP4_GATEWAY" dev "$1"; done
UPDOWN
	chmod 700 "$d/updown.sh"
	mlvpn_conf server "$d/server.conf"
	mlvpn_conf client "$d/client.conf"
	tb_bg "$TB_SRV" "$bin" --config "$d/server.conf" --debug --natural-title --yes-run-as-root >"$d/server.log" 2>&1
	echo "$TB_LAST_PID" >"$d/server.pid"
	tb_bg "$TB_CLI" "$bin" --config "$d/client.conf" --debug --natural-title --yes-run-as-root >"$d/client.log" 2>&1
	echo "$TB_LAST_PID" >"$d/client.pid"
	tb_wait_ping "$TB_CLI" "$TB_APP_ADDR" "$t" ||
		{ echo "mlvpn: $TB_APP_ADDR does not answer: $(tail -3 "$d/client.log" | tr '\n' ' ')" >&2; return 1; }
	# MLVPN brings its links up one by one and logs it only at -v (which needs privsep set up): give the other
	# links time. Known gap: a first try carried everything on path 1 (qdisc2 450 bytes); see docs/benchmarks.md.
	sleep 3
}
sys_target() { echo "$TB_APP_ADDR"; }
sys_pids() { cat "$TB_DIR/mlvpn/server.pid" "$TB_DIR/mlvpn/client.pid" 2>/dev/null; }
sys_info() {
	local bin=${BRAID_PEERS_DIR:-$TB_REPO/build/peers}/mlvpn
	printf '"peer_version": "%s"' "$("$bin" --version 2>/dev/null | head -1 | tr -d '"\\')"
}
