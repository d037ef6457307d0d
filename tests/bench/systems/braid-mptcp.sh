# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System braid-mptcp: braidd client + gateway with the ovpn-* systems' TLS configuration (ovpn-common.sh: proto
# tcp-server / tcp-client, tls-crypt, AES-256-GCM) plus `mptcp on`: IPPROTO_MPTCP sockets opened by braidd
# itself (no mptcpize), the same kernel path manager set-up as ovpn-mptcp and mptcp (mptcp-common.sh: srv
# announces 10.I.2.2). Beside ovpn-mptcp it measures Braid's MPTCP transport against stock OpenVPN over MPTCP on
# the same bed. The workload talks to the app server through the tunnel.
#   BRAIDD  the binary (default $BRAID_BIN_DIR/braidd)
source "$BENCH_DIR/systems/ovpn-common.sh"
source "$BENCH_DIR/systems/mptcp-common.sh"
OVPN_PROTO=tcp
OVPN_BIND_ALL=1
SYS_SERVER_NS_NAME=app

# ovpn_start runs "$OVPN_WRAP openvpn ARGS...": the wrapper runs braidd with the same arguments instead.
braid_mptcp_wrapper() {
	local w=$TB_DIR/braid-mptcp-wrap.sh bin=${BRAIDD:-$BRAID_BIN_DIR/braidd}
	[ -x "$bin" ] || { echo "braidd not built ($bin)" >&2; return 1; }
	printf '#!/bin/sh\nshift\nexec %s "$@"\n' "$bin" >"$w" && chmod +x "$w" && echo "$w"
}

sys_start() {
	mptcp_setup || return 1
	OVPN_WRAP=$(braid_mptcp_wrapper) || return 1
	# the configurations as ovpn-mptcp's, plus `mptcp on` (braidd opens MPTCP sockets itself)
	eval "$(declare -f ovpn_write_configs | sed '1s/ovpn_write_configs/braid_mptcp_base_configs/')"
	ovpn_write_configs() {
		local f
		braid_mptcp_base_configs || return 1
		for f in "$TB_DIR/ovpn/server.conf" "$TB_DIR/ovpn/client.conf"; do
			sed -i '/^disable-dco$/d' "$f"	# braidd has no DCO (and does not know the option)
			echo "mptcp on" >>"$f"
		done
	}
	ovpn_start || return 1
	grep -q "MPTCP: the connection to .* is multipath TCP" "$TB_DIR/ovpn/client.log" ||
		{ echo "braidd client: not MPTCP: $(grep MPTCP "$TB_DIR/ovpn/client.log" | tail -2 | tr '\n' ' ')" >&2; return 1; }
}
sys_target() { echo "$TB_APP_ADDR"; }
sys_pids() { ovpn_pids; }
sys_sample() { mptcp_sample; }
sys_info() { mptcp_info; }
