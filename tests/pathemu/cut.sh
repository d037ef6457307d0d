#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# pathemu accuracy: cuts on path 1 under a 100 pings/s stream, one-way delay 30 ms.
#  blackhole: no reply while it lasts, already-queued packets still leave, replies return after 'up';
#  down: packets held at that moment are dropped, no reply until 'up', then replies return;
#  every packet is accounted for (received = sent + dropped_* + queued) in both directions;
#  fail closed: with the emulators gone (SIGTERM), nothing passes and the control sockets are removed.
source "$(dirname "$0")/common.sh"
tb_setup -n 1
srv=$(tb_srv_addr 1)
tb_emu_start 1 -d 30
tb_wait_ping "$TB_CLI" "$srv" || fail "path 1 does not answer"

now() { date +%s.%N; }
ip netns exec "$TB_CLI" env --default-signal=INT ping -n -D -i 0.01 -w 30 -W 1 "$srv" >"$TB_DIR/ping.txt" 2>&1 &
ping_pid=$!
sleep 0.7
s_before=$(pe_stats 1 up)
r=$(tb_emu 1 up blackhole)
t_bh=$(now)
tb_emu 1 down blackhole >/dev/null
echo "blackhole: $r"
queued_at_bh=$(sed -n 's/^ok blackhole, \([0-9]*\) queued still leave, [0-9]* sent before$/\1/p' <<<"$r")
sent_at_bh=$(sed -n 's/^ok blackhole, [0-9]* queued still leave, \([0-9]*\) sent before$/\1/p' <<<"$r")
[ -n "$queued_at_bh" ] && [ -n "$sent_at_bh" ] || fail "unexpected blackhole reply '$r'"
[ "$sent_at_bh" -ge "$(pe_field "$s_before" sent)" ] || fail "blackhole reply: $sent_at_bh sent, fewer than before it"
sleep 1
t_up1=$(now)
sent_after=$(pe_field "$(pe_stats 1 up)" sent)
tb_restore 1
# exactly the packets held at the blackhole left (the reply names the sent counter at that moment)
left=$((sent_after - sent_at_bh))
[ "$left" -eq "$queued_at_bh" ] || fail "during blackhole $left packets left, $queued_at_bh were queued"
echo "ok: $left packets left during the blackhole ($queued_at_bh were queued when it began)"
sleep 1
r=$(tb_emu 1 up down)
t_down=$(now)
tb_emu 1 down down >/dev/null
echo "down: $r"
dropped_at_down=$(sed -n 's/^ok down, dropped \([0-9]*\) queued$/\1/p' <<<"$r")
[ -n "$dropped_at_down" ] && [ "$dropped_at_down" -ge 1 ] || fail "down dropped no held packet: '$r'"
sleep 1
t_up2=$(now)
tb_emu 1 both up >/dev/null
sleep 1
kill -INT "$ping_pid" # (SIGINT given back by env: a background job starts with it ignored) ping prints and ends
wait "$ping_pid" || true

python3 - "$TB_DIR/ping.txt" "$t_bh" "$t_up1" "$t_down" "$t_up2" <<'PY' || fail "reply timing"
import re, sys
ts = [float(m.group(1)) for m in re.finditer(r"^\[(\d+\.\d+)\] \d+ bytes from", open(sys.argv[1]).read(), re.M)]
bh, up1, down, up2 = map(float, sys.argv[2:6])
# replies for pings sent before a cut may still arrive within one RTT (60 ms) + margin
def count(a, b): return sum(1 for t in ts if a <= t < b)
phases = {"before": count(0, bh), "blackhole": count(bh + 0.1, up1), "after up": count(up1 + 0.1, down),
          "down": count(down + 0.1, up2), "after up 2": count(up2 + 0.1, 1e12)}
print("replies per phase:", phases)
ok = phases["blackhole"] == 0 and phases["down"] == 0 and all(phases[k] >= 20 for k in ("before", "after up", "after up 2"))
sys.exit(0 if ok else 1)
PY
echo "ok: no replies during blackhole and down, replies before and after"
pe_check_accounting 1 up
pe_check_accounting 1 down
s=$(pe_stats 1 up)
[ "$(pe_field "$s" dropped_down)" -gt 100 ] || fail "up dropped_down $(pe_field "$s" dropped_down), want > 100"

# fail closed: stop the emulators (SIGTERM only sets a flag, then the process leaves and removes its socket)
for pid in $(ip netns pids "${TB_R[1]}"); do kill -TERM "$pid"; done
for _ in $(seq 40); do [ -z "$(ip netns pids "${TB_R[1]}")" ] && break; sleep 0.05; done
[ -z "$(ip netns pids "${TB_R[1]}")" ] || fail "emulators did not exit on SIGTERM"
[ ! -e "$TB_DIR/emu-1-up.sock" ] && [ ! -e "$TB_DIR/emu-1-down.sock" ] || fail "control sockets left behind"
if tb_exec "$TB_CLI" ping -c 3 -i 0.05 -W 1 -q "$srv" >/dev/null; then fail "traffic passed without emulator"; fi
echo "ok: emulators exited on SIGTERM, sockets removed, path 1 fails closed"
