#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_workers.sh - a gateway with `workers 2` (issue 16 item 1; docs/scaling.md "Workers"): two stock
# OpenVPN 2.6 clients and a braidd multipath client (two source addresses, `mp-path`) on one braidd
# gateway whose UDP socket is an SO_REUSEPORT group of two, steered by peer-id (bpf/reuseport_peerid).
# Asserts: the gateway logs 2 workers; both workers hold sessions (a stock client whose handshake hashed to
# the busy worker reconnects from a new port, at most 8 times); each client downloads 2 MiB through the
# gateway (sha256); the multipath session's two paths were both learned (so both reached the worker that
# owns its peer-id: another worker drops a peer-id it does not own) and while only it moves data, its
# worker's link counter carries the download and the other worker's stays near idle; no data packet
# reached a worker without its session; each client appears once in the status file and in the JSON
# status; SIGUSR2 prints one line per worker, the summed counters and the size of the workers' address
# hash (one entry per client, also after floats). Then a stock client floats (new source
# address) until its control packets hash to the other worker: handed over, its renegotiation completes.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 3

gw_serve_blob 2097152
want=$GW_WANT
mp=3	# client 3: braidd, multipath on two addresses of its namespace
ip -n "$(gw_cns $mp)" addr add 10.99.0.23/24 dev eth0 || gw_fail "second address for the multipath client"

gw_server_conf "workers 2" "multipath on" "status-json $GW_DIR/status.json 1"
gw_start_server
grep -qF "workers: 2, sessions steered by their peer-ids" "$GW_DIR/server.log" ||
	gw_fail "the gateway did not start 2 workers (no 'workers: 2' line)"

# worker of a client from the JSON status (-1: not listed)
worker_of() {
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
# jfield PATH...: a value from the JSON status, e.g. jfield workers 0 link_rx_pkts
jfield() {
	python3 - "$GW_DIR/status.json" "$@" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)
EOF
}
fresh_json() {	# SIGUSR2 writes the JSON status at once
	local n k
	n=$(grep -c "gateway stats:" "$GW_DIR/server.log")
	kill -USR2 "${GW_PID[server]}"
	for ((k = 0; k < 40; k++)); do
		[ "$(grep -c "gateway stats:" "$GW_DIR/server.log")" -gt "$n" ] && return 0
		sleep 0.05
	done
	return 1
}
wait_listed() {	# wait_listed CN: listed in the JSON status with a worker
	local k
	for ((k = 0; k < 40; k++)); do
		fresh_json
		[ "$(worker_of "$1")" != -1 ] && return 0
		sleep 0.25
	done
	return 1
}

for i in 1 2; do
	gw_client_conf "$i"
	gw_start_client "$i"
done
for i in 1 2; do
	gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 20 || gw_fail "client $i did not connect"
	wait_listed "client$i" || gw_fail "client$i not in the JSON status"
done
# the braidd multipath client
cat >"$GW_DIR/c$mp.conf" <<EOS
client
dev tun
proto udp
remote 10.99.0.1 1194
nobind
ca $GW_DIR/ca.crt
cert $GW_DIR/client$mp.crt
key $GW_DIR/client$mp.key
remote-cert-tls server
verb 4
mp-path 10.99.0.13
mp-path 10.99.0.23
EOS
: >"$GW_DIR/c$mp.log"
ip netns exec "$(gw_cns $mp)" "$BRAIDD" --config "$GW_DIR/c$mp.conf" --log "$GW_DIR/c$mp.log" &
GW_PID[c$mp]=$!
GW_PIDS+=("$!")
gw_wait "$GW_DIR/c$mp.log" "multipath negotiated with the server" 20 || gw_fail "client $mp: multipath not negotiated"
wait_listed "client$mp" || gw_fail "client$mp not in the JSON status"

# both workers must hold a session: a stock client on the busy worker reconnects from a new source port
tries=0
while :; do
	w1=$(worker_of client1) w2=$(worker_of client2) w3=$(worker_of client$mp)
	case "$w1$w2$w3" in *0*1* | *1*0*) break ;; esac
	[ $tries -lt 8 ] || gw_fail "all sessions on worker $w1 after $tries reconnects"
	tries=$((tries + 1))
	gw_stop_client 2	# its new session (same common name) drops the old one, on whichever worker
	gw_start_client 2
	gw_wait "$GW_DIR/c2.log" "Initialization Sequence Completed" 20 || gw_fail "client 2 did not reconnect"
	wait_listed client2 || gw_fail "client2 not in the JSON status after a reconnect"
done
echo "sessions: client1 on worker $w1, client2 on worker $w2, client$mp on worker $w3 ($tries reconnects)"

for i in 1 2 $mp; do
	ok=
	for t in 1 2 3 4 5 6 7 8 9 10; do	# the multipath client's routes come with its paths
		ip netns exec "$(gw_cns "$i")" ping -c1 -W1 10.8.0.1 >/dev/null 2>&1 && { ok=1; break; }
		sleep 0.5
	done
	[ -n "$ok" ] || gw_fail "client $i: no ping to the gateway's tunnel address"
done

# the multipath client alone moves data: its worker's link counter carries it, the other's stays near idle
fresh_json || gw_fail "no JSON status after SIGUSR2"
o=$w3 x=$((1 - w3))
rx_o=$(jfield workers "$o" link_rx_pkts) rx_x=$(jfield workers "$x" link_rx_pkts)
got=$(ip netns exec "$(gw_cns $mp)" curl -s --max-time 30 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
[ "$got" = "$want" ] || gw_fail "client $mp (multipath): 2 MiB download through the gateway: sha256 mismatch"
fresh_json || gw_fail "no JSON status after SIGUSR2"
d_o=$(($(jfield workers "$o" link_rx_pkts) - rx_o)) d_x=$(($(jfield workers "$x" link_rx_pkts) - rx_x))
echo "multipath download: worker $o received $d_o packets, worker $x $d_x"
[ "$d_o" -ge 200 ] || gw_fail "the multipath client's worker $o received $d_o packets during its download, want >= 200"
[ "$d_x" -le 20 ] || gw_fail "worker $x received $d_x packets during the multipath client's download, want <= 20 (keepalives)"
learned=$(grep "learned from an authenticated packet, validating" "$GW_DIR/server.log" | grep -c "client$mp/")
[ "$learned" = 2 ] || gw_fail "gateway learned $learned paths for client$mp, want 2 (both on worker $o)"
for a in 10.99.0.13 10.99.0.23; do
	grep "learned from an authenticated packet, validating" "$GW_DIR/server.log" | grep "client$mp/" |
		grep -qF "$a:" || gw_fail "no path of client$mp from $a"
done

# the stock clients, at the same time
for i in 1 2; do
	(ip netns exec "$(gw_cns "$i")" curl -s --max-time 30 http://10.8.0.1:8080/blob |
		sha256sum | cut -d' ' -f1 >"$GW_DIR/got$i") &
done
for i in 1 2; do
	for ((k = 0; k < 300; k++)); do [ -s "$GW_DIR/got$i" ] && break; sleep 0.1; done
	[ "$(cat "$GW_DIR/got$i")" = "$want" ] || gw_fail "client $i: 2 MiB download through the gateway: sha256 mismatch"
done

# one gateway to the outside
fresh_json || gw_fail "no JSON status after SIGUSR2"
for i in 1 2 $mp; do
	gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,client$i," 5 || gw_fail "the status file does not list client$i"
	n=$(grep -c "^CLIENT_LIST,client$i," "$GW_DIR/status.txt")
	[ "$n" = 1 ] || gw_fail "client$i listed $n times in the status file, want 1"
done
c0=$(jfield workers 0 clients) c1=$(jfield workers 1 clients) tot=$(jfield gateway clients)
[ "$c0" -ge 1 ] && [ "$c1" -ge 1 ] || gw_fail "sessions per worker $c0 / $c1, want both >= 1"
[ "$((c0 + c1))" = 3 ] && [ "$tot" = 3 ] || gw_fail "clients: workers $c0 + $c1, gateway $tot, want 3"
unk=$(jfield gateway data_unknown_peer)
[ "$unk" = 0 ] || gw_fail "$unk data packets reached a worker without their session"
for w in 0 1; do
	grep -q "worker $w: sessions" "$GW_DIR/server.log" || gw_fail "SIGUSR2: no 'worker $w' line"
done
line=$(grep "gateway stats:" "$GW_DIR/server.log" | tail -n 1)
grep -q "clients 3," <<<"$line" || gw_fail "SIGUSR2 stats do not sum the workers' clients: $line"
# the workers' hash of client addresses (the float check): one entry per client
addr_line() { grep "workers: client addresses" "$GW_DIR/server.log" | tail -n 1; }
grep -q "client addresses 3 (hash of 64 buckets" <<<"$(addr_line)" || gw_fail "address hash: $(addr_line), want 3"
sp=$(($(jfield workers 0 steered_by_pid) + $(jfield workers 1 steered_by_pid)))
[ "$sp" -ge 1000 ] || gw_fail "the steering program sent $sp packets by peer-id, want >= 1000"
grep "worker [01]: sessions" "$GW_DIR/server.log" | tail -n 2

# float: client1 (renegotiating every 3 s) moves to new addresses until its control packets hash to the
# worker that does not own its session; that worker hands them over (link_taken) and the renegotiation works
C1=$(gw_cns 1)
ip netns exec "$C1" sysctl -qw net.ipv4.conf.eth0.promote_secondaries=1
gw_stop_client 1
gw_client_conf 1 "reneg-sec 3"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 20 || gw_fail "client 1 did not reconnect (reneg-sec 3)"
taken() { fresh_json; echo $(($(jfield workers 0 link_taken) + $(jfield workers 1 link_taken))); }
old=10.99.0.11 moved=
for a in 61 62 63 64 65 66 67 68; do
	t0=$(taken)
	ip -n "$C1" addr add "10.99.0.$a/24" dev eth0
	ip -n "$C1" addr del "$old/24" dev eth0
	old=10.99.0.$a
	ip netns exec "$C1" ping -c 2 -i 0.3 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "float to $old: no ping"
	n0=$(grep -c "Control Channel:" "$GW_DIR/c1.log")
	for ((k = 0; k < 80; k++)); do	# a renegotiation from the new address
		[ "$(grep -c "Control Channel:" "$GW_DIR/c1.log")" -gt "$n0" ] && break
		sleep 0.1
	done
	[ "$(grep -c "Control Channel:" "$GW_DIR/c1.log")" -gt "$n0" ] || gw_fail "float to $old: no renegotiation within 8 s"
	if [ "$(taken)" -gt "$t0" ]; then moved=$old; break; fi
done
[ -n "$moved" ] || gw_fail "client1's control packets never reached the other worker in 8 floats"
ip netns exec "$C1" ping -c 2 -i 0.3 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "float to $moved: no ping after the renegotiation"
got=$(ip netns exec "$C1" curl -s --max-time 30 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
[ "$got" = "$want" ] || gw_fail "client 1 after the float to $moved: sha256 mismatch"
grep -q "floated from [0-9.]*:[0-9]* to $moved:" "$GW_DIR/server.log" || gw_fail "float to $moved not logged"
echo "float to $moved: control packets handed over to the session's worker ($(taken) taken), renegotiated"
# each float took client1's old address out of the hash and put the new one in: still one entry per client
grep -q "client addresses 3 (hash of 64 buckets" <<<"$(addr_line)" || gw_fail "address hash after the floats: $(addr_line)"

gw_stop_client $mp
gw_stop_client 1
gw_stop_client 2
gw_stop_server
grep -q "gateway stats:" "$GW_DIR/server.log" || gw_fail "no final stats line"
echo "PASS: gw_workers"
