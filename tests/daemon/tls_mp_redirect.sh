#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# redirect-gateway def1 pushed to a multipath TLS client (braidd client with 2 paths, braidd gateway
# `multipath on`, pathemu 20 + 20 Mbit/s), in two beds:
#   rules    the default bed (source policy routing per path), `mp-path ADDR`
#   norules  tb_setup --no-rules (one default route per interface, no `ip rule`), `mp-path IFNAME`
#            (SO_BINDTODEVICE)
# The /1 routes go on the TUN, the session's host route to the gateway via path 1's next hop and one per path
# via that path's next hop (metric 1 + index), so no path's outer packets fall into the tunnel. A download
# from an address only the default route reaches (srv's 10.9.0.1, through the tunnel now) is sha256-checked;
# both links carry > 30 % of its bytes (per-interface counters of c1 and c2) and the TUN took all of it;
# iptables counters on the client's OUTPUT: each path's datagrams to the gateway leave on its own link only,
# none enters the TUN; on exit every route is gone.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=8388608

for bed in rules norules; do
	if [ $bed = norules ]; then
		tb_cleanup
		TM_TB_OPTS=--no-rules
		paths=("mp-path c1" "mp-path c2")
	fi
	tm_setup 2
	[ $bed = rules ] && mapfile -t paths < <(tm_client_paths "" 2)
	tb_emu_start 1 -r 20 -d 5 >/dev/null
	tb_emu_start 2 -r 20 -d 5 >/dev/null
	srv=$(tb_srv_addr 1)
	tm_gateway gw "multipath on" 'push "redirect-gateway def1"'
	tm_client cli "${paths[@]}"
	bd_wait_log cli "Initialization Sequence Completed" 15 || fail "$bed: client did not come up"
	bd_wait_log cli "multipath negotiated with the server" 5 || fail "$bed: multipath not negotiated"
	tm_wait_active cli 2 15 || fail "$bed: paths not active: $(tm_status cli)"
	tun=$(tb_exec "$TB_CLI" ip -o route show 0.0.0.0/1 | sed -n 's/.* dev \([^ ]*\).*/\1/p')
	[ -n "$tun" ] || fail "$bed: no 0.0.0.0/1 route: $(tb_exec "$TB_CLI" ip route)"
	tb_exec "$TB_CLI" ip -o route show 128.0.0.0/1 | grep -q "dev $tun" || fail "$bed: no 128.0.0.0/1 route on $tun"
	hosts=$(tb_exec "$TB_CLI" ip -o route show "$srv")
	grep -q "via 10.1.1.1 dev c1" <<<"$hosts" || fail "$bed: no host route to the gateway via path 1: $hosts"
	grep -q "via 10.2.1.1 dev c2 .*metric 2" <<<"$hosts" || fail "$bed: no host route to the gateway via path 2: $hosts"

	# outer datagrams to the gateway by source address and outgoing interface (counted before the transfer)
	chk() { tb_exec "$TB_CLI" iptables -w -A OUTPUT -p udp -d "$srv" --dport 1194 -m comment --comment "$1" "${@:2}" ||
		fail "$bed: iptables rule $1"; }
	chk p1c1 -s 10.1.1.2 -o c1
	chk p1c2 -s 10.1.1.2 -o c2
	chk p2c2 -s 10.2.1.2 -o c2
	chk p2c1 -s 10.2.1.2 -o c1
	chk tun -o "$tun"
	pk() { tb_exec "$TB_CLI" iptables -w -nvxL OUTPUT | awk -v c="/* $1 */" 'index($0, c) { print $1; exit }'; }
	ctr() { tb_exec "$TB_CLI" cat "/sys/class/net/$1/statistics/rx_bytes"; }
	c1=$(ctr c1) c2=$(ctr c2) t=$(ctr "$tun")
	got=
	for _ in 1 2 3 4 5; do
		got=$(tb_exec "$TB_CLI" curl -sf --max-time 40 "http://$TB_SRV_APP_ADDR:8080/blob" | sha256sum | cut -d' ' -f1)
		[ "$got" = "$TM_WANT" ] && break
		sleep 0.3
	done
	[ "$got" = "$TM_WANT" ] || fail "$bed: download via the default route: sha256 $got, want $TM_WANT"
	d1=$(($(ctr c1) - c1)) d2=$(($(ctr c2) - c2)) dt=$(($(ctr "$tun") - t))
	echo "  rx bytes: c1 $d1, c2 $d2, $tun $dt (blob $TM_BLOB_BYTES)"
	[ "$dt" -ge "$TM_BLOB_BYTES" ] || fail "$bed: the download did not come through the tunnel ($tun rx $dt bytes)"
	[ $((d1 * 10)) -gt $((TM_BLOB_BYTES * 3)) ] || fail "$bed: path 1 (c1) carried only $d1 bytes"
	[ $((d2 * 10)) -gt $((TM_BLOB_BYTES * 3)) ] || fail "$bed: path 2 (c2) carried only $d2 bytes"
	tm_wait_active cli 2 5 || fail "$bed: a path failed during the transfer: $(tm_status cli)"
	echo "  datagrams to the gateway: path 1 on c1 $(pk p1c1), on c2 $(pk p1c2); path 2 on c2 $(pk p2c2), on c1 $(pk p2c1); into $tun $(pk tun)"
	[ "$(pk p1c1)" -gt 100 ] && [ "$(pk p2c2)" -gt 100 ] || fail "$bed: a path sent (almost) nothing on its own link"
	[ "$(pk p1c2)" = 0 ] && [ "$(pk p2c1)" = 0 ] || fail "$bed: a path's datagrams left on the other link"
	[ "$(pk tun)" = 0 ] || fail "$bed: $(pk tun) datagrams to the gateway went into the tunnel (loop)"
	bd_stop cli || fail "$bed: client exit code $?"
	[ -z "$(tb_exec "$TB_CLI" ip -o route show 0.0.0.0/1)" ] || fail "$bed: 0.0.0.0/1 left behind"
	[ -z "$(tb_exec "$TB_CLI" ip -o route show "$srv")" ] || fail "$bed: host routes left behind: $(tb_exec "$TB_CLI" ip -o route show "$srv")"
	bd_stop gw || fail "$bed: gateway exit code $?"
	echo "ok ($bed): redirect-gateway def1 over 2 paths: per-path host routes, 8 MiB sha256 via the default route, c1 $d1 B / c2 $d2 B, routes removed"
done
