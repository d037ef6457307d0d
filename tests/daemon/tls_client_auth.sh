#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client authentication against a stock openvpn 2.6 server:
#   auth-user-pass (inline and file) accepted by the server's auth-user-pass-verify script;
#   a wrong password -> AUTH_FAILED -> exit 1 (auth-retry none) / restart (auth-retry nointeract);
#   wrong tls-auth key, wrong key-direction -> a log line naming the likely cause, no crash, clean SIGTERM;
#   verify-x509-name mismatch and remote-cert-tls server vs a clientAuth certificate -> a TLS error naming
#   the check, no crash.
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

cat >"$TB_DIR/check.sh" <<'EOS'
#!/bin/sh
# via-file: $1 holds the username and the password, one per line
{ read -r u; read -r p; } <"$1"
[ "$u" = alice ] && [ "$p" = 's3cret pass' ]
EOS
chmod +x "$TB_DIR/check.sh"
printf 'alice\ns3cret pass\n' >"$TB_DIR/up.txt"
chmod 600 "$TB_DIR/up.txt"

tc_server srv udp tls-auth "script-security 2" "auth-user-pass-verify $TB_DIR/check.sh via-file"

# 1. the password from a file
tc_client good1 udp tls-auth "auth-user-pass $TB_DIR/up.txt"
bd_wait_log good1 "Initialization Sequence Completed" 15 || fail "auth-user-pass file: client did not come up"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "auth-user-pass file: no ping"
grep -q "Username/Password authentication succeeded for username 'alice'" "$OV_LOG" ||
	fail "server did not log alice's successful authentication"
bd_stop good1 || fail "good1 exit code"
echo "ok: auth-user-pass (file) accepted by the server's auth-user-pass-verify"

# 2. inline
tc_client good2 udp tls-auth "<auth-user-pass>" "alice" "s3cret pass" "</auth-user-pass>"
bd_wait_log good2 "Initialization Sequence Completed" 15 || fail "inline auth-user-pass: client did not come up"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "inline auth-user-pass: no ping"
bd_stop good2 || fail "good2 exit code"
echo "ok: inline <auth-user-pass> accepted"

# 3. wrong password, auth-retry none: exit status 1
tc_client bad1 udp tls-auth "<auth-user-pass>" "alice" "wrong" "</auth-user-pass>"
pid=${BD_PID[bad1]}
for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid" 2>/dev/null && fail "wrong password: braidd still running after 10 s"
wait "$pid"
rc=$?
[ "$rc" = 1 ] || fail "wrong password: exit status $rc, want 1"
grep -qF "AUTH: Received control message: AUTH_FAILED" "$TB_DIR/bad1.log" || fail "no AUTH_FAILED log line"
grep -qF "authentication failed (auth-retry none): exiting" "$TB_DIR/bad1.log" || fail "no exit reason logged"
unset "BD_PID[bad1]"
echo "ok: wrong password -> AUTH_FAILED -> exit 1"

# 4. wrong password, auth-retry nointeract: restarts and tries again
tc_client bad2 udp tls-auth "<auth-user-pass>" "alice" "wrong" "</auth-user-pass>" "auth-retry nointeract" \
	"connect-retry 1"
bd_wait_log bad2 "SIGUSR1[soft,auth-failure] received, process restarting" 15 || fail "nointeract: no restart"
for _ in $(seq 1 100); do [ "$(grep -c 'AUTH: Received control message: AUTH_FAILED' "$TB_DIR/bad2.log")" -ge 2 ] && break; sleep 0.1; done
[ "$(grep -c 'AUTH: Received control message: AUTH_FAILED' "$TB_DIR/bad2.log")" -ge 2 ] || fail "nointeract: no second attempt"
bd_stop bad2 || fail "bad2: exit code $? after SIGTERM"
echo "ok: auth-retry nointeract retries"
tc_server_stop

# 5. wrong tls-auth key, 6. wrong key-direction: the server drops everything silently
tc_server srv2 udp tls-auth
bd_conf wk "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "verb 4" "hand-window 3" "connect-retry 1" \
	"tls-auth $TB_DIR/pki/wrong.key 1"
bd_start wk "$TB_CLI"
bd_wait_log wk "no packet came back from the server: check its address and port, and the tls-auth/tls-crypt key and key-direction" 15 ||
	fail "wrong tls-auth key: no hint in the log"
kill -0 "${BD_PID[wk]}" || fail "wrong tls-auth key: braidd died"
bd_stop wk || fail "wrong key: exit code $? after SIGTERM"
grep -q "HMAC\|tls-auth\|TLS Error" "$OV_LOG" || fail "stock server did not report the bad packets"
bd_conf wd "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "verb 4" "hand-window 3" "connect-retry 1" \
	"tls-auth $TB_DIR/pki/ta.key 0"
bd_start wd "$TB_CLI"
bd_wait_log wd "check its address and port, and the tls-auth/tls-crypt key and key-direction" 15 ||
	fail "wrong key-direction: no hint in the log"
bd_stop wd || fail "wrong direction: exit code $? after SIGTERM"
echo "ok: wrong tls-auth key / key-direction: clear log line, no crash, clean exit"

# 7. verify-x509-name mismatch
tc_client vx udp tls-auth "verify-x509-name notserver name" "hand-window 5" "connect-retry 1"
bd_wait_log vx "TLS Error:" 15 || fail "verify-x509-name: no TLS error"
vxerr=$(grep -m1 "TLS Error:" "$TB_DIR/vx.log")
grep -qi "x509\|name\|verify" <<<"$vxerr" ||
	fail "verify-x509-name: the error does not name the check: $(grep 'TLS Error:' "$TB_DIR/vx.log" | head -n1)"
grep -q "Initialization Sequence Completed (server" "$TB_DIR/vx.log" && fail "verify-x509-name: connected anyway"
bd_stop vx || fail "vx: exit code $? after SIGTERM"
echo "ok: verify-x509-name mismatch rejected: $(grep 'TLS Error:' "$TB_DIR/vx.log" | head -n1 | sed 's/.*TLS Error: //')"
# the same with tls-exit: exit status 1 at the first TLS error
tc_client vxe udp tls-auth "verify-x509-name notserver name" "tls-exit"
pid=${BD_PID[vxe]}
for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid" 2>/dev/null && fail "tls-exit: still running"
wait "$pid"
rc=$?
unset "BD_PID[vxe]"
[ "$rc" = 1 ] || fail "tls-exit: exit status $rc, want 1"
grep -qF "exiting on a TLS error (tls-exit)" "$TB_DIR/vxe.log" || fail "tls-exit: no reason logged"
echo "ok: tls-exit: exit 1 at the TLS error"
tc_server_stop

# 8. remote-cert-tls server against a server whose certificate has only the clientAuth EKU
tc_server srv3 udp tls-auth "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key"
tc_client rct udp tls-auth "hand-window 5" "connect-retry 1"
bd_wait_log rct "TLS Error:" 15 || fail "remote-cert-tls: no TLS error"
rcterr=$(grep -m1 "TLS Error:" "$TB_DIR/rct.log")
grep -qi "remote-cert-tls\|EKU\|usage\|certificate purpose" <<<"$rcterr" || fail "remote-cert-tls: the error does not name the check: $rcterr"
grep -q "Initialization Sequence Completed (server" "$TB_DIR/rct.log" && fail "remote-cert-tls: connected anyway"
bd_stop rct || fail "rct: exit code $? after SIGTERM"
tc_server_stop
echo "ok: remote-cert-tls server rejects a clientAuth-only certificate: ${rcterr#*TLS Error: }"

# 9. auth-gen-token: the pushed token replaces the password on the reconnect (the server's script runs once)
cat >"$TB_DIR/check2.sh" <<EOS
#!/bin/sh
echo call >>"$TB_DIR/calls"
{ read -r u; read -r p; } <"\$1"
[ "\$u" = alice ] && [ "\$p" = 's3cret pass' ]
EOS
chmod +x "$TB_DIR/check2.sh"
tc_server srv4 udp tls-auth "script-security 2" "auth-user-pass-verify $TB_DIR/check2.sh via-file" "auth-gen-token 60"
tc_client tok udp tls-auth "auth-user-pass $TB_DIR/up.txt" "connect-retry 1"
bd_wait_log tok "Initialization Sequence Completed" 15 || fail "auth-gen-token: client did not come up"
bd_wait_log tok "auth-token received: used instead of the password from now on" 1 || fail "auth-token not taken"
kill -USR1 "${BD_PID[tok]}"
for _ in $(seq 1 100); do
	[ "$(grep -c 'Initialization Sequence Completed (server' "$TB_DIR/tok.log")" -ge 2 ] && break
	sleep 0.1
done
[ "$(grep -c 'Initialization Sequence Completed (server' "$TB_DIR/tok.log")" -ge 2 ] || fail "auth-token: no reconnect"
grep -qF "TLS: Username/auth-token authentication succeeded for username 'alice'" "$OV_LOG" ||
	fail "auth-token: the server did not authenticate the reconnect by token"
[ "$(wc -l <"$TB_DIR/calls")" = 1 ] || fail "auth-token: the password script ran $(wc -l <"$TB_DIR/calls") times, want 1"
grep -q "SESS_ID_" "$TB_DIR/tok.log" && fail "the auth-token value was logged"
bd_stop tok || fail "tok exit code $?"
tc_server_stop
echo "ok: auth-gen-token: reconnect authenticated by the pushed token (password script ran once; token not logged)"
