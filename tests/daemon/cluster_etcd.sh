#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# cluster_etcd.sh - two braidd gateways behind one address (docs/scaling.md): a real etcd started
# here holds the gateway-id leases and the shared address pool; tests/tools/lb/braid-lb.sh is the
# L4 balancer (nftables peer-id -> mark, fwmark policy routing, 5-tuple hash for handshakes).
#
#   cl (client, 10.99.0.11 + .111) ── lb (10.99.0.1; etcd; nft) ─┬─ g1 (10.77.1.2, VIP 10.99.100.1)
#                                                               └─ g2 (10.77.2.2, VIP 10.99.100.1)
#   a second client c2 (10.99.0.12) on the same link; VIP 10.99.100.1:1194 on the loopback
#   device of each gateway; both gateways `server 10.8.0.0 255.255.255.0` (one pool, shared through etcd).
#
# Asserted: the gateways get ids 1 and 2 in etcd; the multipath client (two paths, two source
# addresses) lands on one gateway with both paths validated there and no packet marked for the
# other; with that gateway drained in the balancer, client 2 lands on the other gateway and gets a
# different address (the first one is claimed in etcd: "another gateway's"); SIGKILL of client 1's
# gateway: its lease expires, the balancer drops it, client 1 reconnects (ping-restart) to the
# other gateway with an address different from client 2's; its address key in etcd names that
# gateway; a 2 MiB download through its tunnel has the right sha256. Client 3 (c3, 10.99.0.13):
# its serial under braid/revoked/ → refused at connect; unrevoked, its braid/ccd/client3 entry fixes
# its address; revoked again → dropped at a live reload. A gateway whose lease is revoked stops; SIGTERM revokes a gateway's lease (its keys leave etcd at once).
# Each gateway runs `workers 2` (docs/scaling.md "Workers"): client 1's session and both of its paths
# are on one worker (the per-worker steering counters: the other worker saw none of its packets);
# extra clients on the surviving gateway until both of its workers hold sessions: every address
# different, each claimed in etcd under that gateway; all of them revoked in etcd, a live reload drops
# every one (each worker's walk its own clients: one summary line per worker), their keys released.
source "$(dirname "$0")/../lib/pki.sh"
source "$(dirname "$0")/etcd_lib.sh"
BRAIDD=${BRAIDD:-$BRAID_BIN_DIR/braidd}
LB_SH=$(cd "$(dirname "$0")/../tools/lb" && pwd)/braid-lb.sh
ID=$$
CL=clc$ID C2=clc2$ID C3=clc3$ID LB=cllb$ID G1=clg1$ID G2=clg2$ID
VIP=10.99.100.1
DIR=
PIDS=()
declare -A PID
declare -A SERX
XW=()	# extra clients per worker of the surviving gateway

fail() {
	echo "FAIL: $*" >&2
	ip netns exec "$LB" nft list table inet braidlb >&2 2>/dev/null
	local f
	for f in "$DIR"/*.log; do
		[ -f "$f" ] || continue
		echo "---- $f (last 30 lines)" >&2
		tail -n 30 "$f" >&2
	done
	exit 1
}
cleanup() {
	local p i
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
	done
	for n in "$CL" "$C2" "$C3" "$LB" "$G1" "$G2"; do ip netns del "$n" 2>/dev/null; done
	[ -n "$DIR" ] && [ -z "${CL_KEEP:-}" ] && rm -rf "$DIR"
	return 0
}
waitfor() { # FILE TEXT SECONDS
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
for t in etcd nft curl jq; do
	command -v $t >/dev/null || { echo "FAIL: $t missing (packaging/install-deps.sh)" >&2; exit 1; }
done
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
DIR=$(mktemp -d /tmp/braid-cl.XXXXXX)
T0=$SECONDS

# --- namespaces
for n in "$CL" "$C2" "$C3" "$LB" "$G1" "$G2"; do
	ip netns add "$n" || fail "ip netns add $n"
	ip -n "$n" link set lo up
done
ip -n "$LB" link add br0 type bridge
ip -n "$LB" addr add 10.99.0.1/24 dev br0
ip -n "$LB" link set br0 up
i=0
for n in "$CL" "$C2" "$C3"; do
	i=$((i + 1))
	ip link add "clv$i$ID" type veth peer name "clp$i$ID" || fail veth
	ip link set "clv$i$ID" netns "$n"
	ip link set "clp$i$ID" netns "$LB"
	ip -n "$n" link set "clv$i$ID" name eth0
	ip -n "$n" addr add "10.99.0.$((10 + i))/24" dev eth0
	ip -n "$n" link set eth0 up
	ip -n "$n" route add 10.99.100.0/24 via 10.99.0.1
	ip -n "$LB" link set "clp$i$ID" master br0 up
done
ip -n "$CL" addr add 10.99.0.111/24 dev eth0	# client 1's second path
i=0
for n in "$G1" "$G2"; do
	i=$((i + 1))
	ip link add "clg$i$ID" type veth peer name eth0 netns "$n" || fail veth
	ip link set "clg$i$ID" netns "$LB"
	ip -n "$LB" addr add "10.77.$i.1/24" dev "clg$i$ID"
	ip -n "$LB" link set "clg$i$ID" up
	ip -n "$n" addr add "10.77.$i.2/24" dev eth0
	ip -n "$n" link set eth0 up
	ip -n "$n" route add default via "10.77.$i.1"
	ip -n "$n" addr add "$VIP/32" dev lo	# the service address (CONFIG_DUMMY may be absent)
done

# --- etcd in the balancer's namespace (reachable from the gateways at 10.77.N.1:2379)
etcd_start "$LB" "$DIR" http://0.0.0.0:2379 http://10.77.1.1:2379 || fail "etcd did not start"
PIDS+=("$ETCD_PID")

# --- the balancer
"$LB_SH" setup "$LB" $VIP 1194 1=10.77.1.2 2=10.77.2.2 || fail "braid-lb setup"

# --- PKI, web content
XN=(4 5 6 7 8 9 10 11 12 13)	# extra clients (single-path, from c3's namespace): all on one worker 1 in 512
braid_pki "$DIR" client1 client2 client3 "${XN[@]/#/client}" >/dev/null || fail pki
head -c 2097152 /dev/urandom >"$DIR/blob"
WANT=$(sha256sum "$DIR/blob" | cut -d' ' -f1)

gw_start() { # N
	local n=$1 ns
	ns=$([ "$n" = 1 ] && echo "$G1" || echo "$G2")
	printf '%s\n' "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "port 1194" "local $VIP" \
		"ca $DIR/ca.crt" "cert $DIR/server.crt" "key $DIR/server.key" "dh none" "keepalive 1 5" \
		"verb 4" "multipath on" "cluster-etcd http://10.77.$n.1:2379" "cluster-ttl 2" \
		"cluster-gateway-id $n" "workers 2" >"$DIR/g$n.conf"
	: >"$DIR/g$n.log"
	ip netns exec "$ns" "$BRAIDD" --config "$DIR/g$n.conf" --log "$DIR/g$n.log" &
	PID[g$n]=$!
	PIDS+=("$!")
	waitfor "$DIR/g$n.log" "gateway ready" 10 || fail "gateway $n did not start"
	grep -qF "cluster: gateway id $n (peer-ids $((n << 16))..$(((n << 16) | 65535)))" "$DIR/g$n.log" ||
		fail "gateway $n: no gateway id $n"
	grep -qF "workers: 2, sessions steered by their peer-ids" "$DIR/g$n.log" || fail "gateway $n: not 2 workers"
	# the web server: the same blob at 10.8.0.1:8080 on each gateway
	ip netns exec "$ns" /usr/bin/python3 -c '
import http.server, socket, sys, os
class S(http.server.ThreadingHTTPServer):
    def server_bind(self):
        self.socket.setsockopt(socket.SOL_IP, 15, 1)
        super().server_bind()
os.chdir(sys.argv[1])
S(("10.8.0.1", 8080), http.server.SimpleHTTPRequestHandler).serve_forever()' "$DIR" >/dev/null 2>&1 &
	PID[w$n]=$!
	PIDS+=("$!")
}
client_start() { # I NS LINES...
	local i=$1 ns=$2
	shift 2
	printf '%s\n' "client" "dev tun" "proto udp" "remote $VIP 1194" "nobind" "ca $DIR/ca.crt" \
		"cert $DIR/client$i.crt" "key $DIR/client$i.key" "remote-cert-tls server" "verb 4" \
		"connect-retry 1" "server-poll-timeout 4" "hand-window 10" "dns-updown disable" "$@" \
		>"$DIR/c$i.conf"
	: >"$DIR/c$i.log"
	ip netns exec "$ns" "$BRAIDD" --config "$DIR/c$i.conf" --log "$DIR/c$i.log" &
	PID[c$i]=$!
	PIDS+=("$!")
}
# cluster_stats N: SIGUSR2 to gateway N, its new "cluster stats:" line
cluster_stats() {
	local log="$DIR/g$1.log" n i
	n=$(grep -c "cluster stats:" "$log")
	kill -USR2 "${PID[g$1]}"
	for ((i = 0; i < 40; i++)); do
		[ "$(grep -c "cluster stats:" "$log")" -gt "$n" ] && break
		sleep 0.05
	done
	grep "cluster stats:" "$log" | tail -n 1
}
# wk_line N W: gateway N's last "worker W: sessions ..." line (SIGUSR2, written before its cluster stats)
wk_line() { grep "worker $2: sessions " "$DIR/g$1.log" | tail -n 1; }
# wk_num LINE WHAT: the number after WHAT in a worker line ("sessions", "steered by peer-id")
wk_num() { sed -n "s/.*$2 \([0-9]*\).*/\1/p" <<<"$1"; }
ifc() { sed -n 's|.* tun[0-9]*: address \(10\.8\.0\.[0-9]*\)/.*|\1|p' "$1" | tail -n 1; }

gw_start 1
gw_start 2
[ "$(etcd_get braid/gw/1)" != "" ] && [ "$(etcd_get braid/gw/2)" != "" ] || fail "gateway keys not in etcd"
"$LB_SH" sync "$LB" http://127.0.0.1:2379 braid/ || fail "braid-lb sync"

# --- client 1: multipath, two source addresses
client_start 1 "$CL" "mp-path 10.99.0.11" "mp-path 10.99.0.111" "status $DIR/c1.status 1"
waitfor "$DIR/c1.log" "Initialization Sequence Completed" 20 || fail "client 1 did not connect"
if grep -q "new client session" "$DIR/g1.log"; then OWN=1 OTHER=2; else OWN=2 OTHER=1; fi
grep -q "new client session" "$DIR/g$OWN.log" || fail "client 1 is on no gateway"
grep -q "new client session" "$DIR/g$OTHER.log" && fail "client 1's handshake reached both gateways"
A1=$(ifc "$DIR/c1.log")
[ -n "$A1" ] || fail "client 1: no pushed address"
waitfor "$DIR/c1.status" "Braid path,1," 15 || fail "client 1: no second path"
ip netns exec "$CL" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || fail "client 1: ping"
read -r PID1 < <(sed -n 's/.* peer-id \([0-9]*\) (P_DATA_V2).*/\1/p' "$DIR/c1.log" | tail -n 1)
[ $((PID1 >> 16)) = "$OWN" ] || fail "client 1's peer-id $PID1 does not carry gateway id $OWN"
# both paths validated on the gateway the peer-id names (a path to the other one could not validate)
sleep 1
grep "Braid path," "$DIR/c1.status" >"$DIR/paths.txt"
for p in 0 1; do	# packets received on each path: only the gateway that owns the session answers
	rx=$(awk -F, -v p=$p '$1 == "Braid path" && $2 == p { print $8 }' "$DIR/paths.txt")
	[ "${rx:-0}" -gt 0 ] || fail "client 1: path $p received nothing ($(tr '\n' ' ' <"$DIR/paths.txt"))"
done
"$LB_SH" counters "$LB" >"$DIR/cnt1.txt"
n_other=$(awk -v g="$OTHER" '$1 == g { print $2 }' "$DIR/cnt1.txt")
n_own=$(awk -v g="$OWN" '$1 == g { print $2 }' "$DIR/cnt1.txt")
[ "${n_other:-x}" = 0 ] || fail "packets marked for gateway $OTHER: ${n_other:-none} (counters: $(tr '\n' ' ' <"$DIR/cnt1.txt"))"
[ "${n_own:-0}" -gt 10 ] || fail "few packets marked for gateway $OWN: ${n_own:-none}"
[ "$(etcd_get "braid/addr/$A1")" = "gw $OWN" ] || fail "etcd: braid/addr/$A1 is not gateway $OWN's"
# one worker of that gateway holds the session and received every data packet of both paths
W1=$(((PID1 & 0xffff) % 2))
cluster_stats "$OWN" >/dev/null
l_own=$(wk_line "$OWN" $W1) l_oth=$(wk_line "$OWN" $((1 - W1)))
[ "$(wk_num "$l_own" sessions)" = 1 ] && [ "$(wk_num "$l_oth" sessions)" = 0 ] ||
	fail "gateway $OWN: client 1 (peer-id $PID1) is not worker $W1's session: $l_own / $l_oth"
[ "$(wk_num "$l_own" "steered by peer-id")" -gt 10 ] && [ "$(wk_num "$l_oth" "steered by peer-id")" = 0 ] ||
	fail "gateway $OWN: client 1's data packets not all on worker $W1: $l_own / $l_oth"
echo "ok: client 1 (two paths) on gateway $OWN worker $W1 ($(wk_num "$l_own" "steered by peer-id") packets steered there, 0 to the other), address $A1, peer-id $PID1, $n_own packets marked $OWN, 0 for $OTHER"

# --- client 2 with gateway OWN drained: lands on the other one; the pool is shared
"$LB_SH" live "$LB" "$OTHER"
client_start 2 "$C2"
waitfor "$DIR/c2.log" "Initialization Sequence Completed" 20 || fail "client 2 did not connect"
A2=$(ifc "$DIR/c2.log")
[ -n "$A2" ] && [ "$A2" != "$A1" ] || fail "client 2 got ${A2:-no address}; client 1 has $A1"
grep -q "new client session" "$DIR/g$OTHER.log" || fail "client 2 is not on gateway $OTHER"
grep -qF "cluster: address $A1 is another gateway's (etcd)" "$DIR/g$OTHER.log" ||
	fail "gateway $OTHER did not skip $A1"
ip netns exec "$C2" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || fail "client 2: ping"
echo "ok: client 2 on gateway $OTHER, address $A2 (not $A1: claimed in etcd)"

# --- the balancer follows etcd from now on; kill client 1's gateway
"$LB_SH" watch "$LB" http://127.0.0.1:2379 braid/ 0.5 &
PIDS+=("$!")
n_ini=$(grep -c "Initialization Sequence Completed" "$DIR/c1.log")
kill -9 "${PID[g$OWN]}"
t_kill=$SECONDS
wait "${PID[g$OWN]}" 2>/dev/null
for ((i = 0; i < 200; i++)); do
	[ "$(grep -c "Initialization Sequence Completed" "$DIR/c1.log")" -gt "$n_ini" ] && break
	sleep 0.1
done
[ $i -lt 200 ] || fail "client 1 did not reconnect within 20 s of the gateway's death"
t_re=$((SECONDS - t_kill))
[ -z "$(etcd_get braid/gw/$OWN)" ] || fail "the dead gateway's id key is still in etcd"
B1=$(ifc "$DIR/c1.log")
[ -n "$B1" ] && [ "$B1" != "$A2" ] || fail "client 1 got ${B1:-no address} on gateway $OTHER; client 2 has $A2"
[ "$(etcd_get "braid/addr/$B1")" = "gw $OTHER" ] || fail "etcd: braid/addr/$B1 is not gateway $OTHER's"
[ "$(grep -c "new client session" "$DIR/g$OTHER.log")" -ge 2 ] || fail "client 1 is not on gateway $OTHER"
ip netns exec "$CL" ping -c 2 -i 0.2 -W 3 -q 10.8.0.1 >/dev/null || fail "client 1: ping after failover"
sleep 0.3
got=$(ip netns exec "$CL" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
[ "$got" = "$WANT" ] || fail "client 1: 2 MiB download after failover: sha256 mismatch"
ip netns exec "$C2" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || fail "client 2: ping after failover"
echo "ok: gateway $OWN killed; client 1 reconnected to gateway $OTHER in ${t_re} s with $B1 (client 2: $A2); sha256 ok"

# --- the surviving gateway's counters: two claims (client 2, then client 1 after the failover), one
# address skipped (client 1's first, held by the other gateway then), no failure
cs=$(cluster_stats "$OTHER")
[[ $cs =~ "gateway id $OTHER, keepalives "([0-9]+)", keepalive failed 0, claims 2, claims taken elsewhere 1, claims failed 0" ]] ||
	fail "cluster stats of gateway $OTHER: $cs"
[ "${BASH_REMATCH[1]}" -ge 3 ] || fail "gateway $OTHER: ${BASH_REMATCH[1]} keepalives"
echo "ok: ${cs#*cluster stats: }"

# --- more sessions on gateway OTHER until both of its workers hold some (the handshake's 4-tuple hash picks
# the worker): every address different (the pool is shared by the workers, each claims through its own
# etcd handle), each key in etcd names gateway OTHER; then they go and their keys leave etcd
addrs=("$A2" "$B1")
nx=0
for x in "${XN[@]}"; do
	client_start "$x" "$C3" "explicit-exit-notify 1" "auth-retry none"
	waitfor "$DIR/c$x.log" "Initialization Sequence Completed" 20 || fail "client $x did not connect"
	a=$(ifc "$DIR/c$x.log")
	[ -n "$a" ] || fail "client $x: no pushed address"
	addrs+=("$a")
	nx=$((nx + 1))
	p=$(sed -n "s|.*client$x/.*: connected, peer-id \([0-9]*\),.*|\1|p" "$DIR/g$OTHER.log" | tail -n 1)
	[ -n "$p" ] || fail "gateway $OTHER: no 'connected' line of client $x"
	XW[$(((p & 0xffff) % 2))]=$((${XW[$(((p & 0xffff) % 2))]:-0} + 1))	# its worker owns its peer-id
	cluster_stats "$OTHER" >/dev/null
	s0=$(wk_num "$(wk_line "$OTHER" 0)" sessions) s1=$(wk_num "$(wk_line "$OTHER" 1)" sessions)
	[ "$((s0 + s1))" = $((2 + nx)) ] || fail "gateway $OTHER: sessions $s0 + $s1, want $((2 + nx))"
	[ "${XW[0]:-0}" -gt 0 ] && [ "${XW[1]:-0}" -gt 0 ] && break
done
[ "${XW[0]:-0}" -gt 0 ] && [ "${XW[1]:-0}" -gt 0 ] || fail "gateway $OTHER: the $nx extra sessions all on one worker"
dups=$(printf '%s\n' "${addrs[@]}" | sort | uniq -d)
[ -z "$dups" ] || fail "gateway $OTHER handed out one address twice: $dups (${addrs[*]})"
for a in "${addrs[@]}"; do
	[ "$(etcd_get "braid/addr/$a")" = "gw $OTHER" ] || fail "etcd: braid/addr/$a is not gateway $OTHER's"
done
cs=$(cluster_stats "$OTHER")
[[ $cs == *"claims $((2 + nx)), claims taken elsewhere 1, claims failed 0"* ]] ||
	fail "cluster stats of gateway $OTHER with $nx more clients: $cs"
# all of them revoked in etcd, then a live reload: each worker's walk drops its own (both workers drop some)
n_rl=$(grep -c "client(s) disconnected: certificate revoked (cluster-etcd)" "$DIR/g$OTHER.log")
for ((i = 0; i < nx; i++)); do
	x=${XN[i]}
	ser=$(openssl x509 -in "$DIR/client$x.crt" -noout -serial | cut -d= -f2)
	SERX[$x]=$(python3 -c "print(int('$ser', 16))")
	etcd_put "braid/revoked/${SERX[$x]}" "reload test" || fail "etcd put"
done
kill -RTMIN+1 "${PID[g$OTHER]}"
for ((i = 0; i < nx; i++)); do
	x=${XN[i]}
	waitfor "$DIR/g$OTHER.log" "client client$x: certificate serial ${SERX[$x]} is revoked (cluster-etcd): disconnecting" 10 ||
		fail "the reload did not drop client $x (revoked in etcd)"
done
for ((t = 0; t < 50; t++)); do
	[ "$(grep -c "client(s) disconnected: certificate revoked (cluster-etcd)" "$DIR/g$OTHER.log")" -ge $((n_rl + 2)) ] && break
	sleep 0.1
done
n_dropped=$(grep "client(s) disconnected: certificate revoked (cluster-etcd)" "$DIR/g$OTHER.log" | tail -n +$((n_rl + 1)) |
	sed -n 's/.*reload: \([0-9]*\) client(s).*/\1/p' | paste -sd+ | bc)
[ "$(grep -c "client(s) disconnected: certificate revoked (cluster-etcd)" "$DIR/g$OTHER.log")" = $((n_rl + 2)) ] &&
	[ "$n_dropped" = "$nx" ] || fail "gateway $OTHER: not one reload summary per worker adding up to $nx (got ${n_dropped:-none})"
for ((i = 0; i < nx; i++)); do
	x=${XN[i]}
	kill "${PID[c$x]}" 2>/dev/null
	wait "${PID[c$x]}" 2>/dev/null
	etcd_del "braid/revoked/${SERX[$x]}" || fail "etcd del"
done
for ((i = 2; i < ${#addrs[@]}; i++)); do
	for ((t = 0; t < 100; t++)); do [ -z "$(etcd_get "braid/addr/${addrs[i]}")" ] && break; sleep 0.1; done
	[ $t -lt 100 ] || fail "etcd: braid/addr/${addrs[i]} still claimed after its client went"
done
ip netns exec "$C2" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || fail "client 2: ping after the reload"
echo "ok: gateway $OTHER: $((2 + nx)) sessions on both workers ($s0/$s1; extra ones ${XW[0]}/${XW[1]}), addresses ${addrs[*]} all different, claimed in etcd; revoked, dropped by both workers' reload walks, released"

# --- revocations and ccd entries in etcd, read by every gateway: client 3 revoked is refused at its connect;
# unrevoked, its ccd entry fixes its address; revoked again, a reload (SIGRTMIN+1) drops it
SER3=$(openssl x509 -in "$DIR/client3.crt" -noout -serial | cut -d= -f2)
SER3=$(python3 -c "print(int('$SER3', 16))")
etcd_put "braid/revoked/$SER3" "lost laptop" || fail "etcd put"
client_start 3 "$C3" "auth-retry none"
waitfor "$DIR/g$OTHER.log" "cluster: certificate serial $SER3 is revoked (etcd braid/revoked/$SER3: lost laptop)" 20 ||
	fail "gateway $OTHER did not refuse client 3's revoked certificate"
waitfor "$DIR/c3.log" "authentication failed (auth-retry none): exiting" 10 || fail "client 3 was not told AUTH_FAILED"
wait "${PID[c3]}" 2>/dev/null
grep -q "Initialization Sequence Completed" "$DIR/c3.log" && fail "revoked client 3 connected"
etcd_del "braid/revoked/$SER3" || fail "etcd del"
etcd_put braid/ccd/client3 "ifconfig-push 10.8.0.77 255.255.255.0" || fail "etcd put"
client_start 3 "$C3"
waitfor "$DIR/c3.log" "Initialization Sequence Completed" 20 || fail "client 3 did not connect once unrevoked"
[ "$(ifc "$DIR/c3.log")" = 10.8.0.77 ] || fail "client 3 got $(ifc "$DIR/c3.log"), want 10.8.0.77 (etcd ccd entry)"
grep -q "client-config-dir entry read from etcd" "$DIR/g$OTHER.log" || fail "no 'ccd entry read from etcd' line"
ip netns exec "$C3" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || fail "client 3: ping"
etcd_put "braid/revoked/$SER3" "stolen" || fail "etcd put"
kill -RTMIN+1 "${PID[g$OTHER]}"
waitfor "$DIR/g$OTHER.log" "certificate serial $SER3 is revoked (cluster-etcd): disconnecting" 10 ||
	fail "reload did not drop client 3, revoked in etcd"
ip netns exec "$C2" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || fail "client 2: ping after the reload"
cs=$(cluster_stats "$OTHER")
[[ $cs =~ "revoked refused "([0-9]+)", ccd entries read 1, reads failed 0" ]] && [ "${BASH_REMATCH[1]}" -ge 2 ] ||
	fail "cluster stats after the revocations: $cs"
kill "${PID[c3]}" 2>/dev/null
echo "ok: client 3 revoked in etcd: refused; its etcd ccd entry gave it 10.8.0.77; revoked again: dropped at reload"

# --- a gateway whose lease is gone stops (its id may be another's): the first one again, its lease revoked
gw_start "$OWN"
lease=$(sed -n 's/.*cluster: gateway id [0-9]* (.*), lease \([0-9a-f]*\) ttl.*/\1/p' "$DIR/g$OWN.log")
[ -n "$lease" ] || fail "no lease in gateway $OWN's log"
ip netns exec "$LB" curl -sf --max-time 2 -X POST http://127.0.0.1:2379/v3/lease/revoke \
	-d "{\"ID\":\"$((16#$lease))\"}" >/dev/null || fail "revoking gateway $OWN's lease"
waitfor "$DIR/g$OWN.log" "cluster: the gateway-id lease is gone (expired or revoked)" 5 ||
	fail "gateway $OWN did not notice its lease revoked"
for ((i = 0; i < 50; i++)); do kill -0 "${PID[g$OWN]}" 2>/dev/null || break; sleep 0.1; done
kill -0 "${PID[g$OWN]}" 2>/dev/null && fail "gateway $OWN still runs without its lease"
wait "${PID[g$OWN]}" 2>/dev/null
rc=$?
[ $rc = 1 ] || fail "gateway $OWN exited with $rc after losing its lease (want 1: restart me)"
echo "ok: gateway $OWN restarted with id $OWN, stopped when its lease was revoked"

# --- a graceful stop revokes the lease at once
kill "${PID[g$OTHER]}"
wait "${PID[g$OTHER]}" 2>/dev/null
grep -qF "cluster: lease revoked, gateway id $OTHER released" "$DIR/g$OTHER.log" || fail "no revoke on SIGTERM"
[ -z "$(etcd_get braid/gw/$OTHER)" ] && [ -z "$(etcd_get "braid/addr/$A2")" ] ||
	fail "keys left in etcd after a graceful stop"
echo "PASS: cluster_etcd ($((SECONDS - T0)) s)"
