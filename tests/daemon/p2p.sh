#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Two braidd peers with a stock-generated static key, over path 1 of the test bed:
# for each cipher, ping v4 + v6 inside the tunnel and a 10 MB HTTP download whose sha256 must match (through
# UDP GSO/GRO and the vnet TUN's split and coalesced super-packets, both logged on);
# then SIGTERM: exit 0, TUN device, addresses and routes gone.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bd_require
tb_setup -n 1 >/dev/null 2>&1 || fail "tb_setup"

bd_keygen "$TB_DIR/key"
head -c 10485760 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
# the web server lives in srv (all addresses: the tunnel address comes and goes); the client reaches it
# through the tunnel address 10.200.0.1 only
tb_bg "$TB_SRV" python3 -m http.server --directory "$TB_DIR" 8080 >/dev/null 2>&1
HTTP_PID=$TB_LAST_PID

for cipher in AES-256-GCM AES-128-GCM CHACHA20-POLY1305; do
	bd_pair "$cipher" "route 10.201.0.0 255.255.0.0" "route-ipv6 fd00:201::/48" -- "keepalive 1 10"
	tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "$cipher: no IPv4 ping through the tunnel"
	tb_exec "$TB_CLI" ping -c3 -i0.2 -W2 -q 10.200.0.1 >/dev/null || fail "$cipher: IPv4 ping loss"
	tb_exec "$TB_CLI" ping -6 -c3 -i0.2 -W2 -q fd00:200::1 >/dev/null || fail "$cipher: IPv6 ping"
	bd_wait_log srv "Peer Connection Initiated with [AF_INET]$(tb_cli_addr 1):" 2 ||
		fail "$cipher: srv did not log the peer"
	# the web server binds the tunnel address as soon as it exists: retry the first connect
	got=
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		got=$(tb_exec "$TB_CLI" curl -sf --max-time 20 "http://10.200.0.1:8080/blob" | sha256sum | cut -d' ' -f1)
		[ "$got" = "$want" ] && break
		sleep 0.3
	done
	[ "$got" = "$want" ] || fail "$cipher: 10 MB download sha256 $got, want $want"
	# routes were installed on the tun device
	dev=$(tb_exec "$TB_SRV" ip -o route show 10.201.0.0/16 | awk '{print $3}')
	[ -n "$dev" ] || fail "$cipher: route 10.201.0.0/16 missing in srv"
	tb_exec "$TB_SRV" ip -6 -o route show fd00:201::/48 | grep -q "dev $dev" || fail "$cipher: route-ipv6 missing"
	stats=$(bd_stats cli)
	[ "$(bd_stat_field "$stats" auth_failures)" = 0 ] || fail "$cipher: auth failures on a good key: $stats"
	[ "$(bd_stat_field "$stats" tun_write)" -gt 7000 ] || fail "$cipher: cli wrote too few packets to tun: $stats"
	grep -qF "data channel $cipher" "$TB_DIR/srv.log" || fail "$cipher: cipher not logged"
	# the single path has the multipath plane's offloads: UDP GSO/GRO and a vnet TUN (super-packets)
	for n in srv cli; do
		grep -qF "UDP GSO on, GRO on" "$TB_DIR/$n.log" || fail "$cipher: $n: UDP GSO/GRO not on"
		grep -qF "tun: no offloads" "$TB_DIR/$n.log" && fail "$cipher: $n: TUN without offloads"
	done

	bd_stop cli || fail "$cipher: cli exit code $? after SIGTERM, want 0"
	bd_stop srv || fail "$cipher: srv exit code $? after SIGTERM, want 0"
	tb_exec "$TB_SRV" ip link show "$dev" >/dev/null 2>&1 && fail "$cipher: $dev still exists after exit"
	tb_exec "$TB_SRV" ip -o route show 10.201.0.0/16 | grep -q . && fail "$cipher: route left behind"
	grep -qF "SIGTERM[hard,] received, process exiting" "$TB_DIR/srv.log" || fail "no SIGTERM log line"
	grep -qF "closed (routes and addresses removed)" "$TB_DIR/srv.log" || fail "no TUN close log line"
	echo "ok: $cipher: ping v4+v6, 10 MB sha256, clean SIGTERM exit"
done
kill "$HTTP_PID"
