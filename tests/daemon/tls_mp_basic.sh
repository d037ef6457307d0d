#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath negotiated over TLS (docs/multipath-negotiation.md): braidd client with 2, then 3 `mp-path` lines
# (IPv4 outer), then 2 with IPv6 outer addresses (udp6) -> braidd gateway with `multipath on`. Each: both logs say multipath is on, N client paths active, ping over
# IPv4 and IPv6 inner, an 8 MiB sha256-verified download over IPv4 and one over IPv6 inner, every path
# carried bytes both ways, the gateway learned exactly N paths for the client.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
tm_setup 3
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 8 >/dev/null
tb_emu_start 3 -r 20 -d 11 >/dev/null

k=0
for cell in "2 4" "3 4" "2 6"; do
	read -r n TM_FAM <<<"$cell"
	k=$((k + 1))
	tm_gateway "gw$k" "multipath on"
	mapfile -t paths < <(tm_client_paths "" "$n")
	tm_client "cli$k" "${paths[@]}"
	bd_wait_log "cli$k" "Initialization Sequence Completed" 15 || fail "$n paths/v$TM_FAM: client did not come up"
	bd_wait_log "cli$k" "multipath negotiated with the server (braid-mp 1, replay window 65536): $n path socket(s)" 5 ||
		fail "$n paths/v$TM_FAM: client did not log multipath on"
	bd_wait_log "gw$k" "multipath negotiated (IV_BRAID_MP, braid-mp 1 pushed)" 5 || fail "$n paths/v$TM_FAM: gateway did not log multipath on"
	tm_wait_active "cli$k" "$n" 10 || fail "$n paths/v$TM_FAM: client paths not all active: $(tm_status "cli$k")"
	tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "$n paths/v$TM_FAM: no IPv4 ping"
	tb_exec "$TB_CLI" ping -6 -c 3 -i 0.2 -W 2 "$TM_GW_TUN6" >/dev/null || fail "$n paths/v$TM_FAM: no IPv6 ping"
	got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "$n paths/v$TM_FAM: IPv4 download sha256 $got, want $TM_WANT"
	got=$(tm_get blob "$TM_GW_TUN6") && [ "$got" = "$TM_WANT" ] || fail "$n paths/v$TM_FAM: IPv6 download sha256 $got"
	sleep 1.2	# one status rewrite
	for ((i = 1; i <= n; i++)); do
		tx=$(tm_path_field "cli$k" "$i" tx_bytes) rx=$(tm_path_field "cli$k" "$i" rx_bytes)
		[ "${tx:-0}" -gt 1000 ] && [ "${rx:-0}" -gt 500000 ] ||
			fail "$n paths/v$TM_FAM: path $i carried tx $tx / rx $rx bytes: $(tm_status "cli$k")"
		echo "  path $i: tx $tx B, rx $rx B"
	done
	rd=$(sed -n 's/^TCP\/UDP read bytes,//p' "$TB_DIR/cli$k.status")
	[ "${rd:-0}" -gt 16777216 ] || fail "$n paths/v$TM_FAM: status file 'TCP/UDP read bytes' is ${rd:-none}, want > 2 x 8 MiB"
	grep -q "^Braid multipath,on,$n paths," "$TB_DIR/cli$k.status" || fail "$n paths/v$TM_FAM: no 'Braid multipath,on,$n paths' line"
	learned=$(grep -c "learned from an authenticated packet" "$TB_DIR/gw$k.log")
	[ "$learned" = "$n" ] || fail "$n paths/v$TM_FAM: gateway learned $learned paths, want $n"
	bd_stop "cli$k" || fail "$n paths/v$TM_FAM: client exit code $?"
	bd_stop "gw$k" || fail "$n paths/v$TM_FAM: gateway exit code $?"
	echo "ok: $n paths (IPv$TM_FAM outer) negotiated over TLS: ping v4+v6, 2 x 8 MiB sha256 (v4, v6 inner), every path used"
done
