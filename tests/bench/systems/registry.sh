# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The systems the bench knows, in the order they run within a cell. Adding one = a systems/<name>.sh file defining
# sys_start, sys_target, sys_pids (optional: SYS_SERVER_NS_NAME app|srv, SYS_WRAP, sys_sample, sys_info) plus one
# line here.
BENCH_SYSTEMS=(
	ovpn-udp
	ovpn-tcp
	ovpn-mptcp
	mptcp
	braid
)
