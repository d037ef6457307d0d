# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM with braid_dco loaded (tests/kmod/guest.sh): eBPF path scheduling on a
# two-path p2p tunnel between two namespaces, with the same bpf/sched.bpf.o the host's bpf.sched test
# runs, attached by braid-sched-attach: the weighted actor at 3:1 gives the path packet counters 3:1;
# a program swapped in the middle of a TCP transfer leaves its sha256 intact with no TCP reset; a
# result naming no path falls back to round robin and is counted; a redundant copy is counted and
# harmless; detach gives round robin again. $1: the source tree, $2: the build tree. Exit status:
# failures.
src=$1 build=$2
ctl="python3 -B $src/tests/kmod/dco_ctl.py"
att=$build/bin/braid-sched-attach obj=$build/bpf/sched.bpf.o
# the pins live on a bpffs of our own under /run: `ip netns exec` mounts a fresh /sys without /sys/fs/bpf
a=bpfa$$ b=bpfb$$ pin=/run/bpfpin$$ fail=0
K1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
K2=f0e0d0c0b0a090807060504030201000f1e1d1c1b1a191817161514131211101
ok() { echo "ok - bpf: $*"; }
nok() { echo "not ok - bpf: $*"; fail=$((fail + 1)); }
cleanup() { ip netns del $a 2>/dev/null; ip netns del $b 2>/dev/null; umount "$pin" 2>/dev/null; rmdir "$pin" 2>/dev/null; }
trap cleanup EXIT
[ -x "$att" ] && [ -s "$obj" ] || { nok "$att or $obj not built"; exit 1; }
mkdir -p "$pin" && mount -t bpf bpf "$pin" || nok "mount bpffs on $pin"
ip netns add $a && ip netns add $b || { nok "netns"; exit 1; }
ip link add va$$ netns $a type veth peer name vb$$ netns $b
ip link add wa$$ netns $a type veth peer name wb$$ netns $b
ip -n $a addr add 192.168.87.1/24 dev va$$ && ip -n $a link set va$$ up && ip -n $a link set lo up
ip -n $b addr add 192.168.87.2/24 dev vb$$ && ip -n $b link set vb$$ up && ip -n $b link set lo up
ip -n $a addr add 192.168.88.1/24 dev wa$$ && ip -n $a link set wa$$ up
ip -n $b addr add 192.168.88.2/24 dev wb$$ && ip -n $b link set wb$$ up
ip netns exec $a $ctl up bd0 1 192.168.87.1:1194 192.168.87.2:1194 1 $K1 $K2 &&
	ip netns exec $b $ctl up bd0 1 192.168.87.2:1194 192.168.87.1:1194 1 $K2 $K1 &&
	ip netns exec $a $ctl path bd0 1 1 192.168.88.1:1194 192.168.88.2:1194 &&
	ip netns exec $b $ctl path bd0 1 1 192.168.88.2:1194 192.168.88.1:1194 &&
	ok "two-path tunnel up" || nok "tunnel set-up"
ip -n $a addr add 10.87.0.1/24 dev bd0 && ip -n $a link set bd0 up
ip -n $b addr add 10.87.0.2/24 dev bd0 && ip -n $b link set bd0 up
ip netns exec $a ping -c 2 -i 0.2 -W 5 10.87.0.2 >/dev/null 2>&1 || nok "ping before attach"

# a's packets sent on path N so far
txp() { ip netns exec $a $ctl show bd0 1 | sed -n "s/^path$1_rx_packets=[0-9]* path$1_tx_packets=//p"; }
sched() { ip netns exec $a "$att" show bd0 | sed -n "s/^$1=//p"; }
# TCP resets (sent, and connections reset) in namespace $1, from /proc/net/snmp
rsts() {
	ip netns exec "$1" awk '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++) f[$i] = i; h = 1 }
		else print $f["OutRsts"] + $f["EstabResets"] }' /proc/net/snmp
}
. "$src/tests/kmod/xfer.sh"
xfer() {  # $1: bytes, $2: file for the receiver's digest, $3: optional command to run mid-transfer
	xfer_at $a $b 10.87.0.2 5002 bpf 0.3 "$1" "$2" "${3:-}"
}
# xfer_ok NAME BYTES [MID-COMMAND]: the transfer's sha256 intact
xfer_ok() {
	want=$(xfer "$2" /tmp/bpfrecv.$$ "${3:-}")
	got=$(cat /tmp/bpfrecv.$$ 2>/dev/null)
	rm -f /tmp/bpfrecv.$$
	sleep 1	# the connection's last segments (FIN, ACK) out before the counters are read
	[ -n "$want" ] && [ "$want" = "$got" ] && ok "$1: sha256 intact (${got%% *})" || nok "$1: sent '$want' received '$got'"
}

# 1. the weighted actor at 3:1
ip netns exec $a "$att" attach bd0 "$obj" "$pin"/1 -w 3,1 -u 0,1 act_weighted >/dev/null &&
	ok "weighted actor attached (weights 3:1)" || nok "attach weighted"
id1=$(sched prog_id)
[ "${id1:-0}" -gt 0 ] && ok "prog-get names program $id1" || nok "prog-get id '$id1'"
p0=$(txp 0) p1=$(txp 1) r0=$(sched runs)
xfer_ok "1 MiB under the weighted actor" 1048576
d0=$(($(txp 0) - p0)) d1=$(($(txp 1) - p1)) runs=$(($(sched runs) - r0))
# the actor's counter sends packet n to path 1 when n % 4 == 3: exactly 3:1 up to the last partial round
[ "$d1" -gt 100 ] && [ $((d0 - 3 * d1)) -le 3 ] && [ $((3 * d1 - d0)) -le 3 ] &&
	ok "path packets 3:1: path0 $d0, path1 $d1" || nok "weighted split: path0 $d0 path1 $d1 (want 3:1)"
# the counters are read one after another, not as one snapshot: a stray packet may fall between them
[ $((runs - d0 - d1)) -le 2 ] && [ $((d0 + d1 - runs)) -le 2 ] && ok "runs counted: $runs, packets sent $((d0 + d1))" ||
	nok "runs $runs, packets $((d0 + d1))"
[ "$(sched fallbacks)" = 0 ] && ok "no fallback" || nok "fallbacks $(sched fallbacks)"

# 2. swapped mid-transfer for a 1:1 weighted instance, then the transfer checked and the resets counted
ra=$(rsts $a) rb=$(rsts $b)
xfer_ok "2 MiB with the program swapped mid-transfer" 2097152 \
	"ip netns exec $a $att attach bd0 $obj ${pin}/2 -w 1,1 -u 0,1 act_weighted >/dev/null"
id2=$(sched prog_id)
[ "${id2:-0}" -gt 0 ] && [ "$id2" != "$id1" ] && ok "the swap replaced program $id1 by $id2" || nok "swap: id $id1 -> '$id2'"
[ "$(rsts $a)" = "$ra" ] && [ "$(rsts $b)" = "$rb" ] && ok "0 TCP resets across the swap" ||
	nok "TCP resets across the swap: a $ra -> $(rsts $a), b $rb -> $(rsts $b)"
p0=$(txp 0) p1=$(txp 1)
xfer_ok "512 KiB under the 1:1 instance" 524288
d0=$(($(txp 0) - p0)) d1=$(($(txp 1) - p1))
[ $((d0 - d1)) -le 1 ] && [ $((d1 - d0)) -le 1 ] && ok "1:1 after the swap: path0 $d0, path1 $d1" ||
	nok "1:1 after the swap: path0 $d0 path1 $d1"

# 3. a result naming no path (path 5 does not exist) falls back to round robin, counted
f0=$(sched fallbacks)
ip netns exec $a "$att" attach bd0 "$obj" "$pin"/3 -u 5 act_lowrtt:paths=5 >/dev/null || nok "attach lowrtt"
ip netns exec $a ping -c 10 -i 0.1 -W 5 10.87.0.2 >/dev/null 2>&1 && ok "ping with a program naming path 5" ||
	nok "ping with a program naming path 5"
f1=$(sched fallbacks)
[ $((f1 - f0)) -ge 10 ] && ok "fallbacks counted: $((f1 - f0))" || nok "fallbacks $f0 -> $f1"

# 4. a redundant copy on path 1 of everything sent on path 0: counted, the copies dropped as replays
c0=$(sched copies)
ip netns exec $a "$att" attach bd0 "$obj" "$pin"/4 -u 0,1 act_redundant:paths=0,backup=1 >/dev/null || nok "attach redundant"
p0=$(txp 0) p1=$(txp 1)
xfer_ok "512 KiB with redundant copies" 524288
d0=$(($(txp 0) - p0)) d1=$(($(txp 1) - p1)) c1=$(($(sched copies) - c0))
[ "$d0" -gt 50 ] && [ $((d0 - d1)) -le 2 ] && [ $((d1 - d0)) -le 2 ] && [ $((c1 - d1)) -le 2 ] && [ $((d1 - c1)) -le 2 ] && ok "copies: path0 $d0, path1 $d1, copies $c1" ||
	nok "copies: path0 $d0 path1 $d1 copies $c1"

# 5. detach: round robin again, the program no longer runs
ip netns exec $a "$att" detach bd0 "$pin"/4 && ok "detached" || nok "detach"
[ "$(sched prog_id)" = 0 ] && ok "prog-get: no program" || nok "prog-get after detach: $(sched prog_id)"
ip netns exec $a "$att" detach bd0 2>/tmp/bpfdet.$$ && nok "second detach accepted" ||
	{ grep -q 'no scheduler program is attached' /tmp/bpfdet.$$ && ok "second detach refused: $(cat /tmp/bpfdet.$$)" ||
		nok "second detach: $(cat /tmp/bpfdet.$$)"; }
p0=$(txp 0) p1=$(txp 1) r0=$(sched runs)
xfer_ok "512 KiB after detach" 524288
d0=$(($(txp 0) - p0)) d1=$(($(txp 1) - p1))
[ $((d0 - d1)) -le 1 ] && [ $((d1 - d0)) -le 1 ] && [ "$d0" -gt 50 ] && ok "round robin after detach: path0 $d0, path1 $d1" ||
	nok "round robin after detach: path0 $d0 path1 $d1"
[ "$(sched runs)" = "$r0" ] && ok "no program run after detach" || nok "runs $r0 -> $(sched runs) after detach"
rm -f /tmp/bpfdet.$$
echo "bpf: $fail failed"
exit $fail
