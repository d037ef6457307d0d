#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_unit_cmdline.sh - the OpenVPN command lines of Debian's units, with openvpn replaced by braidd, start a
# gateway that a stock OpenVPN 2.6 client connects through; and `braidd --genkey` keys work with stock.
#   1. `braidd --genkey secret|tls-auth|tls-crypt`: stock's format (header, 16 lines of 32 hex, footer), mode 0600,
#      `openvpn --test-crypto` loads it; an unknown type exits 1.
#   2. openvpn-server@.service's ExecStart (read from /lib/systemd/system when installed): `--status
#      RUN/status-%i.log --status-version 2 --suppress-timestamps --config %i.conf` from its WorkingDirectory
#      (relative key paths), tls-crypt with braidd's key; $NOTIFY_SOCKET is a datagram socket this test
#      listens on: READY=1 with STATUS, WATCHDOG=1 at half of WATCHDOG_USEC, STOPPING=1 at exit; no timestamps
#      on stderr; the client pings through the tunnel; the status file (v2) lists it.
#   3. openvpn@.service's ExecStart: `--daemon ovpn-%i --status FILE 10 --cd DIR --config FILE --writepid FILE`
#      (+ `--log-append` so the test reads the log): braidd forks, the pid file names the daemon, tls-auth with
#      stock's key, the client connects, SIGTERM removes the pid file. Then a braidd TLS client against it, with
#      its own NOTIFY_SOCKET, started with openvpn-client@.service's line (`--suppress-timestamps --nobind
#      --config %i.conf`): READY=1 (MAINPID, server), SIGHUP -> RELOADING=1 then READY=1 again, STOPPING=1.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
C1=$(gw_cns 1)
D=$GW_DIR

# ---- 1. --genkey ----
for t in secret tls-auth tls-crypt; do
	"$BRAIDD" --genkey "$t" "$D/b-$t.key" >"$D/genkey.out" 2>&1 || gw_fail "braidd --genkey $t: $(cat "$D/genkey.out")"
	[ "$(stat -c %a "$D/b-$t.key")" = 600 ] || gw_fail "--genkey $t: mode $(stat -c %a "$D/b-$t.key"), want 600"
	[ "$(sed -n 1,4p "$D/b-$t.key")" = "$(printf '#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----')" ] ||
		gw_fail "--genkey $t: header differs from stock's"
	[ "$(sed -n 5,20p "$D/b-$t.key" | grep -cE '^[0-9a-f]{32}$')" = 16 ] || gw_fail "--genkey $t: not 16 hex lines"
	[ "$(sed -n '21,$p' "$D/b-$t.key")" = "-----END OpenVPN Static key V1-----" ] || gw_fail "--genkey $t: footer"
	openvpn --test-crypto --secret "$D/b-$t.key" --cipher AES-256-CBC --auth SHA256 >"$D/testcrypto.out" 2>&1 ||
		gw_fail "stock openvpn --test-crypto refuses braidd's $t key: $(tail -3 "$D/testcrypto.out")"
done
cmp -s "$D/b-secret.key" "$D/b-tls-auth.key" && gw_fail "--genkey: two keys are equal"
[ "$("$BRAIDD" --genkey secret | grep -cE '^[0-9a-f]{32}$')" = 16 ] || gw_fail "--genkey secret to stdout"
"$BRAIDD" --genkey bogus "$D/x.key" >/dev/null 2>&1 && gw_fail "--genkey bogus: exit 0"
[ -e "$D/x.key" ] && gw_fail "--genkey bogus wrote a file"
echo "ok: --genkey secret/tls-auth/tls-crypt in stock's format, stock loads them"

# ---- 2. openvpn-server@.service's command line, with sd_notify ----
unit=/lib/systemd/system/openvpn-server@.service
line="/usr/sbin/openvpn --status %t/openvpn-server/status-%i.log --status-version 2 --suppress-timestamps --config %i.conf"
[ -f "$unit" ] && line=$(sed -n 's/^ExecStart=//p' "$unit")
echo "Debian's line: $line"
mkdir -p "$D/run/openvpn-server" "$D/etc/server"
cp "$D/ca.crt" "$D/server.crt" "$D/server.key" "$D/etc/server/"
cp "$D/b-tls-crypt.key" "$D/etc/server/tc.key"
printf '%s\n' "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "port 1194" "local 10.99.0.1" \
	"ca ca.crt" "cert server.crt" "key server.key" "dh none" "tls-crypt tc.key" "keepalive 10 60" "verb 3" \
	>"$D/etc/server/srv.conf"
line=${line//%t/$D/run}
line=${line//%i/srv}
read -r -a args <<<"$line"
[ "${args[0]}" = /usr/sbin/openvpn ] || gw_fail "unexpected ExecStart: $line"
args[0]=$BRAIDD
# the notification socket: every datagram to notify.txt, one per line (newlines inside as '|')
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        f.write(s.recv(4096).decode().replace("\n", "|") + "\n")' "$D/notify.sock" "$D/notify.txt" &
GW_PIDS+=("$!")
for ((i = 0; i < 40; i++)); do [ -S "$D/notify.sock" ] && break; sleep 0.05; done
: >"$D/server.log"
(cd "$D/etc/server" && NOTIFY_SOCKET=$D/notify.sock WATCHDOG_USEC=1000000 \
	exec ip netns exec "$GW_NS" "${args[@]}" 2>"$D/server.log") &
GW_PID[server]=$!
GW_PIDS+=("$!")
gw_wait "$D/notify.txt" "READY=1" 10 || gw_fail "no READY=1 on NOTIFY_SOCKET: $(cat "$D/notify.txt" 2>/dev/null)"
grep -q "^READY=1|MAINPID=[0-9]*|STATUS=Initialization Sequence Completed (gateway on " "$D/notify.txt" ||
	gw_fail "READY=1 without its STATUS: $(cat "$D/notify.txt")"
gw_wait "$D/server.log" "Initialization Sequence Completed" 5 || gw_fail "no Initialization line"
grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2} ' "$D/server.log" && gw_fail "--suppress-timestamps: a line has a timestamp"
grep -q '^\[info\] braidd .* starting' "$D/server.log" || gw_fail "--suppress-timestamps: want '[info] braidd ... starting'"
gw_client_conf 1 "tls-crypt $D/b-tls-crypt.key"
gw_start_client 1
gw_wait "$D/c1.log" "Initialization Sequence Completed" 20 || gw_fail "stock client did not connect (Debian line)"
ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "no ping through the gateway (Debian line)"
gw_wait "$D/run/openvpn-server/status-srv.log" "CLIENT_LIST,client1,10.99.0.11:" 5 ||
	gw_fail "status file (--status %t/... --status-version 2) does not list client1"
grep -q '^TITLE,' "$D/run/openvpn-server/status-srv.log" || gw_fail "status file is not version 2"
sleep 1.2	# the 1 s watchdog: at least two keep-alives by now
[ "$(grep -c '^WATCHDOG=1$' "$D/notify.txt")" -ge 2 ] || gw_fail "WATCHDOG=1: $(grep -c WATCHDOG "$D/notify.txt") keep-alives"
gw_stop_client 1
gw_stop_server
gw_wait "$D/notify.txt" "STOPPING=1" 3 || gw_fail "no STOPPING=1 at exit"
echo "ok: openvpn-server@.service's line: gateway up, client through, status v2, READY/WATCHDOG/STOPPING"

# ---- 3. openvpn@.service's line: --daemon, --cd, --writepid ----
openvpn --genkey tls-auth "$D/etc/server/ta.key" >/dev/null 2>&1 || gw_fail "openvpn --genkey tls-auth"
sed -i 's/^tls-crypt tc.key$/tls-auth ta.key 0/' "$D/etc/server/srv.conf"
: >"$D/daemon.log"
ip netns exec "$GW_NS" "$BRAIDD" --daemon ovpn-srv --status "$D/run/srv.status" 10 --cd "$D/etc/server" \
	--config "$D/etc/server/srv.conf" --writepid "$D/run/srv.pid" --log-append "$D/daemon.log" ||
	gw_fail "braidd --daemon: the parent exited $?"
gw_wait "$D/daemon.log" "Initialization Sequence Completed" 10 || gw_fail "the daemon did not start"
dpid=$(cat "$D/run/srv.pid" 2>/dev/null)
[ -n "$dpid" ] && kill -0 "$dpid" 2>/dev/null || gw_fail "--writepid: no running process '$dpid'"
GW_PIDS+=("$dpid")
[ "$(ps -o ppid= -p "$dpid" | tr -d ' ')" = 1 ] || [ "$(ps -o sid= -p "$dpid" | tr -d ' ')" = "$dpid" ] ||
	gw_fail "--daemon: pid $dpid is not detached (no new session)"
grep -q "starting in $D/etc/server" "$D/daemon.log" || gw_fail "--cd: not logged"
gw_client_conf 1 "tls-auth $D/etc/server/ta.key 1"
gw_start_client 1
gw_wait "$D/c1.log" "Initialization Sequence Completed" 20 || gw_fail "stock client did not connect (--daemon)"
ip netns exec "$C1" ping -c 3 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "no ping through the daemon"
gw_stop_client 1
# a braidd TLS client under the same notification protocol: READY at the connection, RELOADING=1 at SIGHUP,
# READY again once reconnected
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        f.write(s.recv(4096).decode().replace("\n", "|") + "\n")' "$D/notify2.sock" "$D/notify2.txt" &
GW_PIDS+=("$!")
for ((i = 0; i < 40; i++)); do [ -S "$D/notify2.sock" ] && break; sleep 0.05; done
: >"$D/bc.log"
# openvpn-client@.service's line (from its WorkingDirectory), with openvpn replaced by braidd
cline="/usr/sbin/openvpn --suppress-timestamps --nobind --config %i.conf"
[ -f /lib/systemd/system/openvpn-client@.service ] && cline=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/openvpn-client@.service)
cline=${cline//%i/c1}
read -r -a cargs <<<"$cline"
[ "${cargs[0]}" = /usr/sbin/openvpn ] || gw_fail "unexpected ExecStart: $cline"
cargs[0]=$BRAIDD
(cd "$D" && NOTIFY_SOCKET=$D/notify2.sock exec ip netns exec "$C1" "${cargs[@]}" 2>"$D/bc.log") &
GW_PID[bc]=$!
GW_PIDS+=("$!")
gw_wait "$D/notify2.txt" "READY=1" 20 || gw_fail "braidd client: no READY=1: $(cat "$D/notify2.txt" 2>/dev/null)"
grep -q "^READY=1|MAINPID=${GW_PID[bc]}|STATUS=Initialization Sequence Completed (server \[AF_INET\]10.99.0.1:1194)" \
	"$D/notify2.txt" || gw_fail "braidd client READY: $(cat "$D/notify2.txt")"
kill -HUP "${GW_PID[bc]}"
gw_wait "$D/notify2.txt" "RELOADING=1" 5 || gw_fail "braidd client: no RELOADING=1 at SIGHUP"
grep -q "^RELOADING=1|MONOTONIC_USEC=[0-9]*|STATUS=restarting (SIGHUP)$" "$D/notify2.txt" ||
	gw_fail "RELOADING line: $(grep RELOADING "$D/notify2.txt")"
for ((i = 0; i < 400; i++)); do
	[ "$(grep -c '^READY=1' "$D/notify2.txt")" -ge 2 ] && break
	sleep 0.05
done
[ "$(sed -n '/^RELOADING=1/,$p' "$D/notify2.txt" | grep -c '^READY=1')" = 1 ] ||
	gw_fail "braidd client: no READY=1 after the SIGHUP restart: $(cat "$D/notify2.txt")"
gw_stop bc
grep -q "^STOPPING=1|STATUS=exiting with status 0$" "$D/notify2.txt" || gw_fail "braidd client: no STOPPING=1"
echo "ok: braidd client: READY, RELOADING=1 at SIGHUP, READY again, STOPPING"
kill "$dpid"
for ((i = 0; i < 50; i++)); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$dpid" 2>/dev/null && gw_fail "the daemon did not exit on SIGTERM"
[ -e "$D/run/srv.pid" ] && gw_fail "the pid file stayed after exit"
echo "ok: openvpn@.service's line: --daemon --cd --writepid, stock tls-auth key"
echo "PASS: gw_unit_cmdline"
