#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_lifecycle.sh - a client's life on a braidd gateway after it connected (stock OpenVPN 2.6
# client bound to a fixed port, UDP, tls-auth, auth-user-pass-verify, server reneg-sec 3):
#  * the gateway renegotiates every 3 s; each time the client's credentials are checked again
#    and traffic goes on; once the script starts refusing, the renegotiation ends in AUTH_FAILED
#    and the client is removed;
#  * a client that restarts (SIGUSR1) from the same address and port gets a fresh session, the
#    old one is removed, the address is the same;
#  * explicit-exit-notify on the gateway: at SIGTERM it tells the client RESTART.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)
cat >"$GW_DIR/verify.sh" <<EOS
#!/bin/sh
[ -f "$GW_DIR/deny" ] && exit 1
u=\$(sed -n 1p "\$1"); p=\$(sed -n 2p "\$1")
[ "\$u" = alice ] && [ "\$p" = pw1 ] && exit 0
exit 1
EOS
chmod 755 "$GW_DIR/verify.sh"
printf 'alice\npw1\n' >"$GW_DIR/up.txt"

gw_server_conf "tls-auth $GW_DIR/ta.key 0" "script-security 2" \
	"auth-user-pass-verify $GW_DIR/verify.sh via-file" "reneg-sec 3" "explicit-exit-notify 1"
gw_start_server
gw_client_conf 1 "tls-auth $GW_DIR/ta.key 1" "auth-user-pass $GW_DIR/up.txt" "lport 5000"
sed -i 's/^nobind$//' "$GW_DIR/c1.conf"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not connect"
gw_wait "$GW_DIR/server.log" "renegotiated, data key 1 (user re-verified)" 10 ||
	gw_fail "no gateway renegotiation with re-verification"
n0=$(grep -c "renegotiated, data key" "$GW_DIR/server.log")
loss=$(ip netns exec "$C1" ping -c 30 -i 0.2 -W 2 -q 10.8.0.1 | sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p')
n1=$(grep -c "renegotiated, data key" "$GW_DIR/server.log")
[ "$loss" = 0 ] || gw_fail "renegotiation: $loss % ping loss"
[ "$n1" -gt "$n0" ] || gw_fail "no renegotiation during the 6 s of pings"
echo "ok: renegotiation by the gateway, user re-verified, 0 % loss over $((n1 - n0)) renegotiation(s)"

# restart from the same address and port
n=$(grep -c "Initialization Sequence Completed" "$GW_DIR/c1.log")
p0=$(gw_peer_id 1)	# 0 with one worker (gw_lib.sh)
gw_pid_ok "$p0" 0 || gw_fail "client1: peer-id '$p0'"
kill -USR1 "${GW_PID[c1]}"
for ((i = 0; i < 200; i++)); do
	[ "$(grep -c "Initialization Sequence Completed" "$GW_DIR/c1.log")" -gt "$n" ] && break
	sleep 0.05
done
[ "$(grep -c "Initialization Sequence Completed" "$GW_DIR/c1.log")" -gt "$n" ] || gw_fail "client1 did not come back after SIGUSR1"
grep -qF "client1/10.99.0.11:5000: client removed (peer-id $p0): the client restarted (new session from the same address)" \
	"$GW_DIR/server.log" || gw_fail "the old session was not replaced by the restart"
[ "$(grep -c "client1/10.99.0.11:5000: connected, peer-id ., 10.8.0.2," "$GW_DIR/server.log")" = 2 ] ||
	gw_fail "the restarted client did not get 10.8.0.2 again"
ip netns exec "$C1" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "ping after the client's restart"
echo "ok: client restart from the same address"

# the script starts refusing: the next renegotiation fails
touch "$GW_DIR/deny"
gw_wait "$GW_DIR/server.log" "authentication failed: auth-user-pass-verify rejected the username/password (user 'alice')" 10 ||
	gw_fail "re-verification did not fail"
gw_wait "$GW_DIR/server.log" "client removed (peer-id" 5
gw_wait "$GW_DIR/server.log" "): authentication failed" 5 || gw_fail "the refused client was not removed"
gw_wait "$GW_DIR/c1.log" "AUTH_FAILED" 5 || gw_fail "the client did not get AUTH_FAILED"
echo "ok: failed re-verification removes the client"

# RESTART at shutdown
rm -f "$GW_DIR/deny"
gw_stop_client 1
: >"$GW_DIR/c1.log"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not reconnect"
gw_stop_server
grep -qF "shutting down: sent RESTART to 1 client(s)" "$GW_DIR/server.log" || gw_fail "no RESTART at shutdown"
gw_wait "$GW_DIR/c1.log" "server-pushed-connection-reset" 5 || gw_fail "the client did not act on RESTART"
echo "ok: RESTART at shutdown"
echo "PASS: gw_lifecycle"
