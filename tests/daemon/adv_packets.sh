#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# adv_packets.sh PROTO WRAP - an attacker that is not a client (namespace gwa, 10.99.0.66, no key) against a
# braidd gateway (PROTO udp|tcp, WRAP none|tls-auth|tls-crypt) that serves a stock OpenVPN client, while that
# client downloads an 8 MiB blob (sha256-checked) and pings every 0.2 s. The attacker has captured the
# client's packets on the path (AF_PACKET in the gateway's namespace: an on-path observer) and sends:
#  1. the client's real P_DATA_V2 again, from its own address (replay + path hijack attempt: valid peer-id,
#     new address);
#  2. that packet with one ciphertext byte flipped, and a forged P_DATA_V2 with the client's peer-id;
#  3. that packet truncated (3 and 40 bytes);
#  4. the client's real control packets again, a bit-flipped one, one with an unknown opcode;
#  5. control packets of 1, 2, 1400 and 9000 bytes; over TCP also frames of length 0, 9193 and 65535.
# Each step asserts the gateway's rejection counters (SIGUSR2 stats line) and log lines (docs/braidd.md
# "Rejected packets"; with tls-auth at verb 3, where the verb-4 lines must be absent); at the end: no float,
# the session still at the client's address, one session created (UDP), the download's sha256 matches and no
# ping was lost.
set -uo pipefail
PROTO=${1:-udp}
WRAP=${2:-none}
source "$(dirname "$0")/adv_lib.sh"
gw_require
adv_setup 1
C1=$(gw_cns 1)
A="[AF_INET]$ADV_ADDR:"
gw_serve_blob 8388608

# with tls-auth the gateway runs at verb 3: the verb-4 lines (unknown peer-id, stale cookie) must then be absent
VERB=4
[ "$WRAP" = tls-auth ] && VERB=3
lines=("hand-window 10" "verb $VERB")
# with tls-crypt, mute-replay-warnings: replays counted, their line silenced
MUTE=
[ "$WRAP" = tls-crypt ] && MUTE=1 && lines+=("mute-replay-warnings")
[ "$PROTO" = tcp ] && lines+=("proto tcp-server")
w=$(adv_wrap_lines server "$WRAP")
[ -n "$w" ] && lines+=("$w")
gw_server_conf "${lines[@]}"
gw_start_server
pid=${GW_PID[server]}

# the on-path observer records what the client sends to the gateway, from its first packet
ip netns exec "$GW_NS" $ADV_PKT capture "gwp1$GW_ID" 1194 "$PROTO" 30 "$GW_DIR/cap" >"$GW_DIR/cap.out" &
cap=$!
GW_PIDS+=("$cap")
sleep 0.3
w=$(adv_wrap_lines client "$WRAP")
gw_client_conf 1 ${w:+"$w"}
[ "$PROTO" = tcp ] && sed -i 's/^proto udp$/proto tcp-client/' "$GW_DIR/c1.conf"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "the real client did not connect"
ip netns exec "$C1" ping -c 5 -i 0.1 -s 400 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "no ping through the tunnel"
kill -TERM "$cap"
wait "$cap"
DATA=$($ADV_PKT pick "$GW_DIR/cap" 9 400) || gw_fail "no P_DATA_V2 captured ($(cat "$GW_DIR/cap.out"))"
CTL=$($ADV_PKT pick "$GW_DIR/cap" 4 40) || gw_fail "no P_CONTROL_V1 captured"
RESET=$($ADV_PKT pick "$GW_DIR/cap" 7 14) || gw_fail "no P_CONTROL_HARD_RESET_CLIENT_V2 captured"
peer=$(grep -o "peer-id [0-9]*" "$GW_DIR/server.log" | head -n1 | cut -d' ' -f2)
gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,client1," 3
real=$(sed -n 's/^CLIENT_LIST,client1,\([^,]*\),.*/\1/p' "$GW_DIR/status.txt")
[ -n "$real" ] || gw_fail "client1 not in the status file"
echo "ok: $PROTO/$WRAP: captured $(cat "$GW_DIR/cap.out" | cut -d' ' -f2) packets of the client at $real (peer-id $peer)"

adv_flow_start 1 $([ "$PROTO" = tcp ] && echo 16 || echo 10)
sleep 1
s0=$(gw_stats)
M="$GW_DIR/m"
mkdir -p "$M"

# delta FIELD: how much a counter grew since s0 (s1 must be set)
delta() { echo $(($(adv_stat "$1" "$s1") - $(adv_stat "$1" "$s0"))); }
want() {	# want STEP FIELD N
	local d
	d=$(delta "$2")
	[ "$d" = "$3" ] || gw_fail "$1: '$2' grew by $d, want $3 ($s0 -> $s1)"
}
want_log() {	# want_log STEP TEXT: a gateway log line with TEXT and the attacker's address
	grep -F -- "$2" "$GW_DIR/server.log" | grep -qF -- "$A" || gw_fail "$1: no log line '$2 … $A'"
}
# udp_send COUNT FILE... from the attacker; tcp_send WAIT FILE... on a new attacker connection
udp_send() { adv_a $ADV_PKT udp 10.99.0.1 1194 "$@" >/dev/null || gw_fail "udp sender"; }
tcp_send() { adv_a $ADV_PKT tcp 10.99.0.1 1194 "$@"; }

# ---- 1+2+3: data packets (replay, hijack, bit flip, forgery, truncation)
$ADV_PKT mutate "$DATA" "$M/flip" flip:30
$ADV_PKT forge "$M/forged" data "$peer" 200
$ADV_PKT mutate "$DATA" "$M/t3" trunc:3
$ADV_PKT mutate "$DATA" "$M/t40" trunc:40
$ADV_PKT forge "$M/nopeer" data 4000 200
if [ "$PROTO" = udp ]; then
	udp_send 10 "$DATA"
	sleep 0.3
	s1=$(gw_stats)
	want "replayed data" replays 10
	want "replayed data" floats 0
	want "replayed data" "decrypt failures" 0
	if [ -z "$MUTE" ]; then
		want_log "replayed data" "AEAD Decrypt error: bad packet ID (may be a replay)"
	elif grep -qF "bad packet ID (may be a replay)" "$GW_DIR/server.log"; then
		gw_fail "mute-replay-warnings: a replay line was logged"
	fi
	udp_send 10 "$M/flip" "$M/forged" "$M/t40"
	udp_send 5 "$M/t3" "$M/nopeer"
	sleep 0.3
	s1=$(gw_stats)
	want "flipped/forged/truncated data" "decrypt failures" 30
	want "flipped/forged/truncated data" "unknown peer" 10
	want "flipped/forged/truncated data" floats 0
	want "flipped/forged/truncated data" replays 10
	want_log "flipped/forged data" "data packet authentication failed"
	if [ "$VERB" -ge 4 ]; then
		want_log "unknown peer-id" "Data packet with unknown peer-id 4000 from"
		want_log "3-byte data packet" "Data packet (P_DATA_V2) from"
	else
		grep -q "Data packet .*from" "$GW_DIR/server.log" && gw_fail "verb 3: a verb-4 'Data packet … from' line was logged"
	fi
	echo "ok: 10 replays, 30 flipped/forged/truncated, 5 runts, 5 for peer-id 4000 from $ADV_ADDR: counted, logged, no float"
else
	# a data packet on a fresh, unauthenticated TCP connection: not the connection's peer-id; such a
	# connection must end by hand-window (10 s) at the latest (checked below, with the others)
	cp "$DATA" "$M/data"
	for f in data flip forged; do
		tcp_send 13 "$M/$f" >"$GW_DIR/tcpd.$f" &
		GW_PIDS+=("$!")
	done
	sleep 1
	s1=$(gw_stats)
	want "data on unauthenticated TCP" "unknown peer" 3
	want "data on unauthenticated TCP" floats 0
	want "data on unauthenticated TCP" "decrypt failures" 0
	echo "ok: 3 data packets (replayed, flipped, forged) on attacker connections: unknown peer 3, no float"
fi

# ---- 4+5: control packets
$ADV_PKT mutate "$CTL" "$M/cflip" flip:$(($(stat -c %s "$CTL") - 3))
$ADV_PKT mutate "$CTL" "$M/cop" op:31
$ADV_PKT forge "$M/c1" ctl 1
$ADV_PKT forge "$M/c2" ctl 2
$ADV_PKT forge "$M/c1400" ctl 1400
s0=$(gw_stats)
case $WRAP in
none) kind="cookie rejected"; text="with invalid or missing SID from" ;;
tls-auth) kind="hmac failed"; text="TLS Error: incoming packet authentication failed from" ;;
tls-crypt) kind="tls-crypt failed"; text="TLS Error: tls-crypt unwrapping failed from" ;;
esac
if [ "$PROTO" = udp ]; then
	$ADV_PKT forge "$M/c9000" ctl 9000
	udp_send 10 "$M/cflip"
	sleep 0.3
	s1=$(gw_stats)
	want "bit-flipped control" "$kind" 10
	want_log "bit-flipped control" "$text"
	udp_send 10 "$M/cop"
	sleep 0.3
	s1=$(gw_stats)
	want "unknown opcode" "bad opcode" 10
	want_log "unknown opcode" "TLS Error: unknown opcode received from"
	udp_send 10 "$CTL" "$RESET"
	udp_send 5 "$M/c1" "$M/c2" "$M/c1400" "$M/c9000"
	sleep 0.5
	s1=$(gw_stats)
	want "control packets" "sessions created" 0
	want "control packets" clients 0
	# "cookie rejected" counts every refused packet from an address without a session (hmac failed,
	# tls-crypt failed and malformed are kinds within it); a bad opcode is refused before that
	rej=$(($(delta "cookie rejected") + $(delta "bad opcode")))
	rep=$(delta "cookie replies")
	[ $((rej + rep)) = 70 ] ||
		gw_fail "70 control packets from $ADV_ADDR: $rej rejected + $rep cookie replies ($s0 -> $s1)"
	want "control packets" "bad opcode" 10
	[ "$(delta "$kind")" -ge 20 ] || gw_fail "'$kind' grew by $(delta "$kind"), want >= 20 (bit-flipped, 1400 and 9000 bytes)"
	if [ "$VERB" -lt 4 ] && grep -q "with invalid or missing SID from" "$GW_DIR/server.log"; then
		gw_fail "verb 3: a verb-4 'invalid or missing SID' line was logged"
	fi
	echo "ok: 70 control packets (flipped, bad opcode, replayed control and reset, 1/2/1400/9000 bytes): $rej rejected, $rep stateless cookie replies, no session"
else
	# with tls-auth/tls-crypt every one of them fails the wrap (or is too short to carry it) and
	# closes the connection at once; without a wrap the bit-flipped control packet belongs to no
	# session ("Unroutable control packet", as stock 2.6.14) and the random one is that or
	# malformed: closed at once too
	imm="cop c1 c2 cflip c1400"
	late=
	for f in $late; do
		tcp_send 13 "$M/$f" >"$GW_DIR/tcpd.$f" &
		GW_PIDS+=("$!")
	done
	for f in $imm; do
		r=$(tcp_send 3 "$M/$f")
		[[ $r == closed* ]] || gw_fail "TCP: the gateway kept an unauthenticated connection open after a bad control packet ($f): $r"
		echo "   $f on TCP: $r"
	done
	for hex in 0000 23e9 ffff; do	# frame lengths 0, 9193, 65535 (then 200 bytes)
		r=$(tcp_send 3 "raw:$hex$(head -c 200 /dev/zero | od -v -An -tx1 | tr -d ' \n')")
		[[ $r == closed* ]] || gw_fail "TCP: frame length 0x$hex did not close the connection: $r"
		echo "   frame length 0x$hex: $r"
	done
	s1=$(gw_stats)
	n=$(wc -w <<<"$imm")
	want "bad frame lengths" "tcp bad length" 3
	want "unknown opcode on TCP" "bad opcode" 1
	if [ "$WRAP" = none ]; then
		[ $(($(delta malformed) + $(delta unroutable))) = 4 ] ||
			gw_fail "no wrap: malformed + unroutable grew by $(delta malformed) + $(delta unroutable), want 4"
		[ "$(delta unroutable)" -ge 1 ] || gw_fail "no wrap: the bit-flipped control packet was not unroutable"
		want_log "control packet of no session" "TLS Error: Unroutable control packet received from"
	else
		want "runt control on TCP" malformed 2
	fi
	want "unauthenticated TCP" "tcp unauth closed" $((n + 3))
	want_log "frame length 0" "WARNING: Bad encapsulated packet length from peer (0), which must be > 0 and <= 9192"
	want_log "frame length 9193" "WARNING: Bad encapsulated packet length from peer (9193), which must be > 0 and <= 9192"
	want_log "frame length 65535" "WARNING: Bad encapsulated packet length from peer (65535), which must be > 0 and <= 9192"
	want_log "unauthenticated TCP" "TCP connection closed: bad opcode"
	want_log "unknown opcode" "TLS Error: unknown opcode received from"
	if [ "$WRAP" != none ]; then
		want "bit-flipped/random control on TCP" "$kind" 2
		want_log "bit-flipped control" "$text"
	fi
	echo "ok: TCP: $n bad control packets and 3 bad frame lengths: each connection closed at once, counted, logged"
	wait_late=0
	for f in "$GW_DIR"/tcpd.*; do
		while [ ! -s "$f" ] && [ $wait_late -lt 150 ]; do sleep 0.1; wait_late=$((wait_late + 1)); done
		r=$(cat "$f")
		t=${r#closed }
		[[ $r == closed* ]] && [ "${t%.*}" -le 11 ] ||
			gw_fail "TCP: $(basename "$f"): an unauthenticated connection outlived hand-window 10: $r"
		echo "   ${f##*/tcpd.} on an unauthenticated connection: $r (hand-window 10)"
	done
fi

adv_flow_check 1
s1=$(gw_stats)
kill -0 "$pid" || gw_fail "the gateway died"
[ "$(adv_stat floats "$s1")" = 0 ] || gw_fail "the session floated: $s1"
[ "$PROTO" = udp ] && { [ "$(adv_stat "sessions created" "$s1")" = 1 ] || gw_fail "sessions created is not 1: $s1"; }
[ "$(adv_stat clients "$s1")" = 1 ] || gw_fail "clients is not 1: $s1"
sleep 1.1
grep -q "^CLIENT_LIST,client1,$real," "$GW_DIR/status.txt" || gw_fail "client1 is no longer at $real: $(grep CLIENT_LIST "$GW_DIR/status.txt")"
grep -q "client removed" "$GW_DIR/server.log" && grep "client removed" "$GW_DIR/server.log" | grep -q "client1/" &&
	gw_fail "the real client was removed"
if [ "$PROTO" = udp ]; then	# rate limit: at most 10 lines of a kind in 10 s, then one summary
	n=$(grep -F -- "$text" "$GW_DIR/server.log" | grep -cF -- "$A")
	[ "$n" -le 10 ] || gw_fail "$n '$text' lines for > 10 packets in < 10 s: not rate-limited"
	gw_wait "$GW_DIR/server.log" "$kind: " 10 && sleep 0.2 && grep -q "$kind: [0-9]* similar messages suppressed in the last 10 s" "$GW_DIR/server.log" ||
		gw_fail "no '$kind: N similar messages suppressed in the last 10 s' line"
fi
echo "$(adv_count "$ADV_ADDR") gateway log lines name the attacker; $(adv_count "similar messages suppressed") suppression summaries;" \
	"tun no route $(adv_stat "tun no route" "$s1"), tcp queue drops $(adv_stat "tcp queue drops" "$s1")"
gw_stop_client 1
adv_stop_server
echo "PASS: adv_packets $PROTO $WRAP"
