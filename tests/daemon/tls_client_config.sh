#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd in client mode refuses bad credentials and keys before it touches the network: exit status 1 and
# the exact message (no root needed: these checks run before the TUN is opened).
set -uo pipefail
BRAIDD=${BRAIDD:-${BRAID_BIN_DIR:-$(dirname "$0")/../../build/bin}/braidd}
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
command -v openssl >/dev/null && command -v openvpn >/dev/null || { echo "SKIP: needs openssl and openvpn (pki.sh)"; exit 77; }
D=$(mktemp -d /tmp/braid-tlscfg.XXXXXX)
trap 'rm -rf "$D"' EXIT
bash "$(dirname "$0")/../lib/pki.sh" "$D/pki" client1 >/dev/null 2>&1 || { echo "FAIL: pki.sh" >&2; exit 1; }
n=0

# expect NAME WANT_SUBSTRING [config lines...]
expect() {
	local name=$1 want=$2 out rc
	shift 2
	printf '%s\n' client "dev tun" "remote 192.0.2.1 1194" nobind "ca $D/pki/ca.crt" "cert $D/pki/client1.crt" \
		"key $D/pki/client1.key" "$@" >"$D/$name.conf"
	out=$("$BRAIDD" --config "$D/$name.conf" 2>&1)
	rc=$?
	[ "$rc" = 1 ] || { echo "FAIL: $name: exit status $rc, want 1; output: $out" >&2; exit 1; }
	grep -qF -- "$want" <<<"$out" || { echo "FAIL: $name: want '$want' in: $out" >&2; exit 1; }
	n=$((n + 1))
	echo "ok: $name: $want"
}

printf 'alice' >"$D/one-line.txt"
printf 'alice\n\n' >"$D/empty-pass.txt"
printf 'not a key\n' >"$D/bad.key"
expect up-missing "option 'auth-user-pass': cannot read '$D/nope.txt': No such file or directory" \
	"auth-user-pass $D/nope.txt"
expect up-one-line "option 'auth-user-pass': expected the username on the first line and the password on the second" \
	"auth-user-pass $D/one-line.txt"
expect up-empty-pass "option 'auth-user-pass': the password (second line) is empty" "auth-user-pass $D/empty-pass.txt"
expect tls-auth-garbage "option 'tls-auth': $D/bad.key: no '-----BEGIN OpenVPN Static key V1-----' line found" \
	"tls-auth $D/bad.key 1"
expect tls-crypt-inline-garbage \
	"option 'tls-crypt': inline block: no '-----BEGIN OpenVPN Static key V1-----' line found" \
	"<tls-crypt>" "garbage" "</tls-crypt>"
expect ca-missing "TLS set-up failed: nope.crt: cannot open CA file: No such file or directory" "ca $D/nope.crt"
[ "$n" = 6 ] || { echo "FAIL: ran $n cases" >&2; exit 1; }
