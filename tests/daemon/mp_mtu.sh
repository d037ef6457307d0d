#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Per-path MTU (docs/multipath.md §11): two paths, the router of path 2 has MTU 1300 on both of its veths, so
# DF datagrams above 1300 bytes die there (the ICMP it sends is not used: the path sockets probe with
# IP_PMTUDISC_PROBE). Both braidd engines must find path 2's MTU below path 1's, set the tunnel MTU to path 2's,
# clamp the inner TCP MSS to it (the SYN that reaches the server's TUN carries tunnel mtu - 40), and an 8 MB
# download (sha256) must run on both paths without stalls. Then path 1's router drops to MTU 1280: the server
# must detect the black hole, lower path 1's MTU without failing it, and the next download must still work;
# a ping larger than every path MTU still gets through (sent without DF, fragmented on the way).
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
command -v tcpdump >/dev/null || { echo "SKIP: tcpdump not installed"; exit 77; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
head -c 8388608 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
tb_emu_start 1 -r 40 -d 5 >/dev/null
tb_emu_start 2 -r 30 -d 5 >/dev/null
for dev in r2c r2s; do
	tb_exec "${TB_R[2]}" ip link set "$dev" mtu 1300 || fail "cannot set mtu 1300 on $dev"
done

mp_pair 2
mp_wait_paths cli 2 active 10 || fail "cli: paths not active: $(jq -c '[.paths[].state]' "$TB_DIR/cli.json")"
mp_wait_paths srv 2 active 10 || fail "srv: paths not active: $(jq -c '[.paths[].state]' "$TB_DIR/srv.json")"

# path_mtu NAME ADDR: the last MTU braidd NAME logged for the path whose local address is ADDR
path_mtu() {
	grep -F "multipath: path " "$TB_DIR/$1.log" | grep -F "[AF_INET]$2:" |
		sed -n 's/.*) mtu \([0-9]*\) .*/\1/p' | tail -n1
}
tunnel_mtu() { sed -n 's/.*multipath: tunnel mtu \([0-9]*\) .*/\1/p' "$TB_DIR/$1.log" | tail -n1; }

declare -A M1 M2 T
for side in cli srv; do
	if [ $side = cli ]; then a1=$(tb_cli_addr 1) a2=$(tb_cli_addr 2); else a1=$(tb_srv_addr 1) a2=$(tb_srv_addr 2); fi
	# the search takes a few round trips per size; the housekeeping timer logs it within a second
	for _ in $(seq 1 100); do
		M1[$side]=$(path_mtu $side "$a1")
		M2[$side]=$(path_mtu $side "$a2")
		T[$side]=$(tunnel_mtu $side)
		[ -n "${M1[$side]}" ] && [ -n "${M2[$side]}" ] && [ -n "${T[$side]}" ] &&
			[ "${T[$side]}" = "${M2[$side]}" ] && break
		sleep 0.1
	done
	[ -n "${M1[$side]}" ] && [ -n "${M2[$side]}" ] || fail "$side: no path mtu logged (path 1 '${M1[$side]}', path 2 '${M2[$side]}')"
	[ "${M2[$side]}" -lt "${M1[$side]}" ] || fail "$side: path 2 mtu ${M2[$side]} not below path 1's ${M1[$side]}"
	# the outer datagram (inner + 28 + the data channel's >= 24 bytes) of path 2 fits 1300 ...
	[ "${M2[$side]}" -le $((1300 - 28 - 24)) ] || fail "$side: path 2 mtu ${M2[$side]} cannot fit a 1300-byte link"
	# ... and the search got within its granularity plus a cipher block of it
	[ "${M2[$side]}" -ge $((1300 - 28 - 80)) ] || fail "$side: path 2 mtu ${M2[$side]} far below the link's"
	[ "${M1[$side]}" -ge $((1500 - 28 - 80)) ] || fail "$side: path 1 mtu ${M1[$side]} far below 1500"
	[ "${T[$side]}" = "${M2[$side]}" ] || fail "$side: tunnel mtu '${T[$side]}', want path 2's ${M2[$side]}"
	echo "  $side: path 1 mtu ${M1[$side]}, path 2 mtu ${M2[$side]}, tunnel mtu ${T[$side]}"
done

# The SYN as the server's TUN gets it: its MSS was clamped by the client's braidd to its tunnel mtu - 40.
tun=$(tb_exec "$TB_SRV" ip -o link show type tun | sed -n 's/^[0-9]*: \([^:@]*\).*/\1/p' | head -n1)
[ -n "$tun" ] || fail "no tun device in the server namespace"
tb_bg "$TB_SRV" timeout 40 tcpdump -l -n -v -c 1 -i "$tun" \
	'tcp dst port 8080 and (tcp[tcpflags] & (tcp-syn|tcp-ack)) == tcp-syn' >"$TB_DIR/syn.txt" 2>/dev/null
sleep 1
start=$(date +%s.%N)
got=$(mp_http_get blob)
secs=$(echo "$(date +%s.%N) - $start" | bc)
[ "$got" = "$want" ] || fail "8 MB download sha256 $got, want $want"
for _ in $(seq 1 50); do grep -q "mss" "$TB_DIR/syn.txt" && break; sleep 0.1; done
mss=$(sed -n 's/.*mss \([0-9]*\).*/\1/p' "$TB_DIR/syn.txt" | head -n1)
[ -n "$mss" ] || fail "no SYN captured on the server's $tun: $(cat "$TB_DIR/syn.txt")"
[ "$mss" = $((T[cli] - 40)) ] || fail "SYN MSS $mss at the server, want the client's tunnel mtu ${T[cli]} - 40"
# no stall: 8 MB over 40 + 30 Mbit/s takes about a second; a stall costs RTOs of seconds
[ "$(echo "$secs < 15" | bc)" = 1 ] || fail "download took $secs s"
mp_refresh srv
for i in 1 2; do
	tx=$(mp_path_field srv "$i" tx_bytes)
	[ "$tx" -gt 1000000 ] || fail "path $i: srv sent only $tx data bytes on it"
	echo "  path $i: srv sent $tx data bytes"
done
stats=$(bd_stats cli)
clamped=$(bd_stat_field "$stats" mss_clamped)
[ "${clamped:-0}" -ge 1 ] || fail "cli: mss_clamped=${clamped:-none}"

# Black hole: path 1's router drops to MTU 1280 under the path MTU of ~1447 that both ends found. The next
# download's segments (MSS clamped to 1206: inner packets of the tunnel mtu, ~1246 bytes) no longer pass
# path 1. The server's engine must notice (its small probes still pass), confirm with a probe, lower
# path 1's MTU below the new limit and re-send on path 2 what path 1 swallowed, without failing the path.
fail_before=$(mp_path_field srv 1 failures)
for dev in r1c r1s; do
	tb_exec "${TB_R[1]}" ip link set "$dev" mtu 1280 || fail "cannot set mtu 1280 on $dev"
done
start=$(date +%s.%N)
got=$(mp_http_get blob)
secs2=$(echo "$(date +%s.%N) - $start" | bc)
[ "$got" = "$want" ] || fail "download after the black hole: sha256 $got, want $want"
[ "$(echo "$secs2 < 15" | bc)" = 1 ] || fail "download after the black hole took $secs2 s"
a1=$(tb_srv_addr 1)
for _ in $(seq 1 50); do
	line=$(grep -F "multipath: path " "$TB_DIR/srv.log" | grep -F "[AF_INET]$a1:" | tail -n1)
	bh=$(sed -n 's/.* \([0-9]*\) black holes.*/\1/p' <<<"$line")
	m1=$(path_mtu srv "$a1")
	[ "${bh:-0}" -ge 1 ] && [ "$m1" -le $((1280 - 28 - 24)) ] && break
	sleep 0.1
done
[ "${bh:-0}" -ge 1 ] || fail "srv: no black hole on path 1: $line"
[ "$m1" -le $((1280 - 28 - 24)) ] && [ "$m1" -ge $((1280 - 28 - 80)) ] ||
	fail "srv: path 1 mtu $m1 after the black hole, want what fits 1280"
mp_refresh srv
[ "$(mp_path_field srv 1 failures)" = "$fail_before" ] ||
	fail "srv: path 1 failed ($(mp_path_field srv 1 failures) failures, $fail_before before)"
echo "  black hole: srv path 1 mtu $m1 ($line); download $secs2 s"

# A packet no path fits (1428-byte inner ICMP, path MTUs ~1222 / 1246) goes out anyway, without DF, and the
# routers fragment it: with DF (the sockets' probe setting) every one of them would die at the routers.
# With DF every one would die (0 replies); a busy host may lose one to the engine's queue management, so 3 of 5.
pings=$(tb_exec "$TB_CLI" ping -c 5 -i 0.3 -W 2 -M dont -s 1400 -q 10.200.0.1 | sed -n 's/.* \([0-9]*\) received.*/\1/p')
[ "${pings:-0}" -ge 3 ] || fail "1400-byte ping through the tunnel (fits no path): $pings of 5 replies, want >= 3"
echo "  1400-byte ping (larger than every path mtu): $pings of 5 replies"

bd_stop cli || fail "cli exit code $? after SIGTERM, want 0"
bd_stop srv || fail "srv exit code $? after SIGTERM, want 0"
kill "$MP_HTTP_PID"
printf 'ok: path mtu %s / %s (cli), %s / %s (srv); SYN mss %s; 8 MB in %.2f s on both paths; mss_clamped %s\n' \
	"${M1[cli]}" "${M2[cli]}" "${M1[srv]}" "${M2[srv]}" "$mss" "$secs" "$clamped"
printf 'ok: black hole on path 1 (router mtu 1280): srv path 1 mtu %s, no failure, 8 MB in %.2f s; oversize ping %s/5\n' "$m1" "$secs2" "$pings"
