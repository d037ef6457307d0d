#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath-over-TLS configuration errors (docs/multipath-negotiation.md): braidd exits with status 1 and the
# exact error, before touching the network (no root needed).
set -uo pipefail
BRAIDD=${BRAIDD:-${BRAID_BIN_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin}/braidd}
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
D=$(mktemp -d /tmp/braidd-tlsmpconf.XXXXXX)
trap 'rm -rf "$D"' EXIT
n=0
check() { # WANT_TEXT: braidd --config $D/c.conf must exit 1 with "[error] WANT_TEXT"
	local out rc
	out=$("$BRAIDD" --config "$D/c.conf" 2>&1)
	rc=$?
	n=$((n + 1))
	[ $rc -eq 1 ] || { echo "FAIL: case $n: exit $rc, want 1; output: $out" >&2; exit 1; }
	grep -qF -- "[error] $1" <<<"$out" || { echo "FAIL: case $n: want [error] $1; got: $out" >&2; exit 1; }
}
conf() { printf '%s\n' "$@" >"$D/c.conf"; }
for f in ca.crt server.crt server.key; do : >"$D/$f"; done
gw=("dev tun" "server 10.8.0.0 255.255.255.0" "ca $D/ca.crt" "cert $D/server.crt" "key $D/server.key" "dh none")
cl=("client" "dev tun" "remote 10.1.2.2 1194" "ca $D/ca.crt" "cert $D/server.crt" "key $D/server.key")

conf "${gw[@]}" "mp-path 10.1.2.2"
check "option 'mp-path': not used by a gateway (it learns its clients' paths); 'multipath on' offers multipath to Braid clients"
conf "${gw[@]}" "proto tcp-server" "multipath on"
check "option 'multipath': a gateway offers multipath over UDP only"
conf "${cl[@]}" "mp-path 10.1.1.2 10.1.2.2"
check "option 'mp-path 10.1.1.2 10.1.2.2': a TLS client's paths go to the server it connected to: give only the local address"
conf "${cl[@]}" "multipath off" "mp-path 10.1.1.2"
check "option 'mp-path' given with 'multipath off': remove one of them"
conf "${cl[@]}" "mp-path 10.1.1.2" "mp-backup 10.9.9.9"
check "$D/c.conf:8: option 'mp-backup': no 'mp-path 10.9.9.9' names this local address"
# paths by interface / auto (docs/braidd.md "Paths by interface")
conf "${cl[@]}" "mp-path wlan0/1"
check "$D/c.conf:7: option 'mp-path': local address 'wlan0/1' is neither a numeric IPv4 or IPv6 address nor an interface name (1..15 characters, no '/' or ':')"
conf "${cl[@]}" "mp-path averyveryverylongname"
check "$D/c.conf:7: option 'mp-path': local address 'averyveryverylongname' is neither a numeric IPv4 or IPv6 address nor an interface name (1..15 characters, no '/' or ':')"
conf "${cl[@]}" "mp-path auto" "mp-path auto"
check "$D/c.conf:8: option 'mp-path': path auto is given twice"
conf "${cl[@]}" "mp-path wlan0" "mp-auto-exclude docker*"
check "option 'mp-auto-exclude' needs 'mp-path auto'"
conf "${cl[@]}" "mp-path wlan0" "mp-backup auto"
check "$D/c.conf:8: option 'mp-backup': local address 'auto': name an interface or an address (auto paths take their settings by interface name)"
conf "${cl[@]}" "mp-path wlan0" "mp-backup wwan0"
check "$D/c.conf:8: option 'mp-backup': no 'mp-path wwan0' names this local address"
echo "ok: $n multipath-over-TLS configuration errors, each with its message"
