# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# testbed.sh - the network-namespace test bed of seed 004's Figure 1, N paths.
#
#   cli                          rI (one router per path)                    srv                 app
#   cI 10.I.1.2 ───────────── rIc 10.I.1.1 │ rIs 10.I.2.1 ───────────── sI 10.I.2.2
#      fd0b:I:1::2               fd0b:I:1::1 │ fd0b:I:2::1                  fd0b:I:2::2
#                                 [pathemu up: NFQUEUE 1, down: NFQUEUE 2]   sa 10.9.0.1 ── ap 10.9.0.2
#                                                                               fd0b:9::1      fd0b:9::2
#
# Client: default route via path 1; source policy routing (table 100+I) so a socket bound to 10.I.1.2 always
# leaves on path I. Routers and srv forward; rp_filter is 0. Every name carries a run id, so parallel runs never
# collide; tb_cleanup (installed as the EXIT/INT/TERM/HUP trap) kills every process left in the run's namespaces
# and deletes them (veths die with them).
#
# Use:  source tests/lib/testbed.sh; tb_setup -n 2; tb_exec "$TB_CLI" ping -c1 "$TB_APP_ADDR"
# API (see docs/testbed.md): tb_setup tb_cleanup tb_exec tb_bg tb_cli_addr tb_srv_addr tb_emu_start tb_emu
# tb_link_down tb_link_up tb_blackhole tb_restore tb_tbf tb_htb tb_qdisc_stats tb_offload tb_mptcp_setup tb_quiet tb_wait_ping
# tb_addr_change tb_if_add tb_if_del tb_if_bytes; tb_setup --no-rules (no source policy routing)
# Debugging: TB_KEEP_FAILED=DIR copies a failed run's state directory (daemon logs, status files) into DIR.

TB_REPO=${TB_REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BRAID_BIN_DIR=${BRAID_BIN_DIR:-$TB_REPO/build/bin}
TB_APP_ADDR=10.9.0.2
TB_APP_ADDR6=fd0b:9::2
TB_SRV_APP_ADDR=10.9.0.1

tb_log() { echo "testbed[$TB_ID]: $*" >&2; }
tb_die() { echo "testbed[$TB_ID]: error: $*" >&2; exit 1; }

tb_exec() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}

# tb_bg NS cmd... : start cmd in the background inside NS; its PID goes to TB_LAST_PID and TB_PIDS.
tb_bg() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@" &
	TB_LAST_PID=$!
	TB_PIDS+=("$TB_LAST_PID")
}

tb_cli_addr() { if [ "${2:-4}" = 6 ]; then echo "fd0b:$1:1::2"; else echo "10.$1.1.2"; fi; }
tb_srv_addr() { if [ "${2:-4}" = 6 ]; then echo "fd0b:$1:2::2"; else echo "10.$1.2.2"; fi; }

tb__sysctls() {
	local ns=$1 fwd=$2
	tb_exec "$ns" sysctl -qw net.ipv4.ip_forward="$fwd" net.ipv6.conf.all.forwarding="$fwd" \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		net.ipv6.conf.all.disable_ipv6=0 net.ipv6.conf.default.disable_ipv6=0 \
		net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 \
		net.ipv4.tcp_congestion_control="${TB_CC:-cubic}" >/dev/null
	tb_exec "$ns" ip link set lo up
}

# A namespace other than the initial one may only pick a congestion control from the host's allowed list:
# add ours to it (keeps what is there; a host-wide but harmless change, needed for reproducible runs).
tb__allow_cc() {
	local cc=$1 allowed
	grep -qw "$cc" /proc/sys/net/ipv4/tcp_available_congestion_control || {
		echo "tb_setup: congestion control '$cc' is not available on this kernel" >&2
		return 1
	}
	allowed=$(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control)
	case " $allowed " in *" $cc "*) return 0 ;; esac
	sysctl -qw net.ipv4.tcp_allowed_congestion_control="$allowed $cc" >/dev/null
}

# tb__veth NS_A IF_A ADDR4_A ADDR6_A NS_B IF_B ADDR4_B ADDR6_B (prefixes /24 and /64)
tb__veth() {
	ip link add "$2" netns "$1" type veth peer name "$6" netns "$5" || return 1
	tb_exec "$1" ip addr add "$3/24" dev "$2"
	tb_exec "$1" ip -6 addr add "$4/64" dev "$2" nodad
	tb_exec "$5" ip addr add "$7/24" dev "$6"
	tb_exec "$5" ip -6 addr add "$8/64" dev "$6" nodad
	tb_exec "$1" ip link set "$2" up
	tb_exec "$5" ip link set "$6" up
}

# tb__path I: router namespace I, its two veths and the routes of path I (TB_NORULES: DHCP-style routes).
tb__path() {
	local i=$1
	TB_R[i]=$TB_ID-r$i
	ip netns add "${TB_R[i]}" || tb_die "cannot create namespace ${TB_R[i]}"
	echo "${TB_R[i]}" >>"$TB_DIR/namespaces"
	tb__sysctls "${TB_R[i]}" 1
	tb__veth "$TB_CLI" "c$i" "10.$i.1.2" "fd0b:$i:1::2" "${TB_R[i]}" "r${i}c" "10.$i.1.1" "fd0b:$i:1::1" ||
		tb_die "veth c$i"
	tb__veth "${TB_R[i]}" "r${i}s" "10.$i.2.1" "fd0b:$i:2::1" "$TB_SRV" "s$i" "10.$i.2.2" "fd0b:$i:2::2" ||
		tb_die "veth r${i}s"
	# a client address may change (tb_addr_change): keep the others when the first one goes
	tb_exec "$TB_CLI" sysctl -qw "net.ipv4.conf.c$i.promote_secondaries=1" >/dev/null
	# router: everything towards the server side goes out rIs, the client subnet is connected
	tb_exec "${TB_R[i]}" ip route add default via "10.$i.2.2"
	tb_exec "${TB_R[i]}" ip -6 route add default via "fd0b:$i:2::2"
	tb__cli_routes "$i"
	# server: back to each client subnet through its router
	tb_exec "$TB_SRV" ip route add "10.$i.1.0/24" via "10.$i.2.1" dev "s$i"
	tb_exec "$TB_SRV" ip -6 route add "fd0b:$i:1::/64" via "fd0b:$i:2::1" dev "s$i"
}

# tb__cli_routes I [ADDR4 ADDR6]: the client's routes of path I for its address (default 10.I.1.2).
# With source policy routing (the default bed): rule from ADDR -> table 100+I, and the server subnet of path I.
# TB_NORULES=1 (tb_setup --no-rules): as a DHCP client leaves it, a default route per interface with metric
# 100*I and nothing else: only a socket bound to the interface leaves through it.
tb__cli_routes() {
	local i=$1 a4=${2:-10.$1.1.2} a6=${3:-fd0b:$1:1::2}
	if [ "$TB_NORULES" = 1 ]; then
		tb_exec "$TB_CLI" ip route replace default via "10.$i.1.1" dev "c$i" metric $((100 * i))
		tb_exec "$TB_CLI" ip -6 route replace default via "fd0b:$i:1::1" dev "c$i" metric $((100 * i))
		return 0
	fi
	tb_exec "$TB_CLI" ip rule add from "$a4" table $((100 + i))
	tb_exec "$TB_CLI" ip route replace default via "10.$i.1.1" dev "c$i" table $((100 + i))
	tb_exec "$TB_CLI" ip -6 rule add from "$a6" table $((100 + i))
	tb_exec "$TB_CLI" ip -6 route replace default via "fd0b:$i:1::1" dev "c$i" table $((100 + i))
	tb_exec "$TB_CLI" ip route replace "10.$i.2.0/24" via "10.$i.1.1" dev "c$i"
	tb_exec "$TB_CLI" ip -6 route replace "fd0b:$i:2::/64" via "fd0b:$i:1::1" dev "c$i"
}

# tb_setup [-n PATHS] [--no-rules]: build the bed. Sets TB_ID TB_DIR TB_CLI TB_SRV TB_APP TB_R[] TB_NPATHS.
tb_setup() {
	local n=2 i
	TB_NORULES=0
	while [ $# -gt 0 ]; do
		case $1 in
		-n) n=$2; shift 2 ;;
		--no-rules) TB_NORULES=1; shift ;;
		*) echo "tb_setup: unknown option '$1'" >&2; return 2 ;;
		esac
	done
	case $n in '' | *[!0-9]*) echo "tb_setup: -n needs a number of paths, got '$n'" >&2; return 2 ;; esac
	if [ "$n" -lt 1 ] || [ "$n" -gt 8 ]; then
		echo "tb_setup: -n must be 1..8, got $n" >&2
		return 2
	fi
	[ "$(id -u)" -eq 0 ] || { echo "tb_setup: needs root (network namespaces)" >&2; return 77; }
	tb__allow_cc "${TB_CC:-cubic}" || return 1

	TB_ID=b$(printf '%04x' $$ | tail -c 4)$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')
	TB_NPATHS=$n
	TB_DIR=$(mktemp -d "/tmp/braid-tb-$TB_ID.XXXXXX")
	TB_PIDS=()
	TB_CLI=$TB_ID-cli
	TB_SRV=$TB_ID-srv
	TB_APP=$TB_ID-app
	TB_R=()
	trap tb_cleanup EXIT
	trap 'tb_cleanup; exit 130' INT
	trap 'tb_cleanup; exit 143' TERM
	trap 'tb_cleanup; exit 129' HUP

	local ns
	for ns in "$TB_CLI" "$TB_SRV" "$TB_APP"; do
		ip netns add "$ns" || tb_die "cannot create namespace $ns"
		echo "$ns" >>"$TB_DIR/namespaces"
	done
	tb__sysctls "$TB_CLI" 0
	tb__sysctls "$TB_SRV" 1
	tb__sysctls "$TB_APP" 0

	for ((i = 1; i <= n; i++)); do
		tb__path "$i" || return 1
	done
	if [ "$TB_NORULES" = 0 ]; then
		tb_exec "$TB_CLI" ip route add default via 10.1.1.1 dev c1
		tb_exec "$TB_CLI" ip -6 route add default via fd0b:1:1::1 dev c1
	fi
	tb__veth "$TB_SRV" sa 10.9.0.1 fd0b:9::1 "$TB_APP" ap 10.9.0.2 fd0b:9::2 || tb_die "veth sa"
	tb_exec "$TB_APP" ip route add default via 10.9.0.1
	tb_exec "$TB_APP" ip -6 route add default via fd0b:9::1
	# the server forwards client<->app; give it a default for tunnel subnets later added by tests
	tb_log "up: $n paths, namespaces $TB_CLI $TB_SRV $TB_APP ${TB_R[*]}"
}

# tb_cleanup: kill everything of this run, delete its namespaces and state. Idempotent.
tb_cleanup() {
	local rc=$? ns pid pids left i
	[ -n "${TB_DIR:-}" ] || return "$rc"
	set +e # best effort from here on, whatever the caller's errexit
	trap - EXIT INT TERM HUP
	for pid in "${TB_PIDS[@]}"; do kill "$pid" 2>/dev/null; done
	if [ -f "$TB_DIR/namespaces" ]; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			left=0
			while read -r ns; do
				pids=$(ip netns pids "$ns" 2>/dev/null)
				[ -n "$pids" ] || continue
				left=1
				# SIGTERM first, SIGKILL after 1 s
				if [ "$i" -le 5 ]; then kill $pids 2>/dev/null; else kill -9 $pids 2>/dev/null; fi
			done <"$TB_DIR/namespaces"
			[ "$left" = 0 ] && break
			sleep 0.2
		done
		while read -r ns; do ip netns del "$ns" 2>/dev/null; done <"$TB_DIR/namespaces"
	fi
	for pid in "${TB_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
	if [ -n "${TB_KEEP_FAILED:-}" ] && [ "$rc" != 0 ]; then	# debugging: logs of a failed run kept
		cp -r "$TB_DIR" "$TB_KEEP_FAILED/" 2>/dev/null && echo "testbed: logs kept in $TB_KEEP_FAILED" >&2
	fi
	rm -rf "$TB_DIR"
	TB_DIR=
	TB_PIDS=()
	return "$rc"
}

# tb_emu_start I [pathemu options...]: one emulator per direction in router I.
tb_emu_start() {
	local i=$1 dir q ifin sock ipt
	shift
	local r=${TB_R[i]:?tb_emu_start: no path $i}
	[ -x "$BRAID_BIN_DIR/pathemu" ] || tb_die "pathemu not built ($BRAID_BIN_DIR/pathemu)"
	for dir in up down; do
		if [ $dir = up ]; then q=1 ifin=r${i}c; else q=2 ifin=r${i}s; fi
		sock=$TB_DIR/emu-$i-$dir.sock
		rm -f "$sock"
		tb_bg "$r" "$BRAID_BIN_DIR/pathemu" -q "$q" -c "$sock" "$@"
		for ipt in iptables ip6tables; do
			tb_exec "$r" "$ipt" -w -t mangle -A FORWARD -i "$ifin" -j NFQUEUE --queue-num "$q" ||
				tb_die "$ipt NFQUEUE rule in $r"
		done
	done
	# wait until both control sockets answer: 10 s in all, however long each attempt takes
	local start=$SECONDS
	while [ $((SECONDS - start)) -lt 10 ]; do
		if [ -S "$TB_DIR/emu-$i-up.sock" ] && [ -S "$TB_DIR/emu-$i-down.sock" ] &&
			tb_emu "$i" both stats >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.05
	done
	tb_die "pathemu on path $i did not answer on its control sockets within 10 s (see its stderr)"
}

# tb_emu I up|down|both CMD [ARGS...]
tb_emu() {
	local i=$1 which=$2 dir rc=0
	shift 2
	case $which in
	up | down) "$BRAID_BIN_DIR/pathemu-ctl" "$TB_DIR/emu-$i-$which.sock" "$@" ;;
	both)
		for dir in up down; do
			"$BRAID_BIN_DIR/pathemu-ctl" "$TB_DIR/emu-$i-$dir.sock" "$@" || rc=$?
		done
		return $rc
		;;
	*) echo "tb_emu: direction must be up, down or both, got '$which'" >&2; return 2 ;;
	esac
}

# Real link events (rtnetlink sees them), both ends of the client veth of path I.
tb_link_down() {
	tb_exec "$TB_CLI" ip link set "c$1" down
	tb_exec "${TB_R[$1]}" ip link set "r${1}c" down
}
tb_link_up() {
	local i=$1
	tb_exec "${TB_R[i]}" ip link set "r${i}c" up
	tb_exec "$TB_CLI" ip link set "c$i" up
	# a downed link loses its routes: put the client's path routes back
	if [ "${TB_NORULES:-0}" = 1 ]; then
		tb__cli_routes "$i"
		return 0
	fi
	tb_exec "$TB_CLI" ip route replace "10.$i.2.0/24" via "10.$i.1.1" dev "c$i"
	tb_exec "$TB_CLI" ip route replace default via "10.$i.1.1" dev "c$i" table $((100 + i))
	tb_exec "$TB_CLI" ip -6 route replace "fd0b:$i:2::/64" via "fd0b:$i:1::1" dev "c$i"
	tb_exec "$TB_CLI" ip -6 route replace default via "fd0b:$i:1::1" dev "c$i" table $((100 + i))
	if [ "$i" = 1 ]; then
		tb_exec "$TB_CLI" ip route replace default via 10.1.1.1 dev c1
		tb_exec "$TB_CLI" ip -6 route replace default via fd0b:1:1::1 dev c1
	fi
}
# Silent blackhole in the emulator (the link stays up).
tb_blackhole() { tb_emu "$1" both blackhole >/dev/null; }
tb_restore() { tb_emu "$1" both up >/dev/null; }

# tb_tbf I RATE_MBIT [QUEUE_MS [BURST_BYTES]]: kernel tbf on both router veths of path I (rate and queue; the
# queue holds QUEUE_MS of the rate, tail drop above it: tbf's "latency"). Defaults: 50 ms, 64 KB burst.
tb_tbf() {
	local i=$1 rate=$2 q=${3:-50} burst=${4:-65536} dev
	for dev in "r${i}c" "r${i}s"; do
		tb_exec "${TB_R[i]}" tc qdisc replace dev "$dev" root tbf rate "${rate}mbit" burst "$burst" \
			latency "${q}ms" || return 1
	done
}

# tb_htb I RATE_MBIT [QUEUE_MS [BURST_BYTES]]: the same with htb (one class, rate = ceil) and a bfifo of
# QUEUE_MS of the rate below it.
tb_htb() {
	local i=$1 rate=$2 q=${3:-50} burst=${4:-65536} dev limit
	limit=$(python3 -c "import sys; print(max(3028, int(float(sys.argv[1]) * 1e6 / 8 * float(sys.argv[2]) / 1e3)))" \
		"$rate" "$q")
	for dev in "r${i}c" "r${i}s"; do
		tb_exec "${TB_R[i]}" tc qdisc del dev "$dev" root 2>/dev/null
		tb_exec "${TB_R[i]}" tc qdisc add dev "$dev" root handle 1: htb default 10 &&
			tb_exec "${TB_R[i]}" tc class add dev "$dev" parent 1: classid 1:10 htb rate "${rate}mbit" \
				ceil "${rate}mbit" burst "$burst" cburst "$burst" &&
			tb_exec "${TB_R[i]}" tc qdisc add dev "$dev" parent 1:10 handle 10: bfifo limit "$limit" || return 1
	done
}

# tb_qdisc_stats I: "sent_bytes dropped" summed over the root qdiscs of both router veths of path I.
tb_qdisc_stats() {
	local i=$1 dev
	for dev in "r${i}c" "r${i}s"; do
		tb_exec "${TB_R[i]}" tc -s qdisc show dev "$dev" root
	done | awk '/^ Sent / { b += $2; d += $7 + 0 } END { printf "%d %d\n", b, d }'
}

# tb_offload on|off: GRO/GSO/TSO on every veth of the run.
tb_offload() {
	local state=$1 ns dev
	while read -r ns; do
		for dev in $(ip -n "$ns" -o link show type veth | awk -F': ' '{sub(/@.*/, "", $2); print $2}'); do
			tb_exec "$ns" ethtool -K "$dev" gro "$state" gso "$state" tso "$state" >/dev/null 2>&1
		done
	done <"$TB_DIR/namespaces"
}

# tb_mptcp_setup: in-kernel path manager on cli and srv; srv signals its path-I addresses (I >= 2).
tb_mptcp_setup() {
	local ns i
	for ns in "$TB_CLI" "$TB_SRV"; do
		tb_exec "$ns" sysctl -qw net.mptcp.enabled=1
		tb_exec "$ns" ip mptcp limits set subflows 8 add_addr_accepted 8
	done
	for ((i = 2; i <= TB_NPATHS; i++)); do
		tb_exec "$TB_SRV" ip mptcp endpoint add "10.$i.2.2" dev "s$i" signal
	done
}

# tb_cpu_busy_pct: whole-host busy % over 1 s from /proc/stat.
tb_cpu_busy_pct() {
	local a b
	read -r -a a < <(head -1 /proc/stat)
	sleep 1
	read -r -a b < <(head -1 /proc/stat)
	local ta=0 tb=0 k
	for k in 1 2 3 4 5 6 7 8; do ta=$((ta + a[k])); tb=$((tb + b[k])); done
	local idle=$(((b[4] + b[5]) - (a[4] + a[5]))) total=$((tb - ta))
	[ "$total" -gt 0 ] || { echo 0; return; }
	echo $((100 * (total - idle) / total))
}

# tb_quiet [BUSY_PCT] [TIMEOUT_S]: wait for an idle host; 0 when quiet, 1 on timeout. TB_QUIET_BUSY holds the
# last reading.
tb_quiet() {
	local max=${1:-20} timeout=${2:-120} start=$SECONDS
	while :; do
		TB_QUIET_BUSY=$(tb_cpu_busy_pct)
		[ "$TB_QUIET_BUSY" -lt "$max" ] && return 0
		[ $((SECONDS - start)) -ge "$timeout" ] && return 1
	done
}

# tb_wait_ping NS ADDR [TIMEOUT_S]: wait until ADDR answers a ping from NS.
tb_wait_ping() {
	local ns=$1 addr=$2 timeout=${3:-10} start=$SECONDS
	until tb_exec "$ns" ping -c1 -W1 "$addr" >/dev/null 2>&1; do
		[ $((SECONDS - start)) -ge "$timeout" ] && return 1
		sleep 0.1
	done
}

# tb_addr_change I HOST: DHCP-style renew of path I with a new address: the client's address 10.I.1.X (and
# fd0b:I:1::X) goes and 10.I.1.HOST (fd0b:I:1::HOST) comes, then the client's routes are put back as a DHCP client
# does (its gateway's routes went with the last address). Sets TB_CLI_ADDR[I] / TB_CLI_ADDR6[I].
declare -A TB_CLI_ADDR TB_CLI_ADDR6
tb_addr_change() {
	local i=$1 h=$2 old4 old6
	old4=${TB_CLI_ADDR[$i]:-10.$i.1.2}
	old6=${TB_CLI_ADDR6[$i]:-fd0b:$i:1::2}
	if [ "$TB_NORULES" = 0 ]; then
		tb_exec "$TB_CLI" ip rule del from "$old4" table $((100 + i)) 2>/dev/null
		tb_exec "$TB_CLI" ip -6 rule del from "$old6" table $((100 + i)) 2>/dev/null
	fi
	tb_exec "$TB_CLI" ip addr del "$old4/24" dev "c$i" || return 1
	tb_exec "$TB_CLI" ip -6 addr del "$old6/64" dev "c$i" || return 1
	tb_exec "$TB_CLI" ip addr add "10.$i.1.$h/24" dev "c$i" || return 1
	tb_exec "$TB_CLI" ip -6 addr add "fd0b:$i:1::$h/64" dev "c$i" nodad || return 1
	TB_CLI_ADDR[$i]=10.$i.1.$h
	TB_CLI_ADDR6[$i]=fd0b:$i:1::$h
	tb__cli_routes "$i" "10.$i.1.$h" "fd0b:$i:1::$h"
	[ "$i" = 1 ] && [ "$TB_NORULES" = 0 ] && tb_exec "$TB_CLI" ip route replace default via 10.1.1.1 dev c1
	return 0
}

# tb_if_add I: a new path I after start (router namespace, veths, routes; same addressing as tb_setup's).
# The client's interface cI appears in the client namespace: an adapter plugged in. I must be > TB_NPATHS.
tb_if_add() {
	local i=$1
	[ "$i" -gt "$TB_NPATHS" ] && [ "$i" -le 8 ] || { echo "tb_if_add: path $i exists or is > 8" >&2; return 2; }
	tb__path "$i" || return 1
	TB_NPATHS=$i
}

# tb_if_del I: the client's interface cI goes away (adapter unplugged: the veth pair is deleted).
tb_if_del() {
	tb_exec "$TB_CLI" ip link del "c$1"
}

# tb_if_bytes NS IF: bytes sent + received on an interface (its /sys counters).
tb_if_bytes() {
	local tx rx
	tx=$(tb_exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes") || return 1
	rx=$(tb_exec "$1" cat "/sys/class/net/$2/statistics/rx_bytes") || return 1
	echo $((tx + rx))
}
