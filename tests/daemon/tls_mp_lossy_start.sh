#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A genuine multipath client whose paths cannot validate in the gateway's first 5 s (closing note, issue 10:
# "the version fallback could switch a genuine multipath client whose every path fails to validate within 5 s
# to single path"). Both routers drop every data-channel packet (P_DATA_V2, first payload byte 0x48..0x4f) from
# the gateway to the client from before the client starts until 7.5 s after it is up: the TLS handshake and push pass, the
# client's PATH_CHALLENGEs reach the gateway, every answer and every gateway challenge is lost.
# Asserts: the drops happened on both routers and no path of the client was active during them (the case
# really held); the gateway does NOT log "the client did not take up multipath"; once the drops stop both
# paths go active and a 4 MB download has the right sha256; still no fallback line at the end.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=4194304 tm_setup 2
mapfile -t paths < <(tm_client_paths "" 2)
U32="0>>22&0x3C@8>>24&0xF8=0x48"
for i in 1 2; do
	tb_exec "${TB_R[i]}" iptables -w -I FORWARD -i "r${i}s" -p udp -m u32 --u32 "$U32" -j DROP ||
		fail "iptables u32 rule on router $i"
done
tm_gateway gw "multipath on"
tm_client cli "${paths[@]}"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up (control channel)"
bd_wait_log gw "multipath negotiated" 5 || bd_wait_log gw "offering multipath" 1 ||
	fail "the gateway did not offer multipath: $(grep -i multipath "$TB_DIR/gw.log" | head -3)"
sleep 7.5	# the gateway judges 5 s after its offer (checked once a second)
active=$(tm_status cli | awk -F, '$5 == "active"' | wc -l)
for i in 1 2; do
	n=$(tb_exec "${TB_R[i]}" iptables -w -L FORWARD -v -n -x | awk '/u32/ { print $1; exit }')
	[ "${n:-0}" -gt 0 ] || fail "router $i dropped no data-channel packet from the gateway"
	drops+=("$n")
done
[ "$active" = 0 ] || fail "a client path was active while every answer was dropped: $(tm_status cli)"
grep -q "the client did not take up multipath" "$TB_DIR/gw.log" &&
	fail "the gateway switched a multipath client to single path: $(grep 'did not take up' "$TB_DIR/gw.log")"
for i in 1 2; do tb_exec "${TB_R[i]}" iptables -w -D FORWARD -i "r${i}s" -p udp -m u32 --u32 "$U32" -j DROP; done
tm_wait_active cli 2 15 || fail "paths not active after the drops stopped: $(tm_status cli)"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download sha256"
! grep -q "the client did not take up multipath" "$TB_DIR/gw.log" || fail "the gateway fell back to single path later"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: 7.5 s after the offer with every gateway data packet dropped (${drops[*]} on the routers): no fallback to single path; then 2 paths active, sha256"
