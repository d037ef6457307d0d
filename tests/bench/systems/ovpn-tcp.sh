# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# System ovpn-tcp: stock OpenVPN 2.6 over TCP, single path (path 1). The workload talks to the app server.
source "$BENCH_DIR/systems/ovpn-common.sh"
OVPN_PROTO=tcp
OVPN_WRAP=
SYS_SERVER_NS_NAME=app
sys_start() { ovpn_start; }
sys_target() { echo "$TB_APP_ADDR"; }
sys_pids() { ovpn_pids; }
