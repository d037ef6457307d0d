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
source "$(dirname "$0")/bus_lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
bh_require
id nobody >/dev/null && id daemon >/dev/null

bh_scratch bh

# --- the bus (bus_lib.sh): a system bus's default policy, the packaged helper policy, polkit's policy
bh_bus_start "$tmp" "$src" || fail "dbus-daemon did not start"
pids+=("$BH_LAST_PID")
bus=$BH_BUS
# --- polkitd: its own binary and rules engine; this tree's action; the test rule allows nobody
bh_polkit_start "$tmp" "$src" nobody || { pids+=("$BH_LAST_PID"); fail "polkitd did not take its name"; }
pids+=("$BH_LAST_PID")
bctl() { busctl --address="$bus" "$@"; }

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
