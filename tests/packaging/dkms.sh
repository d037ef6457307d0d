#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# dkms.sh - the braid-dkms package installed by dpkg as a user would, its postinst (dh_dkms: dkms add, build,
# install) run for real against Debian 12's 6.1 headers, without touching this machine: everything runs in a
# private mount namespace where /usr/src, /lib/modules and /var/lib/dpkg are overlays (writes go to a temporary
# upper dir, the host's files are the read-only lower layer) and /var/lib/dkms is a tmpfs (so is dkms's signing key).
# Asserts: the package's Depends has dkms, dkms.conf's fields; after `dpkg -i` braid_dco.ko is built and installed
# under /lib/modules/KVER/updates/dkms with vermagic naming the 6.1 kernel, in modules.dep (depmod ran); a kernel
# outside BUILD_EXCLUSIVE_KERNEL (5.10, its /lib/modules/VER/build pointing at headers) is skipped by the postinst
# and refused by `dkms build` with exit 77 and dkms's BUILD_EXCLUSIVE message; the regex on a table of versions;
# `dpkg -r` removes the module (prerm: dkms remove) and the sources; the host's /lib/modules and dpkg database unchanged.
# Then the DKMS-built .ko in a QEMU/TCG VM booting that 6.1 kernel (tests/vm/lib.sh): insmod, a link made and
# deleted, rmmod, the unload balance line, no kernel warning.
# The .deb: BRAID_DEB_DIR/braid-dkms_*.deb (pkg.install's, fixture braid_deb) else `packaging/build-deb.sh --dkms`.
# Needs root, dkms, linux-headers-amd64 (6.1), dpkg-dev, debhelper, dh-dkms, lintian, the VM's qemu-system-x86,
# linux-image-amd64, busybox-static (packaging/install-deps.sh); a missing one fails the test.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "${1:-}" = --ns ]; then
	# inside the private mount namespace: $2 = work dir, $3 = .deb, $4 = KVER (6.1)
	D=$2 deb=$3 KV=$4 OLD=5.10.0-30-amd64
	for d in usr/src lib/modules var/lib/dpkg; do
		n=${d//\//_}
		mkdir -p "$D/ov/$n/up" "$D/ov/$n/work"
		mount -t overlay overlay -o "lowerdir=/$d,upperdir=$D/ov/$n/up,workdir=$D/ov/$n/work" "/$d" || fail "overlay on /$d"
	done
	mount -t tmpfs tmpfs /var/lib/dkms || fail "tmpfs on /var/lib/dkms"
	# a kernel outside BUILD_EXCLUSIVE_KERNEL with "headers" (the 6.1 ones): refused for the directive, not for missing headers
	mkdir -p /lib/modules/$OLD && ln -s /usr/src/linux-headers-$KV /lib/modules/$OLD/build
	dpkg --log=/dev/null -i "$deb" >"$D/dpkg-i.log" 2>&1 || fail "dpkg -i: $(cat "$D/dpkg-i.log")"
	ver=$(dpkg-query -W -f '${Version}' braid-dkms) || fail "braid-dkms not installed"
	ko=/lib/modules/$KV/updates/dkms/braid_dco.ko
	[ -f $ko ] || fail "no $ko after dpkg -i: $(cat "$D/dpkg-i.log") $(cat /var/lib/dkms/braid-dco/"$ver"/build/make.log 2>/dev/null | tail -20)"
	vm=$(modinfo -F vermagic $ko) || fail "modinfo $ko"
	[[ $vm == "$KV "* ]] || fail "vermagic '$vm' does not name $KV"
	[ "$(modinfo -F name $ko)" = braid_dco ] || fail "modinfo name: $(modinfo -F name $ko)"
	[ "$(modinfo -F license $ko)" = GPL ] || fail "modinfo license: $(modinfo -F license $ko)"
	grep -q "^updates/dkms/braid_dco.ko" /lib/modules/$KV/modules.dep || fail "braid_dco not in modules.dep (depmod)"
	st=$(dkms status -m braid-dco -v "$ver") || fail "dkms status"
	grep -q "^braid-dco/$ver, $KV, x86_64: installed" <<<"$st" || fail "dkms status: $st"
	grep -q "$OLD" <<<"$st" && fail "dkms status lists $OLD: $st"
	echo "ok: dpkg -i built and installed braid_dco.ko for $KV (vermagic: $vm); dkms status: $st"
	# every other installed kernel with headers (6.12 from bookworm-security, which install-deps brings for
	# kmod.build_newer) got its own build from the same postinst (kmod/compat.h)
	for b in /lib/modules/*/build/Makefile; do
		k=${b#/lib/modules/}
		k=${k%/build/Makefile}
		case $k in "$KV" | "$OLD") continue ;; esac
		[ -e "/boot/vmlinuz-$k" ] || continue
		grep -q "^braid-dco/$ver, $k, x86_64: installed" <<<"$st" || fail "dkms status has no build for $k: $st"
		# 6.12's modules are xz-compressed (braid_dco.ko.xz)
		kok=$(ls /lib/modules/"$k"/updates/dkms/braid_dco.ko* 2>/dev/null | head -n1)
		vmk=$(modinfo -F vermagic "$kok") || fail "no module for $k under /lib/modules/$k/updates/dkms"
		[[ $vmk == "$k "* ]] || fail "vermagic '$vmk' does not name $k"
		echo "ok: the same dpkg -i built ${kok##*/} for $k too (vermagic: $vmk)"
	done
	cp $ko "$D/vm/braid_dco.ko" || fail "copy $ko for the VM"
	# the postinst tried the 5.10 kernel too and skipped it for BUILD_EXCLUSIVE_KERNEL
	grep -q "includes a BUILD_EXCLUSIVE directive which does not match this kernel" "$D/dpkg-i.log" ||
		fail "postinst did not report the BUILD_EXCLUSIVE refusal for $OLD: $(cat "$D/dpkg-i.log")"
	[ ! -e /lib/modules/$OLD/updates ] || fail "something installed for $OLD"
	dkms build -m braid-dco -v "$ver" -k $OLD >"$D/old.log" 2>&1
	rc=$?
	[ $rc -eq 77 ] || fail "dkms build -k $OLD: exit $rc, expected 77: $(cat "$D/old.log")"
	grep -q "BUILD_EXCLUSIVE directive which does not match this kernel" "$D/old.log" || fail "dkms build -k $OLD: $(cat "$D/old.log")"
	echo "ok: dkms build -k $OLD refused (exit 77): $(grep -m1 BUILD_EXCLUSIVE "$D/old.log" | sed 's/^ *//')"
	# BUILD_EXCLUSIVE_KERNEL as dkms applies it ([[ KVER =~ RE ]]) on a table of kernel versions
	conf=/usr/src/braid-dco-$ver/dkms.conf
	for kv in 6.1.0-56-amd64 6.1.0 6.5.0-1-generic 6.10.0 6.12.9+bpo-amd64 6.19.0-rc1 7.0.0 10.1.0 16.0.0-1-amd64 \
		'!6.0.12-1-amd64' '!6.0.0' '!5.10.0-30-amd64' '!5.19.0' '!4.19.0-27-amd64' '!3.16.0'; do
		want=yes; [ "${kv:0:1}" = '!' ] && { want=no; kv=${kv:1}; }
		got=$(bash -c '. "$1"; [[ $2 =~ $BUILD_EXCLUSIVE_KERNEL ]] && echo yes || echo no' _ "$conf" "$kv")
		[ "$got" = "$want" ] || fail "BUILD_EXCLUSIVE_KERNEL on $kv: $got, expected $want"
	done
	echo "ok: BUILD_EXCLUSIVE_KERNEL accepts 6.1..6.N, 7+, 10+ and refuses 6.0, 5.x, 4.x, 3.x"
	for f in 'PACKAGE_NAME="braid-dco"' "PACKAGE_VERSION=\"$ver\"" 'BUILT_MODULE_NAME\[0\]="braid_dco"' \
		'DEST_MODULE_LOCATION\[0\]="/updates/dkms"' 'AUTOINSTALL="yes"'; do
		grep -q "^$f\$" "$conf" || fail "dkms.conf has no $f"
	done
	dpkg --log=/dev/null -r braid-dkms >"$D/dpkg-r.log" 2>&1 || fail "dpkg -r: $(cat "$D/dpkg-r.log")"
	[ ! -e $ko ] || fail "$ko still there after dpkg -r"
	grep -q braid_dco /lib/modules/$KV/modules.dep && fail "braid_dco still in modules.dep after dpkg -r"
	[ -z "$(dkms status -m braid-dco)" ] || fail "dkms status after dpkg -r: $(dkms status -m braid-dco)"
	[ ! -e /usr/src/braid-dco-"$ver" ] || fail "/usr/src/braid-dco-$ver left after dpkg -r"
	echo "ok: dpkg -r removed the module (dkms remove), modules.dep and the sources"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (mount namespace)"; exit 77; }
for t in dkms dpkg-deb unshare modinfo depmod; do
	command -v $t >/dev/null || fail "no $t (packaging/install-deps.sh installs it)"
done
KV=$(ls /usr/src | sed -n 's/^linux-headers-\(6\.1\.[0-9]*-[0-9]*-amd64\)$/\1/p' | sort -V | tail -n 1)
[ -n "$KV" ] && [ -e "/lib/modules/$KV/build/Makefile" ] ||
	fail "no Debian 6.1 headers (/usr/src/linux-headers-6.1.*-amd64 with /lib/modules/KVER/build; packaging/install-deps.sh)"
D=$(mktemp -d /tmp/braid-dkms.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$D"' EXIT
trap 'exit 1' INT TERM HUP
t0=$(date +%s)
deb=$(ls "${BRAID_DEB_DIR:-/nonexistent}"/braid-dkms_*_all.deb 2>/dev/null | tail -n 1)
if [ -z "$deb" ]; then
	bash "$root/packaging/build-deb.sh" --dkms "$D/out" >"$D/build.log" 2>&1 || fail "build-deb.sh --dkms: $(tail -n 30 "$D/build.log")"
	deb=$(ls "$D"/out/braid-dkms_*_all.deb) || fail "no braid-dkms .deb"
	grep -q '^E:' "$D/out/lintian.txt" && fail "lintian errors: $(grep '^E:' "$D/out/lintian.txt")"
	echo "ok: built $(basename "$deb") in $(($(date +%s) - t0)) s (lintian: no error)"
fi
dep=$(dpkg-deb -f "$deb" Depends)
[[ $dep == *dkms* ]] || fail "Depends has no dkms: $dep"
before=$(find "/lib/modules/$KV" -newer "$deb" -o -name '*braid*' 2>/dev/null | sort; dpkg -l 'braid-dkms' 2>&1 | tail -n 1; ls /var/lib/dkms)
mkdir -p "$D/vm"
unshare --mount --propagation private bash "$0" --ns "$D" "$deb" "$KV" || exit 1
after=$(find "/lib/modules/$KV" -newer "$deb" -o -name '*braid*' 2>/dev/null | sort; dpkg -l 'braid-dkms' 2>&1 | tail -n 1; ls /var/lib/dkms)
[ "$before" = "$after" ] || fail "the host changed: before: $before after: $after"
echo "ok: host /lib/modules, dpkg database and /var/lib/dkms unchanged; $(($(date +%s) - t0)) s"

# the DKMS-built module loads in Debian's 6.1 kernel (QEMU/TCG, tests/vm/lib.sh): insmod, a braid_dco link
# made and deleted, rmmod with the unload balance line, no kernel warning
. "$root/tests/vm/lib.sh"
msg=$(vm_require) || fail "$msg"
[ "$(vm_kver)" = "$KV" ] || fail "the VM boots $(vm_kver), the module is built for $KV"
cache=${BRAID_VM_CACHE:-$D/vm-cache}
mkdir -p "$cache"
vm_vmlinux "$KV" "$cache" >/dev/null && vm_initrd_9p "$KV" "$cache" >/dev/null || fail "VM kernel/initramfs"
cat >"$D/vm/guest.sh" <<'EOF'
ko=$1
modprobe -a $(modinfo -F depends "$ko" | tr , ' ') || { echo "not ok - modprobe the dependencies"; exit 1; }
insmod "$ko" || { echo "not ok - insmod"; exit 1; }
grep -q '^braid_dco ' /proc/modules || { echo "not ok - braid_dco not in /proc/modules"; exit 1; }
ip link add bdk0 type braid_dco || { echo "not ok - ip link add type braid_dco"; exit 1; }
ip -d link show bdk0 | grep -q braid_dco || { echo "not ok - bdk0 is no braid_dco link"; exit 1; }
ip link del bdk0 && rmmod braid_dco || { echo "not ok - ip link del / rmmod"; exit 1; }
dmesg | grep -q 'braid_dco: balance ok' || { echo "not ok - no unload balance line"; dmesg | tail -20; exit 1; }
if dmesg | grep -Eq 'BUG:|WARNING:|Oops|UBSAN|KASAN|refcount_t'; then echo "not ok - kernel warning"; dmesg | tail -40; exit 1; fi
echo "ok - DKMS-built braid_dco: insmod, link add/del, rmmod, balance ok on $(uname -r)"
EOF
log=$D/vm/serial.log
t1=$(date +%s)
vm_run_9p "$KV" "$cache" "$D/vm" "$log" "sh $D/vm/guest.sh $D/vm/braid_dco.ko"
rc=$?
grep -E '^(ok|not ok) - ' "$log"
[ $rc -eq 0 ] || fail "VM: guest status $rc: $(tail -n 30 "$log")"
echo "ok: the DKMS-built module loads and unloads in the 6.1 VM ($(($(date +%s) - t1)) s); total $(($(date +%s) - t0)) s"
