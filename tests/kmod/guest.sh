# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM (tests/kmod/vm_kmod.sh): insmod, the netlink, data-path and interop tests,
# braidd's `dco on` probe with the module loaded, rmmod, the probe again with it absent, then the module's
# unload summary must say the created/destroyed balance is ok. $1: braid_dco.ko, $2: the source tree,
# $3: the build tree.
ko=$1 src=$2 build=$3 fail=0
echo "guest: kernel $(uname -r)"
modprobe -a udp_tunnel ip6_udp_tunnel || echo "not ok - modprobe udp_tunnel ip6_udp_tunnel"
insmod "$ko" || { echo "not ok - insmod $ko"; exit 1; }
echo "ok - insmod"
python3 -B "$src/tests/kmod/dco_netlink.py" || fail=1
sh "$src/tests/kmod/dco_data.sh" "$src" "$build" || fail=1
sh "$src/tests/kmod/dco_interop.sh" "$src" "$build" || fail=1
sh "$src/tests/kmod/dco_braidd.sh" "$src" "$build" || fail=1
sh "$src/tests/kmod/dco_probe.sh" "$build" loaded || fail=1
python3 -B "$src/tests/kmod/dco_prog.py" || fail=1
sh "$src/tests/kmod/dco_bpf.sh" "$src" "$build" || fail=1
if rmmod braid_dco; then echo "ok - rmmod"; else echo "not ok - rmmod"; fail=1; fi
sh "$src/tests/kmod/dco_probe.sh" "$build" absent || fail=1
dmesg | grep 'braid_dco:' | sed 's/^/dmesg: /'
if dmesg | grep -q 'braid_dco: balance ok'; then
	echo "ok - unload balance ok"
else
	echo "not ok - unload balance (no 'balance ok' line)"
	fail=1
fi
if dmesg | grep -Eq 'BUG:|WARNING:|Oops|UBSAN|KASAN|refcount_t'; then
	echo "not ok - kernel warnings:"
	dmesg | grep -E -A20 'BUG:|WARNING:|Oops|UBSAN|KASAN|refcount_t' | head -60
	fail=1
fi
exit $fail
