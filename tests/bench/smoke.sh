#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# smoke.sh - ctest `bench.smoke`: one tiny cell per registered system (braid-<sched> variants: smoke-issue3.sh) (20+20 Mbit/s, RTT 10 ms through pathemu,
# 1 MiB http download, no gate) through run-cell.sh. Asserts for each: exactly one JSON line, "ok": true, goodput
# > 0, the bed was torn down ("clean": true and no namespace or state dir of that run left), the MPTCP systems
# really used path 2, and the VPN systems report their tunnel processes' CPU. Exit 77 when not root.

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "smoke.sh: needs root (network namespaces), skipping"; exit 77; }
source "$HERE/systems/registry.sh"
fails=0
systems=()
for s in "${BENCH_SYSTEMS[@]}"; do
	[[ $s == braid-* ]] || systems+=("$s") # the scheduler variants of braid: smoke-issue3.sh
done
for s in "${systems[@]}"; do
	out=$("$HERE/run-cell.sh" -s "$s" -w http --size 1 --rate1 20 --rate2 20 --rtt1 10 --rtt2 10 --no-gate \
		--timeout 60 --scenario smoke 2>/tmp/bench-smoke-$$.err)
	rc=$?
	echo "$s: rc=$rc $out"
	if ! /usr/bin/python3 - "$s" "$out" <<'PYEOF'; then
import json, sys
system, out = sys.argv[1], sys.argv[2]
lines = [l for l in out.splitlines() if l.strip()]
assert len(lines) == 1, f'expected one JSON line, got {len(lines)}'
r = json.loads(lines[0])
assert r['system'] == system and r['workload'] == 'http', r
assert r['ok'] is True, f'not ok: {r.get("error")}'
assert r['goodput_mbps'] > 0, r['goodput_mbps']
assert r['bytes'] == 1048576, r['bytes']
assert r['clean'] is True, 'bed not cleaned up'
assert r['shaped'] is True and r['shaper'] == 'pathemu' and r['rtt1'] == 10, r
if 'mptcp' in system:
    assert r['path2_joins'] >= 1, f'no subflow joined on path 2: {r.get("path2_joins")}'
    assert r['mptcp_connections'] >= 1, r.get('mptcp_connections')
if system.startswith('ovpn'):
    assert r['cpu'] is not None and len(r['cpu_pids']) == 2, r['cpu_pids']
PYEOF
		echo "FAIL: $s (stderr: $(tail -3 /tmp/bench-smoke-$$.err | tr '\n' ' '))"
		fails=$((fails + 1))
	fi
	id=$(grep -o 'testbed\[[0-9a-f]*\]' /tmp/bench-smoke-$$.err | head -1 | tr -d 'testbed[]')
	if [ -n "$id" ]; then
		if ip netns list | grep -q -- "^$id-" || ls -d /tmp/braid-tb-"$id".* >/dev/null 2>&1; then
			echo "FAIL: $s left namespaces or state of run $id behind"
			fails=$((fails + 1))
		fi
	else
		echo "FAIL: $s: no testbed run id in stderr"
		fails=$((fails + 1))
	fi
	rm -f /tmp/bench-smoke-$$.err
done
# a bad argument is rejected with a message naming it, without building anything
msg=$("$HERE/run-cell.sh" -s ovpn-udp -w http --loss ge:1,2 2>&1 >/dev/null)
rc=$?
if [ $rc != 2 ] || [[ $msg != *"--loss ge:P,R,1-K,1-H needs four comma-separated percentages, got '1,2'"* ]]; then
	echo "FAIL: bad --loss: rc=$rc msg=$msg"
	fails=$((fails + 1))
fi
msg=$("$HERE/run-cell.sh" -s nosuch -w http 2>&1 >/dev/null)
[[ $msg == *"unknown system 'nosuch'"* ]] || { echo "FAIL: unknown system: $msg"; fails=$((fails + 1)); }
[ $fails = 0 ] && echo "smoke: all ${#systems[@]} systems OK"
[ $fails = 0 ]
