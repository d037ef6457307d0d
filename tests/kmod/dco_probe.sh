# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM (tests/kmod/guest.sh): braidd's `dco` probe (daemon/dataplane/dco_select.c) against
# the real module. $1: the build tree (bin/braidd), $2: loaded|absent (braid_dco inserted or removed).
# loaded: `dco on` in static-key mode refuses naming what the kernel backend lacks ("secret");
# absent: `dco on` refuses with "... is not available (generic netlink family 'braid_dco': ...)".
# Both exit 1 before any device is made. Exit status: failures.
braidd=$1/bin/braidd want=$2 w=/tmp/dcop$$ fail=0
mkdir -p $w
openvpn --genkey secret $w/key >/dev/null 2>&1 || { echo "not ok - openvpn --genkey"; exit 1; }
"$braidd" --dev tun --secret $w/key 0 --cipher AES-256-GCM --ifconfig 10.90.0.1 10.90.0.2 --dco on >$w/log 2>&1
rc=$?
case $want in
loaded) pat="dco on: the kernel data plane does not support 'secret (static-key mode)'; not starting" ;;
*) pat="dco on: the braid_dco kernel module is not available (generic netlink family 'braid_dco'" ;;
esac
if [ $rc = 1 ] && grep -qF "$pat" $w/log; then
	echo "ok - braidd dco probe, module $want: exit 1, '$(grep -o 'dco on: .*' $w/log | cut -c1-70)...'"
else
	echo "not ok - braidd dco probe, module $want: exit $rc: $(cat $w/log)"
	fail=1
fi
rm -rf $w
exit $fail
