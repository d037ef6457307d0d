#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidctl on the static-key tunnel's management interface (`control-socket`, a management unix socket;
# docs/man/braidctl.8) on two emulated paths (path 1: 20 Mbit/s 5 ms, path 2: 20 Mbit/s 20 ms).
#
#   cli (braidd, control-socket $TB_DIR/cli.sock) ══ path 1 (id 0, c1) / path 2 (id 1, c2) ══ srv
#
# 1. socket mode 0600, the management banner on it; `braidctl status` shows the session and both paths up;
#    --json carries the path objects of `braid paths`; `braidctl version`.
# 2. `set scheduler ratio 1:0` at run time: a 2 s iperf3 upload goes to path id 0 only (per-path byte
#    counters before/after), then `ratio 0:1` moves the next one to id 1.
# 3. `set path 1 backup` flags id 1 backup, `active` clears it; cap/nocap by local address; disable/enable
#    by interface name; `paths` table and --json; `status --watch`, `log -f`, `log N --json`.
# 4. bad commands: exact errors from braidd (exit 1) and from braidctl (usage, exit 2); no socket, a
#    file that is not a management socket; the gateway commands refused.
# 5. `mp-class port 5201 lowest-delay` under `ratio 0:1`: the 5201 flow runs on the lower-RTT path (id 0),
#    a 5202 flow on id 1 as the scheduler says.
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
# tx bytes of path id I (client side), from braidctl
txb() { ctl status --json | jq --argjson i "$1" '[.paths[] | select(.id == $i) | .tx_bytes] | add // 0'; }
pfield() { ctl paths --json | jq -r --argjson i "$1" ".paths[] | select(.id == \$i) | .$2"; }
# expect_err WANT_RC WANT_STDERR CMD...: exact exit code and stderr (its first line for a usage error)
expect_err() {
	local want_rc=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = "$want_rc" ] || fail "$*: exit $rc, want $want_rc ($out)"
	# a refusal is one line; a usage error adds the usage lines after it
	[ "$(head -n1 <<<"$out")" = "$want" ] && { [ "$want_rc" = 2 ] || [ "$out" = "$want" ]; } ||
		fail "$*: stderr '$out', want '$want'"
}
# upload PORT: 2 s iperf3 upload; echo the tx byte deltas of id 0 and 1 (the path object's tx_bytes are
# wire bytes: the idle path carries probes and acknowledgements, 20-40 KB/s, whatever the load; on a
# busy host (load 17 on 2 cores) the upload reached only 260 KB in its 2 s)
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
banner=$(python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(200).decode().split("\r\n")[0])' "$SOCK")
[ "$banner" = ">INFO:OpenVPN Management Interface Version 5 -- type 'help' for more info" ] || fail "banner '$banner'"
ctl status >"$TB_DIR/status.txt" || fail "braidctl status failed"
grep -qE '^tunnel: CONNECTED \(SUCCESS\) since [0-9-]+ [0-9:]+$' "$TB_DIR/status.txt" &&
	grep -qx '  tunnel address: 10.200.0.2' "$TB_DIR/status.txt" &&
	grep -qE '^  transfer: .* received, .* sent \(inner\); .* received, .* sent \(link\)$' "$TB_DIR/status.txt" ||
	{ cat "$TB_DIR/status.txt" >&2; fail "status header"; }
[ "$(grep -cE '^[01] +c[12] +10\.[12]\.1\.2:[0-9]+ +10\.[12]\.2\.2:1194 +up ' "$TB_DIR/status.txt")" = 2 ] || {
	cat "$TB_DIR/status.txt" >&2
	fail "status table does not show both paths up"
}
[ "$(ctl status --json | jq -r '[.role, .state.name, .state.tun4, (.paths | length), (.tunnel.link_read_bytes > 0)] | map(tostring) | join(" ")')" = \
	"tunnel CONNECTED 10.200.0.2 2 true" ] || fail "status --json: $(ctl status --json)"
[ "$(ctl version | head -n3 | sed 's/ x86_64.*\[Braid/ [Braid/')" = "$(printf 'braidd 0.1.0\nOpenVPN Version: OpenVPN 2.6.14 [Braid 0.1.0]\nManagement Version: 5')" ] ||
	fail "version: $(ctl version)"
[ "$("$BRAIDCTL" --version)" = "braidctl 0.1.0" ] || fail "--version: $("$BRAIDCTL" --version)"
echo "ok: status table with both paths up, socket 0600 with the management banner"

# 2. scheduler at run time
[ "$(ctl set scheduler ratio 1:0)" = "" ] || fail "set scheduler ratio 1:0 printed something"
read -r d0 d1 < <(upload 5201)
[ "$d0" -gt 200000 ] && [ "$d1" -le $((d0 / 30 + 100000)) ] || fail "ratio 1:0: want id 0 only, got $d0 / $d1 bytes"
echo "ok: set scheduler ratio 1:0 -> id 0 $d0 B, id 1 $d1 B"
[ "$(ctl --json set scheduler ratio 0:1)" = '{"ok":true,"message":"braid scheduler set to ratio 0:1"}' ] ||
	fail "set scheduler ratio 0:1 --json"
read -r d0 d1 < <(upload 5201)
[ "$d1" -gt 200000 ] && [ "$d0" -le $((d1 / 30 + 100000)) ] || fail "ratio 0:1: want id 1 only, got $d0 / $d1 bytes"
echo "ok: set scheduler ratio 0:1 -> id 0 $d0 B, id 1 $d1 B"
ctl set scheduler edf || fail "set scheduler edf"

# 3. paths
ctl set path 1 backup || fail "set path 1 backup"
[ "$(pfield 1 backup) $(pfield 0 backup)" = "true false" ] || fail "path 1 not flagged backup"
ctl paths | grep -qE '^1 +c2 +10\.2\.1\.2:[0-9]+ +10\.2\.2\.2:1194 +up,backup ' || fail "paths table: $(ctl paths)"
ctl set path 1 active || fail "set path 1 active"
[ "$(pfield 1 backup)" = false ] || fail "path 1 still backup after active"
ctl set path "$(tb_cli_addr 2)" cap 5 || fail "set path ADDR cap 5"
[ "$(pfield 1 cap_bps)" = 5000000 ] || fail "cap not 5 Mbit/s: $(pfield 1 cap_bps)"
ctl paths | grep -qx '\* path 1 capped at 5.00 Mbit/s' || fail "paths table does not name the cap: $(ctl paths)"
ctl set path "$(tb_cli_addr 2)" nocap || fail "set path ADDR nocap"
[ "$(pfield 1 cap_bps)" = 0 ] || fail "cap not removed"
ctl set path c2 disable || fail "set path c2 disable"
[ "$(pfield 1 state)" = disabled ] || fail "c2 is $(pfield 1 state) after disable"
ctl set path c2 enable || fail "set path c2 enable"
for _ in $(seq 1 50); do [ "$(pfield 1 state)" = up ] && break; sleep 0.1; done
[ "$(pfield 1 state)" = up ] || fail "c2 is $(pfield 1 state) after enable"
[ "$(ctl paths --json | jq -c '[.paths[].id]')" = "[0,1]" ] || fail "paths --json: $(ctl paths --json)"
echo "ok: set path backup/active, cap/nocap by local address, disable/enable by interface"
# status --watch: one JSON object per interval, exit 0 on SIGINT; log -f: a line braidd logs after it started
timeout --preserve-status -s INT 3.5 "$BRAIDCTL" -s "$SOCK" status --watch 1 --json >"$TB_DIR/watch.txt"; rc=$?
[ "$rc" = 0 ] && [ "$(jq -s 'length >= 2 and all(.[]; .state.name == "CONNECTED" and (.paths | length) == 2)' "$TB_DIR/watch.txt")" = true ] ||
	fail "status --watch: exit $rc, $(cat "$TB_DIR/watch.txt")"
"$BRAIDCTL" -s "$SOCK" log -f 0 >"$TB_DIR/logf.txt" &
LOGF_PID=$!
sleep 0.5
ctl set path c2 cap 7 || fail "set path c2 cap 7"
for _ in $(seq 1 50); do grep -q 'MANAGEMENT: braid path c2 cap 7000000 (1 path)$' "$TB_DIR/logf.txt" && break; sleep 0.1; done
kill -INT "$LOGF_PID"
wait "$LOGF_PID"; rc=$?
[ "$rc" = 0 ] && grep -qE '^[0-9-]+ [0-9:]+ I MANAGEMENT: braid path c2 cap 7000000 \(1 path\)$' "$TB_DIR/logf.txt" ||
	fail "log -f: exit $rc, $(cat "$TB_DIR/logf.txt")"
ctl set path c2 nocap || fail "nocap"
[ "$(ctl --json log 3 | jq -s 'length == 3 and all(.[]; has("time") and has("flags") and has("text"))')" = true ] || fail "log 3 --json"
echo "ok: status --watch (JSON per interval, exit 0 on SIGINT), log -f follows, log N --json"

# 4. errors
expect_err 1 "braidctl: braidd: no path 9" ctl set path 9 backup
expect_err 1 "braidctl: braidd: no path 10.9.9.9" ctl set path 10.9.9.9 backup
expect_err 1 "braidctl: braidd: no path eth9x" ctl set path eth9x backup
expect_err 1 "braidctl: braidd: braid scheduler: 'fastest' is not a scheduler (edf, rtt, ratio W0:W1... or ratio IF=W ..., mpip, lowest-rtt, backup, redundant)" \
	ctl set scheduler fastest
expect_err 2 "braidctl: set: cap wants Mbit/s (0-1000000)" ctl set path 0 cap lots
expect_err 2 "braidctl: set: unknown path action" ctl set path 0 fly
expect_err 1 "braidctl: $SOCK is not a gateway (no client list)" ctl clients
expect_err 1 "braidctl: braidd: The 'kill' command is not supported by the current daemon mode" ctl kill client1
out=$(ctl frobnicate 2>&1); rc=$?
[ $rc = 2 ] && [ "$(echo "$out" | head -n1)" = "braidctl: unknown command 'frobnicate'" ] || fail "unknown command: $rc $out"
out=$(ctl set path 1 2>&1); rc=$?
[ $rc = 2 ] && [ "$(echo "$out" | head -n1)" = "braidctl: set: missing the action" ] || fail "usage: $rc $out"
expect_err 1 "braidctl: cannot connect to $TB_DIR/nope.sock: No such file or directory (is braidd running with 'management $TB_DIR/nope.sock unix' or 'control-socket $TB_DIR/nope.sock'? -s SOCKET names another)" \
	"$BRAIDCTL" -s "$TB_DIR/nope.sock" status
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[2], "w").close()
c, _ = s.accept(); c.sendall(b"hello\r\n"); c.recv(10)' "$TB_DIR/other.sock" "$TB_DIR/other.ready" &
OTHER_PID=$!
for _ in $(seq 1 50); do [ -e "$TB_DIR/other.ready" ] && break; sleep 0.1; done
expect_err 1 "braidctl: $TB_DIR/other.sock is not a management interface (it said 'hello')" "$BRAIDCTL" -s "$TB_DIR/other.sock" status
wait "$OTHER_PID"
kill -0 "${BD_PID[cli]}" || fail "braidd died"
echo "ok: bad commands give exact errors (daemon exit 1, usage exit 2), daemon still up"
bd_stop cli || fail "cli exit $?"
[ -e "$SOCK" ] && fail "control socket left behind"
bd_stop srv || fail "srv exit $?"

# 5. a class rule: port 5201 on the lowest-delay path although the scheduler sends bulk to id 1
mp_pair 2 "mp-scheduler edf" -- "mp-scheduler ratio 0:1" "control-socket $SOCK" "mp-class port 5201 lowest-delay"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "class: no ping"
mp_wait_paths cli 2 active 5 || fail "class: paths not active"
sleep 0.5	# a few RTT samples on both paths
# 1 Mbit/s: below the first pacing rate of a path, so the earliest-delivery choice of the latency class
# does not spill to id 1 while id 0's rate estimate is still growing (measured: ~94 % on id 0)
read -r d0 d1 < <(upload 5201 -b 1M)
[ "$d0" -gt 200000 ] && [ "$d0" -gt $((d1 * 9)) ] || fail "mp-class port 5201: want >= 90 % on id 0, got $d0 / $d1 bytes"
echo "ok: mp-class port 5201 lowest-delay -> id 0 (5 ms) $d0 B, id 1 (20 ms) $d1 B"
read -r d0 d1 < <(upload 5202 -b 1M)
# (the wire bytes of the idle path carry ~20 KB/s of probes and acknowledgements: at 1 Mbit/s that is ~20 %)
[ "$d1" -gt 200000 ] && [ "$d0" -le $((d1 / 4)) ] || fail "port 5202 (no rule): want id 1, got $d0 / $d1 bytes"
echo "ok: port 5202 (no rule) -> id 0 $d0 B, id 1 $d1 B (ratio 0:1)"
bd_stop cli || fail "cli exit $?"
bd_stop srv || fail "srv exit $?"
echo "PASS"
