#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_flood.sh - a braidd gateway keeps no state for unauthenticated packets:
#  * no wrap: 2000 spoofed HARD_RESET_CLIENT_V2 (random source address and port) get 2000
#    stateless cookie replies and create 0 sessions; 500 guessed cookie ACKs create 0 sessions;
#  * tls-auth: 2000 spoofed resets without the HMAC get 0 replies and create 0 sessions;
#  * afterwards a real stock client connects (1 session).
# Counters come from braidd's SIGUSR2 stats line ("sessions created", "live control sessions"
# counts the control-session objects in the process, "cookie replies", "cookie rejected").
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)
FLOOD="/usr/bin/python3 $(dirname "$0")/gw_flood.py"

field() { sed -n "s/.*[ ,]$1 \([0-9]*\)[,;]*.*/\1/p" <<<"$2"; }

check() {	# check LABEL STATS FIELD WANT
	local v
	v=$(field "$3" "$2")
	[ "$v" = "$4" ] || gw_fail "$1: '$3' is '$v', want $4 ($2)"
}

for wrap in none tls-auth; do
	if [ $wrap = tls-auth ]; then
		gw_server_conf "tls-auth $GW_DIR/ta.key 0"
	else
		gw_server_conf
	fi
	gw_start_server
	n=$(ip netns exec "$C1" $FLOOD reset 2000 10.99.0.1 1194 10.99.0) || gw_fail "flood sender"
	[ "$n" = 2000 ] || gw_fail "sent $n resets"
	sleep 0.5
	s=$(gw_stats)
	check "$wrap resets" "$s" "sessions created" 0
	check "$wrap resets" "$s" "live control sessions" 0
	check "$wrap resets" "$s" "clients" 0
	check "$wrap resets" "$s" "link rx" 2000
	if [ $wrap = none ]; then
		check "$wrap resets" "$s" "cookie replies" 2000
		check "$wrap resets" "$s" "cookie rejected" 0
		ip netns exec "$C1" $FLOOD ack 500 10.99.0.1 1194 10.99.0 >/dev/null || gw_fail "ack sender"
		sleep 0.3
		s=$(gw_stats)
		check "guessed cookie ACKs" "$s" "sessions created" 0
		check "guessed cookie ACKs" "$s" "live control sessions" 0
		check "guessed cookie ACKs" "$s" "cookie rejected" 500
	else
		check "$wrap resets" "$s" "cookie replies" 0
		check "$wrap resets" "$s" "cookie rejected" 2000
	fi
	echo "ok: $wrap: no state for spoofed packets ($s)"
	if [ $wrap = tls-auth ]; then
		gw_client_conf 1 "tls-auth $GW_DIR/ta.key 1"
	else
		gw_client_conf 1
	fi
	gw_start_client 1
	gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "$wrap: real client refused after the flood"
	s=$(gw_stats)
	check "$wrap real client" "$s" "sessions created" 1
	check "$wrap real client" "$s" "live control sessions" 1
	gw_stop_client 1
	gw_stop_server
done
echo "PASS: gw_flood"
