#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `mp-class ... redundant` end to end (issue 17): both ends run `mp-class proto icmp dscp ef redundant` on two
# emulated paths (20 Mbit/s, 5 / 10 ms), the client pings with DSCP EF (the replies carry it back):
#  1. no other traffic: 100 EF pings, each request and each reply copied once (engine class_copies exactly 100
#     at both ends), the later copy dropped by the receiver's replay window (rx_dup_copies exactly 100 at both
#     ends), both paths carried the stream (path tx_pkts); 20 pings without the mark are not copied;
#  2. an 8 MB download and 250 EF pings at 50/s while path 1 is blackholed: 250 of 250 answered, none twice, the
#     download's sha256 intact;
#  3. the same while path 2's link goes down (rtnetlink event).
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
bd_require
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
head -c 8388608 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 10 >/dev/null
rule="mp-class proto icmp dscp ef redundant"
mp_pair 2 "$rule" -- "$rule"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
mp_wait_paths srv 2 active 10 || fail "srv: paths not active"
mp_wait_paths cli 2 active 10 || fail "cli: paths not active"

# counters NAME: "class_copies rx_dup_copies tx_pkts(path 1) tx_pkts(path 2)"
counters() {
	mp_refresh "$1"
	echo "$(jq -r '"\(.engine.class_copies) \(.engine.rx_dup_copies)"' "$TB_DIR/$1.json")" \
		"$(mp_path_field "$1" 1 tx_pkts) $(mp_path_field "$1" 2 tx_pkts)"
}
# efping COUNT OUT [ping options]: COUNT pings at 50/s from the client; the summary line to OUT
efping() {
	local n=$1 out=$2
	shift 2
	tb_exec "$TB_CLI" ping -n -c "$n" -i 0.02 -W 2 "$@" 10.200.0.1 >"$TB_DIR/$out" 2>&1
}
# check_ping OUT COUNT WHAT: every ping answered once
check_ping() {
	grep -qF "$2 packets transmitted, $2 received," "$TB_DIR/$1" ||
		fail "$3: $(grep -F 'packets transmitted' "$TB_DIR/$1")"
	! grep -qF "DUP!" "$TB_DIR/$1" || fail "$3: duplicate replies: $(grep -cF 'DUP!' "$TB_DIR/$1")"
	echo "$3: $(grep -F 'rtt ' "$TB_DIR/$1")"
}

# 1. exact copies, both directions, both paths
read -r c0 d0 ca0 cb0 <<<"$(counters cli)"
read -r s0 e0 sa0 sb0 <<<"$(counters srv)"
efping 100 ping1 -Q 0xb8
check_ping ping1 100 "100 EF pings"
sleep 0.3	# the last reply's copy
read -r c1 d1 ca1 cb1 <<<"$(counters cli)"
read -r s1 e1 sa1 sb1 <<<"$(counters srv)"
echo "EF pings: cli copies $((c1 - c0)) dropped $((d1 - d0)) tx $((ca1 - ca0))/$((cb1 - cb0)); srv copies $((s1 - s0))" \
	"dropped $((e1 - e0)) tx $((sa1 - sa0))/$((sb1 - sb0))"
[ $((c1 - c0)) = 100 ] || fail "cli copied $((c1 - c0)) of 100 EF requests"
[ $((s1 - s0)) = 100 ] || fail "srv copied $((s1 - s0)) of 100 EF replies"
[ $((e1 - e0)) = 100 ] || fail "srv dropped $((e1 - e0)) duplicate requests, want 100"
[ $((d1 - d0)) = 100 ] || fail "cli dropped $((d1 - d0)) duplicate replies, want 100"
for v in $((ca1 - ca0)) $((cb1 - cb0)) $((sa1 - sa0)) $((sb1 - sb0)); do
	[ "$v" -ge 100 ] || fail "a path carried $v packets of the 100 EF pings (cli $((ca1 - ca0))/$((cb1 - cb0)), srv $((sa1 - sa0))/$((sb1 - sb0)))"
done
echo "ok: 100 EF pings: every request and reply on both paths, the copies dropped at the receivers (100 each)"
efping 20 ping0
check_ping ping0 20 "20 plain pings"
read -r c2 _ <<<"$(counters cli)"
read -r s2 _ <<<"$(counters srv)"
[ "$c2" = "$c1" ] && [ "$s2" = "$s1" ] || fail "unmarked pings copied: cli $((c2 - c1)), srv $((s2 - s1))"
echo "ok: 20 pings without DSCP EF: no copy"

# cut_with EVENT_CMD...: an 8 MB download and 250 EF pings (5 s) from the client, the event 1.5 s in
cut_with() {
	local cpid ppid k0 k1
	read -r k0 _ <<<"$(counters cli)"
	(tb_exec "$TB_CLI" curl -sf --max-time 60 -o "$TB_DIR/got" "http://10.200.0.1:8080/blob") &
	cpid=$!
	(efping 250 pingcut -Q 0xb8) &
	ppid=$!
	sleep 1.5
	"$@"
	wait "$cpid" || fail "download during '$*' failed (curl exit $?)"
	wait "$ppid"
	check_ping pingcut 250 "250 EF pings across '$*'"
	# copied while both paths were up (1.5 s at 50/s before the cut): the copies are what the stream
	# survives on; without them it loses nothing either (ARQ and the failover re-send), it arrives later
	read -r k1 _ <<<"$(counters cli)"
	[ $((k1 - k0)) -ge 50 ] || fail "across '$*': only $((k1 - k0)) EF requests copied"
	got=$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "download during '$*': sha256 $got, want $want"
	rm -f "$TB_DIR/got"
}

# 2. blackhole of path 1
mp_http_get blob >/dev/null	# warm up (first connect retries)
cut_with tb_blackhole 1
mp_refresh srv
st=$(mp_path_field srv 1 state)
[ "$st" = failed ] || [ "$st" = probing ] || fail "blackholed path 1 is '$st' on srv, want failed"
echo "ok: blackhole of path 1: 250 of 250 EF pings answered once, 8 MB sha256 intact"
tb_restore 1
mp_wait_paths srv 2 active 10 || fail "path 1 not active again on srv"
mp_wait_paths cli 2 active 10 || fail "path 1 not active again on cli"

# 3. link down on path 2
cut_with tb_link_down 2
mp_refresh cli
[ "$(mp_path_field cli 2 state)" = failed ] || fail "cli path 2 is '$(mp_path_field cli 2 state)' while its link is down"
echo "ok: link down on path 2: 250 of 250 EF pings answered once, 8 MB sha256 intact"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"
kill "$MP_HTTP_PID"
