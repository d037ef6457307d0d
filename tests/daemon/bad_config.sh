#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad configurations: braidd exits with status 1 and prints the exact error, before touching the
# network (no root needed).
set -uo pipefail
BRAIDD=${BRAIDD:-${BRAID_BIN_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin}/braidd}
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
D=$(mktemp -d /tmp/braidd-badconf.XXXXXX)
trap 'rm -rf "$D"' EXIT
n=0

# check WANT_TEXT braidd-args...   (a config file is $D/c.conf)
check() {
	local want=$1 out rc
	shift
	out=$("$BRAIDD" "$@" 2>&1)
	rc=$?
	n=$((n + 1))
	[ $rc -eq 1 ] || { echo "FAIL: braidd $*: exit $rc, want 1; output: $out" >&2; exit 1; }
	grep -qF -- "[error] $want" <<<"$out" || { echo "FAIL: braidd $*: want [error] $want; got: $out" >&2; exit 1; }
}
conf() { printf '%s\n' "$@" >"$D/c.conf"; }

conf "dev tun" "" "bogus-option 1"
check "Unrecognized option or missing or extra parameter(s) in $D/c.conf:3: bogus-option" --config "$D/c.conf"
check "Unrecognized option or missing or extra parameter(s) in $D/c.conf:3: bogus-option" "$D/c.conf"
check "Unrecognized option or missing or extra parameter(s): --bogus" --dev tun --bogus
conf "dev tun" "proto tcp"
check "$D/c.conf:2: option 'proto': protocol 'tcp' is not supported yet (only udp, udp4, udp6)" --config "$D/c.conf"
conf "dev tun" "remote \"10.0.0.1"
check "$D/c.conf:2: no closing quotation (\")" --config "$D/c.conf"
conf "# a comment" "cd $D/none"
check "$D/c.conf:2: option 'cd': cannot change directory to '$D/none': No such file or directory" --config "$D/c.conf"
check "command line: option 'genkey': unknown key type 'foo' (expected secret, tls-auth or tls-crypt)" --genkey foo "$D/k"
conf "dev tun" "ifconfig 10.8.0.1 10.8.0.256"
check "$D/c.conf:2: option 'ifconfig': remote address or netmask '10.8.0.256' is not a valid IPv4 address" --config "$D/c.conf"
conf "dev tun" "tun-mtu 1500x"
check "$D/c.conf:2: option 'tun-mtu': MTU '1500x' is not a number" --config "$D/c.conf"
conf "dev tun" "<secret>" "nothing"
check "$D/c.conf:2: inline block <secret> has no closing tag </secret>" --config "$D/c.conf"
check "command line: option 'keepalive': expects 2 arguments, got 1" --dev tun --keepalive 10
check "option 'dev' is missing (e.g. 'dev tun')" --secret k 1
check "option 'secret': an AEAD cipher needs a key direction: use 'key-direction 0' on one end and 'key-direction 1' on the other (or 'secret FILE 0|1')" --dev tun --secret k
check "cannot open config file '$D/none.conf': No such file or directory" --config "$D/none.conf"
# a key file that is not one: the static-key parser's message, with the path
printf 'not a key\n' >"$D/bad.key"
check "option 'secret': $D/bad.key: no '-----BEGIN OpenVPN Static key V1-----' line found" --dev tun --secret "$D/bad.key" 0
# ignore-unknown-option lets a known-unknown option through (the run then stops: no secret and no TLS role)
conf "ignore-unknown-option block-outside-dns" "block-outside-dns" "dev tun"
check "neither 'secret' nor a TLS role given (braidd never runs unencrypted): add 'client' (or 'tls-client' + 'pull'), 'server NET MASK', or 'secret FILE' for the static-key point-to-point mode" --config "$D/c.conf"
# the log forms of the same error: OpenVPN's machine-readable line, no timestamp, the journal's priority prefix
out=$("$BRAIDD" --machine-readable-output --dev tun --secret "$D/none.key" 0 2>&1)
grep -qE "^[0-9]{10}\.[0-9]{6} 20 option 'secret': $D/none.key: No such file or directory\$" <<<"$out" ||
	{ echo "FAIL: --machine-readable-output: $out" >&2; exit 1; }
out=$("$BRAIDD" --suppress-timestamps --dev tun --secret "$D/none.key" 0 2>&1)
grep -qx "\[error\] option 'secret': $D/none.key: No such file or directory" <<<"$out" ||
	{ echo "FAIL: --suppress-timestamps: $out" >&2; exit 1; }
: >"$D/journal"
JOURNAL_STREAM=$(stat -c '%d:%i' "$D/journal") "$BRAIDD" --dev tun --secret "$D/none.key" 0 2>>"$D/journal"
grep -qx "<3>option 'secret': $D/none.key: No such file or directory" "$D/journal" ||
	{ echo "FAIL: JOURNAL_STREAM: $(cat "$D/journal")" >&2; exit 1; }
n=$((n + 3))
echo "ok: $n bad configurations rejected with exit 1 and the exact message"
