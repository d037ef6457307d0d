#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tcp_frames.sh - OpenVPN stream frames with hostile lengths, with no key and no certificate, against
# a braidd gateway (`proto tcp-server`) and a braidd TLS client (`proto tcp-client`, a fake server):
#
#   gateway, tls-auth, hand-window 5; each case on a new TCP connection from an attacker namespace:
#     len65535  \xff\xff + 65535 bytes (the heap overflow this test was written for)  -> closed, bad length
#     len0      length 0                                                             -> closed, bad length
#     len1      one P_CONTROL_V1 opcode byte                                         -> closed, malformed
#     len9192   the largest frame, P_CONTROL_V1 + random bytes (too long for control)  -> closed, malformed
#     len9193   one byte too many                                                    -> closed, bad length
#     split64   a length split across two segments, then 64 bytes                    -> closed, HMAC failed
#     partial   a 100-byte frame of which 10 bytes arrive, never completed           -> closed at hand-window
#   then: the gateway is alive, the counters on its stats line are exact, the stock lines are in its
#   log, and a real stock client connects over TCP and pings; the same reproducer against a gateway
#   without tls-auth;
#   client: a fake server answers a braidd client's reset with \xff\xff + 65535 bytes, then (next
#   connection) with a 64-byte control frame of random bytes: the client logs the stock lines, reconnects,
#   and is alive.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)
FR="/usr/bin/python3 $(dirname "$0")/tcp_frames.py"
TA="tls-auth $GW_DIR/ta.key"

field() { sed -n "s/.*[ ,]$1 \([0-9]*\)[,;]*.*/\1/p" <<<"$2"; }
check() {	# check LABEL STATS FIELD WANT
	local v
	v=$(field "$3" "$2")
	[ "$v" = "$4" ] || gw_fail "$1: '$3' is '$v', want $4 ($2)"
}
alive() { kill -0 "${GW_PID[server]}" 2>/dev/null || gw_fail "$1: the gateway died"; }

gw_server_conf "$TA 0" "proto tcp-server" "hand-window 5"
gw_start_server
for c in len65535 len0 len1 len9192 len9193 split64 partial; do
	wait_s=3
	[ $c = partial ] && wait_s=9
	r=$(ip netns exec "$C1" $FR send 10.99.0.1 1194 $c $wait_s) || gw_fail "$c: sender failed"
	case $r in closed*) ;; *) gw_fail "$c: the gateway kept the connection open ($r)" ;; esac
	alive "$c"
	echo "ok: gateway, $c: $r"
done
s=$(gw_stats)
check "frames" "$s" "tcp bad length" 3
check "frames" "$s" "hmac failed" 1
check "frames" "$s" "malformed" 2
check "frames" "$s" "tcp unauth closed" 6
check "frames" "$s" "sessions created" 7
check "frames" "$s" "clients" 0
log=$GW_DIR/server.log
for want in "WARNING: Bad encapsulated packet length from peer (65535), which must be > 0 and <= 9192" \
	"WARNING: Bad encapsulated packet length from peer (0), which must be > 0 and <= 9192" \
	"WARNING: Bad encapsulated packet length from peer (9193), which must be > 0 and <= 9192" \
	"TLS Error: incoming packet authentication failed from [AF_INET]10.99.0.11:" \
	"malformed control packet dropped" \
	"TLS key negotiation did not finish within hand-window"; do
	grep -qF -- "$want" "$log" || gw_fail "gateway log lacks '$want'"
done
n=$(grep -c "TLS Error: incoming packet authentication failed from" "$log")
[ "$n" = 1 ] || gw_fail "want 1 HMAC line, got $n"
echo "ok: gateway counters and log lines ($s)"

gw_client_conf 1 "$TA 1" "proto tcp-client"
sed -i 's/^proto udp$//' "$GW_DIR/c1.conf"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "a real client did not connect afterwards"
ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "no ping through the real client"
gw_stop_client 1
gw_stop_server
echo "ok: a real stock client connects and pings afterwards"

# no tls-auth: the reproducer reaches the framing with no key at all
gw_server_conf "proto tcp-server"
gw_start_server
r=$(ip netns exec "$C1" $FR send 10.99.0.1 1194 len65535 3)
case $r in closed*) ;; *) gw_fail "no wrap, len65535: connection kept open ($r)" ;; esac
alive "no wrap, len65535"
s=$(gw_stats)
check "no wrap" "$s" "tcp bad length" 1
gw_stop_server
echo "ok: gateway without tls-auth, len65535: $r"

# the client side: a fake server in the gateway namespace
run_client_case() {	# CASE WANT-LINE
	local out fake
	out=$GW_DIR/fake-$1.txt
	ip netns exec "$GW_NS" $FR serve 10.99.0.1 1194 "$1" 2 >"$out" &
	fake=$!
	GW_PIDS+=("$fake")
	sleep 0.3
	gw_client_conf 1 "$TA 1" "proto tcp-client"
	sed -i 's/^proto udp$//; s/^connect-retry-max 3$//; s/^suppress-timestamps$//' "$GW_DIR/c1.conf"
	: >"$GW_DIR/c1.log"
	ip netns exec "$C1" "$BRAIDD" --config "$GW_DIR/c1.conf" --log "$GW_DIR/c1.log" &
	GW_PID[c1]=$!
	GW_PIDS+=("$!")
	wait "$fake"
	grep -q "^conn 2 first-frame-len" "$out" || gw_fail "client, $1: no reconnect ($(cat "$out"))"
	grep -q "^conn 1 first-frame-len [1-9][0-9]* closed" "$out" ||
		gw_fail "client, $1: the client did not close the corrupt connection ($(cat "$out"))"
	kill -0 "${GW_PID[c1]}" 2>/dev/null || gw_fail "client, $1: braidd client died"
	grep -qF -- "$2" "$GW_DIR/c1.log" || gw_fail "client, $1: log lacks '$2'"
	gw_stop_client 1
	echo "ok: client, $1: $(tr '\n' ' ' <"$out")"
}
run_client_case len65535 "WARNING: Bad encapsulated packet length from peer (65535), which must be > 0 and <= 9192"
run_client_case split64 "TLS Error: incoming packet authentication failed from [AF_INET]10.99.0.1:1194"
echo "PASS: tcp_frames"
