#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Two multipath clients on one braidd gateway (docs/multipath-negotiation.md): client1 in the client namespace
# on 2 mp-paths, client2 in the app namespace on its one address. Each gets its own engine; the gateway learns
# 2 paths for client1 and 1 for client2 (by peer-id, nothing crosses), both download at the same time
# (sha256-verified), and each client's traffic arrives only from its own addresses.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=8388608 tm_setup 2
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 8 >/dev/null
# without the tunnel the app namespace would reach the gateway's tunnel address through srv directly
tb_exec "$TB_APP" ip route add unreachable 10.8.0.0/16 || fail "unreachable route in app"
tm_gateway gw "multipath on"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli1 "${paths[@]}"
bd_conf cli2 "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client2.crt" "key $TB_DIR/pki/client2.key" \
	"remote-cert-tls server" "tls-auth $TB_DIR/pki/ta.key 1" "verb 4" "status $TB_DIR/cli2.status 1" \
	"mp-path 10.9.0.2"
bd_start cli2 "$TB_APP"
bd_wait_log cli1 "multipath negotiated with the server" 15 || fail "client1: multipath not negotiated"
bd_wait_log cli2 "multipath negotiated with the server" 15 || fail "client2: multipath not negotiated"
tm_wait_active cli1 2 10 || fail "client1 paths not active: $(tm_status cli1)"
tm_wait_active cli2 1 10 || fail "client2 path not active: $(tm_status cli2)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "client1: no ping"
tb_wait_ping "$TB_APP" "$TM_GW_TUN" 10 || fail "client2: no ping"
tm_get blob >/dev/null
(tb_exec "$TB_APP" curl -sf --max-time 60 -o "$TB_DIR/got2" "http://$TM_GW_TUN:8080/blob") &
c2=$!
got1=$(tm_get blob)
wait "$c2" || fail "client2 download failed"
[ "$got1" = "$TM_WANT" ] || fail "client1 download: sha256 $got1"
[ "$(sha256sum <"$TB_DIR/got2" | cut -d' ' -f1)" = "$TM_WANT" ] || fail "client2 download: sha256 mismatch"
l1=$(grep "learned from an authenticated packet, validating" "$TB_DIR/gw.log" | grep -c "client1/")
l2=$(grep "learned from an authenticated packet, validating" "$TB_DIR/gw.log" | grep -c "client2/")
[ "$l1" = 2 ] || fail "gateway learned $l1 paths for client1, want 2"
[ "$l2" = 1 ] || fail "gateway learned $l2 paths for client2, want 1"
grep "learned from an authenticated packet, validating" "$TB_DIR/gw.log" | grep "client1/" | grep -q "10.9.0.2" &&
	fail "a client2 address became a client1 path"
grep "learned from an authenticated packet, validating" "$TB_DIR/gw.log" | grep "client2/" | grep -qE -- "-> \[AF_INET\]10\.[12]\.1\.2:" &&
	fail "a client1 address became a client2 path"
bd_stop cli1 || fail "client1 exit code $?"
bd_stop cli2 || fail "client2 exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: two multipath clients on one gateway: 2 + 1 paths learned by peer-id, concurrent 8 MiB downloads verified"
