#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The config corpus against stock OpenVPN 2.6's own option checks: every profile braidd accepts must pass
# openvpn's checks too (only missing files / fake PEM data may stop it), and every profile braidd refuses
# for an OpenVPN rule must be refused by openvpn as well ("Options error: ..."). The profiles braidd
# refuses on purpose (features it does not have) are listed and skipped. openvpn runs in a new, empty
# network namespace (unshare -n): nothing can leave it. Skips (77) without openvpn or without root.
set -uo pipefail
CORPUS=$(cd "$(dirname "$0")/corpus" && pwd)
command -v openvpn >/dev/null || { echo "skip: no openvpn binary"; exit 77; }
unshare -n true 2>/dev/null || { echo "skip: cannot create a network namespace (root needed)"; exit 77; }

# braidd's own refusals (OpenVPN 2.6 runs these): prompt, PKCS#12, TLS p2p server, compression, tap,
# proxies, tls-crypt-v2
BRAID_ONLY=" err-auth-user-pass-prompt.ovpn nordlike-client.ovpn err-pkcs12.ovpn err-p2p-tls-server.conf
 err-lz4.ovpn err-comp-lzo-yes.ovpn err-tap.ovpn err-http-proxy.ovpn err-tls-crypt-v2.ovpn
 err-key-method-1.ovpn "
# (key-method: OpenVPN 2.6 no longer knows the option at all; braidd accepts 'key-method 2')
# braidd refuses what it would otherwise ignore (issue 8): management, the legacy checks it does not
# run, TLS p2p client, extra-certs, peer-fingerprint, CRL directories, stricter TLS profiles; and what
# OpenVPN refuses only at run time, not as an "Options error" (dh file, user, group, chroot)
BRAID_ONLY="$BRAID_ONLY err-legacy-ns-cert-type.ovpn err-legacy-remote-cert-eku.ovpn
 err-legacy-remote-cert-ku.ovpn err-legacy-route-metric.ovpn err-legacy-inactive.ovpn
 err-legacy-block-ipv6.ovpn err-legacy-static-challenge.ovpn err-legacy-route-noexec.ovpn
 err-management.ovpn err-management-hold.ovpn err-extra-certs.ovpn err-peer-fingerprint.ovpn
 err-crl-verify-dir.ovpn err-tls-cert-profile-suiteb.ovpn err-tls-version-max-1.1.ovpn
 err-p2p-tls-client.conf err-dh-missing.conf err-dh-not-dh.conf err-dh-inline-garbage.conf
 err-dh-devzero.conf
 err-user-unknown.conf err-group-unknown.conf err-chroot-missing.conf"
# Braid's own options, which openvpn does not know (accepted by braidd, an "Unrecognized option" to openvpn)
BRAID_ONLY="$BRAID_ONLY workers-auto.conf"
BRAID_ONLY=" $(echo $BRAID_ONLY) "

n_ok=0 n_err=0 n_skip=0
cd "$CORPUS" || exit 1
for f in *.ovpn *.conf; do
	exp=${f%.*}.expected
	[ -f "$exp" ] || { echo "FAIL: $f has no $exp" >&2; exit 1; }
	if [[ $BRAID_ONLY == *" $f "* ]]; then
		n_skip=$((n_skip + 1))
		continue
	fi
	out=$(unshare -n timeout 5 openvpn --config "$f" --verb 1 2>&1)
	# option errors other than file access (the corpus names files that do not exist here)
	opterr=$(grep -E "Options error:" <<<"$out" | grep -vE "fails with '|Please correct (this error|these errors)" || true)
	if head -c 7 "$exp" | grep -q '^error: '; then
		[ -n "$opterr" ] || { echo "FAIL: braidd refuses $f ($(head -1 "$exp")), openvpn accepts it: $out" >&2; exit 1; }
		n_err=$((n_err + 1))
	else
		[ -z "$opterr" ] || { echo "FAIL: braidd accepts $f, openvpn refuses it: $opterr" >&2; exit 1; }
		n_ok=$((n_ok + 1))
	fi
done
echo "ok: openvpn $(openvpn --version | head -1 | cut -d' ' -f2) agrees on $n_ok accepted and $n_err refused profiles ($n_skip braidd-only refusals skipped)"
