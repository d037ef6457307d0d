#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The braid extension of the management interface in the static-key role (docs/management.md "Braid
# extensions"): a two-path static-key multipath pair, management on a unix socket at each end.
#  - `braid paths`: 2 objects per end that keep the GUI's contract (mgmt_braid.py), both up, the client's
#    remotes the server's path addresses, the server's learned from the client's;
#  - events on at the client: path 2's link goes down (rtnetlink) -> a `down` event for it (time printed),
#    link up -> `up`;
#  - backup on/off at the client shown in the next `braid paths`; `braid clients` refused (not a gateway);
#  - a SIGHUP reload: the events connection stays and sees the new session's paths up;
#  - a single-path static-key peer: `braid paths` shows its one path (path0, up, the peer, its bytes), a
#    change is refused (not multipath).
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
MB() { python3 "$HERE/mgmt_braid.py" "$@"; }
bd_require
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
CS=$TB_DIR/cli.sock SS=$TB_DIR/srv.sock
mp_pair 2 "management $SS unix" -- "management $CS unix"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
mp_wait_paths cli 2 active 10 || fail "cli: paths not active"
mp_wait_paths srv 2 active 10 || fail "srv: paths not active"
P=$(MB "$CS" paths 2) || fail "cli braid paths: $P"
echo "$P" | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert all(o["state"] == "up" for o in p), p
assert sorted(o["remote"] for o in p) == ["10.1.2.2:1194", "10.2.2.2:1194"], p
' || fail "cli braid paths: $P"
S=$(MB "$SS" paths 2) || fail "srv braid paths: $S"
echo "$S" | python3 -c '
import json, sys
p = json.load(sys.stdin)
assert all(o["state"] == "up" for o in p), p
assert sorted(o["remote"].split(":")[0] for o in p) == ["10.1.1.2", "10.2.1.2"], p
' || fail "srv braid paths: $S"
echo "ok: static-key braid paths: 2 valid objects at each end"

EV=$TB_DIR/events
: >"$EV"
MB "$CS" watch "$EV" 30 &	# a 30 s period: what comes sooner is the at-once event of a change
WATCH=$!
trap 'kill $WATCH 2>/dev/null; tb_cleanup' EXIT
id2=$(echo "$P" | python3 -c 'import json,sys; print([o["id"] for o in json.load(sys.stdin) if o["local"].startswith("10.2.1.2:")][0])')
sleep 0.5
cut=$(date +%s.%N)
tb_link_down 2
down=
for _ in $(seq 1 100); do
	down=$(awk -v t="$cut" -v id="\"id\":$id2," '$1 >= t && $2 == "down" && index($0, id) { print $1; exit }' "$EV")
	[ -n "$down" ] && break
	sleep 0.05
done
[ -n "$down" ] || fail "no down event for path $id2 within 5 s of the link going down: $(cat "$EV")"
lat=$(awk -v a="$cut" -v b="$down" 'BEGIN { printf "%.3f", b - a }')
echo "measured: down event $lat s after the link went down"
awk -v l="$lat" 'BEGIN { exit !(l <= 2.0) }' || fail "down event $lat s after the link went down (> 2 s)"
tb_link_up 2 2>/dev/null
for _ in $(seq 1 200); do
	awk -v t="$down" -v id="\"id\":$id2," '$1 > t && $2 == "up" && index($0, id) { f = 1 } END { exit !f }' "$EV" && break
	sleep 0.05
done
awk -v t="$down" -v id="\"id\":$id2," '$1 > t && $2 == "up" && index($0, id) { f = 1 } END { exit !f }' "$EV" ||
	fail "no up event after link up: $(tail -n 3 "$EV")"
grep -q INVALID "$EV" && fail "an event broke the contract: $(grep INVALID "$EV" | head -n 3)"
echo "ok: events: path $id2 down $lat s after its link went down, up again after link up"

r=$(MB "$CS" cmd "braid path $(tb_cli_addr 2) backup on")
[ "$r" = "SUCCESS: braid path $(tb_cli_addr 2) updated" ] || fail "backup on: $r"
MB "$CS" paths | python3 -c "import json,sys; assert [o['backup'] for o in json.load(sys.stdin) if o['id'] == $id2] == [True]" ||
	fail "backup not shown: $(MB "$CS" paths)"
r=$(MB "$CS" cmd "braid path $(tb_cli_addr 2) backup off")
[ "$r" = "SUCCESS: braid path $(tb_cli_addr 2) updated" ] || fail "backup off: $r"
r=$(MB "$SS" cmd "braid clients")
[ "$r" = "ERROR: braid clients: not a gateway" ] || fail "srv braid clients: $r"
echo "ok: backup on/off shown; braid clients refused"
# ratio by name (mp-scheduler ratio IF=W ...): a weight set by management follows the path's interface
read -r if1 if2 < <(MB "$CS" paths | python3 -c "import json,sys; p=json.load(sys.stdin); print(*[o['ifname'] for o in sorted(p, key=lambda o: o['id'] == $id2)])")
r=$(MB "$CS" cmd "braid scheduler ratio $if1=1 $if2=1")
[ "$r" = "SUCCESS: braid scheduler set to ratio $if1=1 $if2=1" ] || fail "named ratio: $r"
r=$(MB "$CS" cmd "braid path $if2 weight 3")
[ "$r" = "SUCCESS: braid path $if2 updated" ] || fail "named weight: $r"
MB "$CS" paths | python3 -c "
import json,sys
w = {o['ifname']: o.get('weight') for o in json.load(sys.stdin)}
assert w == {'$if1': 1, '$if2': 3}, w" || fail "named weights not shown: $(MB "$CS" paths)"
r=$(MB "$CS" cmd "braid scheduler edf")
[ "$r" = "SUCCESS: braid scheduler set to edf" ] || fail "back to edf: $r"
echo "ok: ratio by name: weight 3 on $if2 set by management and shown"
# a SIGHUP reload keeps the management connection and its events: the new session's paths come up
hup=$(date +%s.%N)
kill -HUP "${BD_PID[cli]}"
for _ in $(seq 1 200); do
	[ "$(awk -v t="$hup" '$1 > t && $2 == "up"' "$EV" | wc -l)" -ge 2 ] && break
	sleep 0.05
done
[ "$(awk -v t="$hup" '$1 > t && $2 == "up"' "$EV" | wc -l)" -ge 2 ] || fail "no up events after SIGHUP: $(tail -n 5 "$EV")"
MB "$CS" paths 2 >/dev/null || fail "braid paths after SIGHUP: $(MB "$CS" paths)"
echo "ok: after a SIGHUP reload the same events connection saw both paths up again"
kill "$WATCH" 2>/dev/null
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"

# single path: no paths to show or change
bd_pair AES-256-GCM "management $SS unix" -- "management $CS unix"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "single path: no ping"
P=$(MB "$CS" paths 1) || fail "single path braid paths: $P"
echo "$P" | python3 -c '
import json, sys
[o] = json.load(sys.stdin)
assert o["id"] == 0 and o["ifname"] == "path0" and o["state"] == "up" and o["remote"] == "10.1.2.2:1194", o
assert o["tx_bytes"] > 0 and o["rx_bytes"] > 0 and o["rtt_ms"] is None, o
' || fail "single path braid paths: $P"
r=$(MB "$CS" cmd "braid scheduler edf")
[ "$r" = "ERROR: braid scheduler: not in multipath mode" ] || fail "single path scheduler: $r"
echo "ok: single-path static-key: braid paths shows its one path, changes refused"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
echo "ok: all"
