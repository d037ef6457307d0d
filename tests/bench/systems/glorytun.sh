# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System glorytun (a peer, opt-in): glorytun 0.3.4-g32267e8 with mud, built by tests/bench/peers/build-peers.sh
# into $BRAID_PEERS_DIR (default <repo>/build/peers). The server binds every address of srv, the client one
# path per client address, all to the path-1 server address (the bed's source policy routing carries path I's
# packets over router I). Path rates are fixed at the cell's rates (glorytun's rate detection is experimental),
# as in the figures quoted by issue 17. Without the binary the run fails with a line naming the build script.
SYS_SERVER_NS_NAME=app
GT_PORT=5000

sys_start() {
	local d=$TB_DIR/glorytun bin=${BRAID_PEERS_DIR:-$TB_REPO/build/peers}/glorytun i rate t=${SYS_TIMEOUT:-30}
	[ -x "$bin" ] || { echo "glorytun not built ($bin): run tests/bench/peers/build-peers.sh" >&2; return 1; }
	mkdir -p "$d" && "$bin" keygen >"$d/key" || { echo "glorytun keygen failed" >&2; return 1; }
	tb_bg "$TB_SRV" "$bin" bind from addr 0.0.0.0 port $GT_PORT keyfile "$d/key" dev gt0 >"$d/server.log" 2>&1
	echo "$TB_LAST_PID" >"$d/server.pid"
	tb_bg "$TB_CLI" "$bin" bind to addr "$(tb_srv_addr 1)" port $GT_PORT keyfile "$d/key" dev gt0 \
		>"$d/client.log" 2>&1
	echo "$TB_LAST_PID" >"$d/client.pid"
	for i in $(seq 1 50); do
		tb_exec "$TB_SRV" ip link show gt0 >/dev/null 2>&1 && tb_exec "$TB_CLI" ip link show gt0 >/dev/null 2>&1 && break
		sleep 0.1
	done
	tb_exec "$TB_SRV" ip addr add 10.8.1.1 peer 10.8.1.2 dev gt0 && tb_exec "$TB_SRV" ip link set gt0 up &&
		tb_exec "$TB_CLI" ip addr add 10.8.1.2 peer 10.8.1.1 dev gt0 && tb_exec "$TB_CLI" ip link set gt0 up &&
		tb_exec "$TB_CLI" ip route add 10.9.0.0/24 dev gt0 ||
		{ echo "glorytun: tun setup failed: $(cat "$d/server.log" "$d/client.log" | tail -4 | tr '\n' ' ')" >&2; return 1; }
	for ((i = 1; i <= ${TB_NPATHS:-1}; i++)); do
		rate=RATE$i
		rate=${!rate:-0}
		[ "${SHAPED:-1}" = 1 ] && [ "$rate" != 0 ] || rate=1000
		# bytes/s, a little under the shaped rate so mud's own queue stays in front of the bottleneck
		rate=$("$PY" -c "import sys; print(int(float(sys.argv[1]) * 1e6 / 8 * 0.95))" "$rate")
		tb_exec "$TB_CLI" "$bin" path addr "$(tb_cli_addr "$i")" to addr "$(tb_srv_addr 1)" port $GT_PORT \
			dev gt0 set up rate fixed tx "$rate" rx "$rate" >>"$d/client.log" 2>&1 ||
			{ echo "glorytun path $i: $(tail -2 "$d/client.log" | tr '\n' ' ')" >&2; return 1; }
	done
	tb_wait_ping "$TB_CLI" "$TB_APP_ADDR" "$t" ||
		{ echo "glorytun up but $TB_APP_ADDR does not answer: $(tail -3 "$d/client.log" | tr '\n' ' ')" >&2; return 1; }
}
sys_target() { echo "$TB_APP_ADDR"; }
sys_pids() { cat "$TB_DIR/glorytun/server.pid" "$TB_DIR/glorytun/client.pid" 2>/dev/null; }
sys_info() {
	local bin=${BRAID_PEERS_DIR:-$TB_REPO/build/peers}/glorytun
	printf '"peer_version": "%s"' "$("$bin" version 2>/dev/null | head -1)"
}
