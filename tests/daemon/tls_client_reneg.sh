#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Renegotiation between braidd (client) and a stock openvpn 2.6 server, during a rate-limited download and a
# ping train: (1) the server renegotiates (reneg-sec 5), (2) braidd renegotiates itself (reneg-sec 4, server
# reneg-sec 0), (3) over TCP, the server renegotiates, (4) braidd renegotiates by volume (reneg-bytes 1000000,
# server reneg-sec 0). Each time: the new key_id is installed, the lame duck is removed after tran-window, the
# download's sha256 matches and not one ping is lost.
set -uo pipefail
TC_BLOB_BYTES=3145728
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

run_phase() { # LABEL CLIENT_NAME
	local label=$1 name=$2 ping_out
	tb_exec "$TB_CLI" ping -c 80 -i 0.1 -W 2 -q "$TC_SRV_TUN" >"$TB_DIR/$name.ping" 2>&1 &
	local ping_pid=$!
	got=$(tb_exec "$TB_CLI" curl -sf --max-time 40 --limit-rate 400K "http://$TC_SRV_TUN:8080/blob" |
		sha256sum | cut -d' ' -f1)
	[ "$got" = "$TC_WANT" ] || fail "$label: download across the renegotiation: sha256 $got, want $TC_WANT"
	wait "$ping_pid"
	ping_out=$(cat "$TB_DIR/$name.ping")
	grep -q " 0% packet loss" <<<"$ping_out" || fail "$label: ping loss across the renegotiation: $ping_out"
	bd_wait_log "$name" "renegotiation complete: data channel now on key_id 1" 1 ||
		fail "$label: no renegotiation to key_id 1 during the transfer"
	bd_wait_log "$name" "lame-duck key_id 0 removed" 8 || fail "$label: lame duck key_id 0 not removed"
	st=$(bd_stats "$name")
	[ "$(bd_stat_field "$st" auth_failures)" = 0 ] || fail "$label: authentication failures: $st"
	echo "ok: $label: $(grep -c 'renegotiation complete' "$TB_DIR/$name.log") renegotiation(s) during a" \
		"$TC_WANT_BYTES B download (sha256 ok) and 80 pings (0% loss); lame duck removed"
}

# phase N SERVER_PROTO CLIENT_PROTO WRAP SERVER_OPTION CLIENT_OPTION LABEL: a fresh stock server and braidd
# client (tran-window 2), then run_phase
phase() {
	local n=$1 sproto=$2 cproto=$3 wrap=$4 sopt=$5 copt=$6 label=$7
	tc_server "srv$n" "$sproto" "$wrap" "$sopt"
	tc_client "cli$n" "$cproto" "$wrap" ${copt:+"$copt"} "tran-window 2"
	bd_wait_log "cli$n" "Initialization Sequence Completed" 15 || fail "$label: client did not come up"
	tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "$label: no ping"
	run_phase "$label" "cli$n"
	bd_stop "cli$n" || fail "cli$n exit code"
	tc_server_stop
}

phase 1 udp udp tls-auth "reneg-sec 5" "" "server-initiated (stock reneg-sec 5)"
phase 2 udp udp tls-crypt "reneg-sec 0" "reneg-sec 4" "client-initiated (braidd reneg-sec 4)"
phase 3 tcp-server tcp-client tls-auth "reneg-sec 5" "" "TCP, server-initiated (stock reneg-sec 5)"
phase 4 udp udp tls-crypt "reneg-sec 0" "reneg-bytes 1000000" "client-initiated by volume (braidd reneg-bytes 1000000)"
