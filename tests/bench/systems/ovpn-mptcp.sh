# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System ovpn-mptcp: stock OpenVPN 2.6 over TCP with both ends under `mptcpize run`; the kernel path manager adds
# a second subflow over path 2 (srv announces 10.2.2.2). The workload talks to the app server.
source "$BENCH_DIR/systems/ovpn-common.sh"
source "$BENCH_DIR/systems/mptcp-common.sh"
OVPN_PROTO=tcp
OVPN_WRAP="mptcpize run"
OVPN_BIND_ALL=1
SYS_SERVER_NS_NAME=app
sys_start() {
	mptcp_setup || return 1
	ovpn_start
}
sys_target() { echo "$TB_APP_ADDR"; }
sys_pids() { ovpn_pids; }
sys_sample() { mptcp_sample; }
sys_info() { mptcp_info; }
