# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tls_client_lib.sh - braidd as a TLS client of a stock `openvpn` 2.6 server, in the test bed's netns.
#
#   cli: braidd (client)  c1 10.1.1.2 ── r1 ── s1 10.1.2.2  srv: stock openvpn --server 10.8.0.0/24
#                                                             tun 10.8.0.1 / fd00:8::1, http.server :8080
#
# tc_setup                     test bed (1 path), PKI in $TB_DIR/pki (tests/lib/pki.sh), ta.key, a 2 MiB blob
# tc_server NAME PROTO WRAP [extra lines...]   write + start a stock server (PROTO udp|tcp-server,
#                              WRAP tls-auth|tls-crypt|none), wait until it listens; pid in OV_PID
# tc_server_stop               SIGTERM the stock server and wait
# tc_mgmt_listen NS PORT SCRIPT OUT   mgmt_drive.py as the management client a daemon with `management-client`
#                              connects out to (127.0.0.1:PORT in NS), SCRIPT's transcript to OUT; returns once it
#                              listens; pid in TB_LAST_PID
# tc_client NAME PROTO WRAP [extra lines...]   write + start braidd as client (bd_start)
# tc_transfer LABEL [BD_NAME]  sha256-verified download of the blob through the tunnel (curl from cli);
#                              with BD_NAME also checks braidd's stats (TUN packets written)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TC_SRV_TUN=10.8.0.1
OV_PID=

tc_setup() {
	bd_require
	command -v openvpn >/dev/null || { echo "SKIP: stock openvpn not installed"; exit 77; }
	tb_setup -n 1 >/dev/null 2>&1 || fail "tb_setup"
	bash "$(dirname "${BASH_SOURCE[0]}")/../lib/pki.sh" "$TB_DIR/pki" client1 >/dev/null || fail "pki.sh"
	openvpn --genkey secret "$TB_DIR/pki/ta.key" >/dev/null 2>&1 || fail "genkey ta.key"
	openvpn --genkey secret "$TB_DIR/pki/wrong.key" >/dev/null 2>&1 || fail "genkey wrong.key"
	head -c "${TC_BLOB_BYTES:-2097152}" /dev/urandom >"$TB_DIR/blob"
	TC_WANT_BYTES=$(stat -c %s "$TB_DIR/blob")
	TC_WANT=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
	# without the tunnel the server's tunnel addresses are unreachable from cli (else they would be routed
	# to srv over the plain path and a test could pass without the tunnel)
	tb_exec "$TB_CLI" ip route add unreachable 10.8.0.0/16 || fail "unreachable route"
	tb_exec "$TB_CLI" ip -6 route add unreachable fd00:8::/48 || fail "unreachable route v6"
	tb_bg "$TB_SRV" python3 -m http.server --bind 0.0.0.0 --directory "$TB_DIR" 8080 >/dev/null 2>&1
	for _ in $(seq 1 100); do
		tb_exec "$TB_SRV" curl -sf -o /dev/null --max-time 1 http://127.0.0.1:8080/blob && return 0
		sleep 0.1
	done
	fail "http.server did not start"
}

tc_wrap_lines() { # ROLE(0 server, 1 client) WRAP
	case $2 in
	tls-auth) echo "tls-auth $TB_DIR/pki/ta.key $1" ;;
	tls-crypt) echo "tls-crypt $TB_DIR/pki/tc.key" ;;
	none) ;;
	*) fail "unknown wrap '$2'" ;;
	esac
}

tc_server() {
	local name=$1 proto=$2 wrap=$3 i
	shift 3
	local lines=("dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "server-ipv6 fd00:8::/64"
		"proto $proto" "port 1194" "local $(tb_srv_addr 1)" "ca $TB_DIR/pki/ca.crt"
		"cert $TB_DIR/pki/server.crt" "key $TB_DIR/pki/server.key" "dh none"
		"keepalive 2 20" "verb 4" "suppress-timestamps" "data-ciphers AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305"
		'push "route 10.9.0.0 255.255.255.0"' 'push "dhcp-option DNS 10.8.0.53"'
		"$(tc_wrap_lines 0 "$wrap")" "$@")
	printf '%s\n' "${lines[@]}" >"$TB_DIR/$name.conf"
	: >"$TB_DIR/$name.log"
	tb_bg "$TB_SRV" openvpn --cd "$TB_DIR" --config "$TB_DIR/$name.conf" --log "$TB_DIR/$name.log"
	OV_PID=$TB_LAST_PID
	OV_LOG=$TB_DIR/$name.log
	for ((i = 0; i < 100; i++)); do
		grep -q "Initialization Sequence Completed" "$OV_LOG" && return 0
		kill -0 "$OV_PID" 2>/dev/null || break
		sleep 0.05
	done
	fail "stock server $name did not start"
}

tc_mgmt_listen() {
	local ready="$TB_DIR/mgmt-ready.$2"
	rm -f "$ready"
	tb_bg "$1" env MGMT_READY="$ready" python3 "$(dirname "${BASH_SOURCE[0]}")/mgmt_drive.py" \
		"listen:127.0.0.1:$2" "$3" "$4"
	for _ in $(seq 1 100); do [ -e "$ready" ] && break; sleep 0.05; done
	[ -e "$ready" ] || fail "the management driver does not listen on port $2"
}

tc_server_stop() {
	[ -n "$OV_PID" ] || return 0
	kill -TERM "$OV_PID" 2>/dev/null
	wait "$OV_PID" 2>/dev/null
	OV_PID=
}

tc_client() {
	local name=$1 proto=$2 wrap=$3
	shift 3
	bd_conf "$name" "client" "dev tun" "proto $proto" "remote $(tb_srv_addr 1) 1194" "nobind" \
		"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
		"remote-cert-tls server" "verb 4" "$(tc_wrap_lines 1 "$wrap")" "$@"
	bd_start "$name" "$TB_CLI"
}

tc_transfer() {
	local got
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		got=$(tb_exec "$TB_CLI" curl -sf --max-time 20 "http://$TC_SRV_TUN:8080/blob" | sha256sum | cut -d' ' -f1)
		[ "$got" = "$TC_WANT" ] && break
		sleep 0.3
	done
	[ "$got" = "$TC_WANT" ] || fail "$1: download sha256 $got, want $TC_WANT"
	# the bytes came through braidd's TUN
	if [ -n "${2:-}" ]; then
		local st
		st=$(bd_stats "$2")
		[ "$(bd_stat_field "$st" tun_write)" -gt $((TC_WANT_BYTES / 1500)) ] ||
			fail "$1: too few packets written to the TUN: $st"
	fi
}
