#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The DCO vs userspace data-plane benchmark (issue 15 part 6) in one QEMU/TCG boot of Debian's 6.1 kernel
# (tests/vm/lib.sh, as kmod.vm): insmod braid_dco, tests/kmod/dco_bench.sh, rmmod. Writes the guest's JSON
# to $1 (default: build/bench/dco_vs_user.json). Not a ctest (several minutes of emulated CPU); run by hand:
#   BRAID_KMOD_KO=build/kmod/src/braid_dco.ko BRAID_VM_WORK=build tests/kmod/vm_bench.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
ko=${BRAID_KMOD_KO:?BRAID_KMOD_KO: path of braid_dco.ko}
work=${BRAID_VM_WORK:?BRAID_VM_WORK: the build tree (bin/braidd, braid_dco.ko under it)}
out=${1:-$work/bench/dco_vs_user.json}
cache=${BRAID_VM_CACHE:-$work/vm-kmod}
# shellcheck source=../vm/lib.sh
. "$src/tests/vm/lib.sh"
msg=$(vm_require) || { echo "FAIL: $msg"; exit 1; }
[ -s "$ko" ] && [ -x "$work/bin/braidd" ] || { echo "FAIL: build braid_dco and braidd first"; exit 1; }
kv=$(vm_kver)
mkdir -p "$cache" "$(dirname "$out")"
vm_vmlinux "$kv" "$cache" >/dev/null || exit 1
vm_initrd_9p "$kv" "$cache" >/dev/null || exit 1
log=$cache/bench-$$.log
t0=$(date +%s)
VM_SRC=$src VM_TIMEOUT=900 vm_run_9p "$kv" "$cache" "$work" "$log" \
	"modprobe -a udp_tunnel ip6_udp_tunnel; insmod $ko && sh $src/tests/kmod/dco_bench.sh $src $work; r=\$?; rmmod braid_dco; exit \$r"
rc=$?
cat "$log"
# the host's load average beside the figures: TCG time is the host's, a busy host slows both sides
sed -n 's/^bench-json: //p' "$log" | tr -d '\r' | tail -1 |
	python3 -c 'import json, sys; d = json.loads(sys.stdin.read() or "{}"); d["host_loadavg_end"] = sys.argv[1] if d else None
print(json.dumps(d, sort_keys=True) if d else "")' "$(cut -d' ' -f1-3 /proc/loadavg)" >"$out"
rm -f "$log"
echo "vm_bench: guest status $rc, $(($(date +%s) - t0)) s; $(cat "$out")"
[ -s "$out" ] || rc=1
exit "$rc"
