# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tls_mp_lib.sh - helpers for the multipath-over-TLS tests (docs/multipath-negotiation.md):
# a braidd client with `mp-path` lines and a braidd gateway with `multipath on` in the test bed.
#
#   cli: braidd client, mp-path 10.I.1.2 (I = 1..N) ── rI ── srv: braidd gateway on 10.1.2.2:1194
#        tunnel 10.8.0.0/24 + fd00:8::/64, gateway 10.8.0.1 / fd00:8::1, http.server [::]:8080 on srv
#
# TM_FAM=6 before tm_gateway/tm_client/tm_client_paths/tm_path_field: IPv6 outer addresses (udp6)
# tm_setup N                        bed with N paths, PKI, a blob ($TM_WANT = its sha256), http server
# tm_gateway NAME [lines...]        start a braidd gateway (multipath on unless a line says otherwise)
# tm_client NAME [lines...]         start a braidd client (UDP, to 10.1.2.2:1194); status in NAME.status
# tm_client_paths NAME N            the client's `mp-path` lines for paths 1..N (printed, one per line)
# tm_status NAME                    the client's "Braid path" lines (status file rewritten every second)
# tm_wait_active NAME N [S]         wait until N client paths are active
# tm_path_field NAME I FIELD        tx_pkts|tx_bytes|rx_pkts|rx_bytes|state of the client path on bed path I
# tm_get FILE [ADDR]                sha256 of a download through the tunnel
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TM_GW_TUN=10.8.0.1
TM_GW_TUN6=fd00:8::1

tm_proto() { if [ "${TM_FAM:-4}" = 6 ]; then echo udp6; else echo udp; fi; }

tm_setup() {
	bd_require
	command -v openvpn >/dev/null || { echo "SKIP: openvpn not installed (genkey, stock peers)"; exit 77; }
	# shellcheck disable=SC2086 # TM_TB_OPTS: more tb_setup options (--no-rules)
	tb_setup -n "$1" ${TM_TB_OPTS:-} >/dev/null 2>&1 || fail "tb_setup"
	bash "$(dirname "${BASH_SOURCE[0]}")/../lib/pki.sh" "$TB_DIR/pki" client1 client2 >/dev/null || fail "pki.sh"
	openvpn --genkey secret "$TB_DIR/pki/ta.key" >/dev/null 2>&1 || fail "genkey ta.key"
	head -c "${TM_BLOB_BYTES:-8388608}" /dev/urandom >"$TB_DIR/blob"
	TM_WANT=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
	tb_exec "$TB_CLI" ip route add unreachable 10.8.0.0/16 || fail "unreachable route"
	tb_exec "$TB_CLI" ip -6 route add unreachable fd00:8::/48 || fail "unreachable route v6"
	tb_bg "$TB_SRV" python3 -m http.server --bind :: --directory "$TB_DIR" 8080 >/dev/null 2>&1
}

tm_gateway() {
	local name=$1
	shift
	bd_conf "$name" "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "server-ipv6 fd00:8::/64" \
		"proto $(tm_proto)" "port 1194" "local $(tb_srv_addr 1 "${TM_FAM:-4}")" "ca $TB_DIR/pki/ca.crt" \
		"cert $TB_DIR/pki/server.crt" "key $TB_DIR/pki/server.key" "dh none" "keepalive 2 20" \
		"tls-auth $TB_DIR/pki/ta.key 0" "verb 4" "$@" ${GW_TEST_WORKERS:+"workers $GW_TEST_WORKERS"}
	bd_start "$name" "$TB_SRV"
	bd_wait_log "$name" "gateway ready" 10 || fail "braidd gateway $name did not start"
}

tm_client_paths() {
	local i
	for ((i = 1; i <= $2; i++)); do echo "mp-path $(tb_cli_addr "$i" "${TM_FAM:-4}")"; done
}

tm_client() {
	local name=$1 cert=${TM_CERT:-client1}
	shift
	bd_conf "$name" "client" "dev tun" "proto $(tm_proto)" "remote $(tb_srv_addr 1 "${TM_FAM:-4}") 1194" "nobind" \
		"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/$cert.crt" "key $TB_DIR/pki/$cert.key" \
		"remote-cert-tls server" "tls-auth $TB_DIR/pki/ta.key 1" "verb 4" \
		"status $TB_DIR/$name.status 1" "$@"
	bd_start "$name" "$TB_CLI"
}

tm_status() { grep '^Braid path,' "$TB_DIR/$1.status" 2>/dev/null; }

tm_wait_active() {
	local name=$1 n=$2 timeout=${3:-10} k
	for ((k = 0; k < timeout * 10; k++)); do
		[ "$(tm_status "$name" | awk -F, '$5 == "active"' | wc -l)" = "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# Braid path,IDX,LOCAL,REMOTE,STATE,TX_PKTS,TX_BYTES,RX_PKTS,RX_BYTES
tm_path_field() {
	local col
	case $3 in
	state) col=5 ;; tx_pkts) col=6 ;; tx_bytes) col=7 ;; rx_pkts) col=8 ;; rx_bytes) col=9 ;;
	*) fail "tm_path_field: unknown field $3" ;;
	esac
	local a="[AF_INET]$(tb_cli_addr "$2"):"
	[ "${TM_FAM:-4}" = 6 ] && a="[AF_INET6]$(tb_cli_addr "$2" 6):"
	tm_status "$1" | awk -F, -v a="$a" -v c=$col 'index($3, a) == 1 { print $c; exit }'
}

tm_get() {
	local file=$1 addr=${2:-$TM_GW_TUN} got=
	[[ $addr == *:* ]] && addr="[$addr]"
	local out="$TB_DIR/tm_get.out" rc
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rm -f "$out"
		tb_exec "$TB_CLI" curl -sf --max-time 40 -o "$out" "http://$addr:8080/$file"
		rc=$?
		got=$(sha256sum <"$out" 2>/dev/null | cut -d' ' -f1)
		[ -s "$out" ] && break
		sleep 0.3
	done
	# a transfer cut short says so (curl's exit status and the bytes it got), not only a wrong sha256
	[ "$rc" = 0 ] || got="$got (curl exit $rc after $(stat -c %s "$out" 2>/dev/null || echo 0) bytes)"
	echo "$got"
}
