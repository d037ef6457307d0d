# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# mplib.sh - helpers for the multipath braidd tests (on top of lib.sh).
#
#   cli ── path 1..N (one socket per client address 10.I.1.2) ── srv (one socket per 10.I.2.2)
#   tunnel: cli 10.200.0.2 / fd00:200::2, srv 10.200.0.1 / fd00:200::1; status files in $TB_DIR/NAME.json
#
# mp_pair N [srv lines...] -- [cli lines...]   start both peers with N paths, wait for "Initialization"
# mp_json NAME FILTER                          jq FILTER on NAME's status file (after a fresh SIGUSR2 write)
# mp_path_field NAME I FIELD                   FIELD of the path whose local address is on path I
# mp_wait_paths NAME N STATE [S]               wait until N paths are in STATE
# mp_http_get FILE                             download $TB_DIR/FILE through the tunnel, print its sha256
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mp_pair() {
	local n=$1
	shift
	local srv_extra=() cli_extra=() side=srv i
	for a in "$@"; do
		if [ "$a" = -- ]; then side=cli; continue; fi
		if [ $side = srv ]; then srv_extra+=("$a"); else cli_extra+=("$a"); fi
	done
	local srv_paths=() cli_paths=()
	for ((i = 1; i <= n; i++)); do
		srv_paths+=("mp-path $(tb_srv_addr "$i")")
		cli_paths+=("mp-path $(tb_cli_addr "$i") $(tb_srv_addr "$i") 1194")
	done
	bd_conf srv "dev tun" "lport 1194" "secret $TB_DIR/key 0" "ifconfig 10.200.0.1 10.200.0.2" \
		"ifconfig-ipv6 fd00:200::1/64 fd00:200::2" "verb 4" "status $TB_DIR/srv.json 1" \
		"${srv_paths[@]}" "${srv_extra[@]}"
	bd_conf cli "dev tun" "nobind" "secret $TB_DIR/key 1" "ifconfig 10.200.0.2 10.200.0.1" \
		"ifconfig-ipv6 fd00:200::2/64 fd00:200::1" "verb 4" "status $TB_DIR/cli.json 1" \
		"${cli_paths[@]}" "${cli_extra[@]}"
	bd_start srv "$TB_SRV"
	bd_wait_log srv "Initialization Sequence Completed" || fail "srv did not start"
	bd_start cli "$TB_CLI"
	bd_wait_log cli "Initialization Sequence Completed" || fail "cli did not start"
}

# Fresh status: SIGUSR2 makes braidd write the status file at once.
mp_refresh() {
	local name=$1 before
	before=$(stat -c %Y.%s "$TB_DIR/$name.json" 2>/dev/null)
	kill -USR2 "${BD_PID[$name]}"
	sleep 0.1
	: "$before"
}

mp_json() { mp_refresh "$1"; jq -r "$2" "$TB_DIR/$1.json"; }

# mp_path_field NAME I FIELD: the field of the path whose local (cli) or local (srv) address belongs to bed path I
mp_path_field() {
	local name=$1 i=$2 field=$3 addr
	if [ "$name" = cli ]; then addr=$(tb_cli_addr "$i"); else addr=$(tb_srv_addr "$i"); fi
	jq -r --arg a "$addr" --arg f "$field" \
		'[.paths[] | select(.local | startswith("[AF_INET]" + $a + ":"))] | map(.[$f]) | add // 0' \
		"$TB_DIR/$name.json"
}

mp_wait_paths() {
	local name=$1 n=$2 state=$3 timeout=${4:-10} k
	for ((k = 0; k < timeout * 10; k++)); do
		mp_refresh "$name"
		[ "$(jq --arg s "$state" '[.paths[] | select(.state == $s)] | length' "$TB_DIR/$name.json" 2>/dev/null)" = "$n" ] &&
			return 0
		sleep 0.1
	done
	return 1
}

mp_http_start() {
	tb_bg "$TB_SRV" python3 -m http.server --bind :: --directory "$TB_DIR" 8080 >/dev/null 2>&1
	MP_HTTP_PID=$TB_LAST_PID
}

# mp_http_get FILE [ADDR] [CURL OPTS...]: sha256 of the download (retries the first connect)
mp_http_get() {
	local file=$1 addr=${2:-10.200.0.1} got=
	shift 2 2>/dev/null || shift
	[[ $addr == *:* ]] && addr="[$addr]"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		got=$(tb_exec "$TB_CLI" curl -sf --max-time 60 "$@" "http://$addr:8080/$file" | sha256sum | cut -d' ' -f1)
		[ "$got" != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" ] && break
		sleep 0.3
	done
	echo "$got"
}

# mp_up_start PORT OUT: a TCP sink on the server side (tunnel address), writing the sha256 of what it gets to
# $TB_DIR/OUT; sets MP_UP_PID. mp_up_send FILE PORT [ADDR]: send $TB_DIR/FILE from the client through the tunnel.
mp_up_start() {
	tb_bg "$TB_SRV" python3 -c 'import hashlib, socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(1); c, _ = s.accept(); h = hashlib.sha256()
while True:
    d = c.recv(65536)
    if not d:
        break
    h.update(d)
open(sys.argv[2], "w").write(h.hexdigest() + "\n")' "$1" "$TB_DIR/$2"
	MP_UP_PID=$TB_LAST_PID
	sleep 0.3
}
mp_up_send() {
	tb_exec "$TB_CLI" python3 -c 'import socket, sys, time
for k in range(50):  # the sink may not listen yet (a busy host)
    try:
        s = socket.create_connection((sys.argv[3], int(sys.argv[2])), timeout=60)
        break
    except ConnectionRefusedError:
        if k == 49:
            raise
        time.sleep(0.2)
s.sendall(open(sys.argv[1], "rb").read()); s.shutdown(socket.SHUT_WR); s.recv(1); s.close()' \
		"$TB_DIR/$1" "$2" "${3:-10.200.0.1}"
}
