#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Deferred authentication by a stock openvpn 2.6 server driven through its management interface
# (management-client-auth): the first connection gets `AUTH_FAILED,TEMP[backoff 2,advance no]` -> braidd
# pauses 2 s; the second gets `AUTH_PENDING,timeout 30` and is authorised 4 s later -> braidd waits past its
# hand-window (3 s) for the PUSH_REPLY and comes up.
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

cat >"$TB_DIR/mgmt.py" <<'EOP'
import socket, sys, time
log = open(sys.argv[1], "a")
s = socket.create_connection(("127.0.0.1", 7505), timeout=60)
f = s.makefile("rwb", buffering=0)
n = 0
def cmd(c):
    log.write("> " + c + "\n"); log.flush()
    f.write(c.encode() + b"\r\n")
while True:
    line = f.readline()
    if not line:
        break
    line = line.decode(errors="replace").strip()
    log.write(line + "\n"); log.flush()
    if line.startswith(">CLIENT:CONNECT,"):
        cid, kid = line.split(",")[1:3]
        n += 1
        if n == 1:
            cmd('client-deny %s %s "busy" "TEMP[backoff 2,advance no]:server busy"' % (cid, kid))
        else:
            cmd('client-pending-auth %s %s "CR_TEXT:R,E:please wait" 30' % (cid, kid))
            time.sleep(6)
            cmd('client-auth-nt %s %s' % (cid, kid))
EOP
tc_server srv udp tls-auth "management 127.0.0.1 7505" "management-client-auth"
tb_bg "$TB_SRV" python3 "$TB_DIR/mgmt.py" "$TB_DIR/mgmt.log"
for _ in $(seq 1 50); do grep -q "^>INFO:OpenVPN Management" "$TB_DIR/mgmt.log" 2>/dev/null && break; sleep 0.1; done
grep -q "^>INFO:OpenVPN Management" "$TB_DIR/mgmt.log" || fail "management driver did not connect"

tc_client cli udp tls-auth "hand-window 3" "connect-retry 1" "<auth-user-pass>" bob pw "</auth-user-pass>"
bd_wait_log cli "Initialization Sequence Completed" 30 || fail "client did not come up after the deferred auth"
grep -qF "AUTH: Received control message: AUTH_FAILED,TEMP[backoff 2,advance no]:server busy" "$TB_DIR/cli.log" ||
	fail "no AUTH_FAILED,TEMP"
grep -qF "SIGUSR1[soft,auth-temp-failure (server temporary reject)] received" "$TB_DIR/cli.log" ||
	fail "AUTH_FAILED,TEMP did not restart"
grep -qF "Restart pause, 2 second(s)" "$TB_DIR/cli.log" || fail "the server's backoff 2 was not used"
grep -qF "authentication pending at the server (AUTH_PENDING,timeout 30): waiting for the reply up to that timeout" \
	"$TB_DIR/cli.log" || fail "AUTH_PENDING,timeout not taken"
grep -q "no PUSH_REPLY within hand-window" "$TB_DIR/cli.log" && fail "gave up at hand-window despite AUTH_PENDING"
grep -qF "PUSH_REQUEST sent again (no reply yet)" "$TB_DIR/cli.log" || fail "PUSH_REQUEST not repeated while pending"
[ "$(grep -c 'SIGUSR1\[soft' "$TB_DIR/cli.log")" = 1 ] || fail "more than the one restart"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "no ping after the deferred auth"
bd_stop cli || fail "exit code $?"
tc_server_stop
echo "ok: AUTH_FAILED,TEMP backoff 2 honoured; AUTH_PENDING,timeout 30 kept the push wait open past hand-window 3; PUSH_REQUEST repeated"
