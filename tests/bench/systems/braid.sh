# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System braid: two braidd peers in the Braid point-to-point mode (static key, AES-256-GCM), multipath over every
# path of the bed (MPUDP): the client has one `mp-path` per client address, the server one socket per server
# address and learns the paths. The workload talks to the app server through the tunnel.
#   BRAID_SCHED   scheduler: edf (default), rtt, "ratio 3:1", mpip, lowest-rtt, backup, redundant
#   BRAID_EXTRA   extra client+server config lines, separated by ';' (e.g. "mp-reorder-ms 50")
#   BRAIDD        the binary (default $BRAID_BIN_DIR/braidd)
SYS_SERVER_NS_NAME=app
BRAID_SCHED=${BRAID_SCHED:-edf}

braid_write_configs() {
	local d=$TB_DIR/braid i n=${TB_NPATHS:-1} extra=()
	mkdir -p "$d" || return 1
	openvpn --genkey secret "$d/key" >/dev/null 2>&1 || { echo "openvpn --genkey failed" >&2; return 1; }
	IFS=';' read -r -a extra <<<"${BRAID_EXTRA:-}"
	{
		printf '%s\n' "dev tun" "lport 1194" "secret $d/key 0" "cipher AES-256-GCM" \
			"ifconfig 10.8.0.1 10.8.0.2" "mp-scheduler $BRAID_SCHED" "verb 3" "status $d/server.json 1"
		for ((i = 1; i <= n; i++)); do echo "mp-path $(tb_srv_addr "$i")"; done
		printf '%s\n' "${extra[@]}"
	} >"$d/server.conf"
	{
		printf '%s\n' "dev tun" "nobind" "secret $d/key 1" "cipher AES-256-GCM" "ifconfig 10.8.0.2 10.8.0.1" \
			"route 10.9.0.0 255.255.255.0" "mp-scheduler $BRAID_SCHED" "verb 3" "status $d/client.json 1"
		for ((i = 1; i <= n; i++)); do echo "mp-path $(tb_cli_addr "$i") $(tb_srv_addr "$i") 1194"; done
		printf '%s\n' "${extra[@]}"
	} >"$d/client.conf"
}

sys_start() {
	local d=$TB_DIR/braid bin=${BRAIDD:-$BRAID_BIN_DIR/braidd} t=${SYS_TIMEOUT:-30} start=$SECONDS
	[ -x "$bin" ] || { echo "braidd not built ($bin)" >&2; return 1; }
	braid_write_configs || return 1
	tb_bg "$TB_SRV" "$bin" --config "$d/server.conf" --log "$d/server.log" --writepid "$d/server.pid"
	BRAID_SRV_PID=$TB_LAST_PID
	until grep -q "Initialization Sequence Completed" "$d/server.log" 2>/dev/null; do
		kill -0 "$BRAID_SRV_PID" 2>/dev/null || { echo "braidd server exited: $(tail -3 "$d/server.log" | tr '\n' ' ')" >&2; return 1; }
		[ $((SECONDS - start)) -ge "$t" ] && { echo "braidd server did not start" >&2; return 1; }
		sleep 0.1
	done
	tb_bg "$TB_CLI" "$bin" --config "$d/client.conf" --log "$d/client.log" --writepid "$d/client.pid"
	BRAID_CLI_PID=$TB_LAST_PID
	if ! tb_wait_ping "$TB_CLI" "$TB_APP_ADDR" "$t"; then
		echo "tunnel up but $TB_APP_ADDR does not answer through it: $(tail -3 "$d/client.log" | tr '\n' ' ')" >&2
		return 1
	fi
}
sys_target() { echo "$TB_APP_ADDR"; }
sys_pids() {
	local f
	for f in "$TB_DIR/braid/server.pid" "$TB_DIR/braid/client.pid"; do [ -s "$f" ] && cat "$f"; done
}
# per-path share and rate of the download direction (the server's sending side), as JSON members for the result line
sys_info() {
	local f=$TB_DIR/braid/server.json i
	# the status file is rewritten every second: wait for one written after the workload ended (a short transfer
	# would otherwise read the file from before the paths were learned)
	touch "$TB_DIR/braid/info-mark"
	for i in $(seq 1 30); do
		[ "$f" -nt "$TB_DIR/braid/info-mark" ] && break
		sleep 0.1
	done
	[ -s "$f" ] || return 0
	# path failures of both sides (issue 17: false failures on lossy cells are counted before and after a change)
	local cf=$TB_DIR/braid/client.json cli='null'
	[ -s "$cf" ] && cli=$(jq -c '[.paths[] | .failures]' "$cf" 2>/dev/null)
	jq -c --arg s "$BRAID_SCHED" --argjson cli "${cli:-null}" '{braid_scheduler: $s, braid_paths: [.paths[] | {remote,
		state, tx_bytes, share_pct, srtt_ms, rate_mbit, lost_pkts, resent_pkts, failures}], braid_reorder: {max_held:
		.engine.rx_max_held, gaps_deadline: .engine.rx_gaps_deadline}, braid_failures: {server: [.paths[] | .failures],
		client: $cli}}' "$f" 2>/dev/null | sed 's/^{//; s/}$//'
}
