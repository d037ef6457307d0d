#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# packaging/build-deb.sh [--dkms] [OUTDIR] - the Debian packages `braid`, `braid-gui` and `braid-dkms` from this tree, in one
# command (--dkms: braid-dkms alone, `dpkg-buildpackage -A`, no CMake build, seconds): a copy of the
# sources (without build dirs and .git) gets packaging/debian as debian/, dpkg-buildpackage builds it
# (binary only, unsigned), lintian checks it (no error allowed; warnings are justified in
# debian/braid.lintian-overrides). The .deb lands in OUTDIR (default build-deb/). Needs the build
# dependencies of packaging/debian/control plus dpkg-dev, debhelper and lintian (packaging/install-deps.sh).
# BRAID_DEB_KEEP=1 keeps the build tree.
set -euo pipefail
pkgs="braid braid-gui braid-dkms"
bflag=-b
[ "${1:-}" != --dkms ] || { pkgs=braid-dkms; bflag=-A; shift; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/build-deb}" && cd "${1:-$root/build-deb}" && pwd)
ver=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$root/packaging/debian/changelog")
work=$(mktemp -d /tmp/braid-deb.XXXXXX)
[ -n "${BRAID_DEB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
src=$work/braid-$ver
mkdir -p "$src"
tar -C "$root" --exclude='./build*' --exclude='./.git' --exclude='__pycache__' --exclude='./tests/bench/results' \
	-cf - . | tar -C "$src" -xf -
rm -rf "$src/debian"
cp -a "$root/packaging/debian" "$src/debian"
cd "$src"
echo "build-deb: dpkg-buildpackage in $src"
DEB_BUILD_OPTIONS="parallel=$(nproc) ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage $bflag -us -uc >"$work/build.log" 2>&1 || {
	tail -n 40 "$work/build.log" >&2
	echo "build-deb: dpkg-buildpackage failed (log: $work/build.log)" >&2
	trap - EXIT
	exit 1
}
changes=$(ls "$work"/braid_"$ver"_*.changes)
echo "build-deb: lintian"
lintian --fail-on error --info --display-info "$changes" | tee "$work/lintian.txt" || {
	echo "build-deb: lintian reports errors" >&2
	exit 1
}
for p in $pkgs; do cp "$work/${p}_${ver}"_*.deb "$out/"; done
cp "$work/lintian.txt" "$out/lintian.txt"
for p in $pkgs; do ls "$out/${p}_${ver}"_*.deb; done
[ -z "${BRAID_DEB_KEEP:-}" ] || echo "build-deb: build tree kept in $src"
