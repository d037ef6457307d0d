# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# lib.sh - helpers for the braidd netns tests, on top of tests/lib/testbed.sh.
#
#   cli (braidd, tun 10.200.0.2 / fd00:200::2) ── path 1 ── srv (braidd, tun 10.200.0.1 / fd00:200::1)
#
# bd_keygen FILE           stock `openvpn --genkey secret FILE`
# bd_conf NAME LINES...    write $TB_DIR/NAME.conf
# bd_start NAME NS         braidd --config $TB_DIR/NAME.conf in NS, log in $TB_DIR/NAME.log; pid in BD_PID[NAME]
# bd_wait_log NAME TEXT [S] wait until the log contains TEXT (fixed string)
# bd_stop NAME             SIGTERM, wait, return braidd's exit code
# bd_stats NAME            SIGUSR2, then print the last stats line
source "$(dirname "${BASH_SOURCE[0]}")/../lib/testbed.sh"

BRAIDD=${BRAIDD:-$BRAID_BIN_DIR/braidd}
declare -A BD_PID

fail() {
	echo "FAIL: $*" >&2
	local f
	for f in "$TB_DIR"/*.log; do
		[ -f "$f" ] || continue
		echo "---- $f (last 15 lines)" >&2
		tail -n 15 "$f" >&2
	done
	exit 1
}

bd_require() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
	[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
}

bd_keygen() { openvpn --genkey secret "$1" >/dev/null 2>&1 || fail "openvpn --genkey secret $1"; }

bd_conf() {
	local name=$1
	shift
	printf '%s\n' "$@" >"$TB_DIR/$name.conf"
}

bd_start() {
	local name=$1 ns=$2
	: >"$TB_DIR/$name.log"
	tb_bg "$ns" "$BRAIDD" --config "$TB_DIR/$name.conf" --log "$TB_DIR/$name.log"
	BD_PID[$name]=$TB_LAST_PID
}

bd_wait_log() {
	local name=$1 text=$2 timeout=${3:-10} i
	for ((i = 0; i < timeout * 20; i++)); do
		grep -qF -- "$text" "$TB_DIR/$name.log" 2>/dev/null && return 0
		kill -0 "${BD_PID[$name]}" 2>/dev/null || { sleep 0.1; grep -qF -- "$text" "$TB_DIR/$name.log" && return 0; return 1; }
		sleep 0.05
	done
	return 1
}

bd_stop() {
	local name=$1 pid=${BD_PID[$1]} rc
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	unset "BD_PID[$name]"
	return $rc
}

bd_stats() {
	local name=$1 n
	n=$(grep -c ' stats: ' "$TB_DIR/$name.log")
	kill -USR2 "${BD_PID[$name]}"
	for _ in $(seq 1 40); do
		[ "$(grep -c ' stats: ' "$TB_DIR/$name.log")" -gt "$n" ] && break
		sleep 0.05
	done
	grep ' stats: ' "$TB_DIR/$name.log" | tail -n1
}

# bd_stat_field LINE KEY: the packet count of KEY=N[/NB] in a stats line
# bd_workers LOG: the worker threads a braidd gateway runs, from its log ("workers: N, sessions steered …");
# 1 without that line (`workers 1`, one core, proto tcp-server, cluster-etcd, no sk_reuseport steering).
# No `workers` line means one worker per core (docs/scaling.md "Workers"), so a test asks the log.
bd_workers() {
	local n
	n=$(sed -n 's/^.*workers: \([0-9]*\), sessions steered.*$/\1/p' "$1" | tail -1)
	echo "${n:-1}"
}
bd_stat_field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"; }

# Two peers over path 1: srv listens on its path-1 address, cli has it as remote.
# bd_pair CIPHER [extra srv lines] -- [extra cli lines]
bd_pair() {
	local cipher=$1
	shift
	local srv_extra=() cli_extra=() side=srv
	for a in "$@"; do
		if [ "$a" = -- ]; then side=cli; continue; fi
		if [ $side = srv ]; then srv_extra+=("$a"); else cli_extra+=("$a"); fi
	done
	bd_conf srv "dev tun" "proto udp" "local $(tb_srv_addr 1)" "lport 1194" \
		"secret $TB_DIR/key 0" "cipher $cipher" "ifconfig 10.200.0.1 10.200.0.2" \
		"ifconfig-ipv6 fd00:200::1/64 fd00:200::2" "verb 4" "${srv_extra[@]}"
	bd_conf cli "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" \
		"secret $TB_DIR/${BD_CLI_KEY:-key} 1" "cipher $cipher" "ifconfig 10.200.0.2 10.200.0.1" \
		"ifconfig-ipv6 fd00:200::2/64 fd00:200::1" "verb 4" "${cli_extra[@]}"
	bd_start srv "$TB_SRV"
	bd_wait_log srv "Initialization Sequence Completed" || fail "srv did not start"
	bd_start cli "$TB_CLI"
	bd_wait_log cli "Initialization Sequence Completed" || fail "cli did not start"
}
