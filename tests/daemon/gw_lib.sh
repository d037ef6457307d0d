# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# gw_lib.sh - braidd gateway mode against stock OpenVPN 2.6 clients, in network namespaces.
#
#   gwc1 (openvpn client) ─ veth ─┐
#   gwc2 (openvpn client) ─ veth ─┤ br0 10.99.0.1/24 ─ gws (braidd gateway, tun 10.8.0.1/24)
#   gwc3 (openvpn client) ─ veth ─┘
#   client i: 10.99.0.(10+i)/24 and fd99::(10+i)/64 on its veth (br0 also has fd99::1/64)
#
# Names carry the shell's pid, so parallel runs do not collide; gw_cleanup (EXIT/INT/TERM trap)
# kills what we started and deletes the namespaces and the temp dir.
#
# gw_setup N                 namespaces, bridge, N client namespaces, PKI (client1..N, ta.key, tc.key)
# gw_server_conf LINES...    write $GW_DIR/server.conf: the common gateway lines + LINES (+ `workers
#                            $GW_TEST_WORKERS` when set: the gateway tests with worker threads)
# gw_start_server            start braidd in the gateway ns (log $GW_DIR/server.log)
# gw_client_conf I LINES...  write $GW_DIR/cI.conf: stock client lines for clientI + LINES
# gw_start_client I          start stock openvpn for cI in its ns (log $GW_DIR/cI.log)
# gw_wait FILE TEXT [S]      wait until FILE contains TEXT
# gw_stop_server / gw_stop_client I
# gw_fail MSG                print MSG and the logs' tails, exit 1
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pki.sh"

BRAIDD=${BRAIDD:-$BRAID_BIN_DIR/braidd}
GW_ID=$$
GW_NS=gws$GW_ID
GW_DIR=
GW_N=0
declare -A GW_PID
GW_PIDS=()

gw_cns() { echo "gwc$1x$GW_ID"; }

# gw_serve_blob BYTES: a random file of BYTES at http://10.8.0.1:8080/blob (a web server in the gateway's
# namespace, stopped with the test); its sha256 in GW_WANT. The server binds with IP_FREEBIND: tests call this
# before braidd has put 10.8.0.1 on its TUN (a plain bind then failed, silently, and curl found no server).
gw_serve_blob() {
	head -c "$1" /dev/urandom >"$GW_DIR/blob"
	GW_WANT=$(sha256sum "$GW_DIR/blob" | cut -d' ' -f1)
	ip netns exec "$GW_NS" /usr/bin/python3 -c '
import http.server, socket, sys, os
class S(http.server.ThreadingHTTPServer):
    def server_bind(self):
        self.socket.setsockopt(socket.SOL_IP, 15, 1)  # IP_FREEBIND: the address may come later
        super().server_bind()
os.chdir(sys.argv[1])
S(("10.8.0.1", 8080), http.server.SimpleHTTPRequestHandler).serve_forever()' "$GW_DIR" >"$GW_DIR/httpd.log" 2>&1 &
	GW_PIDS+=("$!")
	sleep 0.2
	kill -0 "$!" 2>/dev/null || gw_fail "the web server did not start: $(cat "$GW_DIR/httpd.log")"
}

# gw_sink_start PORT: a TCP sink on 10.8.0.1:PORT in the gateway's namespace (IP_FREEBIND, as gw_serve_blob); the
# sha256 of the bytes of one connection goes to $GW_DIR/sink.out when it closes. gw_upload I FILE PORT: client I
# sends FILE to it; prints that sha256 (empty after 20 s).
gw_sink_start() {
	rm -f "$GW_DIR/sink.out"
	ip netns exec "$GW_NS" /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/tcp_sink.py" 10.8.0.1 "$1" \
		"$GW_DIR/sink.out" >"$GW_DIR/sink.log" 2>&1 &
	GW_PIDS+=("$!")
	for _ in $(seq 1 100); do
		ip netns exec "$GW_NS" ss -Hltn "sport = :$1" | grep -q . && break
		sleep 0.1
	done
}
gw_upload() {
	local i
	ip netns exec "$(gw_cns "$1")" timeout 20 bash -c 'cat "$1" >/dev/tcp/10.8.0.1/"$2"' _ "$2" "$3" ||
		return 1
	for ((i = 0; i < 200; i++)); do
		[ -s "$GW_DIR/sink.out" ] && break
		sleep 0.1
	done
	cat "$GW_DIR/sink.out" 2>/dev/null
}

# gw_stat NAME LINE: the number after NAME on a gw_stats line ("gso runs 12" -> 12), empty if absent.
gw_stat() { sed -n "s/.*[:,] $1 \([0-9][0-9]*\).*/\1/p" <<<"$2"; }

gw_fail() {
	echo "FAIL: $*" >&2
	local f
	for f in "$GW_DIR"/*.log; do
		[ -f "$f" ] || continue
		echo "---- $f (last 25 lines)" >&2
		tail -n 25 "$f" >&2
	done
	exit 1
}

gw_require() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
	command -v openvpn >/dev/null || { echo "SKIP: no stock openvpn"; exit 77; }
	[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
}

gw_cleanup() {
	local p i
	for p in "${GW_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${GW_PIDS[@]}"; do
		for i in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null
	done
	for ((i = 1; i <= GW_N; i++)); do
		ip netns del "$(gw_cns "$i")" 2>/dev/null
	done
	ip netns del "$GW_NS" 2>/dev/null
	[ -n "$GW_DIR" ] && [ -z "${GW_KEEP:-}" ] && rm -rf "$GW_DIR"
	return 0
}

gw_setup() {
	local n=$1 i ns
	GW_N=$n
	trap gw_cleanup EXIT
	trap 'exit 1' INT TERM HUP
	GW_DIR=$(mktemp -d /tmp/braid-gw.XXXXXX)
	ip netns add "$GW_NS" || gw_fail "ip netns add"
	ip -n "$GW_NS" link set lo up
	ip -n "$GW_NS" link add br0 type bridge
	ip -n "$GW_NS" addr add 10.99.0.1/24 dev br0
	ip -n "$GW_NS" addr add fd99::1/64 dev br0 nodad
	ip -n "$GW_NS" link set br0 up
	for ((i = 1; i <= n; i++)); do
		ns=$(gw_cns "$i")
		ip netns add "$ns" || gw_fail "ip netns add $ns"
		ip -n "$ns" link set lo up
		ip link add "gwv$i$GW_ID" type veth peer name "gwp$i$GW_ID" || gw_fail "veth"
		ip link set "gwv$i$GW_ID" netns "$ns"
		ip link set "gwp$i$GW_ID" netns "$GW_NS"
		ip -n "$ns" link set "gwv$i$GW_ID" name eth0
		ip -n "$ns" addr add "10.99.0.$((10 + i))/24" dev eth0
		ip -n "$ns" addr add "fd99::$((10 + i))/64" dev eth0 nodad
		ip -n "$ns" link set eth0 up
		ip -n "$GW_NS" link set "gwp$i$GW_ID" master br0 up
	done
	local names=()
	for ((i = 1; i <= n; i++)); do names+=("client$i"); done
	braid_pki "$GW_DIR" "${names[@]}" >/dev/null || gw_fail "pki"
	openvpn --genkey secret "$GW_DIR/ta.key" >/dev/null 2>&1 || gw_fail "openvpn --genkey secret"
	[ -s "$GW_DIR/tc.key" ] || openvpn --genkey tls-crypt "$GW_DIR/tc.key" >/dev/null 2>&1
}

gw_server_conf() {
	{
		printf '%s\n' "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" \
			"port 1194" "local 10.99.0.1" "ca $GW_DIR/ca.crt" "cert $GW_DIR/server.crt" \
			"key $GW_DIR/server.key" "dh none" "keepalive 10 60" "verb 4" \
			"status $GW_DIR/status.txt 1" "status-version 2"
		printf '%s\n' "$@"
		# GW_TEST_WORKERS=N: every gateway test with `workers N` (docs/scaling.md "Workers"); the
		# interop tests feed the same file to stock openvpn, which skips the option it does not know
		[ -z "${GW_TEST_WORKERS:-}" ] || printf '%s\n' "ignore-unknown-option workers" \
			"workers $GW_TEST_WORKERS"
	} >"$GW_DIR/server.conf"
}

gw_start_server() {
	: >"$GW_DIR/server.log"
	rm -f "$GW_DIR/status.txt"
	ip netns exec "$GW_NS" "$BRAIDD" --config "$GW_DIR/server.conf" --log "$GW_DIR/server.log" &
	GW_PID[server]=$!
	GW_PIDS+=("$!")
	gw_wait "$GW_DIR/server.log" "gateway ready" 10 || gw_fail "braidd gateway did not start"
}

gw_client_conf() {
	local i=$1
	shift
	{
		printf '%s\n' "client" "dev tun" "proto udp" "remote 10.99.0.1 1194" "nobind" \
			"ca $GW_DIR/ca.crt" "cert $GW_DIR/client$i.crt" "key $GW_DIR/client$i.key" \
			"remote-cert-tls server" "verb 3" "connect-retry 1" "connect-retry-max 3" \
			"server-poll-timeout 5" "hand-window 10" "suppress-timestamps"
		printf '%s\n' "$@"
	} >"$GW_DIR/c$i.conf"
}

gw_start_client() {
	local i=$1
	: >"$GW_DIR/c$i.log"
	ip netns exec "$(gw_cns "$i")" openvpn --cd "$GW_DIR" --config "$GW_DIR/c$i.conf" \
		--log "$GW_DIR/c$i.log" &
	GW_PID[c$i]=$!
	GW_PIDS+=("$!")
}

gw_wait() {
	local file=$1 text=$2 timeout=${3:-10} i
	for ((i = 0; i < timeout * 20; i++)); do
		grep -qF -- "$text" "$file" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

gw_stop() {
	local p=${GW_PID[$1]} i
	[ -n "$p" ] || return 0
	kill "$p" 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		kill -0 "$p" 2>/dev/null || break
		sleep 0.1
	done
	wait "$p" 2>/dev/null
	GW_PID[$1]=
}
# Peer-ids: with one worker the K-th session (0-based, connect order) gets peer-id K; with `workers N`
# (`workers N`, or the default one per core: gw_workers) worker w hands out w, w+N, w+2N … and the worker is the kernel's hash of the client's
# 4-tuple, so a test reads a session's peer-id from the gateway's log (gw_peer_id), checks it (gw_pid_ok)
# and asserts everything else (status line, PUSH_REPLY, removal line) with that value.
# gw_peer_id I: the peer-id of client I's newest session (the gateway's "clientI/…: connected, peer-id N")
gw_peer_id() {
	sed -n "s/^.* client$1\/[^ ]*: connected, peer-id \([0-9]*\),.*$/\1/p" "$GW_DIR/server.log" | tail -1
}
# gw_peer_id_at ADDR: the same for the newest session from address ADDR (whatever its common name)
gw_peer_id_at() {
	sed -n "s/^.*\/${1//./\\.}:[0-9]*: connected, peer-id \([0-9]*\),.*$/\1/p" "$GW_DIR/server.log" | tail -1
}
# gw_new_pid_at ADDR: the peer-id of the newest UDP session from ADDR, from its first line ("new client
# session"), also for a session refused before it connected
gw_new_pid_at() {
	sed -n "s/^.* ${1//./\\.}:[0-9]*: new client session (peer-id \([0-9]*\))$/\1/p" "$GW_DIR/server.log" | tail -1
}
# gw_workers: the worker count of the running gateway (from its log: `workers N`, or auto = the cores)
gw_workers() {
	local n
	n=$(sed -n 's/^.*workers: \([0-9]*\), sessions steered.*$/\1/p' "$GW_DIR/server.log" | tail -1)
	echo "${n:-1}"
}
# gw_pid_ok P K: P is what a session created while K others were live (and 0..K-1 taken, in connect order)
# may get: exactly K with one worker; with N workers a free slot of its worker, at most K*N + N - 1 (each
# worker fills its own slots w, w+N, … from the lowest)
gw_pid_ok() {
	local p=$1 k=$2 n
	n=$(gw_workers)
	[ -n "$p" ] || return 1
	if [ "$n" -le 1 ]; then [ "$p" = "$k" ]; else [ "$p" -le $((k * n + n - 1)) ]; fi
}
gw_stop_server() { gw_stop server; }
gw_stop_client() { gw_stop "c$1"; }

# gw_stats: SIGUSR2 to braidd, then print its newest stats line.
gw_stats() {
	local n
	n=$(grep -c "gateway stats:" "$GW_DIR/server.log")
	kill -USR2 "${GW_PID[server]}"
	for ((i = 0; i < 40; i++)); do
		[ "$(grep -c "gateway stats:" "$GW_DIR/server.log")" -gt "$n" ] && break
		sleep 0.05
	done
	grep "gateway stats:" "$GW_DIR/server.log" | tail -n 1
}

# CRL tests: an `openssl ca` database for the test CA (gw_ca_db), revoking a client's certificate
# (gw_revoke N) and writing $GW_DIR/crl.pem from the database (gw_gencrl)
gw_ca_db() {
	cat >"$GW_DIR/ca.cnf" <<EOS
[ ca ]
default_ca = d
[ d ]
database = $GW_DIR/index.txt
crlnumber = $GW_DIR/crlnumber
default_md = sha256
default_crl_days = 30
EOS
	: >"$GW_DIR/index.txt"
	echo 01 >"$GW_DIR/crlnumber"
}
gw_revoke() {
	openssl ca -config "$GW_DIR/ca.cnf" -keyfile "$GW_DIR/ca.key" -cert "$GW_DIR/ca.crt" \
		-revoke "$GW_DIR/client$1.crt" >/dev/null 2>&1 || gw_fail "openssl ca -revoke client$1"
}
gw_gencrl() {
	openssl ca -config "$GW_DIR/ca.cnf" -keyfile "$GW_DIR/ca.key" -cert "$GW_DIR/ca.crt" \
		-gencrl -out "$GW_DIR/crl.pem" >/dev/null 2>&1 || gw_fail "openssl ca -gencrl"
}
