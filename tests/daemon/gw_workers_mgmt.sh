#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_workers_mgmt.sh - the management interface of a gateway with `workers 2` (issue 16 item 1;
# docs/scaling.md "Workers"): management-hold holds every worker's socket (no session starts before
# `hold release`), management-client-auth decides for clients on either worker (each client's
# >CLIENT:CONNECT answered with client-auth-nt; a client on worker 1 gets through, so the decision reached
# the worker that owns it), the real-time log (`log on all`) carries worker 1's lines too (its client's
# "connected" line), >CLIENT:ESTABLISHED comes for both, n_clients counts both workers' clients; then
# SIGUSR1: both clients are dropped, reconnect (authorised again) and download 1 MiB (sha256).
# A stock client whose handshake hashed to the busy worker reconnects from a new port (at most 8 times).
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 2

gw_serve_blob 1048576
want=$GW_WANT
gw_server_conf "workers 2" "management $GW_DIR/mgmt.sock unix" "management-hold" "management-client-auth" \
	"status-json $GW_DIR/status.json 1" "explicit-exit-notify 1"
gw_start_server
grep -qF "workers: 2, sessions steered by their peer-ids" "$GW_DIR/server.log" ||
	gw_fail "the gateway did not start 2 workers"

# the management client: `log on all`, `hold release` once $GW_DIR/release exists, every CONNECT/REAUTH
# answered after its ENV block; everything it reads goes to mgmt.txt; ends when $GW_DIR/stop exists
ip netns exec "$GW_NS" python3 - "$GW_DIR" <<'EOF' &
import os, socket, sys, time
d = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
for _ in range(100):
    try:
        s.connect(d + "/mgmt.sock")
        break
    except OSError:
        time.sleep(0.1)
s.settimeout(0.2)
out = open(d + "/mgmt.txt", "w", buffering=1)
s.sendall(b"log on all\n")
released, buf, pending = False, b"", None
while not os.path.exists(d + "/stop"):
    if not released and os.path.exists(d + "/release"):
        s.sendall(b"hold release\n")
        released = True
    try:
        chunk = s.recv(65536)
    except socket.timeout:
        continue
    if not chunk:
        break
    buf += chunk
    while b"\n" in buf:
        line, buf = buf.split(b"\n", 1)
        line = line.decode(errors="replace").rstrip("\r")
        out.write(line + "\n")
        if line.startswith(">CLIENT:CONNECT,") or line.startswith(">CLIENT:REAUTH,"):
            pending = line.split(",")[1:3]
        elif line == ">CLIENT:ENV,END" and pending:
            s.sendall(("client-auth-nt %s %s\n" % (pending[0], pending[1])).encode())
            pending = None
EOF
drv=$!
GW_PIDS+=("$drv")
gw_wait "$GW_DIR/mgmt.txt" "Waiting for hold release" 10 || gw_fail "no >HOLD on the management interface"

worker_of() {	# worker of a client in the JSON status (-1: not listed)
	python3 - "$GW_DIR/status.json" "$1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print(-1); sys.exit()
w = [c.get("worker", -1) for c in d["clients"] if c["common_name"] == sys.argv[2]]
print(w[0] if len(w) == 1 else -1)
EOF
}
listed() {	# listed CN: its worker once the JSON status lists it (SIGUSR2 writes it at once)
	local k w
	for ((k = 0; k < 40; k++)); do
		kill -USR2 "${GW_PID[server]}"
		sleep 0.25
		w=$(worker_of "$1")
		[ "$w" != -1 ] && { echo "$w"; return 0; }
	done
	echo -1
	return 1
}

for i in 1 2; do
	gw_client_conf "$i" "connect-retry-max 20" "explicit-exit-notify 1"
	gw_start_client "$i"
done
sleep 3	# held: nothing may reach a worker's session table
grep -q "new client session" "$GW_DIR/server.log" && gw_fail "a session started during management-hold"
touch "$GW_DIR/release"
for i in 1 2; do
	gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 25 || gw_fail "client $i did not connect after release"
done
w1=$(listed client1) || gw_fail "client1 not in the JSON status"
w2=$(listed client2) || gw_fail "client2 not in the JSON status"
for ((try = 0; try < 8 && w1 == w2; try++)); do	# same worker: client 2 again, from a new port
	nr=$(grep -c "client2/.*client removed" "$GW_DIR/server.log")
	gw_stop_client 2	# its exit notification removes the session at once
	for ((k = 0; k < 50; k++)); do
		[ "$(grep -c "client2/.*client removed" "$GW_DIR/server.log")" -gt "$nr" ] && break
		sleep 0.2
	done
	gw_start_client 2
	gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 25 || gw_fail "client 2 did not reconnect"
	sleep 1
	w2=$(listed client2) || gw_fail "client2 not in the JSON status"
done
[ "$w1" != "$w2" ] || gw_fail "both clients stayed on worker $w1 after 8 reconnects"
echo "ok: client1 on worker $w1, client2 on worker $w2, both authorised by the management client"

# worker 1's client: its >CLIENT:CONNECT was answered, its log lines reached the management log
c=client$(( w1 == 1 ? 1 : 2 ))
grep -q "^>LOG:[0-9]*,[A-Z]*,$c/[^ ]*: connected, peer-id" "$GW_DIR/mgmt.txt" ||
	gw_fail "worker 1's client's 'connected' line is not in the management log"
grep -q "^>CLIENT:ENV,common_name=$c\$" "$GW_DIR/mgmt.txt" || gw_fail "no >CLIENT:ENV block for $c"
n=$(grep -c "^>CLIENT:ESTABLISHED," "$GW_DIR/mgmt.txt")
[ "$n" -ge 2 ] || gw_fail ">CLIENT:ESTABLISHED $n times, want >= 2"
grep -q "^>CLIENT:ENV,n_clients=2\$" "$GW_DIR/mgmt.txt" || gw_fail "no n_clients=2 (both workers' clients counted)"
for i in 1 2; do
	got=$(ip netns exec "$(gw_cns "$i")" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || gw_fail "client $i: 1 MiB download: sha256 mismatch"
done

# SIGUSR1: every worker's clients dropped, the sockets of both workers read again afterwards
n1=$(grep -c "Initialization Sequence Completed" "$GW_DIR/c1.log")
n2=$(grep -c "Initialization Sequence Completed" "$GW_DIR/c2.log")
kill -USR1 "${GW_PID[server]}"
gw_wait "$GW_DIR/server.log" "gateway restarted: 2 client(s) dropped" 10 || gw_fail "SIGUSR1: not 2 clients dropped"
for i in 1 2; do
	nb=$([ "$i" = 1 ] && echo "$n1" || echo "$n2")
	for ((k = 0; k < 100; k++)); do
		[ "$(grep -c "Initialization Sequence Completed" "$GW_DIR/c$i.log")" -gt "$nb" ] && break
		sleep 0.3
	done
	[ "$k" -lt 100 ] || gw_fail "client $i did not reconnect after SIGUSR1"
	got=$(ip netns exec "$(gw_cns "$i")" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || gw_fail "client $i after SIGUSR1: sha256 mismatch"
done
touch "$GW_DIR/stop"
gw_stop_client 1
gw_stop_client 2
gw_stop_server
echo "PASS: gw_workers_mgmt"
