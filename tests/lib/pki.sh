#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Test PKI for OpenVPN-compatible peers (benchmarks, interop tests).
#
#   tests/lib/pki.sh DIR [CLIENT_NAME...]       (default client: client1)
#
# Creates in DIR (mode 0700):
#   ca.crt ca.key                 EC P-256 CA (basicConstraints CA:TRUE, keyCertSign)
#   server.crt server.key         CN=server, EKU serverAuth  (for remote-cert-tls server)
#   <name>.crt <name>.key         CN=<name>, EKU clientAuth  (for remote-cert-tls client)
#   tc.key                        `openvpn --genkey tls-crypt` static key
# Idempotent: files that already exist are kept (delete DIR to regenerate). Certificates are
# valid for 3650 days. Private keys are unencrypted test keys: never use them for anything real.
# Exit status 0 on success; on failure a message naming the step goes to stderr and the status is 1.
# Can also be sourced: `source pki.sh; braid_pki DIR [names...]`.

braid_pki() {
	local dir=$1; shift || true
	local names=("$@")
	[ -n "$dir" ] || { echo "pki.sh: usage: pki.sh DIR [CLIENT_NAME...]" >&2; return 1; }
	[ ${#names[@]} -gt 0 ] || names=(client1)
	local n
	for n in "${names[@]}"; do
		case $n in
		server|ca|tc|*[!A-Za-z0-9_.-]*|'') echo "pki.sh: bad client name '$n'" >&2; return 1 ;;
		esac
	done
	command -v openssl >/dev/null || { echo "pki.sh: openssl not found" >&2; return 1; }
	mkdir -p "$dir" && chmod 700 "$dir" || { echo "pki.sh: cannot create $dir" >&2; return 1; }

	local curve=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
	local days=3650
	if [ ! -s "$dir/ca.crt" ] || [ ! -s "$dir/ca.key" ]; then
		openssl req -x509 "${curve[@]}" -keyout "$dir/ca.key" -out "$dir/ca.crt" -days $days \
			-subj "/CN=Braid Test CA" -addext "basicConstraints=critical,CA:TRUE" \
			-addext "keyUsage=critical,keyCertSign,cRLSign" 2>"$dir/.err" ||
			{ echo "pki.sh: CA creation failed: $(cat "$dir/.err")" >&2; return 1; }
		# A new CA invalidates any leaf certificates signed by an old one.
		find "$dir" -maxdepth 1 -name '*.crt' ! -name ca.crt -delete
	fi

	# _leaf NAME EKU
	_braid_pki_leaf() {
		local name=$1 eku=$2
		[ -s "$dir/$name.crt" ] && [ -s "$dir/$name.key" ] && return 0
		openssl req "${curve[@]}" -keyout "$dir/$name.key" -out "$dir/$name.csr" \
			-subj "/CN=$name" 2>"$dir/.err" ||
			{ echo "pki.sh: key/CSR for $name failed: $(cat "$dir/.err")" >&2; return 1; }
		printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyAgreement\nextendedKeyUsage=%s\n' \
			"$eku" >"$dir/$name.ext"
		openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
			-CAcreateserial -out "$dir/$name.crt" -days $days -extfile "$dir/$name.ext" \
			2>"$dir/.err" || { echo "pki.sh: signing $name failed: $(cat "$dir/.err")" >&2; return 1; }
		rm -f "$dir/$name.csr" "$dir/$name.ext"
		chmod 600 "$dir/$name.key"
	}
	_braid_pki_leaf server serverAuth || return 1
	for n in "${names[@]}"; do
		_braid_pki_leaf "$n" clientAuth || return 1
	done
	if [ ! -s "$dir/tc.key" ]; then
		command -v openvpn >/dev/null || { echo "pki.sh: openvpn not found (needed for tc.key)" >&2; return 1; }
		openvpn --genkey tls-crypt "$dir/tc.key" >"$dir/.err" 2>&1 ||
			{ echo "pki.sh: openvpn --genkey tls-crypt failed: $(cat "$dir/.err")" >&2; return 1; }
		chmod 600 "$dir/tc.key"
	fi
	chmod 600 "$dir/ca.key"
	rm -f "$dir/.err"
	return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	braid_pki "$@" || exit 1
fi
