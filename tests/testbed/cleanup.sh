#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bed leaves nothing behind on every exit path: normal exit, error exit (set -e), SIGTERM, SIGINT,
# a process that ignores SIGTERM. Two beds run at once without colliding.
set -uo pipefail
here=$(dirname "$0")
[ "$(id -u)" -eq 0 ] || exit 77
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A child script that builds a bed, starts processes in it (one ignoring SIGTERM), writes its id, then ends
# as told: exit0 | error | wait (to be signalled).
cat >"$tmp/child.sh" <<CHILD
set -euo pipefail
source "$here/../lib/testbed.sh"
tb_setup -n 2
tb_bg "\$TB_SRV" sleep 300
tb_bg "\$TB_CLI" bash -c 'trap "" TERM; while :; do sleep 1; done'
tb_bg "\${TB_R[1]}" sleep 300
echo "\$TB_ID" > "\$1"
case \$2 in
exit0) exit 0 ;;
error) false ;;
wait) while :; do sleep 0.1; done ;;
esac
CHILD

leftovers() { # id
	local n p
	n=$(ip netns list | grep -c "^$1-")
	p=$(pgrep -f "braid-tb-$1" | wc -l)
	[ -d /tmp ] && ls -d /tmp/braid-tb-"$1".* >/dev/null 2>&1 && echo "state dir of $1 left"
	[ "$n" -eq 0 ] || echo "$n namespaces of $1 left"
	[ "$p" -eq 0 ] || echo "$p processes of $1 left"
}

for how in exit0 error TERM INT; do
	idf=$tmp/id.$how
	case $how in
	exit0 | error) bash "$tmp/child.sh" "$idf" "$how" 2>/dev/null ;;
	TERM | INT)
		# a background job of a non-interactive shell starts with SIGINT ignored (and an ignored signal cannot be
		# trapped): give the child the default disposition back, as a shell started from a terminal has it
		env --default-signal=INT bash "$tmp/child.sh" "$idf" wait 2>/dev/null &
		pid=$!
		for _ in $(seq 100); do [ -s "$idf" ] && break; sleep 0.1; done
		[ -s "$idf" ] || fail "$how: child never came up"
		kill -"$how" "$pid"
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "$how: child did not exit within 10 s"; }
		wait "$pid"
		;;
	esac
	[ -s "$idf" ] || fail "$how: child wrote no id"
	id=$(cat "$idf")
	left=$(leftovers "$id")
	[ -z "$left" ] || fail "$how: $left"
	echo "ok: exit by $how leaves nothing behind ($id)"
done

# Two beds at once: both build, both reach their own server, neither sees the other's namespaces.
bash -c "set -e; source $here/../lib/testbed.sh; tb_setup -n 2; tb_exec \"\$TB_CLI\" ping -c3 -i0.2 -W2 -q 10.2.2.2 >/dev/null; echo \$TB_ID > $tmp/p1" 2>/dev/null &
a=$!
bash -c "set -e; source $here/../lib/testbed.sh; tb_setup -n 2; tb_exec \"\$TB_CLI\" ping -c3 -i0.2 -W2 -q 10.2.2.2 >/dev/null; echo \$TB_ID > $tmp/p2" 2>/dev/null &
b=$!
wait $a || fail "parallel bed 1 failed"
wait $b || fail "parallel bed 2 failed"
[ "$(cat "$tmp/p1")" != "$(cat "$tmp/p2")" ] || fail "parallel beds got the same id"
for f in p1 p2; do left=$(leftovers "$(cat "$tmp/$f")"); [ -z "$left" ] || fail "parallel: $left"; done
echo "ok: two parallel beds, distinct ids, nothing left"
