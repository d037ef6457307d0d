# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# bus_lib.sh - a private D-Bus system bus and the real polkitd for braid-helper's tests (helper.system_bus,
# gui_e2e_netns). Root only. The caller owns cleanup: each start function leaves its process id in BH_LAST_PID.
#
# bh_bus_start DIR SRC        dbus-daemon with a system bus's default policy, SRC's packaged helper policy and
#                             polkit's; socket DIR/system_bus_socket; sets BH_BUS (the address) and exports
#                             DBUS_SYSTEM_BUS_ADDRESS
# bh_polkit_start DIR SRC USER  polkitd in a mount namespace that shows it SRC's net.braid.policy and a rule
#                             allowing USER net.braid.connect (every other user gets the action's defaults)
# bh_wait_name NAME           wait (10 s) until NAME is owned on BH_BUS; returns 1 if it is not
BH_POLKITD=/usr/lib/polkit-1/polkitd

bh_require() {
	local t
	for t in dbus-daemon busctl setpriv unshare ip "$BH_POLKITD"; do
		command -v "$t" >/dev/null || { echo "FAIL: $t missing (packages dbus-daemon polkitd util-linux)"; exit 1; }
	done
}

bh_wait_name() {
	local _
	for _ in $(seq 200); do busctl --address="$BH_BUS" status "$1" >/dev/null 2>&1 && return 0; sleep 0.05; done
	return 1
}

bh_bus_start() {
	local dir=$1 src=$2 _
	BH_BUS=unix:path=$dir/system_bus_socket
	cat >"$dir/bus.conf" <<EOC
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>$BH_BUS</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
  </policy>
  <include ignore_missing="no">$src/packaging/dbus/net.braid.Helper1.conf</include>
  <include ignore_missing="no">/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf</include>
</busconfig>
EOC
	dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile >"$dir/dbus.log" 2>&1 &
	BH_LAST_PID=$!
	for _ in $(seq 100); do [ -S "$dir/system_bus_socket" ] && break; sleep 0.05; done
	[ -S "$dir/system_bus_socket" ] || return 1
	export DBUS_SYSTEM_BUS_ADDRESS=$BH_BUS
}

bh_polkit_start() {
	local dir=$1 src=$2 user=$3
	mkdir -p "$dir/actions" "$dir/rules" "$dir/etc-rules"
	cp "$src/packaging/polkit/net.braid.policy" "$dir/actions/"
	cp /usr/share/polkit-1/rules.d/50-default.rules "$dir/rules/" 2>/dev/null || true
	cat >"$dir/rules/10-braid-test.rules" <<EOC
polkit.addRule(function(action, subject) {
    if (action.id == "net.braid.connect" && subject.user == "$user")
        return polkit.Result.YES;
});
EOC
	chmod -R a+rX "$dir/actions" "$dir/rules" "$dir/etc-rules"
	unshare -m --propagation private sh -c "
		mount --bind '$dir/actions' /usr/share/polkit-1/actions &&
		mount --bind '$dir/rules' /usr/share/polkit-1/rules.d &&
		{ [ ! -d /etc/polkit-1/rules.d ] || mount --bind '$dir/etc-rules' /etc/polkit-1/rules.d; } &&
		exec $BH_POLKITD --no-debug" >"$dir/polkitd.log" 2>&1 &
	BH_LAST_PID=$!
	bh_wait_name org.freedesktop.PolicyKit1
}

# bh_scratch TAG: a scratch dir $tmp (mode 755: nobody reads it), a netns name $ns, the pid list $pids, a cleanup
# on exit (kill and reap $pids, delete $ns and $tmp) and fail MSG (prints every log/out file of $tmp, exits 1)
bh_scratch() {
	tmp=$(mktemp -d "/tmp/$1.XXXXXX")
	chmod 755 "$tmp"
	ns=$1$$
	pids=()
	trap _bh_cleanup EXIT
	fail() {
		echo "FAIL: $*"
		for f in "$tmp"/*.log "$tmp"/*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
		exit 1
	}
}
_bh_cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
