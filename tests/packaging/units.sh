#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# units.sh - packaging/systemd: `systemd-analyze verify` on braid-server@ and braid-client@ (ExecStart pointed
# at the built braidd), their `systemd-analyze security --offline=true` exposure at most 3.0 and below Debian's
# openvpn-server@.service when that is installed (docs/install.md records the numbers), the capability bounding
# set exactly docs/install.md's, the command line: the options before --config, braidd accepts them; and the
# ExecReload line (kill outside the sandbox, "+").
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
BRAIDD=${BRAIDD:-${BRAID_BIN_DIR:-$root/build/bin}/braidd}
command -v systemd-analyze >/dev/null || { echo "SKIP: no systemd-analyze"; exit 77; }
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
D=$(mktemp -d /tmp/braid-units.XXXXXX)
trap 'rm -rf "$D"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
exposure() { systemd-analyze security --offline=true "$1" 2>/dev/null | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'; }

for role in server client; do
	u=braid-$role@.service
	sed "s#/usr/sbin/braidd#$BRAIDD#" "$root/packaging/systemd/$u" >"$D/$u"
	out=$(systemd-analyze verify --man=no "$D/$u" 2>&1) || fail "systemd-analyze verify $u: $out"
	[ -z "$out" ] || fail "systemd-analyze verify $u warns: $out"
	e=$(exposure "$D/$u")
	[ -n "$e" ] || fail "$u: no exposure from systemd-analyze security"
	awk -v e="$e" 'BEGIN { exit !(e <= 3.0) }' || fail "$u: exposure $e, want <= 3.0"
	if [ -f /lib/systemd/system/openvpn-$role@.service ]; then
		cp /lib/systemd/system/openvpn-$role@.service "$D/"
		o=$(exposure "$D/openvpn-$role@.service")
		awk -v e="$e" -v o="$o" 'BEGIN { exit !(e < o) }' || fail "$u: exposure $e, not below openvpn-$role@'s $o"
		echo "ok: $u verifies; exposure $e (Debian's openvpn-$role@: $o)"
	else
		echo "ok: $u verifies; exposure $e"
	fi
	grep -q "| \`$u\` | \*\*$e " "$root/docs/install.md" || fail "docs/install.md does not record $u's exposure $e"
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$D/$u")
	grep -qF "| \`CapabilityBoundingSet\` | \`$caps\` |" "$root/docs/install.md" ||
		fail "$u: CapabilityBoundingSet '$caps' differs from docs/install.md's table"
	grep -q "^Type=notify$" "$D/$u" && grep -q "^WatchdogSec=" "$D/$u" || fail "$u: not Type=notify with a watchdog"
	# the live reload: kill outside the sandbox ("+"), since braidd runs as another user after `user`
	grep -qxF 'ExecReload=+/bin/kill -s RTMIN+1 $MAINPID' "$D/$u" || fail "$u: no ExecReload=+/bin/kill -s RTMIN+1 \$MAINPID"
	# the command line: the options before --config parse (with a stand-in config), --config is last
	line=$(sed -n 's/^ExecStart=//p' "$D/$u")
	[[ $line == *" --config %i.conf" ]] || fail "$u: ExecStart does not end in --config %i.conf"
	line=${line//%t/$D/run}
	line=${line//%i/x}
	read -r -a args <<<"${line% --config x.conf}"
	printf 'dev tun\n' >"$D/x.conf"
	out=$(cd "$D" && "${args[@]}" --config x.conf 2>&1)
	grep -q "neither 'secret' nor a TLS role given" <<<"$out" ||
		fail "$u: braidd does not take the unit's options: $out"
done
[ -n "$(sed -n 's/^DeviceAllow=\/dev\/net\/tun rw$/x/p' "$D/braid-server@.service")" ] || fail "no DeviceAllow=/dev/net/tun"
echo "PASS: units"
