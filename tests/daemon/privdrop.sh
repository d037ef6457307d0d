#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# privdrop.sh - `user nobody` + `group nogroup` in braidd's three roles (issue 8): the running daemon's
# /proc/PID/status shows the dropped ids and exactly the capabilities docs/braidd.md documents for the role,
# and the tunnel carries traffic after the drop, across a restart, a renegotiation and a pushed route.
#
#   cli 10.1.1.2 ── r1 ── srv 10.1.2.2                   (tests/lib/testbed.sh, one path)
#
#   1. static key p2p: braidd cli (also `chroot` into an empty jail) <-> braidd srv, both dropped;
#      ping; SIGUSR1 restart of cli; ping; srv's status file (in a root-only directory) is rewritten in place
#   2. TLS client braidd (cli) -> braidd gateway (srv), both dropped (the client after its first connection,
#      as stock), gateway `reneg-sec 4`: pushed route, ping, a renegotiation, ping, a SIGUSR1 reconnect (route
#      removed and added again as nobody), ping; the gateway's status file (a directory nobody owns: FILE.tmp + rename)
#      lists the client
#      2b. the client without nobind on lport 999: CAP_NET_BIND_SERVICE too, and it re-binds at a reconnect
#   3. braidd gateway (srv, dropped) <- stock openvpn client: pushed route, ping, a renegotiation, ping
# Every check of /proc/PID/status: Uid and Gid (real, effective, saved, fs) = nobody/nogroup, Groups =
# nogroup, CapEff = CapPrm = the documented set, CapInh = CapAmb = 0.
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
DOC=$(cd "$(dirname "$0")/../.." && pwd)/docs/braidd.md
CAPH=/usr/include/linux/capability.h
tc_setup

U=$(id -u nobody) || fail "no user nobody"
G=$(getent group nogroup | cut -d: -f3)
[ -n "$G" ] || fail "no group nogroup"
[ "$U" != 0 ] && [ "$G" != 0 ] || fail "nobody/nogroup map to 0"
# a directory the dropped daemons may write (status files); the jail of the chroot'ed peer
SD=$(mktemp -d /tmp/braid-privdrop.XXXXXX)
chmod 755 "$SD"
mkdir "$SD/state" "$SD/jail"
chown nobody:nogroup "$SD/state"
trap 'rm -rf "$SD"; tb_cleanup' EXIT

# doc_mask KEPT_BY...: the capability mask of the table rows whose "kept by" cell is one of KEPT_BY
doc_mask() {
	local mask=0 name kept want n
	while IFS='|' read -r _ name kept _; do
		name=$(sed 's/[` ]//g' <<<"$name")
		kept=$(sed 's/^ *//; s/ *$//' <<<"$kept")
		[[ $name == CAP_* ]] || continue
		for want in "$@"; do
			[ "$kept" = "$want" ] || continue
			n=$(awk -v c="$name" '$1 == "#define" && $2 == c { print $3 }' "$CAPH")
			[ -n "$n" ] || fail "docs: unknown capability $name"
			mask=$((mask | (1 << n)))
		done
	done < <(sed -n '/Capabilities kept after the privilege drop/,/^$/p;/^| `CAP_/p' "$DOC" | grep '^| `CAP_')
	printf '%016x' "$mask"
}

# check_proc LABEL PID WANT_CAPEFF_HEX
check_proc() {
	local label=$1 pid=$2 want=$3 st
	st=$(cat "/proc/$pid/status" 2>/dev/null) || fail "$label: no /proc/$pid/status (daemon gone)"
	read -r -a ids <<<"$(awk '/^Uid:/ { print $2, $3, $4, $5 }' <<<"$st")"
	[ "${ids[*]}" = "$U $U $U $U" ] || fail "$label: Uid ${ids[*]}, want $U x4"
	read -r -a ids <<<"$(awk '/^Gid:/ { print $2, $3, $4, $5 }' <<<"$st")"
	[ "${ids[*]}" = "$G $G $G $G" ] || fail "$label: Gid ${ids[*]}, want $G x4"
	[ "$(awk '/^Groups:/ { $1 = ""; print }' <<<"$st" | xargs)" = "$G" ] ||
		fail "$label: $(grep ^Groups: <<<"$st"), want $G"
	[ "$(awk '/^CapEff:/ { print $2 }' <<<"$st")" = "$want" ] ||
		fail "$label: $(grep ^CapEff: <<<"$st"), want $want (docs/braidd.md)"
	[ "$(awk '/^CapPrm:/ { print $2 }' <<<"$st")" = "$want" ] || fail "$label: $(grep ^CapPrm: <<<"$st")"
	[ "$(awk '/^CapInh:/ { print $2 }' <<<"$st")" = 0000000000000000 ] || fail "$label: $(grep ^CapInh: <<<"$st")"
	[ "$(awk '/^CapAmb:/ { print $2 }' <<<"$st")" = 0000000000000000 ] || fail "$label: $(grep ^CapAmb: <<<"$st")"
	echo "  $label: pid $pid Uid $U Gid $G CapEff $want"
}

# dropped NAME CAPS_TEXT: braidd NAME logged the drop with these capabilities
dropped() {
	bd_wait_log "$1" "privileges dropped: user nobody (uid $U), group nogroup (gid $G); capabilities kept: $2" 20 ||
		fail "$1: no drop line with capabilities '$2'"
}

count() { grep -cF -- "$2" "$TB_DIR/$1.log"; }

# wait_count NAME TEXT N [S]: the log holds TEXT at least N times
wait_count() {
	local i
	for ((i = 0; i < ${4:-20} * 10; i++)); do
		[ "$(count "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

P2P_MASK=$(doc_mask point-to-point)
GW_MASK=$(doc_mask gateway)
CLI_MASK=$(doc_mask "TLS client")
CLI_BIND_MASK=$(doc_mask "TLS client" 'TLS client with `lport` below 1024 and no `nobind`')
[ "$CLI_MASK" != 0000000000000000 ] || fail "docs: the TLS client keeps no capability?"
[ "$CLI_BIND_MASK" != "$CLI_MASK" ] || fail "docs: no CAP_NET_BIND_SERVICE row for the client's lport"

# ---- 1. static key point-to-point ----
bd_keygen "$TB_DIR/key"
# LeakSanitizer reads /proc/self/task at exit, which the empty jail lacks: no leak check for the chroot'ed
# peer in an ASan build (srv runs the same code and keeps the check)
NOLEAK=${ASAN_OPTIONS-}
# (ldd's output in a variable: `ldd | grep -q` fails under pipefail when grep exits first)
libs=$(ldd "$BRAIDD" 2>/dev/null)
if [[ $libs == *libasan* ]] || grep -qa AddressSanitizer "$BRAIDD"; then
	NOLEAK=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
fi
bd_conf srv "dev tun" "proto udp" "local $(tb_srv_addr 1)" "lport 1194" "secret $TB_DIR/key 0" \
	"ifconfig 10.200.0.1 10.200.0.2" "verb 4" "user nobody" "group nogroup" "status $SD/p2p.json 1"
bd_conf cli "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" "secret $TB_DIR/key 1" \
	"ifconfig 10.200.0.2 10.200.0.1" "verb 4" "user nobody" "group nogroup" "chroot $SD/jail" \
	"ping 1" "ping-restart 10"
bd_start srv "$TB_SRV"
bd_wait_log srv "Initialization Sequence Completed" || fail "p2p srv did not start"
ASAN_OPTIONS=$NOLEAK bd_start cli "$TB_CLI"
bd_wait_log cli "Initialization Sequence Completed" || fail "p2p cli did not start"
dropped srv none
dropped cli none
check_proc "p2p srv" "${BD_PID[srv]}" "$P2P_MASK"
check_proc "p2p cli" "${BD_PID[cli]}" "$P2P_MASK"
[ "$(readlink "/proc/${BD_PID[cli]}/root")" = "$SD/jail" ] || fail "p2p cli: root is $(readlink "/proc/${BD_PID[cli]}/root")"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "p2p: no ping after the drop"
kill -USR1 "${BD_PID[cli]}"
bd_wait_log cli "SIGUSR1[soft,SIGUSR1] received, process restarting" 5 || fail "p2p: no restart"
wait_count cli "Initialization Sequence Completed" 2 5 || fail "p2p: restart did not complete"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "p2p: no ping after the restart"
check_proc "p2p cli after SIGUSR1" "${BD_PID[cli]}" "$P2P_MASK"
# srv's status file is in a directory nobody may not write: handed to nobody, rewritten in place (as stock)
bd_wait_log srv "option 'status $SD/p2p.json': the directory is not writable by user nobody: the file is handed to it and rewritten in place" 1 ||
	fail "p2p: no in-place status line"
before=$(stat -c %y "$SD/p2p.json" 2>/dev/null) || fail "p2p: no status file"
[ "$(stat -c %U "$SD/p2p.json")" = nobody ] || fail "p2p: status file not handed to nobody"
sleep 2.2
[ "$(stat -c %y "$SD/p2p.json")" != "$before" ] || fail "p2p: status file not rewritten after the drop"
grep -q '"paths"' "$SD/p2p.json" || fail "p2p: status file content: $(head -c 200 "$SD/p2p.json")"
bd_stop cli || fail "p2p cli exit code $?"
bd_stop srv || fail "p2p srv exit code $?"
grep -h "\[warn\]" "$TB_DIR/cli.log" "$TB_DIR/srv.log" && fail "p2p: warnings above"
echo "ok: static key p2p as nobody (cli chroot'ed): CapEff $P2P_MASK, ping before and after SIGUSR1, status file"

# ---- 2. braidd TLS client -> braidd gateway ----
gw_conf() { # NAME [lines...]
	local name=$1
	shift
	bd_conf "$name" "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "proto udp" "port 1194" \
		"local $(tb_srv_addr 1)" "ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/server.crt" \
		"key $TB_DIR/pki/server.key" "dh none" "keepalive 2 20" "verb 4" "reneg-sec 4" \
		'push "route 10.9.0.0 255.255.255.0"' "tls-auth $TB_DIR/pki/ta.key 0" \
		"user nobody" "group nogroup" "status $SD/state/$name.txt 1" "$@"
}
route_ok() { [[ $(tb_exec "$TB_CLI" ip -o route show 10.9.0.0/24) == *"dev tun"* ]]; }

gw_conf gw2
bd_start gw2 "$TB_SRV"
bd_wait_log gw2 "gateway ready" 10 || fail "gateway did not start"
dropped gw2 none
check_proc "gateway" "${BD_PID[gw2]}" "$GW_MASK"
tc_client cli2 udp tls-auth "user nobody" "group nogroup"
dropped cli2 cap_net_admin
bd_wait_log cli2 "Initialization Sequence Completed" 15 || fail "TLS client did not come up"
# as stock: the client drops once its first connection is up (its `up` script ran as root)
[ "$(grep -n "privileges dropped" "$TB_DIR/cli2.log" | cut -d: -f1)" -gt \
	"$(grep -n "Initialization Sequence Completed" "$TB_DIR/cli2.log" | head -1 | cut -d: -f1)" ] ||
	fail "TLS client: dropped before its first connection was up"
check_proc "TLS client" "${BD_PID[cli2]}" "$CLI_MASK"
route_ok || fail "TLS client: the pushed route is missing"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "TLS client: no ping after the drop"
bd_wait_log cli2 "renegotiation complete: data channel now on key_id 1" 15 || fail "TLS client: no renegotiation"
bd_wait_log gw2 "renegotiated, data key" 5 || fail "gateway: no renegotiation"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "TLS client: no ping after the renegotiation"
kill -USR1 "${BD_PID[cli2]}"
wait_count cli2 "Initialization Sequence Completed" 2 20 || fail "TLS client: no reconnect after SIGUSR1"
route_ok || fail "TLS client: the pushed route is missing after the reconnect"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "TLS client: no ping after the reconnect"
check_proc "TLS client after SIGUSR1" "${BD_PID[cli2]}" "$CLI_MASK"
grep -q "client1" "$SD/state/gw2.txt" || fail "gateway: the status file does not list client1"
[ "$(stat -c %U "$SD/state/gw2.txt")" = nobody ] || fail "gateway: status file not written by nobody"
grep -F "Operation not permitted" "$TB_DIR/cli2.log" && fail "TLS client: EPERM above"
bd_stop cli2 || fail "TLS client exit code $?"
route_ok && fail "TLS client: the pushed route stayed after the exit"
echo "ok: braidd TLS client as nobody -> braidd gateway as nobody: CapEff $CLI_MASK / $GW_MASK, pushed route," \
	"ping, $(count cli2 'renegotiation complete') renegotiation(s), SIGUSR1 reconnect"

# 2b. no nobind, lport 999: the link socket is bound again at every connect
bd_conf cli2b "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "lport 999" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
	"remote-cert-tls server" "verb 4" "tls-auth $TB_DIR/pki/ta.key 1" "user nobody" "group nogroup"
bd_start cli2b "$TB_CLI"
dropped cli2b cap_net_bind_service,cap_net_admin
bd_wait_log cli2b "Initialization Sequence Completed" 15 || fail "TLS client lport 999 did not come up"
check_proc "TLS client lport 999" "${BD_PID[cli2b]}" "$CLI_BIND_MASK"
kill -USR1 "${BD_PID[cli2b]}"
wait_count cli2b "Initialization Sequence Completed" 2 20 || fail "TLS client lport 999: no reconnect"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "TLS client lport 999: no ping after the reconnect"
socks=$(tb_exec "$TB_CLI" ss -uapn)	# (not piped into grep -q: pipefail)
grep -q ":999 .*pid=${BD_PID[cli2b]}," <<<"$socks" || fail "TLS client: not bound to :999: $socks"
bd_stop cli2b || fail "TLS client lport 999 exit code $?"
bd_stop gw2 || fail "gateway exit code $?"
echo "ok: TLS client on lport 999 as nobody: CapEff $CLI_BIND_MASK, reconnect re-binds :999"

# ---- 3. braidd gateway <- stock openvpn client ----
gw_conf gw3
bd_start gw3 "$TB_SRV"
bd_wait_log gw3 "gateway ready" 10 || fail "gateway did not start"
dropped gw3 none
printf '%s\n' "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
	"remote-cert-tls server" "tls-auth $TB_DIR/pki/ta.key 1" "verb 3" >"$TB_DIR/stock.conf"
: >"$TB_DIR/stock.log"
tb_bg "$TB_CLI" openvpn --cd "$TB_DIR" --config "$TB_DIR/stock.conf" --log "$TB_DIR/stock.log"
STOCK_PID=$TB_LAST_PID
for ((i = 0; i < 200; i++)); do
	grep -q "Initialization Sequence Completed" "$TB_DIR/stock.log" && break
	sleep 0.1
done
grep -q "Initialization Sequence Completed" "$TB_DIR/stock.log" || fail "stock client did not connect"
route_ok || fail "stock client: the pushed route is missing"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "stock client: no ping"
check_proc "gateway (stock client)" "${BD_PID[gw3]}" "$GW_MASK"
bd_wait_log gw3 "renegotiated, data key" 15 || fail "gateway: no renegotiation with the stock client"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "stock client: no ping after the renegotiation"
check_proc "gateway after renegotiation" "${BD_PID[gw3]}" "$GW_MASK"
kill -TERM "$STOCK_PID"
wait "$STOCK_PID" 2>/dev/null
bd_stop gw3 || fail "gateway exit code $?"
echo "ok: braidd gateway as nobody <- stock openvpn: CapEff $GW_MASK, pushed route, ping," \
	"$(count gw3 'renegotiated, data key') renegotiation(s)"
