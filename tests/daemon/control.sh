#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd's control socket and braidctl on two emulated paths (path 1: 20 Mbit/s 5 ms, path 2: 20 Mbit/s 20 ms).
#
#   cli (braidd, control-socket $TB_DIR/cli.sock) ══ path 1 (index 0) / path 2 (index 1) ══ srv
#
# 1. socket mode 0600; `braidctl status` shows both paths active; --json passes braidd's JSON through.
# 2. `set scheduler ratio 1:0` at run time: a 2 s iperf3 upload goes to path index 0 only (per-path byte
#    counters before/after), then `ratio 0:1` moves the next one to index 1; the status names the scheduler.
# 3. `set path 1 backup` makes index 1 standby, `active` brings it back; cap/nocap by local address.
# 4. bad commands: exact errors from braidd (exit 1) and from braidctl (usage, exit 2); raw protocol replies.
# 5. `mp-class port 5201 lowest-delay` under `ratio 0:1`: the 5201 flow runs on the lower-RTT path (index 0),
#    a 5202 flow on index 1 as the scheduler says.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
BRAIDCTL=${BRAIDCTL:-$BRAID_BIN_DIR/braidctl}
[ -x "$BRAIDCTL" ] || { echo "FAIL: braidctl not built ($BRAIDCTL)" >&2; exit 1; }
command -v iperf3 >/dev/null || { echo "SKIP: no iperf3"; exit 77; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 20 >/dev/null
tb_bg "$TB_SRV" iperf3 -s -p 5201 >/dev/null 2>&1
tb_bg "$TB_SRV" iperf3 -s -p 5202 >/dev/null 2>&1
SOCK=$TB_DIR/cli.sock
ctl() { "$BRAIDCTL" -s "$SOCK" "$@"; }
# tx bytes of path index I (client side), from the control socket
txb() { ctl status --json | jq --argjson i "$1" '[.paths[] | select(.index == $i) | .tx_bytes] | add // 0'; }
pstate() { ctl status --json | jq -r --argjson i "$1" '.paths[] | select(.index == $i) | .state'; }
# expect_err WANT_RC WANT_STDERR CMD...: exact exit code and stderr
expect_err() {
	local want_rc=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = "$want_rc" ] || fail "$*: exit $rc, want $want_rc ($out)"
	[ "$out" = "$want" ] || fail "$*: stderr '$out', want '$want'"
}
# upload PORT: 2 s iperf3 upload; echo the tx byte deltas of index 0 and 1
upload() {
	local a0 a1 b0 b1
	a0=$(txb 0) a1=$(txb 1)
	tb_exec "$TB_CLI" iperf3 -c 10.200.0.1 -p "$1" -t 2 "${@:2}" >"$TB_DIR/iperf.txt" 2>&1 || {
		cat "$TB_DIR/iperf.txt" >&2
		fail "iperf3 upload to port $1 failed"
	}
	b0=$(txb 0) b1=$(txb 1)
	echo "$((b0 - a0)) $((b1 - a1))"
}

mp_pair 2 "mp-scheduler edf" -- "mp-scheduler edf" "control-socket $SOCK"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping"
mp_wait_paths cli 2 active 5 || fail "paths not active"

# 1. socket, status
[ "$(stat -c %a "$SOCK")" = 600 ] || fail "control socket mode $(stat -c %a "$SOCK"), want 600"
ctl status >"$TB_DIR/status.txt" || fail "braidctl status failed"
[ "$(grep -cE '^[01] +10\.[12]\.1\.2:[0-9]+ +10\.[12]\.2\.2:1194 +active ' "$TB_DIR/status.txt")" = 2 ] || {
	cat "$TB_DIR/status.txt" >&2
	fail "status table does not show both paths active"
}
grep -q '^  scheduler: edf$' "$TB_DIR/status.txt" || fail "status table does not name the scheduler"
[ "$(ctl status --json | jq '.version, (.paths | length)' | tr '\n' ' ')" = "1 2 " ] || fail "status --json"
[ "$(ctl version)" = "$(printf 'protocol 1\nbraidd 0.1.0')" ] || fail "version: $(ctl version)"
echo "ok: status table with both paths active, socket 0600"

# 2. scheduler at run time
ctl set scheduler ratio 1:0 || fail "set scheduler ratio 1:0"
[ "$(ctl status --json | jq -r .scheduler)" = "ratio 1:0" ] || fail "status does not show ratio 1:0"
read -r d0 d1 < <(upload 5201)
[ "$d0" -gt 2000000 ] && [ "$d1" -le $((d0 / 100)) ] || fail "ratio 1:0: want index 0 only, got $d0 / $d1 bytes"
echo "ok: set scheduler ratio 1:0 -> index 0 $d0 B, index 1 $d1 B"
ctl set scheduler ratio 0:1 || fail "set scheduler ratio 0:1"
read -r d0 d1 < <(upload 5201)
[ "$d1" -gt 2000000 ] && [ "$d0" -le $((d1 / 100)) ] || fail "ratio 0:1: want index 1 only, got $d0 / $d1 bytes"
echo "ok: set scheduler ratio 0:1 -> index 0 $d0 B, index 1 $d1 B"
ctl set scheduler edf || fail "set scheduler edf"

# 3. paths
ctl set path 1 backup || fail "set path 1 backup"
[ "$(pstate 1)" = standby ] || fail "path 1 is $(pstate 1) after backup, want standby"
[ "$(ctl status --json | jq '.paths[] | select(.index == 1) | .backup')" = true ] || fail "path 1 not flagged backup"
[ "$(pstate 0)" = active ] || fail "path 0 is $(pstate 0), want active"
ctl set path 1 active || fail "set path 1 active"
[ "$(pstate 1)" = active ] || fail "path 1 is $(pstate 1) after active, want active"
ctl set path "$(tb_cli_addr 2)" cap 5 || fail "set path ADDR cap 5"
[ "$(ctl status --json | jq '.paths[] | select(.index == 1) | .cap_mbit')" = 5 ] || fail "cap not 5 Mbit/s"
ctl set path "$(tb_cli_addr 2)" nocap || fail "set path ADDR nocap"
[ "$(ctl status --json | jq '.paths[] | select(.index == 1) | .cap_mbit')" = 0 ] || fail "cap not removed"
echo "ok: set path backup/active (standby and back), cap/nocap by local address"

# 4. errors
expect_err 1 "braidctl: braidd: set path: no path 9" ctl set path 9 backup
expect_err 1 "braidctl: braidd: set path: no path with local address 10.9.9.9" ctl set path 10.9.9.9 backup
expect_err 1 "braidctl: braidd: set path: 'eth9x' is not a path index, local address or interface" \
	ctl set path eth9x backup
expect_err 1 "braidctl: braidd: set scheduler: unknown scheduler 'fastest' (edf, rtt, ratio A:B, mpip, lowest-rtt, backup, redundant)" \
	ctl set scheduler fastest
expect_err 1 "braidctl: braidd: set scheduler: ratio '0:0' has no nonzero weight" ctl set scheduler ratio 0:0
expect_err 1 "braidctl: braidd: set path: bad cap 'lots' (Mbit/s, > 0, <= 1000000)" ctl set path 0 cap lots
out=$(ctl frobnicate 2>&1); rc=$?
[ $rc = 2 ] && [ "$(echo "$out" | head -n1)" = "braidctl: unknown command 'frobnicate'" ] || fail "unknown command: $rc $out"
out=$(ctl set path 1 2>&1); rc=$?
[ $rc = 2 ] && [ "$(echo "$out" | head -n1)" = "braidctl: set: missing the action" ] || fail "usage: $rc $out"
out=$("$BRAIDCTL" -s "$TB_DIR/nope.sock" status 2>&1); rc=$?
[ $rc = 1 ] && [[ $out == "braidctl: cannot connect to $TB_DIR/nope.sock: No such file or directory"* ]] || fail "no socket: $rc $out"
# raw protocol: several requests on one connection, bad ones named
raw=$(printf 'bogus\nset path 0 fly\n\x01\nversion\n' | python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.stdin.buffer.read()); s.shutdown(socket.SHUT_WR)
b = b""
while True:
    d = s.recv(65536)
    if not d: break
    b += d
sys.stdout.write(b.decode())' "$SOCK")
want=$(printf "error: unknown command 'bogus' (status, paths, clients, kill, version, set)\n\nerror: set path: unknown action 'fly' (backup, active, cap MBIT, nocap)\n\nerror: request contains control character 0x01 at byte 1\n\nok\nprotocol 1\nbraidd 0.1.0\n")
[ "$raw" = "$want" ] || fail "raw replies: '$raw'"
kill -0 "${BD_PID[cli]}" || fail "braidd died"
echo "ok: bad commands give exact errors (daemon exit 1, usage exit 2), daemon still up"
bd_stop cli || fail "cli exit $?"
[ -e "$SOCK" ] && fail "control socket left behind"
bd_stop srv || fail "srv exit $?"

# 5. a class rule: port 5201 on the lowest-delay path although the scheduler sends bulk to index 1
mp_pair 2 "mp-scheduler edf" -- "mp-scheduler ratio 0:1" "control-socket $SOCK" "mp-class port 5201 lowest-delay"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "class: no ping"
mp_wait_paths cli 2 active 5 || fail "class: paths not active"
sleep 0.5	# a few RTT samples on both paths
# 1 Mbit/s: below the first pacing rate of a path, so the earliest-delivery choice of the latency class
# does not spill to index 1 while index 0's rate estimate is still growing (measured: ~94 % on index 0)
read -r d0 d1 < <(upload 5201 -b 1M)
[ "$d0" -gt 200000 ] && [ "$d0" -gt $((d1 * 9)) ] || fail "mp-class port 5201: want >= 90 % on index 0, got $d0 / $d1 bytes"
echo "ok: mp-class port 5201 lowest-delay -> index 0 (5 ms) $d0 B, index 1 (20 ms) $d1 B"
read -r d0 d1 < <(upload 5202 -b 1M)
[ "$d1" -gt 200000 ] && [ "$d0" -le $((d1 / 20)) ] || fail "port 5202 (no rule): want index 1, got $d0 / $d1 bytes"
echo "ok: port 5202 (no rule) -> index 0 $d0 B, index 1 $d1 B (ratio 0:1)"
bd_stop cli || fail "cli exit $?"
bd_stop srv || fail "srv exit $?"
echo "PASS"
