# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tests/vm/lib.sh - Debian's 6.1 kernel in QEMU under TCG (KVM does not work on this host:
# shared/notes/kernel-and-vm.md). Sourced by the VM tests (tests/packaging/vm_systemd.sh, tests/kmod/vm_kmod.sh).
#
#   vm_kver                          $VM_KVER if set; else the kernel of the linux-image-amd64 meta-package (6.1);
#                                    else the newest /boot/vmlinuz-*-amd64 that has /lib/modules (its version)
#   vm_require                       exit 77 (skip) without qemu-system-x86_64, a kernel, busybox (static)
#   vm_vmlinux KV DIR                DIR/vmlinux-KV: the ELF inside the XZ bzImage, booted through the PVH entry
#                                    (no decompression in the guest under TCG: ~5 s less per boot); prints the path
#   vm_initrd KV DIR MODULE...       DIR/initrd-KV.cpio.gz: busybox + MODULE... and their dependencies, an init
#                                    that loads them, mounts /dev/vda (ext4) and switch_roots to systemd
#   vm_kmod_tree SRC DIR             DIR: links to kmod/ SRC's Kbuild sources and uapi, for an out-of-tree build
#                                    (make -C /lib/modules/KV/build M=DIR; tests/kmod/build_newer.sh, sparse.sh)
#   vm_copy_modules KV ROOT MODULE...  MODULE... and their dependencies into ROOT/lib/modules/KV + depmod
#   vm_boot KV DIR DISK RESULTS LOG  boot DISK (raw ext4, read-only: the writes go to a throw-away snapshot)
#                                    with RESULTS as the second disk (/dev/vdb); serial console to LOG;
#                                    killed after $VM_TIMEOUT s (default 600); returns qemu's status (124: timeout)
set -o pipefail

vm_kver() {
	local k v
	if [ -n "${VM_KVER:-}" ]; then
		[ -e "/boot/vmlinuz-$VM_KVER" ] && [ -d "/lib/modules/$VM_KVER/kernel" ] && { echo "$VM_KVER"; return 0; }
		echo "vm_kver: VM_KVER=$VM_KVER has no /boot/vmlinuz-$VM_KVER or /lib/modules/$VM_KVER/kernel" >&2
		return 1
	fi
	# the kernel of Debian 12's linux-image-amd64 (6.1), what a Debian 12 user runs, even when a newer one is
	# installed (bookworm-security's 6.12 comes with the headers kmod.build_newer builds against)
	v=$(dpkg-query -W -f '${Depends}' linux-image-amd64 2>/dev/null | sed -n 's/^linux-image-\([^ ,|]*\).*/\1/p')
	[ -n "$v" ] && [ -e "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/kernel" ] && { echo "$v"; return 0; }
	for k in $(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V -r); do
		v=${k#/boot/vmlinuz-}
		[ -d "/lib/modules/$v/kernel" ] && { echo "$v"; return 0; }
	done
	return 1
}

vm_require() {
	local t
	for t in qemu-system-x86_64 busybox xz cpio gzip modprobe depmod; do
		command -v $t >/dev/null || { echo "SKIP: no $t (packaging/install-deps.sh installs qemu-system-x86, linux-image-amd64, busybox-static)"; exit 77; }
	done
	vm_kver >/dev/null || { echo "SKIP: no Debian kernel in /boot (apt-get install linux-image-amd64)"; exit 77; }
	file -L "$(command -v busybox)" 2>/dev/null | grep -q 'statically linked' ||
		ldd "$(command -v busybox)" 2>&1 | grep -q 'not a dynamic' ||
		{ echo "SKIP: busybox is not static (apt-get install busybox-static)"; exit 77; }
}

vm_kmod_tree() {
	local src=$1 dir=$2 f
	mkdir -p "$dir/uapi" && ln -s "$src/uapi/linux" "$dir/uapi/linux" || return 1
	for f in "$src"/*.c "$src"/*.h "$src"/Kbuild; do ln -s "$f" "$dir/" || return 1; done
}

vm_vmlinux() {
	local kv=$1 dir=$2 bz=/boot/vmlinuz-$1 out off
	out=$dir/vmlinux-$kv
	[ -s "$out" ] && { echo "$out"; return 0; }
	# the compressed stream inside the bzImage: XZ (Debian's 6.1, magic FD 37 7A 58 5A 00) or zstd
	# (6.12, magic 28 B5 2F FD; the decoder stops at the end of its frame)
	local magic unz
	for magic in xz zstd; do
		case $magic in
		xz) off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | head -n 1 | cut -d: -f1) unz=(xz -dc) ;;
		zstd) off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$bz" | head -n 1 | cut -d: -f1) unz=(zstd -dc) ;;
		esac
		[ -n "$off" ] && break
	done
	[ -n "$off" ] || { echo "vm_vmlinux: no XZ or zstd stream in $bz" >&2; return 1; }
	tail -c +$((off + 1)) "$bz" | "${unz[@]}" 2>/dev/null >"$out.tmp"
	[ "$(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] ||
		{ rm -f "$out.tmp"; echo "vm_vmlinux: $bz: the $magic stream is not an ELF image" >&2; return 1; }
	mv "$out.tmp" "$out"
	echo "$out"
}

# the insmod lines of MODULE... in load order, each file once
_vm_mod_lines() {
	local kv=$1 m
	shift
	for m in "$@"; do
		modprobe -S "$kv" --show-depends "$m" || { echo "vm: no module $m for $kv" >&2; return 1; }
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

vm_copy_modules() {
	local kv=$1 root=$2 f
	shift 2
	_vm_mod_lines "$kv" "$@" >"$root/.vm-mods" || return 1
	while read -r f; do
		mkdir -p "$root$(dirname "$f")" && cp "$f" "$root$f" || return 1
	done <"$root/.vm-mods"
	rm -f "$root/.vm-mods"
	cp /lib/modules/"$kv"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kv/" 2>/dev/null
	depmod -b "$root" "$kv"
}

vm_initrd() {
	local kv=$1 dir=$2 t f a
	shift 2
	local out=$dir/initrd-$kv.cpio.gz
	t=$(mktemp -d /tmp/braid-initrd.XXXXXX)
	mkdir -p "$t"/{bin,dev,proc,sys,newroot,mods}
	cp "$(command -v busybox)" "$t/bin/busybox"
	for a in sh mount umount insmod sleep mkdir switch_root poweroff echo cat; do ln -s busybox "$t/bin/$a"; done
	_vm_mod_lines "$kv" "$@" >"$t/list" || { rm -rf "$t"; return 1; }
	while read -r f; do
		cp "$f" "$t/mods/" && echo "/mods/$(basename "$f")"
	done <"$t/list" >"$t/modules"
	rm "$t/list"
	cat >"$t/init" <<'EOF'
#!/bin/sh
# the VM's initramfs (tests/vm/lib.sh): modules for the root disk, then systemd on /dev/vda
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
while read -r m; do insmod "$m" || echo "initrd: insmod $m failed"; done </modules
n=0
while [ ! -b /dev/vda ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "initrd: cannot mount /dev/vda"; poweroff -f; }
umount /proc /sys
mount --move /dev /newroot/dev
exec switch_root /newroot /lib/systemd/systemd
EOF
	chmod 755 "$t/init"
	(cd "$t" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$t"
	[ -s "$out" ] && echo "$out"
}

vm_boot() {
	local kv=$1 dir=$2 disk=$3 res=$4 log=$5
	timeout --foreground -k 10 "${VM_TIMEOUT:-600}" qemu-system-x86_64 -accel tcg -M pc -cpu max -smp 1 -m 1G \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$dir/vmlinux-$kv" -initrd "$dir/initrd-$kv.cpio.gz" \
		-append "console=ttyS0 root=/dev/vda rw quiet loglevel=4 panic=-1 mitigations=off tsc=reliable random.trust_cpu=on systemd.show_status=0 ${VM_APPEND:-}" \
		-drive "file=$disk,format=raw,if=virtio,snapshot=on" \
		-drive "file=$res,format=raw,if=virtio" \
		-serial "file:$log" -monitor none </dev/null
}

# --- the 9p variant (kmod tests): the host's / read-only as the guest's root, no disk image ---
#   vm_initrd_9p KV DIR              DIR/initrd9p-KV.cpio.gz: busybox + virtio/9p modules; its init mounts the host
#                                    root (tag hostroot, ro, cache=loose), tmpfs on /tmp and /run, the control dir
#                                    (tag ctl) at /run/ctl and the work dir (tag work) at its host path, then
#                                    switch_roots and runs /run/ctl/cmd.sh; its status goes to /run/ctl/rc
#   vm_run_9p KV DIR WORK LOG CMD    boot, run CMD (sh) in WORK with WORK writable (VM_SRC=DIR: also DIR, read-only,
#                                    at its host path: the guest's tmpfs /tmp would hide a tree under /tmp); serial console to LOG;
#                                    returns CMD's status, 99 when the guest wrote none (panic, hang, timeout)
vm_initrd_9p() {
	local kv=$1 dir=$2 t f a
	local out=$dir/initrd9p-$kv.cpio.gz
	t=$(mktemp -d /tmp/braid-initrd.XXXXXX)
	mkdir -p "$t"/{bin,dev,proc,sys,newroot,mods}
	cp "$(command -v busybox)" "$t/bin/busybox"
	for a in sh mount insmod mkdir switch_root poweroff echo cat; do ln -s busybox "$t/bin/$a"; done
	_vm_mod_lines "$kv" virtio_pci 9pnet_virtio 9p >"$t/list" || { rm -rf "$t"; return 1; }
	while read -r f; do
		cp "$f" "$t/mods/" && echo "/mods/$(basename "$f")"
	done <"$t/list" >"$t/modules"
	rm "$t/list"
	cat >"$t/init" <<'EOF9P'
#!/bin/sh
# the kmod VM's initramfs (tests/vm/lib.sh): the host root over 9p, then /run/ctl/cmd.sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
while read -r m; do insmod "$m" || echo "initrd: insmod $m failed"; done </modules
o=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o $o,ro,cache=loose hostroot /newroot || { echo "initrd: no hostroot"; poweroff -f; }
mount -t tmpfs tmpfs /newroot/tmp
mount -t tmpfs tmpfs /newroot/run
mkdir -p /newroot/run/ctl
mount -t 9p -o $o ctl /newroot/run/ctl || { echo "initrd: no ctl"; poweroff -f; }
# the source and work dirs at their host paths; a path under /tmp or /run (hidden by the tmpfs above) gets
# its mount point made on that tmpfs
s=$(cat /newroot/run/ctl/srcdir 2>/dev/null)
if [ -n "$s" ]; then
	[ -d "/newroot$s" ] || mkdir -p "/newroot$s" || { echo "initrd: no mount point for $s"; poweroff -f; }
	mount -t 9p -o $o,ro src "/newroot$s" || { echo "initrd: no source dir $s"; poweroff -f; }
fi
w=$(cat /newroot/run/ctl/workdir)
[ -d "/newroot$w" ] || mkdir -p "/newroot$w" || { echo "initrd: no mount point for $w"; poweroff -f; }
mount -t 9p -o $o work "/newroot$w" || { echo "initrd: no work dir $w"; poweroff -f; }
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
exec switch_root /newroot /bin/sh -c 'export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
cd "$(cat /run/ctl/workdir)" && sh /run/ctl/cmd.sh; echo $? >/run/ctl/rc; sync; echo o >/proc/sysrq-trigger; sleep 30'
EOF9P
	chmod 755 "$t/init"
	(cd "$t" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp" && mv "$out.tmp" "$out"
	rm -rf "$t"
	[ -s "$out" ] && echo "$out"
}

vm_run_9p() {
	local kv=$1 dir=$2 work=$3 log=$4 cmd=$5 ctl rc
	ctl=$(mktemp -d /tmp/braid-vmctl.XXXXXX)
	printf '%s\n' "$cmd" >"$ctl/cmd.sh"
	printf '%s\n' "$work" >"$ctl/workdir"
	local srcdev=()
	if [ -n "${VM_SRC:-}" ]; then	# a source tree the guest reads at its host path (needed when it is under /tmp)
		printf '%s\n' "$VM_SRC" >"$ctl/srcdir"
		srcdev=(-fsdev "local,id=s,path=$VM_SRC,security_model=none,readonly=on,multidevs=remap"
			-device virtio-9p-pci,fsdev=s,mount_tag=src)
	fi
	timeout --foreground -k 10 "${VM_TIMEOUT:-600}" qemu-system-x86_64 -accel tcg -M pc -cpu max -smp 1 -m 1G \
		-nodefaults -no-user-config -display none -no-reboot \
		-kernel "$dir/vmlinux-$kv" -initrd "$dir/initrd9p-$kv.cpio.gz" \
		-append "console=ttyS0 quiet loglevel=4 panic=-1 mitigations=off tsc=reliable random.trust_cpu=on ${VM_APPEND:-}" \
		-fsdev local,id=r,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=r,mount_tag=hostroot \
		-fsdev "local,id=w,path=$work,security_model=none,multidevs=remap" \
		-device virtio-9p-pci,fsdev=w,mount_tag=work \
		"${srcdev[@]}" \
		-fsdev "local,id=c,path=$ctl,security_model=none" -device virtio-9p-pci,fsdev=c,mount_tag=ctl \
		-serial "file:$log" -monitor none </dev/null
	rc=99
	[ -s "$ctl/rc" ] && rc=$(cat "$ctl/rc")
	rm -rf "$ctl"
	return "$rc"
}
