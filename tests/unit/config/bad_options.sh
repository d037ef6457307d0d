#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The TLS client / gateway options: braidd --config BAD exits 1 and prints the exact error, before
# touching the network (no root needed). Same pattern as tests/daemon/bad_config.sh.
set -uo pipefail
BRAIDD=${BRAIDD:-${BRAID_BIN_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/build/bin}/braidd}
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
D=$(mktemp -d /tmp/braidd-badopt.XXXXXX)
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
	grep -qxF -- "[error] $want" <<<"$(sed -E 's/^.*(\[error\] )/\1/' <<<"$out")" ||
		{ echo "FAIL: braidd $*: want [error] $want; got: $out" >&2; exit 1; }
}
conf() { printf '%s\n' "$@" >"$D/c.conf"; }
C=$D/c.conf

# mp-scheduler ratio by path name (docs/braidd.md "Ratio weights by name")
conf "dev tun" "mp-scheduler ratio wlan0=3 wlan0=1"
check "$C:2: option 'mp-scheduler': 'ratio' by name needs NAME=WEIGHT pairs like wlan0=3 lte0=1 (distinct names, weights 0..1000000, one above 0, max 8), got 'wlan0=3 wlan0=1'" --config "$C"
conf "dev tun" "mp-scheduler ratio wlan0=0 lte0=0"
check "$C:2: option 'mp-scheduler': 'ratio' by name needs NAME=WEIGHT pairs like wlan0=3 lte0=1 (distinct names, weights 0..1000000, one above 0, max 8), got 'wlan0=0 lte0=0'" --config "$C"
conf "dev tun" "mp-scheduler edf wlan0=1"
check "$C:2: option 'mp-scheduler': scheduler 'edf' takes no weights, got 'wlan0=1'" --config "$C"
conf "dev tun" "mp-scheduler ratio 3:1 2:1"
check "$C:2: option 'mp-scheduler': unexpected argument '2:1'" --config "$C"
conf "client" "dev tun" "remote 192.0.2.1" "compress lz4"
check "$C:4: option 'compress': 'lz4': compression is not supported (VORACLE); use 'compress' stub, 'comp-lzo no' or 'allow-compression no'" --config "$C"
conf "client" "comp-lzo"
check "$C:2: option 'comp-lzo': 'adaptive': compression is not supported (VORACLE); use 'compress' stub, 'comp-lzo no' or 'allow-compression no'" --config "$C"
conf "allow-compression yes"
check "$C:1: option 'allow-compression': 'yes': compression is not supported (VORACLE); use 'compress' stub, 'comp-lzo no' or 'allow-compression no'" --config "$C"
conf "key-method 1"
check "$C:1: option 'key-method': key-method 1 is not supported (OpenVPN 2.5+ removed it; use 2)" --config "$C"
conf "tls-crypt-v2 v2c.key"
check "$C:1: option 'tls-crypt-v2': tls-crypt-v2 is not supported by braidd yet" --config "$C"
conf "pkcs12 c.p12"
check "$C:1: option 'pkcs12': PKCS#12 files are not supported by braidd yet: convert with 'openssl pkcs12 -in FILE -nodes' and use ca, cert and key" --config "$C"
conf "client" "auth-user-pass"
check "$C:2: option 'auth-user-pass': needs a file or an inline block: braidd cannot prompt" --config "$C"
check "command line: option 'auth-user-pass': needs a file or an inline block: braidd cannot prompt" --client --auth-user-pass
conf "fragment 1300"
check "$C:1: option 'fragment': not supported: braidd does not fragment (use mssfix / a smaller tun-mtu)" --config "$C"
conf "socks-proxy 127.0.0.1 1080"
check "$C:1: option 'socks-proxy': proxies are not supported by braidd" --config "$C"
conf "plugin /usr/lib/openvpn/plugins/openvpn-plugin-auth-pam.so login"
check "$C:1: option 'plugin': plugins are not supported by braidd (use scripts: up, down, client-connect, auth-user-pass-verify)" --config "$C"
conf "dev tun" "register-dns"
check "$C:2: option 'register-dns': Windows-only option, not available on Linux (use 'setenv opt register-dns' or 'ignore-unknown-option register-dns' in a shared profile)" --config "$C"
conf "server 10.8.0.0 255.255.255.0 pool"
check "$C:1: option 'server': 'pool' is not a recognized flag (expected nopool)" --config "$C"
conf "server 10.8.0.1 255.255.255.0"
check "$C:1: option 'server': network 10.8.0.1 is not aligned to its netmask 255.255.255.0" --config "$C"
conf "server-ipv6 fd00::/48"
check "$C:1: option 'server-ipv6': network must be between /64 and /124 (not /48)" --config "$C"
conf "verify-client-cert maybe"
check "$C:1: option 'verify-client-cert': expected none, optional or require, got 'maybe'" --config "$C"
conf "remote-cert-tls peer"
check "$C:1: option 'remote-cert-tls': expected 'server' or 'client', got 'peer'" --config "$C"
conf "verify-x509-name srv cn"
check "$C:1: option 'verify-x509-name': unknown X.509 name type 'cn' (expected subject, name or name-prefix)" --config "$C"
conf "pull-filter drop route"
check "$C:1: option 'pull-filter': unknown type 'drop' (expected accept, ignore or reject)" --config "$C"
conf "redirect-gateway def2"
check "$C:1: option 'redirect-gateway': unknown flag 'def2' (expected def1, local, autolocal, bypass-dhcp, bypass-dns, block-local, ipv6 or !ipv4)" --config "$C"
conf "redirect-gateway def1 block-local"
check "$C:1: option 'redirect-gateway': flag 'block-local' is not implemented by braidd: the local LAN would stay reachable; remove the flag" --config "$C"
conf "auth-user-pass-verify /bin/check via-pipe"
check "$C:1: option 'auth-user-pass-verify': second parameter must be 'via-env' or 'via-file', got 'via-pipe'" --config "$C"
conf "status-version 4"
check "$C:1: option 'status-version': version 4 is out of range (1..3)" --config "$C"
conf "dev tun" "management-hold"
check "$C:2: option 'management-hold': needs the management interface: add 'management IP PORT' or 'management PATH unix'" --config "$C"
check "command line: option 'management-client-user': needs a unix socket ('management PATH unix')" --dev tun --management 127.0.0.1 7505 --management-client-user root
conf "dev tun" "management-up-down"
check "$C:2: option 'management-up-down': needs the management interface: add 'management IP PORT' or 'management PATH unix'" --config "$C"
conf "dev tun" "management /tmp/m.sock unix" "management-client" "management-client-user root"
check "$C:3: option 'management-client': connects out: management-client-user/-group check connecting peers and cannot be combined with it" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "ca ca.crt" "cert s.crt" "key s.key" "dh $D/dh2048.pem"
check "$C:6: option 'dh': cannot read DH parameters from '$D/dh2048.pem': No such file or directory" --config "$C"
echo "not DH parameters" >"$D/dh2048.pem"
check "$C:6: option 'dh': '$D/dh2048.pem' does not hold PEM DH parameters (-----BEGIN DH PARAMETERS-----; create them with 'openssl dhparam -out dh2048.pem 2048', or use 'dh none')" --config "$C"
conf "dev tun" "secret s.key" "user braid-no-such-user"
check "$C:3: option 'user': unknown user 'braid-no-such-user' (no such entry in the password database)" --config "$C"
conf "tls-version-min 1.4"
check "$C:1: option 'tls-version-min': unknown TLS version '1.4' (expected 1.0, 1.1, 1.2 or 1.3)" --config "$C"
conf "push \"route 10.0.0.0 255.0.0.0,dhcp-option DNS 1.1.1.1\""
check "$C:1: option 'push': 'route 10.0.0.0 255.0.0.0,dhcp-option DNS 1.1.1.1' contains a comma (pushed options are comma-separated)" --config "$C"
conf "ifconfig-pool 10.8.0.200 10.8.0.100"
check "$C:1: option 'ifconfig-pool': start address 10.8.0.200 is after the end address 10.8.0.100" --config "$C"
conf "<connection>" "remote a" "<connection>" "remote b" "</connection>"
check "$C:3: inline block <connection> has no closing tag </connection>" --config "$C"
# finalize: combinations, located at the line of the option named
conf "dev tun" "client" "server 10.8.0.0 255.255.255.0"
check "$C:3: option 'server': 'server' and 'client' cannot be used together" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "secret k 0"
check "$C:2: option 'server': 'server' and 'secret' cannot be used together (you must use SSL/TLS keys)" --config "$C"
conf "dev tun" "tls-client" "tls-server"
check "$C:3: option 'tls-server': specify only one of 'tls-server', 'tls-client' (or 'client'), or 'secret'" --config "$C"
conf "dev tun" "mode server" "ca ca" "cert c" "key k"
check "$C:2: option 'mode': 'mode server' requires 'tls-server'" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "pull"
check "$C:3: option 'pull': cannot be used with 'mode server'" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "proto tcp-client"
check "$C:3: option 'proto': 'mode server' supports only udp, tcp-server, tcp4-server or tcp6-server" --config "$C"
conf "dev tun" "server 10.0.0.0 255.0.0.0"
check "$C:2: option 'server': netmask allows for too many host addresses (subnet must be 255.255.0.0 or higher)" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.252"
check "$C:2: option 'server': with 'dev tun' it must define a subnet of 255.255.255.248 or lower" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "ifconfig-pool 10.8.0.10 10.8.0.20"
check "$C:3: option 'ifconfig-pool': 'server' already defines an ifconfig-pool, so you can't also specify 'ifconfig-pool' explicitly (or add 'nopool' to 'server')" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "verify-client-cert none"
check "$C:3: option 'verify-client-cert': 'none' and 'optional' need 'auth-user-pass-verify' (else any client gets in)" --config "$C"
conf "dev tun" "server 10.8.0.0 255.255.255.0" "ccd-exclusive"
check "$C:3: option 'ccd-exclusive': must be used with 'client-config-dir'" --config "$C"
conf "dev tun" "client" "remote a" "client-to-client"
check "$C:4: option 'client-to-client': requires 'mode server' (or 'server')" --config "$C"
conf "dev tun" "client" "remote a" "push \"route 10.0.0.0 255.0.0.0\""
check "$C:4: option 'push': requires 'mode server' (or 'server')" --config "$C"
conf "dev tun" "client" "remote a"
check "$C:2: option 'client': You must define CA file (--ca) and/or peer fingerprint verification (--peer-fingerprint)" --config "$C"
conf "dev tun" "client" "remote a" "ca ca"
check "$C:2: option 'client': No client-side authentication method is specified.  You must use either --cert/--key or --auth-user-pass" --config "$C"
conf "dev tun" "tls-server" "ca ca" "cert c"
check "$C:2: option 'tls-server': You must define private key file (--key)" --config "$C"
conf "dev tun" "secret k 1" "remote-cert-tls server"
check "$C:3: option 'remote-cert-tls': can only be specified in TLS mode, i.e. with 'tls-server' or 'tls-client' (or 'client'/'server'), not with 'secret'" --config "$C"
conf "dev tun" "secret k 1" "remote a" "auth-user-pass up.txt"
check "$C:4: option 'auth-user-pass': requires 'pull' (or 'client')" --config "$C"
conf "dev tun" "client" "proto tcp-server" "remote a" "remote b" "ca ca" "cert c" "key k"
check "$C:5: option 'remote': TCP server mode allows at most one 'remote' address" --config "$C"
# the command line has no line numbers
check "command line: option 'server': 'server' and 'client' cannot be used together" --dev tun --client --server 10.8.0.0 255.255.255.0
# workers (issue 16): 1..64 (N > 1 runs worker threads: daemon.gw_workers)
conf "dev tun" "workers 0"
check "$C:2: option 'workers': count 0 is out of range (1..64)" --config "$C"
conf "dev tun" "workers many"
check "$C:2: option 'workers': count 'many' is not a number" --config "$C"
echo "ok: $n bad option sets rejected with exit 1 and the exact message"
