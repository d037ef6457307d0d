#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath negotiated over TLS (docs/multipath-negotiation.md): braidd client with 2, then 3 `mp-path` lines
# -> braidd gateway with `multipath on`. Each: both logs say multipath is on, N client paths active, ping over
# IPv4 and IPv6 inner, an 8 MiB sha256-verified download over IPv4 and one over IPv6 inner, every path
# carried bytes both ways, the gateway learned exactly N paths for the client.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
tm_setup 3
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 8 >/dev/null
tb_emu_start 3 -r 20 -d 11 >/dev/null

for n in 2 3; do
	tm_gateway "gw$n" "multipath on"
	mapfile -t paths < <(tm_client_paths "" "$n")
	tm_client "cli$n" "${paths[@]}"
	bd_wait_log "cli$n" "Initialization Sequence Completed" 15 || fail "$n paths: client did not come up"
	bd_wait_log "cli$n" "multipath negotiated with the server (braid-mp 1, replay window 65536): $n path socket(s)" 5 ||
		fail "$n paths: client did not log multipath on"
	bd_wait_log "gw$n" "multipath negotiated (IV_BRAID_MP, braid-mp 1 pushed)" 5 || fail "$n paths: gateway did not log multipath on"
	tm_wait_active "cli$n" "$n" 10 || fail "$n paths: client paths not all active: $(tm_status "cli$n")"
	tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "$n paths: no IPv4 ping"
	tb_exec "$TB_CLI" ping -6 -c 3 -i 0.2 -W 2 "$TM_GW_TUN6" >/dev/null || fail "$n paths: no IPv6 ping"
	got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "$n paths: IPv4 download sha256 $got, want $TM_WANT"
	got=$(tm_get blob "$TM_GW_TUN6") && [ "$got" = "$TM_WANT" ] || fail "$n paths: IPv6 download sha256 $got"
	sleep 1.2	# one status rewrite
	for ((i = 1; i <= n; i++)); do
		tx=$(tm_path_field "cli$n" "$i" tx_bytes) rx=$(tm_path_field "cli$n" "$i" rx_bytes)
		[ "${tx:-0}" -gt 1000 ] && [ "${rx:-0}" -gt 500000 ] ||
			fail "$n paths: path $i carried tx $tx / rx $rx bytes: $(tm_status "cli$n")"
		echo "  path $i: tx $tx B, rx $rx B"
	done
	rd=$(sed -n 's/^TCP\/UDP read bytes,//p' "$TB_DIR/cli$n.status")
	[ "${rd:-0}" -gt 16777216 ] || fail "$n paths: status file 'TCP/UDP read bytes' is ${rd:-none}, want > 2 x 8 MiB"
	grep -q "^Braid multipath,on,$n paths," "$TB_DIR/cli$n.status" || fail "$n paths: no 'Braid multipath,on,$n paths' line"
	learned=$(grep -c "learned from an authenticated packet" "$TB_DIR/gw$n.log")
	[ "$learned" = "$n" ] || fail "$n paths: gateway learned $learned paths, want $n"
	bd_stop "cli$n" || fail "$n paths: client exit code $?"
	bd_stop "gw$n" || fail "$n paths: gateway exit code $?"
	echo "ok: $n paths negotiated over TLS: ping v4+v6, 2 x 8 MiB sha256 (v4, v6 inner), every path used"
done
