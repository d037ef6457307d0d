#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_auth.sh - who gets in to a braidd gateway (stock OpenVPN 2.6 clients, UDP, tls-auth):
#  * auth-user-pass-verify via-file and via-env: the right password connects (username in the
#    status file), a wrong one gets AUTH_FAILED and the client gives up;
#  * verify-client-cert none + username-as-common-name: a client with only user/password, listed
#    under its username;
#  * crl-verify: a revoked client certificate fails the TLS handshake, the others still connect;
#  * compress migrate: a client with `comp-lzo no` gets `compress stub-v2` pushed and passes
#    traffic;
#  * explicit-exit-notify: a client that stops is removed at once (not after ping-restart).
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 3
TA_S="tls-auth $GW_DIR/ta.key 0"
TA_C="tls-auth $GW_DIR/ta.key 1"

cat >"$GW_DIR/verify.sh" <<'EOS'
#!/bin/sh
# via-file: $1 = file with username and password lines; via-env: $username / $password
if [ -n "$1" ]; then u=$(sed -n 1p "$1"); p=$(sed -n 2p "$1"); else u=$username; p=$password; fi
[ "$u" = alice ] && [ "$p" = "open sesame" ] && exit 0
exit 1
EOS
chmod 755 "$GW_DIR/verify.sh"
printf 'alice\nopen sesame\n' >"$GW_DIR/good.txt"
printf 'alice\nwrong\n' >"$GW_DIR/bad.txt"

for method in via-file via-env; do
	gw_server_conf "$TA_S" "script-security 2" "auth-user-pass-verify $GW_DIR/verify.sh $method"
	gw_start_server
	gw_client_conf 1 "$TA_C" "auth-user-pass $GW_DIR/good.txt"
	gw_start_client 1
	gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 ||
		gw_fail "$method: the right password was not accepted"
	ip netns exec "$(gw_cns 1)" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "$method: ping"
	p1=$(gw_peer_id 1)	# peer-ids: 0, 1 with one worker (gw_lib.sh, gw_pid_ok)
	gw_pid_ok "$p1" 0 || gw_fail "$method: client1's peer-id '$p1'"
	gw_wait "$GW_DIR/status.txt" ",alice,0,$p1,AES-256-GCM" 3 || gw_fail "$method: username not in the status file"
	gw_client_conf 2 "$TA_C" "auth-user-pass $GW_DIR/bad.txt"
	gw_start_client 2
	gw_wait "$GW_DIR/c2.log" "AUTH: Received control message: AUTH_FAILED" 15 ||
		gw_fail "$method: the wrong password did not get AUTH_FAILED"
	gw_wait "$GW_DIR/server.log" "authentication failed: auth-user-pass-verify rejected the username/password (user 'alice')" 3 ||
		gw_fail "$method: no rejection in the gateway log"
	p2=$(gw_new_pid_at 10.99.0.12)
	gw_pid_ok "$p2" 1 || gw_fail "$method: client2's peer-id '$p2'"
	gw_wait "$GW_DIR/server.log" "client removed (peer-id $p2): authentication failed" 5 ||
		gw_fail "$method: the rejected client was not removed"
	grep -qF "Initialization Sequence Completed" "$GW_DIR/c2.log" && gw_fail "$method: wrong password connected"
	gw_stop_client 1
	gw_stop_client 2
	gw_stop_server
	echo "ok: auth-user-pass-verify $method"
done

# verify-client-cert none + username-as-common-name: a client without a certificate
gw_server_conf "$TA_S" "script-security 2" "auth-user-pass-verify $GW_DIR/verify.sh via-env" \
	"verify-client-cert none" "username-as-common-name"
gw_start_server
gw_client_conf 1 "$TA_C" "auth-user-pass $GW_DIR/good.txt"
sed -i '/^cert /d; /^key /d' "$GW_DIR/c1.conf"
: >"$GW_DIR/c1.log"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "certificate-less client refused"
gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,alice,10.99.0.11:" 3 ||
	gw_fail "username-as-common-name: CN is not the username: $(grep CLIENT_LIST, "$GW_DIR/status.txt")"
pa=$(gw_peer_id_at 10.99.0.11)
gw_pid_ok "$pa" 0 || gw_fail "alice's peer-id '$pa'"
grep -q "^CLIENT_LIST,alice,.*,alice,0,$pa,AES-256-GCM$" "$GW_DIR/status.txt" || gw_fail "status line for alice"
gw_stop_client 1
gw_stop_server
echo "ok: verify-client-cert none + username-as-common-name"

# crl-verify: revoke client2
gw_ca_db
gw_revoke 2
gw_gencrl
gw_server_conf "$TA_S" "crl-verify $GW_DIR/crl.pem" "compress migrate"
gw_start_server
gw_client_conf 2 "$TA_C"
gw_start_client 2
gw_wait "$GW_DIR/server.log" "revoked" 10 || gw_fail "crl-verify: no revocation error in the gateway log"
gw_client_conf 1 "$TA_C" "explicit-exit-notify 1"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "crl-verify: client1 (not revoked) refused"
grep -qF "Initialization Sequence Completed" "$GW_DIR/c2.log" && gw_fail "crl-verify: revoked client2 connected"
grep -q "client2/.*connected" "$GW_DIR/server.log" && gw_fail "crl-verify: revoked client2 connected (gateway log)"
echo "ok: crl-verify"

# compress migrate: comp-lzo no
gw_client_conf 3 "$TA_C" "comp-lzo no"
gw_start_client 3
gw_wait "$GW_DIR/c3.log" "Initialization Sequence Completed" 15 || gw_fail "comp-lzo client did not connect"
grep -qF ",compress stub-v2," "$GW_DIR/c3.log" || gw_fail "compress migrate: stub-v2 not pushed"
ip netns exec "$(gw_cns 3)" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "comp-lzo client: no ping reply"
echo "ok: compress migrate (comp-lzo no client)"

# explicit-exit-notify: client1 stops, braidd removes it at once
sleep 1.2
grep -q "^CLIENT_LIST,client1," "$GW_DIR/status.txt" || gw_fail "client1 not in the status file"
t0=$(date +%s%N)
p1=$(gw_peer_id 1)
gw_pid_ok "$p1" 0 || gw_fail "crl-verify: client1's peer-id '$p1'"
gw_stop_client 1
gw_wait "$GW_DIR/server.log" "client removed (peer-id $p1): explicit exit notification (control EXIT)" 3 ||
	gw_fail "explicit-exit-notify: client1 not removed"
t1=$(date +%s%N)
sleep 1.2
grep -q "^CLIENT_LIST,client1," "$GW_DIR/status.txt" && gw_fail "client1 still in the status file"
grep -q "^ROUTING_TABLE,10.8.0.2," "$GW_DIR/status.txt" && gw_fail "client1's route still in the status file"
echo "ok: explicit-exit-notify removed client1 after $(((t1 - t0) / 1000000)) ms"
echo "PASS: gw_auth"
