#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# vm_core.sh - CO-RE check of bpf/mptcp_sockops.bpf.c on Debian's 6.1 kernel (issue 14): the object built
# against this host's BTF (6.18) is loaded by bpf_test_mptcp_sockops (its libbpf skeleton) inside QEMU (TCG)
# booted with the 6.1 kernel from /boot (tests/vm/lib.sh: vm_kver, vm_vmlinux). No disk: an initramfs of
# busybox + the test binary and its shared libraries; its init mounts proc, sysfs, devtmpfs and cgroup2, runs
# the test (load with CO-RE relocations, attach to a cgroup, an MPTCP and a plain TCP connection, exactly the
# MPTCP ends counted, detach) and prints its exit status on the serial console. Bounded by VM_TIMEOUT (240 s).
# The same harness runs bpf_test_reuseport_peerid (bpf/reuseport_peerid.bpf.c, issue 16) on 6.1.
# And tests/daemon/mptcp_setprio_probe (the userspace PM's SET_FLAGS by token, MP_PRIO received; no BPF).
# Usage: vm_core.sh TEST_BINARY
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/vm/lib.sh"
bin=${1:?usage: vm_core.sh bpf_test_mptcp_sockops}
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
vm_require
KV=$(vm_kver)
D=$(mktemp -d /tmp/braid-vmcore.XXXXXX)
trap 'rm -rf "$D"' EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*" >&2; exit 1; }
CACHE=${BRAID_VM_CACHE:-$D}
mkdir -p "$CACHE"
vm_vmlinux "$KV" "$CACHE" >/dev/null || fail "no ELF image of /boot/vmlinuz-$KV"

t=$D/initrd
mkdir -p "$t"/{bin,dev,proc,sys,tmp}
cp "$(command -v busybox)" "$t/bin/busybox"
for a in sh mount echo poweroff cat; do ln -s busybox "$t/bin/$a"; done
cp "$bin" "$t/bin/bpf_test"
for l in $(ldd "$bin" | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }'); do
	mkdir -p "$t$(dirname "$l")" && cp -L "$l" "$t$l"
done
cat >"$t/init" <<'EOI'
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo "BRAID-VM: kernel $(cat /proc/sys/kernel/osrelease), BTF $(test -e /sys/kernel/btf/vmlinux && echo yes || echo no)"
/bin/bpf_test
echo "BRAID-VM-RC=$?"
poweroff -f
EOI
chmod 755 "$t/init"
(cd "$t" && find . | cpio -o -H newc --quiet | gzip -1) >"$D/initrd.gz" || fail "initrd"

log=$D/console.log
timeout --foreground -k 10 "${VM_TIMEOUT:-240}" qemu-system-x86_64 -accel tcg -M pc -cpu max -smp 1 -m 512M \
	-nodefaults -no-user-config -display none -no-reboot \
	-kernel "$CACHE/vmlinux-$KV" -initrd "$D/initrd.gz" \
	-append "console=ttyS0 rdinit=/init quiet loglevel=4 panic=-1 mitigations=off tsc=reliable random.trust_cpu=on" \
	-serial "file:$log" -monitor none </dev/null
rc=$?
grep -a "BRAID-VM\|^ok\|FAIL\|token\|SKIP\|libbpf\|^workers\|BPF_PROG" "$log"
[ "$rc" = 124 ] && fail "the VM did not finish within ${VM_TIMEOUT:-240} s"
grep -aq "BRAID-VM: kernel $KV" "$log" || fail "the VM did not run the test (console: $(tail -c 2000 "$log"))"
grep -aq "BRAID-VM-RC=0" "$log" || fail "$(basename "$bin") failed on $KV"
echo "ok: $(basename "$bin") (its object built against $(uname -r)'s BTF) passes on $KV (CO-RE)"
