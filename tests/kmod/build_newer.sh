#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# build_newer.sh - braid_dco.ko built against the newest kernel headers Debian 12 offers besides the VM's 6.1
# (bookworm-security's linux-headers-6.12.*+deb12-amd64, which packaging/install-deps.sh installs), with the
# module's own -Werror: the API differences live in kmod/compat.h (docs/kmod.md "Kernels").
# Asserts: the build succeeds, braid_dco.ko exists, its vermagic names that kernel and it has the module's
# name, licence and genetlink alias. With OUT_DIR, the module and its kernel version (OUT_DIR/kver) stay there
# for kmod.vm_newer, which boots that kernel in the VM.
#   build_newer.sh [OUT_DIR]     the VM kernel (excluded) is tests/vm/lib.sh's vm_kver, as kmod/CMakeLists.txt's
set -uo pipefail
src=$(cd "$(dirname "$0")/../../kmod" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=../vm/lib.sh
. "$src/../tests/vm/lib.sh"
vm_kver=$(vm_kver) || fail "no VM kernel (linux-image-amd64 with its /lib/modules)"
out=${1:-}

newest=
for m in /lib/modules/*/build/Makefile; do
	[ -e "$m" ] || continue
	kv=${m#/lib/modules/}
	kv=${kv%/build/Makefile}
	[ "$kv" = "$vm_kver" ] && continue
	case $kv in *-amd64) ;; *) continue ;; esac
	if [ -z "$newest" ] || [ "$(printf '%s\n%s\n' "$newest" "$kv" | sort -V | tail -n1)" = "$kv" ]; then
		newest=$kv
	fi
done
[ -n "$newest" ] || fail "no kernel headers other than $vm_kver's: apt-get install linux-headers-6.12.<n>+deb12-amd64 (packaging/install-deps.sh installs the newest)"
[ "$(printf '%s\n%s\n' "$vm_kver" "$newest" | sort -V | tail -n1)" = "$newest" ] ||
	fail "the other headers ($newest) are not newer than the VM kernel's ($vm_kver)"

work=$(mktemp -d /tmp/braid-kmod-newer.XXXXXX)
trap 'rm -rf "$work"' EXIT
vm_kmod_tree "$src" "$work" || fail "link the sources into $work"
echo "building braid_dco.ko against /lib/modules/$newest/build"
make -s -C "/lib/modules/$newest/build" M="$work" modules >"$work/make.log" 2>&1 ||
	fail "build against $newest: $(grep -E 'error|warning' "$work/make.log" | head -20)"
ko=$work/braid_dco.ko
[ -f "$ko" ] || fail "no braid_dco.ko after the build: $(tail -20 "$work/make.log")"
vm=$(modinfo -F vermagic "$ko") || fail "modinfo $ko"
[[ $vm == "$newest "* ]] || fail "vermagic '$vm' does not name $newest"
[ "$(modinfo -F name "$ko")" = braid_dco ] || fail "modinfo name: $(modinfo -F name "$ko")"
[ "$(modinfo -F license "$ko")" = GPL ] || fail "modinfo license: $(modinfo -F license "$ko")"
modinfo -F alias "$ko" | grep -qx 'net-pf-16-proto-16-family-braid_dco' ||
	fail "no genetlink family alias: $(modinfo -F alias "$ko" | tr '\n' ' ')"
if [ -n "$out" ]; then
	mkdir -p "$out" && cp "$ko" "$out/braid_dco.ko" && echo "$newest" >"$out/kver" || fail "copy to $out"
fi
echo "ok: braid_dco.ko built against $newest (vermagic: $vm; VM kernel $vm_kver)"
