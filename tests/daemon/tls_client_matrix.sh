#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client -> stock openvpn 2.6 server: {UDP, TCP} x {tls-auth, tls-crypt, none} x
# {AES-256-GCM, CHACHA20-POLY1305}, key derivation alternating TLS-EKM / OpenVPN PRF (the PRF cells set
# BRAIDD_KEY_DERIVATION=prf, so TLS_KEY_EXPORT is not announced and the stock server derives by PRF).
# Each cell: the negotiated cipher and derivation in braidd's log, ping, a sha256-verified 1 MiB download,
# clean SIGTERM exit.
set -uo pipefail
TC_BLOB_BYTES=1048576
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

n=0
for proto in udp tcp; do
	sproto=$proto cproto=$proto
	[ "$proto" = tcp ] && sproto=tcp-server cproto=tcp-client
	for wrap in tls-auth tls-crypt none; do
		tc_server "srv-$proto-$wrap" "$sproto" "$wrap"
		for cipher in AES-256-GCM CHACHA20-POLY1305; do
			n=$((n + 1))
			cell="$proto/$wrap/$cipher"
			if [ $((n % 2)) = 0 ]; then kd=prf want="OpenVPN PRF"; else kd=ekm want="TLS-EKM"; fi
			name="cli$n"
			BRAIDD_KEY_DERIVATION=$kd tc_client "$name" "$cproto" "$wrap" "data-ciphers $cipher"
			bd_wait_log "$name" "Initialization Sequence Completed" 15 || fail "$cell: client did not come up"
			grep -qF "Data Channel: cipher '$cipher', peer-id pushed, key-derivation $want" "$TB_DIR/$name.log" ||
				fail "$cell: want cipher $cipher with $want"
			tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "$cell: no ping through the tunnel"
			tc_transfer "$cell" "$name"
			bd_stop "$name" || fail "$cell: exit code $? after SIGTERM"
			echo "ok: $cell $want: ping + 1 MiB sha256"
		done
		tc_server_stop
	done
done
[ "$n" = 12 ] || fail "ran $n cells, want 12"
