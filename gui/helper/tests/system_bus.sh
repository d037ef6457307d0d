#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# helper.system_bus: braid-helper on a private system bus (dbus-daemon --system-like config in a tmp dir, with
# the packaged bus policy packaging/dbus/net.braid.Helper1.conf and polkit's own) with the real polkitd (in a
# mount namespace that shows it packaging/polkit/net.braid.policy and a test rule allowing `nobody`), braidd in a
# network namespace. Callers are unprivileged users (setpriv):
#   nobody, allowed profile  -> braidd starts; nobody speaks on the management socket (pid = braidd's);
#                               `daemon` is turned away by braidd (management-client-user)
#   nobody, refused profile  -> the exact error naming the line and directive, no braidd started
#   daemon (no rule)         -> polkit's denial
#   Disconnect of another user's session -> NoSession; the owner's Disconnect -> braidd gone, its directory gone
set -euo pipefail
src=${BRAID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
bin=${BRAID_BIN_DIR:?}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
polkitd=/usr/lib/polkit-1/polkitd
for t in dbus-daemon busctl setpriv unshare ip "$polkitd"; do
	command -v "$t" >/dev/null || { echo "SKIP: $t missing (packages dbus-daemon polkitd util-linux)"; exit 77; }
done
id nobody >/dev/null && id daemon >/dev/null

tmp=$(mktemp -d /tmp/bh-bus.XXXXXX)
chmod 755 "$tmp"
ns=bh$$
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*.log; do echo "--- $f"; tail -n 20 "$f"; done; exit 1; }

# --- the bus: a system bus's default policy, the packaged helper policy, polkit's policy
bus=unix:path=$tmp/system_bus_socket
cat >"$tmp/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>$bus</listen>
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
EOF
dbus-daemon --config-file="$tmp/bus.conf" --nofork --nopidfile >"$tmp/dbus.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$tmp/system_bus_socket" ] && break; sleep 0.05; done
[ -S "$tmp/system_bus_socket" ] || fail "dbus-daemon did not start"
export DBUS_SYSTEM_BUS_ADDRESS=$bus

# --- polkitd: its own binary and rules engine; this tree's action; the test rule allows nobody
mkdir -p "$tmp/actions" "$tmp/rules" "$tmp/etc-rules"
cp "$src/packaging/polkit/net.braid.policy" "$tmp/actions/"
cp /usr/share/polkit-1/rules.d/50-default.rules "$tmp/rules/" 2>/dev/null || true
cat >"$tmp/rules/10-braid-test.rules" <<'EOF'
polkit.addRule(function(action, subject) {
    if (action.id == "net.braid.connect" && subject.user == "nobody")
        return polkit.Result.YES;
});
EOF
chmod -R a+rX "$tmp/actions" "$tmp/rules" "$tmp/etc-rules"
unshare -m --propagation private sh -c "
	mount --bind '$tmp/actions' /usr/share/polkit-1/actions &&
	mount --bind '$tmp/rules' /usr/share/polkit-1/rules.d &&
	{ [ ! -d /etc/polkit-1/rules.d ] || mount --bind '$tmp/etc-rules' /etc/polkit-1/rules.d; } &&
	exec $polkitd --no-debug" >"$tmp/polkitd.log" 2>&1 &
pids+=($!)
bctl() { busctl --address="$bus" "$@"; }
for _ in $(seq 200); do bctl status org.freedesktop.PolicyKit1 >/dev/null 2>&1 && break; sleep 0.05; done
bctl status org.freedesktop.PolicyKit1 >/dev/null 2>&1 || fail "polkitd did not take its name"

# --- the helper as root; braidd runs in a network namespace of its own
ip netns add "$ns"
ip netns exec "$ns" "$bin/braid-helper" --braidd "$bin/braidd" --rundir "$tmp/run" >"$tmp/helper.log" 2>&1 &
pids+=($!)
for _ in $(seq 200); do bctl status net.braid.Helper1 >/dev/null 2>&1 && break; sleep 0.05; done
bctl status net.braid.Helper1 >/dev/null 2>&1 || fail "braid-helper did not take net.braid.Helper1"

# Connect as USER with FILE's bytes; prints busctl's reply or "ERR <message>"
connect_as() {
	local user=$1 file=$2 bytes
	bytes=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print(len(d), *d)' "$file")
	# shellcheck disable=SC2086
	setpriv --reuid "$user" --regid "$(id -g "$user")" --clear-groups \
		busctl --address="$bus" call net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 Connect \
		'aya{sv}' $bytes 1 name s test 2>&1 | sed 's/^Call failed: /ERR /' || true
}

good=$src/gui/tests/fixtures/01-access-server-userlogin.ovpn
# 1. nobody, allowed profile
out=$(connect_as nobody "$good")
[[ $out =~ ^ss\ \"([0-9]+)\"\ \"([^\"]+)\"$ ]] || fail "connect as nobody: $out"
sid=${BASH_REMATCH[1]}
sock=${BASH_REMATCH[2]}
[ "$sock" = "$tmp/run/$sid/mgmt.sock" ] || fail "socket path $sock"
mgmt() {	# USER: connect to the socket, send `pid`, print what came back
	setpriv --reuid "$1" --regid "$(id -g "$1")" --clear-groups /usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
buf = b""; end = time.time() + 5
try:
    s.sendall(b"pid\r\n")
    while time.time() < end and b"pid=" not in buf:
        d = s.recv(4096)
        if not d: break
        buf += d
except OSError as e:
    buf += b"OSError " + str(e).encode()
print(buf.decode(errors="replace"))' "$sock" 2>&1
}
reply=$(mgmt nobody)
bpid=$(bctl --json=short call net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 List |
	python3 -c 'import json,sys; d=json.load(sys.stdin)["data"][0]; print([r[3] for r in d if r[0]==sys.argv[1]][0])' "$sid") ||
	fail "List has no session $sid"

grep -q "SUCCESS: pid=$bpid" <<<"$reply" || fail "nobody on the management socket: $reply (braidd pid $bpid)"
[ "$(stat -c %U "$tmp/run/$sid/profile.conf")" = root ] || fail "profile.conf not root's"
[ "$(stat -c %a "$tmp/run/$sid/profile.conf")" = 600 ] || fail "profile.conf not 0600"
grep -q '^management-client-user nobody$' "$tmp/run/$sid/profile.conf" || fail "no management-client-user line"
other=$(mgmt daemon)
! grep -q "SUCCESS: pid=" <<<"$other" || fail "user daemon got an answer on nobody's socket: $other"
echo "ok: nobody connected (session $sid, braidd $bpid), management socket answers nobody only"

# 2. nobody, refused profile: the exact error, nothing started
cp "$good" "$tmp/bad.ovpn"
printf 'script-security 2\nup /bin/touch-root\n' >>"$tmp/bad.ovpn"
n=$(wc -l <"$tmp/bad.ovpn")
out=$(connect_as nobody "$tmp/bad.ovpn")
want="ERR line $((n - 1)): 'script-security' runs a program or loads code as root: refused by braid-helper (a profile started through the helper runs no scripts or plugins)"
[ "$out" = "$want" ] || fail "refused profile: got '$out' want '$want'"
[ "$(ls "$tmp/run")" = "$sid" ] || fail "a refused profile left a session directory: $(ls "$tmp/run")"
echo "ok: refused profile: $out"

# 3. daemon has no rule: polkit's auth_admin with no agent -> denied
out=$(connect_as daemon "$good")
[[ $out == "ERR not authorized by polkit for net.braid.connect"* ]] || fail "daemon's connect: $out"
echo "ok: unauthorized caller: $out"

# 4. Disconnect: another user's session does not exist for them; the owner's ends braidd
out=$(setpriv --reuid daemon --regid "$(id -g daemon)" --clear-groups busctl --address="$bus" call \
	net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 Disconnect s "$sid" 2>&1 || true)
[ "$out" = "Call failed: no session '$sid' of yours" ] || fail "daemon's disconnect: $out"
setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups busctl --address="$bus" call \
	net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 Disconnect s "$sid"
for _ in $(seq 100); do [ ! -e "$tmp/run/$sid" ] && ! kill -0 "$bpid" 2>/dev/null && break; sleep 0.1; done
! kill -0 "$bpid" 2>/dev/null || fail "braidd $bpid still runs after Disconnect"
[ ! -e "$tmp/run/$sid" ] || fail "session directory left after Disconnect"
echo "ok: Disconnect by the owner ended braidd and removed its directory"
echo "helper.system_bus: 4 passed, 0 failed"
