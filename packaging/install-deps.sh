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
  qemu-system-x86 linux-image-amd64 busybox-static cpio xz-utils e2fsprogs
  # braid_dco.ko (kmod/) builds against the headers of that same kernel
  linux-headers-amd64
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

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -o DPkg::Lock::Timeout=600 -y --no-install-recommends)
for attempt in 1 2 3; do
  if apt-get -o DPkg::Lock::Timeout=600 update -q && "${APT[@]}" install "${missing[@]}"; then
    echo "install-deps: installed ${#missing[@]} packages"
    exit 0
  fi
  echo "install-deps: apt attempt $attempt failed, retrying" >&2
  sleep 5
done
exit 1
