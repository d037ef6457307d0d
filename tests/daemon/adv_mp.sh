#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# adv_mp.sh - an attacker against a multipath gateway (multipath over TLS, tls-auth: tls_mp_lib.sh) whose braidd
# client has 2 paths up, downloads a blob (sha256-checked, rate-limited to last the attack) and pings meanwhile.
# From three namespaces that are not the client's (routers 1 and 2, the app namespace: new source addresses)
# the attacker sends, with the client's valid peer-id:
#  1. forged PATH_CHALLENGEs (docs/multipath.md §6: magic, type 4, path_id, token in a P_DATA_V2 it cannot
#     encrypt): counted as authentication failures (the client's multipath counters), logged, no path added;
#  2. the client's real P_DATA_V2, captured at the gateway, again (path hijack attempt): counted as replays, no
#     path learned;
#  3. that packet truncated to 40 bytes and to 3 bytes: authentication failures / unknown peer.
# At the end the gateway still has exactly the 2 learned paths, the client's 2 paths are active, the download's
# sha256 matches and no ping was lost.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
ADV_PKT="python3 $(dirname "$0")/adv_pkt.py"
TM_BLOB_BYTES=8388608 tm_setup 2
tm_gateway gw "multipath on"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping"
[ "$(grep -c "learned from an authenticated packet" "$TB_DIR/gw.log")" = 2 ] || fail "gateway did not learn 2 paths"
peer=$(sed -n 's/.*multipath negotiated.*: peer-id \([0-9]*\),.*/\1/p' "$TB_DIR/gw.log" | head -n1)
[ -n "$peer" ] || fail "no multipath peer-id in the gateway's log"

# a real data packet of the client, as an on-path observer at the gateway sees it
for i in 1 2; do
	(tb_exec "$TB_SRV" python3 "$(dirname "$0")/mp_capture.py" "s$i" 1194 1000 "$TB_DIR/pkt$i" 10) &
	cap[i]=$!
done
sleep 0.3
tb_exec "$TB_CLI" ping -c 20 -i 0.05 -s 1200 -q "$TM_GW_TUN" >/dev/null
wait "${cap[1]}"; wait "${cap[2]}"
if [ -s "$TB_DIR/pkt1" ]; then pkt=$TB_DIR/pkt1; else pkt=$TB_DIR/pkt2; fi
[ -s "$pkt" ] || fail "no data packet captured on s1 or s2"
$ADV_PKT forge "$TB_DIR/chal" challenge "$peer"
$ADV_PKT mutate "$pkt" "$TB_DIR/t40" trunc:40
$ADV_PKT mutate "$pkt" "$TB_DIR/t3" trunc:3

# the client's traffic throughout: a download lasting ~15 s and pings
bytes=$(stat -c %s "$TB_DIR/blob")
tb_exec "$TB_CLI" curl -sf --retry 5 --retry-connrefused --max-time 60 --limit-rate $((bytes / 15)) -o "$TB_DIR/got" "http://$TM_GW_TUN:8080/blob" &
curl_pid=$!
tb_exec "$TB_CLI" ping -i 0.2 -c 75 -W 2 -q "$TM_GW_TUN" >"$TB_DIR/ping.out" 2>&1 &
ping_pid=$!
sleep 1

mp_line() {	# the gateway's counters line of the client (SIGUSR2), then its engine status line
	local n
	n=$(grep -c "multipath peer-id $peer: link rx" "$TB_DIR/gw.log")
	kill -USR2 "${BD_PID[gw]}"
	for _ in $(seq 1 40); do
		[ "$(grep -c "multipath peer-id $peer: link rx" "$TB_DIR/gw.log")" -gt "$n" ] && break
		sleep 0.05
	done
	grep "multipath peer-id $peer: link rx" "$TB_DIR/gw.log" | tail -n1
}
kv() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"; }
gwf() { sed -n "s/.*[ ,]$2 \([0-9][0-9]*\)\([,;].*\)\{0,1\}$/\1/p" <<<"$1"; }
learned() { grep "paths_learned=" "$TB_DIR/gw.log" | tail -n1 | sed -n 's/.*paths_learned=\([0-9]*\).*/\1/p'; }
send() { # NS FILE COUNT: from NS to the gateway's path-1 address
	tb_exec "$1" $ADV_PKT udp "$(tb_srv_addr 1)" 1194 "$3" "$2" >/dev/null || fail "sender in $1"
}
attackers=("${TB_R[1]}" "${TB_R[2]}" "$TB_APP")

c0=$(mp_line); g0=$(bd_stats gw); l0=$(learned)
for ns in "${attackers[@]}"; do send "$ns" "$TB_DIR/chal" 10; done
sleep 0.3
c1=$(mp_line); g1=$(bd_stats gw); l1=$(learned)
d=$(($(kv "$c1" auth_failures) - $(kv "$c0" auth_failures)))
[ "$d" = 30 ] || fail "30 forged PATH_CHALLENGEs: auth_failures grew by $d ($c0 -> $c1)"
[ "$l1" = "$l0" ] || fail "forged PATH_CHALLENGEs: paths_learned $l0 -> $l1"
grep -q "authentication failed: packet from \[AF_INET\]10\.[0-9.]*:[0-9]* dropped" "$TB_DIR/gw.log" ||
	fail "no 'authentication failed: packet from … dropped' line"
echo "ok: 30 forged PATH_CHALLENGEs from 3 namespaces: 30 authentication failures, paths learned stays $l1; gateway 'decrypt failures' $(gwf "$g0" "decrypt failures") -> $(gwf "$g1" "decrypt failures")"

c0=$c1; g0=$g1
for ns in "${attackers[@]}"; do send "$ns" "$pkt" 10; done
sleep 0.3
c1=$(mp_line); g1=$(bd_stats gw); l1=$(learned)
d=$(($(kv "$c1" replays) - $(kv "$c0" replays)))
[ "$d" = 30 ] || fail "30 replayed data packets: replays grew by $d ($c0 -> $c1)"
[ "$l1" = "$l0" ] || fail "replayed data packets: paths_learned $l0 -> $l1"
echo "ok: the client's data packet replayed 30 times from 3 new addresses: 30 replays, no path learned"

c0=$c1; g0=$g1
for ns in "${attackers[@]}"; do send "$ns" "$TB_DIR/t40" 5; send "$ns" "$TB_DIR/t3" 5; done
sleep 0.3
c1=$(mp_line); g1=$(bd_stats gw); l1=$(learned)
d=$(($(kv "$c1" auth_failures) - $(kv "$c0" auth_failures)))
[ "$d" = 15 ] || fail "15 packets truncated to 40 bytes: auth_failures grew by $d ($c0 -> $c1)"
d=$(($(gwf "$g1" "unknown peer") - $(gwf "$g0" "unknown peer")))
[ "$d" = 15 ] || fail "15 packets truncated to 3 bytes: 'unknown peer' grew by $d ($g0 -> $g1)"
[ "$l1" = "$l0" ] || fail "truncated packets: paths_learned $l0 -> $l1"
echo "ok: 15 + 15 truncated packets: 15 authentication failures, 15 unknown peer, no path learned"

wait "$curl_pid" || fail "the download during the attack failed"
[ "$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)" = "$TM_WANT" ] || fail "the download during the attack: sha256 mismatch"
wait "$ping_pid"
loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$TB_DIR/ping.out")
[ "$loss" = 0 ] || fail "$loss % ping loss during the attack"
[ "$(grep -c "learned from an authenticated packet" "$TB_DIR/gw.log")" = 2 ] || fail "the gateway learned a path"
tm_wait_active cli 2 3 || fail "client paths not both active after the attack: $(tm_status cli)"
echo "ok: 8 MiB download during the attack: sha256 matches; 75 pings, 0 % loss; 2 paths, both active"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "PASS: adv_mp"
