#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_reload.sh - the live reload (SIGRTMIN+1, `systemctl reload`) of a braidd gateway with three
# connected clients: a braidd multipath client (two paths), a braidd single-path client and a stock
# openvpn client. One reload changes the scheduler, a push line, verb, a ccd file, the CRL (the stock
# client's certificate revoked) and a restart-only option. Asserted: no session of the two others
# restarts (one "Initialization Sequence Completed" each, same peer-id, pings flow through the
# reload), the revoked client is disconnected and refused, the scheduler is set on the connected
# multipath client, a new client gets the new push line and its ccd file, the restart-only option
# is named in the log, a broken config leaves everything running; and the braidd TLS client's own
# reload sets its path backup, scheduler and verb with its session kept.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 4
RL=$(kill -l RTMIN+1 2>/dev/null) || RL=35
C1=$(gw_cns 1) C2=$(gw_cns 2) C3=$(gw_cns 3) C4=$(gw_cns 4)
TA_S="tls-auth $GW_DIR/ta.key 0"
TA_C="tls-auth $GW_DIR/ta.key 1"

# a CA database: an empty CRL now, client3 revoked later
gw_ca_db
gw_gencrl
mkdir -p "$GW_DIR/ccd"

gw_server_conf "$TA_S" "crl-verify $GW_DIR/crl.pem" "client-config-dir $GW_DIR/ccd" \
	"mp-scheduler edf" "multipath on" 'push "dhcp-option DOMAIN before.test"'
gw_start_server
GWPID=${GW_PID[server]}

# client1: braidd, two paths (a second address on its veth); client2: braidd single path
ip -n "$C1" addr add 10.99.0.111/24 dev eth0
braid_client() { # I LINES...
	local i=$1
	shift
	gw_client_conf "$i" "$TA_C" "dns-updown disable" "$@"
	sed -i 's/^suppress-timestamps$//; s/^connect-retry-max 3$//' "$GW_DIR/c$i.conf"
	: >"$GW_DIR/c$i.log"
	ip netns exec "$(gw_cns "$i")" "$BRAIDD" --config "$GW_DIR/c$i.conf" --log "$GW_DIR/c$i.log" &
	GW_PID[c$i]=$!
	GW_PIDS+=("$!")
}
braid_client 1 "mp-path 10.99.0.11" "mp-path 10.99.0.111" "mp-scheduler edf" "verb 4" \
	"status $GW_DIR/c1.status 1"
braid_client 2
gw_client_conf 3 "$TA_C"
sed -i 's/^connect-retry-max 3$//' "$GW_DIR/c3.conf"
gw_start_client 3
for i in 1 2 3; do
	gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 20 || gw_fail "client$i did not connect"
done
gw_wait "$GW_DIR/c1.status" "Braid path,1," 10 || gw_fail "client1: no second path in its status"
sleep 1.5
pid_of() { awk -F, -v cn="$1" '$1 == "CLIENT_LIST" && $2 == cn { print $(NF-1) }' "$GW_DIR/status.txt"; }
P1=$(pid_of client1) P2=$(pid_of client2)
[ -n "$P1" ] && [ -n "$P2" ] || gw_fail "clients 1/2 not in the status file"

# pings through the reload
ip netns exec "$C1" ping -c 30 -i 0.1 -W 2 -q 10.8.0.1 >"$GW_DIR/ping1.txt" 2>&1 &
PING1=$!
ip netns exec "$C2" ping -c 30 -i 0.1 -W 2 -q 10.8.0.1 >"$GW_DIR/ping2.txt" 2>&1 &
PING2=$!
sleep 0.5

# the changes: scheduler, push line, verb, a ccd file, the CRL (client3 revoked), one restart-only option
sed -i 's/^mp-scheduler edf$/mp-scheduler lowest-rtt/; s/before\.test/after.test/; s/^verb 4$/verb 3/' \
	"$GW_DIR/server.conf"
sed -i 's/^keepalive 10 60$/keepalive 10 61/' "$GW_DIR/server.conf"
echo "ifconfig-push 10.8.0.77 255.255.255.0" >"$GW_DIR/ccd/client4"
gw_revoke 3
gw_gencrl
kill -s "$RL" "$GWPID"
gw_wait "$GW_DIR/server.log" "reload: done" 10 || gw_fail "no 'reload: done' in the gateway log"
wait "$PING1" "$PING2"
kill -0 "$GWPID" || gw_fail "the gateway exited at the reload"

# what was applied
grep -qF "reload: verb 3" "$GW_DIR/server.log" || gw_fail "verb change not logged"
grep -qF "reload: client client1: scheduler set to lowest-rtt" "$GW_DIR/server.log" ||
	gw_fail "scheduler not set on the connected multipath client"
grep -qF "reload: option keepalive changed, needs a restart (SIGHUP)" "$GW_DIR/server.log" ||
	gw_fail "restart-only option not named"
grep -qE "reload: client client3: certificate serial [0-9]+ is revoked" "$GW_DIR/server.log" ||
	gw_fail "revoked client3 not disconnected"
grep -qF "applied: verb scheduler push" "$GW_DIR/server.log" || gw_fail "reload summary"

# no reconnect of the two others: one Initialization Sequence Completed, same peer-id, pings flowed
for i in 1 2; do
	n=$(grep -c "Initialization Sequence Completed" "$GW_DIR/c$i.log")
	[ "$n" = 1 ] || gw_fail "client$i: $n x Initialization Sequence Completed (a reconnect)"
	grep -q "RECONNECTING\|SIGUSR1\|process restarting" "$GW_DIR/c$i.log" && gw_fail "client$i restarted"
	loss=$(sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$GW_DIR/ping$i.txt")
	[ "${loss%%.*}" -le 10 ] 2>/dev/null || gw_fail "client$i: ping loss ${loss}% through the reload"
	echo "ok: client$i kept its session (ping loss ${loss}% over the reload)"
done
[ "$(grep -c "client1/.*connected\|client2/.*connected" "$GW_DIR/server.log")" -le 2 ] ||
	gw_fail "gateway: client1/2 connected again"
sleep 1.5
[ "$(pid_of client1)" = "$P1" ] && [ "$(pid_of client2)" = "$P2" ] || gw_fail "peer-id changed"
grep -q "^CLIENT_LIST,client3," "$GW_DIR/status.txt" && gw_fail "revoked client3 still listed"
ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client1: no ping after"
ip netns exec "$C2" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client2: no ping after"
echo "ok: revoked client3 disconnected, clients 1 and 2 unchanged (peer-id $P1, $P2)"
# client3's reconnect is refused by the CRL
gw_wait "$GW_DIR/server.log" "certificate verify failed: certificate revoked (depth 0, CN=client3)" 15 ||
	gw_fail "client3's reconnect not refused by the CRL"
[ "$(grep -c "Initialization Sequence Completed" "$GW_DIR/c3.log")" = 1 ] || gw_fail "revoked client3 connected again"

# a new client gets the new push line and its new ccd file
gw_client_conf 4 "$TA_C"
gw_start_client 4
gw_wait "$GW_DIR/c4.log" "Initialization Sequence Completed" 20 || gw_fail "client4 did not connect"
grep -qF "dhcp-option DOMAIN after.test" "$GW_DIR/c4.log" || gw_fail "client4: new push line not received"
grep -qF "before.test" "$GW_DIR/c4.log" && gw_fail "client4: old push line received"
grep -qF "10.8.0.77" "$GW_DIR/c4.log" || gw_fail "client4: ccd ifconfig-push not applied"
echo "ok: new client got the new push line and its ccd file"

# a broken config: the gateway keeps running, nothing changes
echo "bogus-option-for-reload yes" >>"$GW_DIR/server.conf"
kill -s "$RL" "$GWPID"
gw_wait "$GW_DIR/server.log" "the configuration does not parse; nothing changed" 10 ||
	gw_fail "broken config: no error logged"
grep -qF "bogus-option-for-reload" "$GW_DIR/server.log" || gw_fail "broken config: the option not named"
sleep 0.5
kill -0 "$GWPID" || gw_fail "broken config: the gateway exited"
ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "broken config: client1 ping"
echo "ok: a broken config leaves the gateway running"

# the braidd TLS client's own reload: path backup, scheduler, verb; its session kept
sed -i 's/^mp-scheduler edf$/mp-scheduler lowest-rtt/; s/^verb 4$/verb 5/' "$GW_DIR/c1.conf"
echo "mp-backup 10.99.0.111" >>"$GW_DIR/c1.conf"
kill -s "$RL" "${GW_PID[c1]}"
gw_wait "$GW_DIR/c1.log" "reload: done" 10 || gw_fail "client1: no 'reload: done'"
grep -qF "reload: scheduler set to lowest-rtt" "$GW_DIR/c1.log" || gw_fail "client1: scheduler not set"
grep -qF "reload: verb 5" "$GW_DIR/c1.log" || gw_fail "client1: verb not set"
grep -qE "reload: path 1 .*backup" "$GW_DIR/c1.log" || gw_fail "client1: path 1 not set to backup"
sleep 1.5
[ "$(grep -c "Initialization Sequence Completed" "$GW_DIR/c1.log")" = 1 ] || gw_fail "client1 reconnected"
ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client1: ping after its reload"
echo "ok: the TLS client's reload (backup path, scheduler, verb) kept its session"
echo "PASS: gw_reload"
