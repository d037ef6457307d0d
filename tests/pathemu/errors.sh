#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# pathemu control and option errors: a bad control command gets an "error:" line naming it (pathemu-ctl exits
# 1) and the emulator keeps serving; a bad option exits 2 with a message naming the token; a second emulator
# on a busy control socket or queue refuses to start; pathemu-ctl to nowhere exits 2.
source "$(dirname "$0")/common.sh"
tb_setup -n 1
tb_emu_start 1
pe=$BRAID_BIN_DIR/pathemu
ctl=$BRAID_BIN_DIR/pathemu-ctl
sock=$TB_DIR/emu-1-up.sock

# expect_ctl WANT_RC WANT_REPLY ARGS...
expect_ctl() {
	local want_rc=$1 want=$2 out rc=0
	shift 2
	out=$("$ctl" "$sock" "$@" 2>&1) || rc=$?
	[ "$rc" = "$want_rc" ] && [ "$out" = "$want" ] ||
		fail "pathemu-ctl $*: exit $rc '$out', want exit $want_rc '$want'"
	echo "ok: '$(head -c 40 <<<"$*")' -> $out"
}
expect_ctl 1 "error: unknown command 'frobnicate' (set down blackhole up stats quit)" frobnicate
expect_ctl 1 "error: set: unknown parameter 'speed'" set speed=10
expect_ctl 1 "error: set: bad value 'fast' for rate (want a rate in Mbit/s, 0..100000)" set rate=fast
expect_ctl 1 "error: set: bad value '1,2' for ge (want p,r,1-k,1-h as four percentages 0..100, or off)" set ge=1,2
expect_ctl 1 "error: set: 'delay' is not key=value" set delay
expect_ctl 1 "error: 'stats' takes no arguments, got 'now'" stats now
expect_ctl 0 "ok up" up
# long garbage does not crash it
expect_ctl 1 "error: command longer than 511 bytes" "$(head -c 1500 /dev/zero | tr '\0' x)"
s=$(pe_stats 1 up)
[ "$(pe_field "$s" state)" = up ] || fail "emulator state after errors: $s"

# expect_opt WANT_MSG ARGS...: exit 2 and the message on stderr's first line
expect_opt() {
	local want=$1 out rc=0
	shift
	out=$(tb_exec "${TB_R[1]}" "$pe" "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = 2 ] && [ "$(head -1 <<<"$out")" = "$want" ] ||
		fail "pathemu $*: exit $rc '$(head -1 <<<"$out")', want exit 2 '$want'"
	echo "ok: pathemu $* -> exit 2, $want"
}
expect_opt "pathemu: option -r: bad value 'fast' for rate (want a rate in Mbit/s, 0..100000)" -q 7 -c "$TB_DIR/x.sock" -r fast
expect_opt "pathemu: option -l: bad value '150' for loss (want a loss percentage, 0..100)" -q 7 -c "$TB_DIR/x.sock" -l 150
expect_opt "pathemu: unknown option '--warp'" -q 7 -c "$TB_DIR/x.sock" --warp 9
expect_opt "pathemu: unknown option '-z'" -q 7 -c "$TB_DIR/x.sock" -z
expect_opt "pathemu: option '-d' needs a value" -q 7 -c "$TB_DIR/x.sock" -d
expect_opt "pathemu: missing -q QNUM" -c "$TB_DIR/x.sock"
expect_opt "pathemu: bad value 'one' for -q (want a queue number 0..65535)" -q one -c "$TB_DIR/x.sock"

# a live control socket and a bound queue are not taken over
rc=0
out=$(tb_exec "${TB_R[1]}" "$pe" -q 9 -c "$sock" 2>&1) || rc=$?
[ "$rc" = 1 ] && [ "$out" = "pathemu: control socket '$sock': another process answers there" ] ||
	fail "second emulator on a live socket: exit $rc '$out'"
echo "ok: live control socket refused"
rc=0
out=$(tb_exec "${TB_R[1]}" "$pe" -q 1 -c "$TB_DIR/other.sock" 2>&1) || rc=$?
[ "$rc" = 1 ] && [ "$out" = "pathemu: NFQUEUE 1: Operation not permitted (queue bound by another process, or no CAP_NET_ADMIN)" ] ||
	fail "second emulator on queue 1: exit $rc '$out'"
[ ! -e "$TB_DIR/other.sock" ] || fail "failed start left its control socket"
echo "ok: busy queue refused ($out)"
expect_ctl 0 "ok up" up

rc=0
out=$("$ctl" "$TB_DIR/none.sock" stats 2>&1) || rc=$?
[ "$rc" = 2 ] && [[ $out == "pathemu-ctl: cannot reach '$TB_DIR/none.sock': "* ]] || fail "ctl to nowhere: exit $rc '$out'"
echo "ok: $out"
rc=0
"$ctl" "$sock" >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "pathemu-ctl without a command: exit $rc, want 2"
expect_ctl 0 "ok bye" quit
