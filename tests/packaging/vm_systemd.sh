#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# vm_systemd.sh - the braid .deb under systemd as init: a Debian 12 image (mmdebstrap: minbase + systemd,
# systemd-sysv, iproute2, iputils-ping, procps, kmod and the package's Depends; then the .deb installed with
# dpkg, the bed's units, the configurations from the packaged examples, a test PKI), booted in QEMU under TCG
# with Debian's 6.1 kernel (tests/vm/lib.sh), where tests/packaging/vm_guest.sh starts braid-server@gw and
# braid-client@br over two paths and checks `systemctl is-active`, the path lines in `journalctl -u`, a ping
# through the tunnel and `systemctl reload` keeping the session (docs/install.md "Tests").
# The .deb: $BRAID_DEB, else the newest in $BRAID_DEB_DIR (pkg.install leaves its package there), else
# packaging/build-deb.sh builds one. Cache ($BRAID_VM_CACHE, default build/vm-cache): the mmdebstrap root as a
# tar keyed by its package list, the kernel's ELF image, and the last disk image keyed by the .deb, the test
# files and the kernel, so a rerun with the same package boots at once.
# Needs root, network (the apt mirror), mmdebstrap, mke2fs, qemu-system-x86, linux-image-amd64, busybox-static.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
source "$root/tests/vm/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chroot, image)"; exit 77; }
for t in mmdebstrap mke2fs openssl dpkg-deb sha256sum tar; do
	command -v $t >/dev/null || { echo "SKIP: no $t (packaging/install-deps.sh installs it)"; exit 77; }
done
vm_require
KV=$(vm_kver)
CACHE=${BRAID_VM_CACHE:-$root/build/vm-cache}
mkdir -p "$CACHE" && CACHE=$(cd "$CACHE" && pwd)
D=$(mktemp -d /tmp/braid-vmtest.XXXXXX)
R=$D/root
cleanup() {
	mountpoint -q "$R/proc" && umount "$R/proc"
	[ -n "${KEEP:-}" ] && { echo "kept: $D"; return; }
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail() { echo "FAIL: $*" >&2; exit 1; }
t0=$(date +%s)
since() { echo $(($(date +%s) - ${1:-$t0})); }

# the package
deb=${BRAID_DEB:-}
[ -n "$deb" ] || deb=$(ls -t "${BRAID_DEB_DIR:-/nonexistent}"/braid_*_amd64.deb 2>/dev/null | head -n 1)
if [ -z "$deb" ]; then
	bash "$root/packaging/build-deb.sh" "$CACHE/deb" >"$D/build.log" 2>&1 || fail "build-deb.sh: $(tail -n 20 "$D/build.log")"
	deb=$(ls -t "$CACHE"/deb/braid_*_amd64.deb | head -n 1)
	echo "ok: built $(basename "$deb") in $(since) s"
fi
[ -f "$deb" ] || fail "no package ($deb)"
debsum=$(sha256sum <"$deb" | cut -c1-16)

# the mmdebstrap root, cached by its package list and mirror
mirror=$(sed -n 's/^URIs: *\([^ ]*debian\/*\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
pkgs=$({ echo systemd systemd-sysv iproute2 iputils-ping procps kmod | tr ' ' '\n'
	dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//'; } | tr -d '[:blank:]' | grep . | sort -u | paste -sd,)
basekey=$(printf '%s\n' "bookworm minbase v1" "$mirror" "$pkgs" | sha256sum | cut -c1-16)
base=$CACHE/base-$basekey.tar
if [ ! -s "$base" ]; then
	t=$(date +%s)
	mmdebstrap --quiet --variant=minbase --include="$pkgs" bookworm "$base.part.tar" "$mirror" >"$D/mmdebstrap.log" 2>&1 ||
		{ rm -f "$base.part.tar"; fail "mmdebstrap ($mirror): $(tail -n 20 "$D/mmdebstrap.log")"; }
	find "$CACHE" -maxdepth 1 -name 'base-*.tar' ! -name "base-$basekey.*" -delete
	mv "$base.part.tar" "$base"
	echo "ok: Debian 12 root (mmdebstrap, $pkgs) in $(since "$t") s"
else
	echo "ok: Debian 12 root from the cache ($(basename "$base"))"
fi

# the disk image: the root + the package + the bed, cached by the package, the test files and the kernel
imgkey=$(cat "$root/tests/packaging/vm_systemd.sh" "$root/tests/packaging/vm_guest.sh" "$root/tests/vm/lib.sh" \
	"$root"/packaging/examples/{server,client}.conf <(echo "$basekey $debsum $KV") 2>/dev/null | sha256sum | cut -c1-16)
img=$CACHE/img-$imgkey.raw
if [ ! -s "$img" ]; then
	t=$(date +%s)
	mkdir -p "$R"
	tar -C "$R" --numeric-owner -xpf "$base" || fail "untar $base"
	mount -t proc proc "$R/proc" || fail "mount proc"
	in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"; }
	cp "$deb" "$R/tmp/braid.deb"
	in_root dpkg -i /tmp/braid.deb >"$D/dpkg.log" 2>&1 || fail "dpkg -i in the image: $(cat "$D/dpkg.log")"
	rm "$R/tmp/braid.deb"
	vm_copy_modules "$KV" "$R" veth tun || fail "kernel modules into the image"
	echo braidvm >"$R/etc/hostname"
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$R/etc/machine-id"
	echo >>"$R/etc/machine-id"
	# no logins, timers or services the test does not need (each one costs seconds under TCG; kmod-static-nodes
	# stays: it makes /dev/net/tun, whose open loads tun)
	for u in getty@tty1 serial-getty@ttyS0 getty.target systemd-logind apt-daily.timer apt-daily-upgrade.timer \
		dpkg-db-backup.timer e2scrub_all.timer e2scrub_reap fstrim.timer systemd-tmpfiles-clean.timer \
		modprobe@efi_pstore modprobe@dm_mod modprobe@fuse modprobe@loop modprobe@configfs modprobe@drm \
		dev-hugepages.mount dev-mqueue.mount sys-kernel-debug.mount sys-kernel-tracing.mount sys-kernel-config.mount \
		sys-fs-fuse-connections.mount proc-sys-fs-binfmt_misc.automount systemd-pstore systemd-modules-load; do
		case $u in *.*) ;; *) u=$u.service ;; esac
		ln -sf /dev/null "$R/etc/systemd/system/$u"
	done
	mkdir -p "$R/etc/systemd/journald.conf.d"
	printf '[Journal]\nStorage=volatile\n' >"$R/etc/systemd/journald.conf.d/vm.conf"
	# the bed: two veth pairs into the namespace "cli", the gateway's address on lo
	cat >"$R/etc/systemd/system/braid-vmtest-net.service" <<'EOF'
[Unit]
Description=Braid VM test: client namespace with two uplinks (tests/packaging/vm_guest.sh)
Before=braid-server@gw.service braid-client@br.service
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -ec 'ip addr add 10.200.0.1/32 dev lo; ip link set lo up; ip netns add cli; ip -n cli link set lo up; \
 for i in 1 2; do ip link add s$i type veth peer name c$i netns cli; ip addr add 10.201.$i.1/24 dev s$i; ip link set s$i up; \
 ip -n cli addr add 10.201.$i.2/24 dev c$i; ip -n cli link set c$i up; \
 ip -n cli route add default via 10.201.$i.1 dev c$i metric $((i * 100)); done'
EOF
	mkdir -p "$R/etc/systemd/system/braid-client@br.service.d"
	cat >"$R/etc/systemd/system/braid-client@br.service.d/netns.conf" <<'EOF'
[Unit]
Requires=braid-vmtest-net.service
After=braid-vmtest-net.service
[Service]
NetworkNamespacePath=/run/netns/cli
EOF
	cat >"$R/etc/systemd/system/braid-vmtest.service" <<'EOF'
[Unit]
Description=Braid VM test driver (tests/packaging/vm_guest.sh)
Wants=braid-vmtest-net.service
After=braid-vmtest-net.service basic.target
[Service]
Type=exec
ExecStart=/usr/local/sbin/braid-vmtest
StandardOutput=journal+console
StandardError=journal+console
[Install]
WantedBy=multi-user.target
EOF
	mkdir -p "$R/etc/systemd/system/multi-user.target.wants"
	install -m 755 "$root/tests/packaging/vm_guest.sh" "$R/usr/local/sbin/braid-vmtest"
	ln -sf ../braid-vmtest.service "$R/etc/systemd/system/multi-user.target.wants/braid-vmtest.service"
	ln -sf ../braid-vmtest-net.service "$R/etc/systemd/system/multi-user.target.wants/braid-vmtest-net.service"
	# a PKI and the packaged examples, as an administrator would set them up (configs readable by braid:
	# the reload reads them after the privilege drop)
	bash "$root/tests/lib/pki.sh" "$D/pki" branch1 >/dev/null || fail "pki.sh"
	in_root braidd --genkey tls-crypt /etc/braid/server/tc.key || fail "braidd --genkey in the image"
	cp "$R/etc/braid/server/tc.key" "$R/etc/braid/client/tc.key"
	cp "$D"/pki/{ca.crt,server.crt,server.key} "$R/etc/braid/server/"
	cp "$D/pki/ca.crt" "$R/etc/braid/client/"
	cp "$D/pki/branch1.crt" "$R/etc/braid/client/client.crt"
	cp "$D/pki/branch1.key" "$R/etc/braid/client/client.key"
	sed 's/^verb .*/verb 3/' "$root/packaging/examples/server.conf" >"$R/etc/braid/server/gw.conf"
	echo "local 10.200.0.1" >>"$R/etc/braid/server/gw.conf"
	sed '/^mp-path /d; /^mp-backup /d; s/^remote .*/remote 10.200.0.1 1194/; s/^verb .*/verb 3/' \
		"$root/packaging/examples/client.conf" >"$R/etc/braid/client/br.conf"
	printf 'mp-path c1\nmp-path c2\n' >>"$R/etc/braid/client/br.conf"
	for f in "$R"/etc/braid/{server,client}/*; do chown root:root "$f" && chmod 600 "$f"; done
	in_root chgrp braid /etc/braid/server/gw.conf /etc/braid/client/br.conf || fail "chgrp braid in the image"
	chmod 640 "$R/etc/braid/server/gw.conf" "$R/etc/braid/client/br.conf"
	umount "$R/proc"
	sz=$(($(du -sm "$R" | cut -f1) + 200))
	mke2fs -q -F -t ext4 -O ^has_journal -L braidvm -d "$R" "$img.tmp" "${sz}M" >"$D/mke2fs.log" 2>&1 ||
		fail "mke2fs -d: $(cat "$D/mke2fs.log")"
	find "$CACHE" -maxdepth 1 -name 'img-*.raw' ! -name "img-$imgkey.raw" -delete
	mv "$img.tmp" "$img"
	rm -rf "$R"
	echo "ok: disk image ($sz MB: the root, $(basename "$deb"), the bed, the configurations) in $(since "$t") s"
else
	echo "ok: disk image from the cache ($(basename "$img"))"
fi

# boot it
vm_vmlinux "$KV" "$CACHE" >/dev/null || fail "vmlinux from /boot/vmlinuz-$KV"
vm_initrd "$KV" "$CACHE" virtio_pci virtio_blk ext4 >/dev/null || fail "initramfs"
truncate -s 16M "$D/results.raw"
t=$(date +%s)
echo "booting Debian 12 with systemd ($KV, QEMU TCG); serial console: $D/console.log"
vm_boot "$KV" "$CACHE" "$img" "$D/results.raw" "$D/console.log"
qrc=$?
tvm=$(since "$t")
mkdir -p "$D/res"
if ! tar -C "$D/res" -xf "$D/results.raw" 2>/dev/null || [ ! -s "$D/res/result" ]; then
	echo "--- console (last 60 lines)"
	tail -n 60 "$D/console.log"
	fail "no results from the VM (qemu exit $qrc after $tvm s$([ $qrc = 124 ] && echo ": timeout"))"
fi
cat "$D/res/result"
[ -s "$D/res/boot-time.txt" ] && sed -n '1p' "$D/res/boot-time.txt"
if ! grep -q '^result: PASS' "$D/res/result"; then
	for f in status.txt client.journal server.journal; do
		echo "--- $f"
		tail -n 40 "$D/res/$f"
	done
	if [ -n "${BRAID_VM_ARTIFACTS:-}" ]; then mkdir -p "$BRAID_VM_ARTIFACTS" && cp -a "$D/res/." "$D/console.log" "$BRAID_VM_ARTIFACTS/"; fi
	fail "the checks in the VM failed (VM $tvm s)"
fi
echo "PASS: vm_systemd ($(since) s in all; VM boot + checks + power-off $tvm s)"
