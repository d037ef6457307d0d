# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System mptcp: plain kernel MPTCP, no VPN (upper reference). The workload server runs on srv and both workload
# ends run under `mptcpize run`; the target is srv's path-1 address, path 2 joins through the announced address.
source "$BENCH_DIR/systems/mptcp-common.sh"
SYS_SERVER_NS_NAME=srv
SYS_WRAP="mptcpize run"
sys_start() {
	mptcp_setup || return 1
	tb_wait_ping "$TB_CLI" "$(tb_srv_addr 1)" 10 || { echo "srv $(tb_srv_addr 1) does not answer" >&2; return 1; }
}
sys_target() { tb_srv_addr 1; }
sys_pids() { :; } # no tunnel processes
sys_sample() { mptcp_sample; }
sys_info() { mptcp_info; }
