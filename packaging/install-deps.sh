#!/usr/bin/env bash
# Installs every Debian 12 package Braid needs to build, test and benchmark.
# Idempotent; safe to run as root on a fresh machine. Tolerates a concurrent apt (lock timeout).
set -euo pipefail

PKGS=(
  # build
  build-essential cmake ninja-build pkg-config git
  libev-dev libsodium-dev libssl-dev libsystemd-dev libmnl-dev libnetfilter-queue-dev
  # bpf
  clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev
  # libFuzzer (tests/fuzz, clang -fsanitize=fuzzer)
  libclang-rt-14-dev
  # Debian package and its install test (packaging/build-deb.sh, tests/packaging/install.sh)
  dpkg-dev debhelper fakeroot lintian mmdebstrap man-db
  # the Debian 12 VM with systemd as init (tests/packaging/vm_systemd.sh, tests/vm/): QEMU TCG, Debian's kernel
  qemu-system-x86 linux-image-amd64 busybox-static cpio xz-utils zstd e2fsprogs
  # braid_dco.ko (kmod/) builds against the headers of that same kernel; kmod.sparse checks it with sparse
  linux-headers-amd64 sparse
  # the braid-dkms package (dh_dkms at build time) and its test (tests/packaging/dkms.sh: dpkg -i runs dkms)
  dkms dh-dkms
  # test bed, peers, traffic
  iproute2 iptables iputils-ping iperf3 openvpn mptcpize tcpdump ethtool procps psmisc jq bc
  curl python3 python3-cryptography python3-matplotlib
  # kmod.spec reads kmod/braid_dco.yaml
  python3-yaml
  # the metrics test validates the endpoint with a real OpenMetrics / Prometheus parser
  python3-prometheus-client
  # capsh: the MPTCP backup test runs braidd without CAP_BPF (tests/daemon/mptcp_backup.sh)
  libcap2-bin
  # braid-helper and its system-bus test (gui/helper: sd-bus, a private dbus-daemon, the real polkitd)
  dbus-daemon polkitd
  # GUI (gui/, Qt 6.4; tests run offscreen)
  qt6-base-dev qt6-declarative-dev qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-layouts qml6-module-qtquick-window qml6-module-qtquick-templates qml6-module-qtqml-workerscript qt6-qpa-plugins fonts-dejavu-core
  # many gateways behind one address (tests/daemon/cluster_etcd.sh: its own etcd in a namespace; the
  # nftables balancer tests/tools/lb/braid-lb.sh)
  etcd-server nftables
)

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: must run as root (apt-get)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends)

# braid_dco.ko is also built against the newest kernel headers Debian 12 offers (tests/kmod/build_newer.sh,
# kmod/compat.h): bookworm-security's linux-headers-6.12.N+deb12-amd64, whose name changes with each update,
# so it is looked up in the archive (after an `apt-get update` if the lists do not have it yet)
newer_headers() {
  local pkg
  compgen -G '/lib/modules/*+deb12-amd64/build/Makefile' >/dev/null && return 0
  find_pkg() {
    apt-cache search --names-only '^linux-headers-[0-9.]+\+deb12-amd64$' 2>/dev/null | cut -d' ' -f1 | sort -V | tail -n1
  }
  pkg=$(find_pkg)
  [ -n "$pkg" ] || { apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null && pkg=$(find_pkg); }
  if [ -z "$pkg" ]; then
    echo "install-deps: no linux-headers-<6.x>+deb12-amd64 in the archive (kmod.build_newer will fail)" >&2
    return 0
  fi
  if "${APT[@]}" install "$pkg"; then
    echo "install-deps: installed $pkg (braid_dco.ko's newer-kernel build)"
  else
    echo "install-deps: $pkg did not install (kmod.build_newer will fail)" >&2
  fi
}

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  newer_headers
  exit 0
fi

for attempt in 1 2 3; do
  if apt-get -o DPkg::Lock::Timeout=600 update -q && "${APT[@]}" install "${missing[@]}"; then
    echo "install-deps: installed ${#missing[@]} packages"
    newer_headers
    exit 0
  fi
  echo "install-deps: apt attempt $attempt failed, retrying" >&2
  sleep 5
done
exit 1
