#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# helper.polkit_async: braid-helper keeps serving while polkit has not answered (a password prompt is up).
# A private system bus (bus_lib.sh) with fake_polkit (answers "authorized" only after 4 s, as polkitd does while
# its agent waits for the user) instead of polkitd; braid-helper as root, braidd in a network namespace.
#   1. nobody's Connect is pending at polkit; meanwhile List and Disconnect (of another caller) are answered and
#      the Connect's caller is still waiting when they are;
#   2. polkit says yes: the Connect is answered with braidd's socket (the session in List);
#   3. a Connect pending while the helper gets SIGTERM is answered "braid-helper is stopping".
set -euo pipefail
src=${BRAID_SRC:-$(cd "$(dirname "$0")/../../.." && pwd)}
bin=${BRAID_BIN_DIR:?}
fake=${1:?usage: polkit_async.sh FAKE_POLKIT}
source "$(dirname "$0")/bus_lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
bh_require
id nobody >/dev/null && id polkitd >/dev/null

bh_scratch bha

bh_bus_start "$tmp" "$src" || fail "dbus-daemon did not start"
pids+=("$BH_LAST_PID")
setpriv --reuid polkitd --regid "$(id -g polkitd)" --clear-groups "$fake" --delay-ms 4000 >"$tmp/polkit.out" 2>&1 &
pids+=($!)
bh_wait_name org.freedesktop.PolicyKit1 || fail "fake_polkit did not take its name"
ip netns add "$ns"
start_helper() {
	ip netns exec "$ns" "$bin/braid-helper" --braidd "$bin/braidd" --rundir "$tmp/run" >>"$tmp/helper.log" 2>&1 &
	helper=$!
	pids+=("$helper")
	bh_wait_name net.braid.Helper1 || fail "braid-helper did not take net.braid.Helper1"
}
start_helper

connect_bg() {	# OUT: nobody's Connect in the background; its pid in cpid
	local bytes
	bytes=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print(len(d), *d)' \
		"$src/gui/tests/fixtures/01-access-server-userlogin.ovpn")
	# shellcheck disable=SC2086
	setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups busctl --address="$BH_BUS" --timeout=30 \
		call net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 Connect 'aya{sv}' $bytes 1 name s async \
		>"$1" 2>&1 &
	cpid=$!
}
wait_checks() {	# N: until fake_polkit was asked N times
	for _ in $(seq 100); do [ "$(grep -c '^check net.braid.connect ' "$tmp/polkit.out")" -ge "$1" ] && return 0; sleep 0.05; done
	return 1
}

# 1. while polkit thinks, the helper answers others
connect_bg "$tmp/connect1.out"
wait_checks 1 || fail "the helper did not ask polkit"
list=$(busctl --address="$BH_BUS" --timeout=3 call net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 List 2>&1) ||
	fail "List not answered while polkit is asked: $list"
kill -0 "$cpid" 2>/dev/null || fail "Connect was answered before polkit's answer: $(cat "$tmp/connect1.out")"
[ "$list" = "a(sssu) 0" ] || fail "List during the pending Connect: $list"
disc=$(setpriv --reuid daemon --regid "$(id -g daemon)" --clear-groups busctl --address="$BH_BUS" --timeout=3 call \
	net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 Disconnect s 1 2>&1 || true)
[ "$disc" = "Call failed: no session '1' of yours" ] || fail "Disconnect during the pending Connect: $disc"
kill -0 "$cpid" 2>/dev/null || fail "Connect was answered before polkit's answer"
echo "ok: List and Disconnect answered while nobody's Connect waits for polkit"

# 2. polkit's yes arrives: the Connect completes
wait "$cpid" || fail "Connect failed: $(cat "$tmp/connect1.out")"
out=$(cat "$tmp/connect1.out")
[[ $out =~ ^ss\ \"([0-9]+)\"\ \"$tmp/run/([0-9]+)/mgmt.sock\"$ ]] || fail "Connect's reply: $out"
sid=${BASH_REMATCH[1]}
busctl --address="$BH_BUS" call net.braid.Helper1 /net/braid/Helper1 net.braid.Helper1 List | grep -q "\"$sid\" \"async\"" ||
	fail "session $sid not in List"
echo "ok: Connect answered after polkit's yes: session $sid"

# 3. a Connect still waiting when the helper stops gets an answer, not a timeout
connect_bg "$tmp/connect2.out"
wait_checks 2 || fail "the helper did not ask polkit the second time"
kill -TERM "$helper"
wait "$helper" || fail "braid-helper exited $? on SIGTERM"
wait "$cpid" && fail "Connect succeeded although the helper stopped"
[ "$(cat "$tmp/connect2.out")" = "Call failed: braid-helper is stopping" ] ||
	fail "pending Connect at helper exit: $(cat "$tmp/connect2.out")"
echo "ok: a Connect pending at SIGTERM is answered 'braid-helper is stopping'"
echo "helper.polkit_async: 3 passed, 0 failed"
