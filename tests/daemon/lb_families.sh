#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lb_families.sh - the balancer (tests/tools/lb/braid-lb.sh) steering by peer-id over IPv4 and over IPv6
# (docs/scaling.md "The balancer"): real nftables and policy routing in a balancer namespace, two gateway
# namespaces holding the VIP, a client sending OpenVPN packets from several source addresses and ports.
# The gateways count what reaches their VIP with nftables (P_DATA_V2 by peer-id, hard resets), so the test
# sees where each packet was routed, not only how the balancer marked it.
#
#   cl (S1, S2) ── lb ─┬─ g1 (VIP on lo)
#                      └─ g2 (VIP on lo)
#
# Asserted, per family: P_DATA_V2 of gateway 1's peer-ids (from two source addresses: a multipath client's
# two paths) all at g1, gateway 2's all at g2, none elsewhere; 16 hard resets from 16 source ports spread
# over both by the 5-tuple hash and the same 16 again land exactly where the first ones did; with g1 drained
# (`live lb 2`) 10 new hard resets all at g2 while gateway 1's data still reaches g1; `braid-lb.sh counters`
# agrees with the gateways' counts.
set -u
LB_SH=$(cd "$(dirname "$0")/../tools/lb" && pwd)/braid-lb.sh
ID=$$
CL=lbc$ID LB=lbl$ID G1=lbg1$ID G2=lbg2$ID

fail() {
	echo "FAIL: $*" >&2
	ip netns exec "$LB" nft list table inet braidlb >&2 2>/dev/null
	exit 1
}
cleanup() { for n in "$CL" "$LB" "$G1" "$G2"; do ip netns del "$n" 2>/dev/null; done; return 0; }

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
command -v nft >/dev/null || { echo "FAIL: nft missing (packaging/install-deps.sh)" >&2; exit 1; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# send.py FAMILY SRC SPORT DST COUNT KIND [PEER_ID]: COUNT datagrams to DST:1194 from SRC:SPORT;
# KIND data = P_DATA_V2 key-id 0 with PEER_ID, reset = P_CONTROL_HARD_RESET_CLIENT_V2
send() {
	ip netns exec "$CL" python3 - "$@" <<'EOF' || fail "send $*"
import socket, struct, sys
fam, src, sport, dst, n, kind = sys.argv[1:7]
af = socket.AF_INET6 if fam == '6' else socket.AF_INET
s = socket.socket(af, socket.SOCK_DGRAM)
s.bind((src, int(sport)))
if kind == 'data':
    pid = int(sys.argv[7], 0)
    pkt = struct.pack('>I', (9 << 27) | pid) + struct.pack('>I', 1) + bytes(16) + b'x' * 64
else:
    pkt = bytes([7 << 3]) + bytes(8) + struct.pack('>BI', 0, 0) + b'\0' * 8
for i in range(int(n)):
    s.sendto(pkt, (dst, 1194))
EOF
}

# what reached a gateway's VIP: "DATA_G1 DATA_G2 RESETS" (P_DATA_V2 by the peer-id's gateway byte, hard resets)
gw_counts() {
	ip netns exec "$1" nft list chain inet seen in | awk '
		/comment "d1"/ { for (i = 1; i <= NF; i++) if ($i == "packets") d1 = $(i + 1) }
		/comment "d2"/ { for (i = 1; i <= NF; i++) if ($i == "packets") d2 = $(i + 1) }
		/comment "rs"/ { for (i = 1; i <= NF; i++) if ($i == "packets") r = $(i + 1) }
		END { printf "%d %d %d\n", d1, d2, r }'
}

# addr NS ADDR/LEN DEV: an address, IPv6 ones without duplicate address detection (usable at once)
addr() {
	case $2 in *:*) ip -n "$1" addr add "$2" dev "$3" nodad ;; *) ip -n "$1" addr add "$2" dev "$3" ;; esac ||
		fail "address $2 on $3 in $1"
}

run_family() {
	local f=$1 vip s1 s2 lbc g1c g1g g2c g2g ipx pfx r1 r2 c
	if [ "$f" = 6 ]; then
		vip=fd99:100::1 s1=fd99::11 s2=fd99::111 lbc=fd99::1 pfx=64 ipx=ip6
		g1c=fd77:1::1 g1g=fd77:1::2 g2c=fd77:2::1 g2g=fd77:2::2
	else
		vip=10.99.100.1 s1=10.99.0.11 s2=10.99.0.111 lbc=10.99.0.1 pfx=24 ipx=ip
		g1c=10.77.1.1 g1g=10.77.1.2 g2c=10.77.2.1 g2g=10.77.2.2
	fi
	for n in "$CL" "$LB" "$G1" "$G2"; do
		ip netns add "$n" || fail "ip netns add $n"
		ip -n "$n" link set lo up
	done
	ip link add "lbv$ID" type veth peer name "lbp$ID" || fail veth
	ip link set "lbv$ID" netns "$CL" && ip link set "lbp$ID" netns "$LB"
	addr "$CL" "$s1/$pfx" "lbv$ID"
	addr "$CL" "$s2/$pfx" "lbv$ID"
	addr "$LB" "$lbc/$pfx" "lbp$ID"
	ip -n "$CL" link set "lbv$ID" up && ip -n "$LB" link set "lbp$ID" up
	ip -n "$CL" -"$f" route add "$vip" via "$lbc" || fail "client route"
	for i in 1 2; do
		local gns gc gg
		gns=$([ $i = 1 ] && echo "$G1" || echo "$G2")
		gc=$([ $i = 1 ] && echo "$g1c" || echo "$g2c") gg=$([ $i = 1 ] && echo "$g1g" || echo "$g2g")
		ip link add "lbg$i$ID" type veth peer name eth0 netns "$gns" || fail veth
		ip link set "lbg$i$ID" netns "$LB"
		addr "$LB" "$gc/$pfx" "lbg$i$ID"
		ip -n "$LB" link set "lbg$i$ID" up
		addr "$gns" "$gg/$pfx" eth0
		ip -n "$gns" link set eth0 up
		ip -n "$gns" -"$f" route add default via "$gc"
		ip -n "$gns" addr add "$vip/$([ "$f" = 6 ] && echo 128 || echo 32)" dev lo
		# the gateway's view: what arrives for the VIP, by kind (no listener: the kernel answers
		# port unreachable, which does not matter here)
		ip netns exec "$gns" nft -f - <<EOF || fail "nft in $gns"
table inet seen {
  chain in {
    type filter hook input priority 0; policy accept;
    $ipx daddr $vip udp dport 1194 @th,64,32 & 0xf8ff0000 == 0x48010000 counter comment "d1"
    $ipx daddr $vip udp dport 1194 @th,64,32 & 0xf8ff0000 == 0x48020000 counter comment "d2"
    $ipx daddr $vip udp dport 1194 @th,64,5 7 counter comment "rs"
  }
}
EOF
	done
	"$LB_SH" setup "$LB" "$vip" 1194 1="$g1g" 2="$g2g" || fail "braid-lb setup (IPv$f)"
	# routes to the gateways' neighbours settle (IPv6: neighbour discovery) before counting
	ip netns exec "$LB" ping -"$f" -c 1 -W 2 "$g1g" >/dev/null && ip netns exec "$LB" ping -"$f" -c 1 -W 2 "$g2g" >/dev/null ||
		fail "IPv$f: the balancer cannot reach the gateways"
	ip netns exec "$CL" ping -"$f" -c 1 -W 2 "$lbc" >/dev/null || fail "IPv$f: the client cannot reach the balancer"

	# data: gateway 1's session on two paths (two source addresses), gateway 2's on one
	send "$f" "$s1" 40001 "$vip" 20 data 0x010005
	send "$f" "$s2" 40002 "$vip" 20 data 0x010005
	send "$f" "$s1" 40003 "$vip" 25 data 0x020007
	# handshakes: 16 five-tuples, hashed
	for p in $(seq 41000 41015); do send "$f" "$s1" "$p" "$vip" 1 reset; done
	sleep 0.3
	local a1 a2 b1 b2 h1 h2 x1 x2
	read -r a1 a2 h1 <<<"$(gw_counts "$G1")"
	read -r b1 b2 h2 <<<"$(gw_counts "$G2")"
	[ "$a1" = 40 ] && [ "$a2" = 0 ] || fail "IPv$f: g1 got $a1 of gateway 1's 40 data packets and $a2 of gateway 2's"
	[ "$b1" = 0 ] && [ "$b2" = 25 ] || fail "IPv$f: g2 got $b1 of gateway 1's data packets and $b2 of gateway 2's 25"
	[ $((h1 + h2)) = 16 ] || fail "IPv$f: hard resets g1 $h1 + g2 $h2, not 16"
	echo "ok: IPv$f: peer-id steering: g1 40/40 (two source addresses), g2 25/25; 16 handshakes hashed: g1 $h1, g2 $h2"
	# the same 5-tuples again: each lands where it did
	for p in $(seq 41000 41015); do send "$f" "$s1" "$p" "$vip" 1 reset; done
	sleep 0.3
	read -r _ _ x1 <<<"$(gw_counts "$G1")"
	read -r _ _ x2 <<<"$(gw_counts "$G2")"
	[ "$x1" = $((2 * h1)) ] && [ "$x2" = $((2 * h2)) ] ||
		fail "IPv$f: the same handshakes again: g1 $x1 (want $((2 * h1))), g2 $x2 (want $((2 * h2)))"
	echo "ok: IPv$f: the same 16 five-tuples again: g1 $x1, g2 $x2 (each on its gateway again)"
	# drain g1: new handshakes all go to g2; gateway 1's sessions still reach g1
	"$LB_SH" live "$LB" 2 || fail "braid-lb live"
	for p in $(seq 42000 42009); do send "$f" "$s2" "$p" "$vip" 1 reset; done
	send "$f" "$s2" 40002 "$vip" 5 data 0x010005
	sleep 0.3
	read -r a1 _ r1 <<<"$(gw_counts "$G1")"
	read -r _ _ r2 <<<"$(gw_counts "$G2")"
	[ "$r1" = "$x1" ] && [ "$r2" = $((x2 + 10)) ] ||
		fail "IPv$f: g1 drained: the 10 new handshakes should all reach g2 (g1 $x1 -> $r1, g2 $x2 -> $r2)"
	[ "$a1" = 45 ] || fail "IPv$f: gateway 1's data after the drain: g1 has $a1 of 45"
	echo "ok: IPv$f: g1 drained: 10 new handshakes all at g2 ($r2), gateway 1's data still at g1 ($a1)"
	# the balancer's own counters: marked for 1 = 45 data + g1's resets, for 2 = 25 + g2's
	c=$("$LB_SH" counters "$LB" | tr '\n' ' ')
	[ "$c" = "1 $((45 + r1)) 2 $((25 + r2)) " ] || fail "IPv$f: braid-lb counters '$c', want '1 $((45 + r1)) 2 $((25 + r2))'"
	echo "ok: IPv$f: braid-lb counters: $c"
	cleanup
}

run_family 4
run_family 6
echo "PASS: lb_families (IPv4 and IPv6)"
