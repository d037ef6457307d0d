#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# install.sh - the Debian packages in a clean Debian 12 root: packaging/build-deb.sh builds it (lintian: no
# error) while mmdebstrap makes a minbase bookworm root (+ the package's dependencies, man-db, systemd) from the
# apt mirror this machine uses; then, in the root: dpkg -i, braidd --version, braidctl --help, man -l and man on
# the three pages, systemd-analyze verify on the units (their Documentation= man pages must resolve), the user
# braid (system, no login), nothing enabled, /etc/braid/{client,server}; remove + purge. Also: `cmake --install`
# of the package's build tree installs the package's file list (less what dh adds: docs, changelog, copyright).
# Needs root, network, mmdebstrap, dpkg-buildpackage, lintian (packaging/install-deps.sh). About 2-3 minutes.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chroot)"; exit 77; }
for t in mmdebstrap dpkg-buildpackage lintian; do
	command -v $t >/dev/null || { echo "SKIP: no $t (packaging/install-deps.sh installs it)"; exit 77; }
done
[ -z "${BRAID_DEB_OUT:-}" ] || rm -f "$BRAID_DEB_OUT"/braid_*.deb "$BRAID_DEB_OUT"/braid-dkms_*.deb	# never a stale package for pkg.vm_systemd
D=$(mktemp -d /tmp/braid-pkgtest.XXXXXX)
R=$D/root
MM_PID=
cleanup() {
	[ -n "$MM_PID" ] && kill "$MM_PID" 2>/dev/null && wait "$MM_PID" 2>/dev/null
	mountpoint -q "$R/proc" && umount "$R/proc"
	[ -n "${KEEP:-}" ] || rm -rf "$D" "${TREE:+$(dirname "$TREE")}"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*" >&2; exit 1; }
t0=$(date +%s)

# the mirror apt uses here (deb822 or one-line sources), else Debian's
mirror=$(sed -n 's/^URIs: *\([^ ]*debian\/*\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
deps=adduser,libbpf1,libc6,libev4,libmnl0,libsodium23,libssl3,man-db,procps,systemd
mmdebstrap --quiet --variant=minbase --include="$deps" bookworm "$R" "$mirror" >"$D/mmdebstrap.log" 2>&1 &
MM_PID=$!

BRAID_DEB_KEEP=1 bash "$root/packaging/build-deb.sh" "$D/out" >"$D/build.log" 2>&1 ||
	fail "packaging/build-deb.sh: $(tail -n 30 "$D/build.log")"
deb=$(ls "$D"/out/braid_*.deb) || fail "no .deb"
# pkg.vm_systemd boots the same package (BRAID_DEB_OUT: set by ctest)
# pkg.dkms installs braid-dkms from the same build
[ -z "${BRAID_DEB_OUT:-}" ] || { mkdir -p "$BRAID_DEB_OUT" && cp "$deb" "$D"/out/braid-dkms_*.deb "$BRAID_DEB_OUT/"; } ||
	fail "copy to $BRAID_DEB_OUT"
TREE=$(sed -n 's/^build-deb: build tree kept in //p' "$D/build.log")
echo "ok: built $(basename "$deb") in $(($(date +%s) - t0)) s; lintian: $(grep -c '^[EW]:' "$D/out/lintian.txt") errors/warnings"
grep -q '^E:' "$D/out/lintian.txt" && fail "lintian errors: $(grep '^E:' "$D/out/lintian.txt")"

wait "$MM_PID" || fail "mmdebstrap ($mirror): $(tail -n 20 "$D/mmdebstrap.log")"
MM_PID=
echo "ok: Debian 12 root from $mirror in $(($(date +%s) - t0)) s"
mount -t proc proc "$R/proc" || fail "mount proc"
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }

cp "$deb" "$R/tmp/braid.deb"
in_root dpkg -i /tmp/braid.deb >"$D/dpkg.log" 2>&1 || fail "dpkg -i: $(cat "$D/dpkg.log")"
v=$(in_root braidd --version) || fail "braidd --version"
[[ $v == "braidd 0.1.0 "* ]] || fail "braidd --version: $v"
in_root braidctl --help | grep -q '^Usage: braidctl' || fail "braidctl --help"
for p in man8/braidd.8 man8/braidctl.8 man5/braid.conf.5; do
	in_root man -l "/usr/share/man/$p.gz" 2>&1 | grep -q '^NAME' || fail "man -l $p"
done
in_root man -P cat 5 braid.conf 2>/dev/null | grep -q 'configuration files of the Braid' || fail "man braid.conf"
in_root man -P cat braidd 2>/dev/null | grep -q 'OPTIONS BRAIDD REFUSES' || fail "man braidd"
out=$(in_root systemd-analyze verify /lib/systemd/system/braid-server@.service /lib/systemd/system/braid-client@.service 2>&1) ||
	fail "systemd-analyze verify in the root: $out"
[ -z "$out" ] || fail "systemd-analyze verify warns in the root: $out"
pw=$(in_root getent passwd braid) || fail "no user braid"
IFS=: read -r _ _ uid _ _ home shell <<<"$pw"
[ "$uid" -lt 1000 ] && [ "$shell" = /usr/sbin/nologin ] || fail "user braid is not a system user without login: $pw"
in_root getent group braid >/dev/null || fail "no group braid"
[ -d "$R/etc/braid/server" ] && [ -d "$R/etc/braid/client" ] || fail "/etc/braid/{server,client} missing"
[ -f "$R/usr/share/bash-completion/completions/braidctl" ] || fail "no bash completion"
[ -f "$R/usr/share/doc/braid/examples/server.conf" ] || fail "no example configuration"
[ -d "$R/run/braidd" ] && [ "$(stat -c %a "$R/run/braidd")" = 700 ] || fail "/run/braidd not made by tmpfiles.d at install"
en=$(find "$R/etc/systemd/system" -name 'braid*' 2>/dev/null)
[ -z "$en" ] || fail "the package enabled something: $en"
# the example configurations parse in the root (they fail later: no certificates)
for ex in server client; do
	out=$(in_root braidd --cd /usr/share/doc/braid/examples --config $ex.conf 2>&1)
	grep -qE "option '(ca|cert|key|tls-crypt)'" <<<"$out" || fail "example $ex.conf: $out"
done
echo "ok: installed: braidd --version, braidctl --help, man, systemd-analyze verify, user braid ($uid), nothing enabled"
# braid-gui: its Qt runtime is not installed in this minimal root (hundreds of MB); its helper needs only libsystemd0
dpkg-deb -x "$(ls "$D"/out/braid-gui_*.deb)" "$R/tmp/bg" || fail "dpkg-deb -x braid-gui"
in_root /tmp/bg/usr/libexec/braid-helper --help | grep -q 'net.braid.Helper1' || fail "braid-helper --help in the root"
bu=$R/tmp/bg/lib/systemd/system/braid-helper.service
grep -qx 'BusName=net.braid.Helper1' "$bu" && grep -qx 'ExecStart=/usr/libexec/braid-helper --rundir /run/braid-helper' "$bu" ||
	fail "braid-gui: no braid-helper.service with BusName and ExecStart"
grep -qx 'SystemdService=braid-helper.service' "$R/tmp/bg/usr/share/dbus-1/system-services/net.braid.Helper1.service" ||
	fail "braid-gui: the D-Bus activation file does not name braid-helper.service"
dpkg-deb -f "$(ls "$D"/out/braid-gui_*.deb)" Depends | grep -qw libqt6svg6 ||
	fail "braid-gui does not depend on libqt6svg6 (the SVG icon's image and icon-engine plugins)"
echo "ok: braid-gui's braid-helper runs in the root; its unit, D-Bus activation and the SVG plugins' package"
mkdir -p "$R/var/lib/braid"
in_root dpkg -r braid >/dev/null 2>&1 || fail "dpkg -r"
[ ! -e "$R/usr/sbin/braidd" ] || fail "braidd left after dpkg -r"
in_root dpkg -P braid >/dev/null 2>&1 || fail "dpkg -P"
[ ! -e "$R/var/lib/braid" ] || fail "/var/lib/braid left after purge"
echo "ok: remove and purge"

# cmake --install installs the package's set
[ -d "$TREE" ] || fail "no kept build tree"
obj=$(ls -d "$TREE"/obj-*) || fail "no obj- dir in $TREE"
# braid = the default component, braid-gui = the component gui
for c in Unspecified:braid gui:braid-gui; do
	comp=${c%%:*} pkg=${c#*:}
	DESTDIR=$D/cm-$comp cmake --install "$obj" --component "$comp" >/dev/null || fail "cmake --install --component $comp"
	(cd "$D/cm-$comp" && find . -mindepth 1 | sed 's#^\./#/#' | sort) >"$D/cmake-$pkg.list"
	dpkg-deb -c "$(ls "$D"/out/"$pkg"_*.deb)" | awk '{print $6}' | sed 's#^\./#/#; s#/$##; s#\.gz$##' | grep -v '^$' |
		grep -vE "^/usr/share/doc/$pkg/(README.md|braidd.md|install.md|changelog|copyright)$" |
		{ if [ "$pkg" = braid-gui ]; then grep -vE '^/usr/share/doc(/braid-gui)?$'; else cat; fi; } | sort >"$D/deb-$pkg.list"
	diff "$D/deb-$pkg.list" "$D/cmake-$pkg.list" >"$D/list.diff" ||
		fail "cmake --install and the package $pkg differ (< deb, > cmake): $(cat "$D/list.diff")"
	echo "ok: cmake --install --component $comp = the package $pkg's $(wc -l <"$D/deb-$pkg.list") paths"
done
echo "PASS: install ($(($(date +%s) - t0)) s)"
