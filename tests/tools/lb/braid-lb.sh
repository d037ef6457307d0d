#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# braid-lb.sh - an L4 balancer for many braidd gateways behind one address, built from what the
# kernel has (docs/scaling.md): nftables reads the peer-id of every P_DATA_V2 packet and sets the
# packet mark to the gateway id (the peer-id's high 8 bits, cluster/cluster.h); packets without a
# peer-id (handshakes, control) get a 5-tuple hash over the live gateways; fwmark policy routing
# sends mark N to gateway N. The gateways hold the service address themselves (on a dummy device)
# and answer the client directly through this node's routing (no NAT, no conntrack state).
# IPv4 and IPv6 alike: one `table inet braidlb`; VIP and next hops of one setup are of one family (an IPv6
# VIP gets `ip6 daddr`, `ip -6` routes and rules, IPv6 forwarding); the hash chain serves both.
#
#   braid-lb.sh setup NS VIP PORT ID=NEXTHOP...   nft table + ip rules in namespace NS ("-": this one)
#   braid-lb.sh live NS ID...                     the gateways new sessions hash over (drain = leave out)
#   braid-lb.sh sync NS URL PREFIX                live = the gateway ids leased in etcd (URL/v3/kv/range)
#   braid-lb.sh watch NS URL PREFIX SECONDS       sync every SECONDS until killed
#   braid-lb.sh counters NS                       "ID packets" per gateway id: packets marked for it
#
# Routing table of gateway N: 1000+N; ip rule preference 1000+N.
set -u
TABLE=braidlb

nsx() { # NS CMD...: run in the namespace ("-": here)
	local ns=$1
	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

die() { echo "braid-lb: $*" >&2; exit 1; }

# the family of an address: 6 with a colon, else 4
fam() { case $1 in *:*) echo 6 ;; *) echo 4 ;; esac; }

setup() {
	local ns=$1 vip=$2 port=$3 id nh ids=() f ipx
	shift 3
	[ $# -ge 1 ] || die "setup: no gateway (ID=NEXTHOP)"
	f=$(fam "$vip")
	ipx=$([ "$f" = 6 ] && echo ip6 || echo ip)
	{
		echo "table inet $TABLE {"
		echo "  chain pre {"
		echo "    type filter hook prerouting priority mangle; policy accept;"
		# P_DATA_V2 (opcode 9, any key-id): mark = the peer-id's high byte = the gateway id. A 32-bit
		# load (nft converts it to host order) shifted: a 16-bit one is set into the mark unconverted.
		# @th is the UDP header wherever the IP header ends, so the offsets are those of both families.
		echo "    $ipx daddr $vip udp dport $port @th,64,5 9 meta mark set @th,64,32 >> 16 & 0xff"
		# no peer-id (or gateway id 0): a 5-tuple hash over the live gateways (chain hash)
		echo "    $ipx daddr $vip udp dport $port meta mark 0 jump hash"
		echo "    $ipx daddr $vip udp dport $port jump count"
		echo "  }"
		echo "  chain hash {"
		echo "  }"
		echo "  chain count {"
		for a in "$@"; do
			id=${a%%=*}
			echo "    meta mark $id counter"
		done
		echo "  }"
		echo "}"
	} | nsx "$ns" nft -f - || die "nft setup failed"
	for a in "$@"; do
		id=${a%%=*} nh=${a#*=}
		[[ $id =~ ^[0-9]+$ && $id -ge 1 && $id -le 254 ]] || die "bad gateway id '$id' (1..254)"
		[ "$(fam "$nh")" = "$f" ] || die "gateway $id: next hop $nh is not of the VIP's family (IPv$f)"
		ids+=("$id")
		nsx "$ns" ip -"$f" route replace default via "$nh" table $((1000 + id)) || die "route to $nh"
		nsx "$ns" ip -"$f" rule add pref $((1000 + id)) fwmark "$id" table $((1000 + id)) || die "ip rule"
	done
	if [ "$f" = 6 ]; then
		nsx "$ns" sysctl -qw net.ipv6.conf.all.forwarding=1
	else
		nsx "$ns" sysctl -qw net.ipv4.ip_forward=1
		nsx "$ns" sysctl -qw net.ipv4.conf.all.rp_filter=0
	fi
	live "$ns" "${ids[@]}"
}

# The hash chain: jhash of the 5-tuple mod N over the live ids (one rule per family); none live: drop.
live() {
	local ns=$1 i=0 map=
	shift
	for id in "$@"; do
		map+="${map:+, }$i : $id"
		i=$((i + 1))
	done
	{
		echo "flush chain inet $TABLE hash"
		if [ $# -eq 0 ]; then
			echo "add rule inet $TABLE hash drop"
		else
			echo "add rule inet $TABLE hash meta nfproto ipv4 meta mark set jhash ip saddr . udp sport . ip daddr . udp dport mod $# map { $map }"
			echo "add rule inet $TABLE hash meta nfproto ipv6 meta mark set jhash ip6 saddr . udp sport . ip6 daddr . udp dport mod $# map { $map }"
		fi
	} | nsx "$ns" nft -f - || die "nft live failed"
}

# The live gateway ids: the keys PREFIX gw/N in etcd (each under its gateway's lease).
live_ids() {
	local ns=$1 url=$2 prefix=$3 k e resp
	k=$(printf '%sgw/' "$prefix" | base64 -w0)
	e=$(printf '%sgw0' "$prefix" | base64 -w0)	# '0' = '/' + 1: the range end of the prefix
	resp=$(nsx "$ns" curl -sf --max-time 2 -X POST "$url/v3/kv/range" \
		-d "{\"key\":\"$k\",\"range_end\":\"$e\",\"keys_only\":true}") || return 1
	jq -r '.kvs[]?.key' <<<"$resp" | while read -r b; do
			k=$(printf '%s\n' "$b" | base64 -d)	# no newline at its end
			[[ $k =~ ^${prefix}gw/([0-9]+)$ ]] && echo "${BASH_REMATCH[1]}"
		done | sort -n
}

sync_once() {
	local ns=$1 url=$2 prefix=$3 ids
	ids=$(live_ids "$ns" "$url" "$prefix") || return 1	# etcd unreachable: keep the last set
	# shellcheck disable=SC2086
	live "$ns" $ids
}

counters() {
	nsx "$1" nft list chain inet $TABLE count | sed -n 's/.*meta mark 0x0*\([0-9a-f]*\) counter packets \([0-9]*\).*/\1 \2/p' |
		while read -r hex n; do echo "$((16#$hex)) $n"; done
}

cmd=${1:-}
shift || true
case $cmd in
setup) [ $# -ge 4 ] || die "usage: setup NS VIP PORT ID=NEXTHOP..."; setup "$@" ;;
live) [ $# -ge 1 ] || die "usage: live NS ID..."; live "$@" ;;
sync) [ $# -eq 3 ] || die "usage: sync NS URL PREFIX"; sync_once "$@" ;;
watch)
	[ $# -eq 4 ] || die "usage: watch NS URL PREFIX SECONDS"
	while :; do sync_once "$1" "$2" "$3"; sleep "$4"; done
	;;
counters) [ $# -eq 1 ] || die "usage: counters NS"; counters "$1" ;;
*) die "usage: braid-lb.sh setup|live|sync|watch|counters ..." ;;
esac
