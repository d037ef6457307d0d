#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# kmod.vm: braid_dco.ko in a Debian 12 VM (QEMU/TCG, Debian's 6.1 kernel, or VM_KVER (kmod.vm_newer: 6.12), the host's / read-only over 9p,
# tests/vm/lib.sh), every scenario in one boot: insmod, the netlink tests (dco_netlink.py: accepted and
# refused requests with their extack messages, notifications, created/destroyed balance), rmmod and the
# unload balance line (guest.sh). The guest's status is this test's status; the serial log is printed.
# Needs: the module built (cmake target braid_dco: linux-headers-amd64), qemu-system-x86, linux-image-amd64,
# busybox-static; all in packaging/install-deps.sh. A missing one fails the test (CI installs them).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
ko=${BRAID_KMOD_KO:?BRAID_KMOD_KO: path of braid_dco.ko}
work=${BRAID_VM_WORK:?BRAID_VM_WORK: a directory holding braid_dco.ko, writable by the guest}
cache=${BRAID_VM_CACHE:-$work/vm-kmod}
# shellcheck source=../vm/lib.sh
. "$src/tests/vm/lib.sh"

if ! msg=$(vm_require); then
	echo "FAIL: $msg"
	exit 1
fi
if [ ! -s "$ko" ]; then
	echo "FAIL: $ko was not built (no kernel headers at configure time? apt-get install linux-headers-amd64)"
	exit 1
fi
case $ko in "$work"/*) ;; *) echo "FAIL: $ko is not under $work"; exit 1 ;; esac
kv=$(vm_kver)
[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kv" ] ||
	{ echo "FAIL: $ko is built for $(modinfo -F vermagic "$ko"), the VM boots $kv"; exit 1; }
mkdir -p "$cache"
vm_vmlinux "$kv" "$cache" >/dev/null || exit 1
vm_initrd_9p "$kv" "$cache" >/dev/null || exit 1
log=$cache/serial-$$.log
t0=$(date +%s)
VM_SRC=$src vm_run_9p "$kv" "$cache" "$work" "$log" "sh $src/tests/kmod/guest.sh $ko $src $work"
rc=$?
cat "$log"
rm -f "$log"
echo "kmod.vm: guest status $rc, $(($(date +%s) - t0)) s (boot included)"
exit "$rc"
