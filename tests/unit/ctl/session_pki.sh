#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Throwaway PKI for the control-channel session tests (openssl CLI only):
#   session_pki.sh DIR     -> ca, server (serverAuth), client1 (clientAuth) by tests/lib/pki.sh's
#                             recipe, plus rogue.crt/key: a client certificate from another CA.
# Then runs: session_pki.sh DIR -- COMMAND... (the command gets DIR appended).
set -eu
DIR=$1; shift
mkdir -p "$DIR"; chmod 700 "$DIR"
EC=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
leaf() { # name eku ca
	openssl req "${EC[@]}" -keyout "$DIR/$1.key" -out "$DIR/$1.csr" -subj "/CN=$1" 2>/dev/null
	printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyAgreement\nextendedKeyUsage=%s\n' "$2" >"$DIR/$1.ext"
	openssl x509 -req -in "$DIR/$1.csr" -CA "$DIR/$3.crt" -CAkey "$DIR/$3.key" -CAcreateserial \
		-out "$DIR/$1.crt" -days 30 -extfile "$DIR/$1.ext" 2>/dev/null
	rm -f "$DIR/$1.csr" "$DIR/$1.ext"
}
ca() {
	openssl req -x509 "${EC[@]}" -keyout "$DIR/$1.key" -out "$DIR/$1.crt" -days 30 -subj "/CN=$1" \
		-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}
[ -s "$DIR/ca.crt" ] || ca ca
[ -s "$DIR/otherca.crt" ] || ca otherca
[ -s "$DIR/server.crt" ] || leaf server serverAuth ca
[ -s "$DIR/client1.crt" ] || leaf client1 clientAuth ca
[ -s "$DIR/rogue.crt" ] || leaf rogue clientAuth otherca
if [ "${1:-}" = -- ]; then
	shift
	"$@" "$DIR"
fi
