#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One IPv4 path and one IPv6 path in a single multipath TLS session: braidd client with `mp-path 10.1.1.2`
# and `mp-path fd0b:2:1::2`, connected over IPv4 (first `remote 10.1.2.2`), with the gateway's IPv6 address
# as a second `remote`; braidd gateway with `multipath on` on a dual-stack socket (`proto udp6`, `local ::`).
# The IPv6 path goes to the gateway's IPv6 address; both paths active, the gateway learns one IPv4 and one
# IPv6 path, an 8 MiB download is sha256-checked and each path carried > 30 % of it (pathemu 20 + 20 Mbit/s).
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=8388608
tm_setup 2
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 5 >/dev/null
# the gateway's wildcard socket answers from the address the kernel picks: make that the address the IPv6
# path is sent to (fd0b:1:2::2, on s1) although the reply leaves on s2 (`multihome`-style replies are
# another test's subject)
tb_exec "$TB_SRV" ip -6 route replace "fd0b:2:1::/64" via "fd0b:2:2::1" dev s2 src "$(tb_srv_addr 1 6)" ||
	fail "source route on srv"
bd_conf gw "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "server-ipv6 fd00:8::/64" \
	"proto udp6" "port 1194" "local ::" "ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/server.crt" \
	"key $TB_DIR/pki/server.key" "dh none" "keepalive 2 20" "tls-auth $TB_DIR/pki/ta.key 0" "verb 4" \
	"multipath on"
bd_start gw "$TB_SRV"
bd_wait_log gw "gateway ready" 10 || fail "gateway did not start"
tm_client cli "remote $(tb_srv_addr 1 6) 1194" "mp-path $(tb_cli_addr 1)" "mp-path $(tb_cli_addr 2 6)"
bd_wait_log cli "Initialization Sequence Completed (server [AF_INET]$(tb_srv_addr 1):1194)" 15 ||
	fail "client did not come up over IPv4"
bd_wait_log cli "mp-path $(tb_cli_addr 2 6): IPv6 path to the server's address $(tb_srv_addr 1 6) port 1194" 5 ||
	fail "the IPv6 path was not sent to the gateway's IPv6 address"
bd_wait_log cli "multipath negotiated with the server" 5 || fail "multipath not negotiated"
tm_wait_active cli 2 15 || fail "paths not active: $(tm_status cli)"
learned=$(grep "learned from an authenticated packet" "$TB_DIR/gw.log")
grep -q -- "-> \[AF_INET6\]$(tb_cli_addr 2 6):" <<<"$learned" ||
	fail "gateway did not learn the IPv6 path: $learned"
grep -q -- "-> \[AF_INET\]$(tb_cli_addr 1):" <<<"$learned" || fail "gateway did not learn the IPv4 path: $learned"
got=$(tm_get blob)
[ "$got" = "$TM_WANT" ] || fail "download sha256 $got, want $TM_WANT"
sleep 1.2	# one status rewrite
st=$(tm_status cli)
# Braid path,IDX,LOCAL,REMOTE,STATE,TX_PKTS,TX_BYTES,RX_PKTS,RX_BYTES: exactly one path per local address
[ "$(wc -l <<<"$st")" = 2 ] || fail "want 2 client paths: $st"
rx4=$(awk -F, -v a="[AF_INET]$(tb_cli_addr 1):" -v r="[AF_INET]$(tb_srv_addr 1):1194" \
	'index($3, a) == 1 && $4 == r { print $9 }' <<<"$st")
rx6=$(awk -F, -v a="[AF_INET6]$(tb_cli_addr 2 6):" -v r="[AF_INET6]$(tb_srv_addr 1 6):1194" \
	'index($3, a) == 1 && $4 == r { print $9 }' <<<"$st")
echo "  rx bytes: IPv4 path ${rx4:-?}, IPv6 path ${rx6:-?} (blob $TM_BLOB_BYTES)"
[[ ${rx4:-x} =~ ^[0-9]+$ && ${rx6:-x} =~ ^[0-9]+$ ]] || fail "no byte counts: $st"
[ $((${rx4:-0} * 10)) -gt $((TM_BLOB_BYTES * 3)) ] || fail "IPv4 path carried ${rx4:-0} bytes: $st"
[ $((${rx6:-0} * 10)) -gt $((TM_BLOB_BYTES * 3)) ] || fail "IPv6 path carried ${rx6:-0} bytes: $st"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: one IPv4 and one IPv6 path in one TLS multipath session: both learned and active, 8 MiB sha256, v4 $rx4 B / v6 $rx6 B"
