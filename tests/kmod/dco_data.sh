# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM with braid_dco loaded (tests/kmod/guest.sh): two namespaces joined by a veth,
# a p2p braid_dco device in each (dco_ctl.py), aes-256-gcm keys mirrored. Checks ping through the tunnel,
# a 4 MiB TCP transfer with its sha256, a key swap in the middle of a second transfer, the peer counters,
# and that the UDP payload on the veth is not the plaintext; the in-module cost counters (module parameter
# cost_stats, read with braidd's dco_nl.c through dco-nl-drive): 0 while off, then during the key-swap
# transfer exactly one count per packet sealed, opened and scheduled, with plausible ns sums.
# $1: the source tree, $2: the build tree. Exit status: failures.
src=$1 build=$2
drive=$build/bin/dco-nl-drive
param=/sys/module/braid_dco/parameters/cost_stats
ctl="python3 -B $src/tests/kmod/dco_ctl.py"
a=dcoa$$ b=dcob$$ fail=0
K1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
K2=f0e0d0c0b0a090807060504030201000f1e1d1c1b1a191817161514131211101
K3=3333333333333333333333333333333333333333333333333333333333333333
K4=4444444444444444444444444444444444444444444444444444444444444444
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
cleanup() { ip netns del $a 2>/dev/null; ip netns del $b 2>/dev/null; }
trap cleanup EXIT
ip netns add $a && ip netns add $b || { nok "netns"; exit 1; }
ip link add va$$ netns $a type veth peer name vb$$ netns $b
ip -n $a addr add 192.168.77.1/24 dev va$$ && ip -n $a link set va$$ up && ip -n $a link set lo up
ip -n $b addr add 192.168.77.2/24 dev vb$$ && ip -n $b link set vb$$ up && ip -n $b link set lo up
ip netns exec $a $ctl up bd0 1 192.168.77.1:1194 192.168.77.2:1194 1 $K1 $K2 && ok "dco up in ns a" || nok "dco up in ns a"
ip netns exec $b $ctl up bd0 1 192.168.77.2:1194 192.168.77.1:1194 1 $K2 $K1 && ok "dco up in ns b" || nok "dco up in ns b"
ip -n $a addr add 10.77.0.1/24 dev bd0 && ip -n $a link set bd0 up
ip -n $b addr add 10.77.0.2/24 dev bd0 && ip -n $b link set bd0 up
if ip netns exec $a ping -c 3 -i 0.2 -W 5 10.77.0.2 >/tmp/ping.$$ 2>&1; then
	ok "ping through the tunnel: $(grep -o '[0-9]* received' /tmp/ping.$$)"
else
	nok "ping through the tunnel"; cat /tmp/ping.$$
fi
# a TCP transfer: the receiver writes the sha256 of what it got
. "$src/tests/kmod/xfer.sh"
xfer() {  # $1: bytes, $2: file for the receiver's digest, $3: optional command to run mid-transfer
	xfer_at $a $b 10.77.0.2 5001 seed 0.5 "$1" "$2" "${3:-}"
}
want=$(xfer 4194304 /tmp/recv1.$$)
got=$(cat /tmp/recv1.$$ 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "4 MiB TCP transfer, sha256 ${got%% *}" || nok "4 MiB transfer: sent '$want' received '$got'"
# the cost counters: never switched on so far, so 0 after a ping and 4 MiB
cost() { $drive cost | sed -n "s/^$1=//p"; }
c0=$($drive cost | tr '\n' ' ')
[ "$(cat $param)" = N ] && [ "$c0" = "cost_enabled=0 encrypt_packets=0 encrypt_ns=0 decrypt_packets=0 decrypt_ns=0 sched_packets=0 sched_ns=0 " ] &&
	ok "cost counters off: all 0 after the first transfer" || nok "cost counters while off: '$c0' (param $(cat $param))"
# packets sealed, opened and scheduled by both devices (one kernel: the counters are module-wide), from the
# peers' counters: "enc dec sched" = vpn_tx+ctl_tx, vpn_rx+ctl_rx, vpn_tx summed over a and b
ops() {
	{ ip netns exec $a $ctl show bd0 1; ip netns exec $b $ctl show bd0 1; } | awk -F= '
		/^vpn_tx_packets=/ { e += $2; s += $2 } /^ctl_tx_packets=/ { e += $2 }
		/^vpn_rx_packets=/ { d += $2 } /^ctl_rx_packets=/ { d += $2 }
		END { print e, d, s }'
}
# A snapshot of the peers' counters and the cost counters together, taken while nothing moves (a stray IPv6
# router solicitation or a late ACK may): the peers' counters are the same before and after the cost read, so
# no packet fell between the two reads. The switch stays on across both snapshots and the counts compared
# are differences, so a packet counted at any moment lands on both sides or on neither (up to 10 tries).
snap() {	# -> "ENC DEC SCHED cENC cDEC cSCHED"
	for try in 1 2 3 4 5 6 7 8 9 10; do
		o1=$(ops); c=$($drive cost); o2=$(ops)
		[ "$o1" = "$o2" ] && break
		sleep 1
	done
	echo "$o2 $(echo "$c" | sed -n 's/^encrypt_packets=//p') $(echo "$c" | sed -n 's/^decrypt_packets=//p')" \
		"$(echo "$c" | sed -n 's/^sched_packets=//p')"
}
echo 1 >$param
[ "$(cat $param)" = Y ] && [ "$(cost cost_enabled)" = 1 ] && ok "cost_stats on" || nok "cost_stats on: param $(cat $param)"
sleep 1
snap0=$(snap)
# key swap mid-transfer: both sides install key id 2 as secondary, then swap (b first, then a while sending)
ip netns exec $a $ctl key bd0 1 secondary 2 $K3 $K4 && ip netns exec $b $ctl key bd0 1 secondary 2 $K4 $K3 &&
	ok "secondary keys installed" || nok "secondary keys"
ip netns exec $b $ctl swap bd0 1
want=$(xfer 4194304 /tmp/recv2.$$ "$ctl swap bd0 1")
got=$(cat /tmp/recv2.$$ 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "key swap mid-transfer, sha256 intact" || nok "key swap transfer: sent '$want' received '$got'"
sleep 1
snap1=$(snap)
echo 0 >$param
c1=$($drive cost)
echo "$c1" | tr '\n' ' ' | sed 's/^/cost: /'; echo
echo "snapshots (peers' enc dec sched, cost enc dec sched) before: $snap0, after: $snap1"
set -- $snap0 $snap1
de=$(($7 - $1)) dd=$(($8 - $2)) ds=$(($9 - $3))
ce=$((${10} - $4)) cdx=$((${11} - $5)) cs=$((${12} - $6))
[ "$ce" = "$de" ] && [ "$cdx" = "$dd" ] && [ "$cs" = "$ds" ] && [ "$de" -gt 1000 ] &&
	ok "cost counts exact: $ce sealed, $cdx opened, $cs scheduled (the peers' counters moved by $de, $dd, $ds)" ||
	nok "cost counts: sealed $ce opened $cdx scheduled $cs, the peers' counters moved by $de $dd $ds"
# ns sums: > 0 and < 1 s per packet; the per-packet figures for the log
for op in encrypt decrypt sched; do
	n=$(echo "$c1" | sed -n "s/^${op}_packets=//p") ns=$(echo "$c1" | sed -n "s/^${op}_ns=//p")
	[ "${n:-0}" -gt 0 ] && [ "${ns:-0}" -gt 0 ] && [ "$ns" -lt $((n * 1000000000)) ] &&
		ok "cost $op: $((ns / n)) ns per packet (loaded TCG guest)" || nok "cost $op: $ns ns for $n packets"
done
# off again: a ping moves nothing
ip netns exec $a ping -c 3 -i 0.2 -W 5 10.77.0.2 >/dev/null 2>&1
c2=$($drive cost)
[ "$(cat $param)" = N ] && [ "$(echo "$c2" | sed 1d)" = "$(echo "$c1" | sed 1d)" ] && echo "$c2" | grep -qx cost_enabled=0 &&
	ok "cost_stats off: counters frozen after 3 pings" || nok "cost counters moved while off: $(echo "$c2" | tr '\n' ' ')"
sa=$(ip netns exec $a $ctl show bd0 1) sb=$(ip netns exec $b $ctl show bd0 1)
echo "$sa" | sed 's/^/ns a: /'
echo "$sb" | sed 's/^/ns b: /'
echo "$sa" | grep -qx 'primary_key_id=2' && echo "$sb" | grep -qx 'primary_key_id=2' && ok "both primaries are key 2" || nok "primary key ids"
txa=$(echo "$sa" | sed -n 's/^vpn_tx_packets=//p') rxb=$(echo "$sb" | sed -n 's/^vpn_rx_packets=//p')
[ "${txa:-0}" -gt 1000 ] && [ "${rxb:-0}" -gt 1000 ] && ok "counters: a sent $txa, b received $rxb" || nok "counters a tx $txa b rx $rxb"
# the device's own counters (per-CPU, `ip -s link`): each data packet sent is counted once by the tunnel
# transmit, each one handed up once on receive, so they equal the peer's counters. The device may still
# send (IPv6 router solicitations, a last ACK): a snapshot counts only if the peer counters did not move
# while the device's were read (up to 5 tries, 1 s apart)
dev_stat() { ip -n $1 -s -j link show bd0 | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['stats64']['$2']['packets'])"; }
vpn_stat() { ip netns exec $1 $ctl show bd0 1 | sed -n "s/^vpn_$2_packets=//p"; }
for try in 1 2 3 4 5; do
	sleep 1
	txa=$(vpn_stat $a tx) rxb=$(vpn_stat $b rx)
	dtxa=$(dev_stat $a tx) drxb=$(dev_stat $b rx)
	[ "$txa" = "$(vpn_stat $a tx)" ] && [ "$rxb" = "$(vpn_stat $b rx)" ] && break
done
[ -n "$dtxa" ] && [ "$dtxa" = "$txa" ] && [ -n "$drxb" ] && [ "$drxb" = "$rxb" ] &&
	ok "device counters: a's bd0 tx $dtxa packets = peer vpn_tx, b's bd0 rx $drxb = peer vpn_rx" ||
	nok "device counters: a's bd0 tx '$dtxa' vs vpn_tx $txa, b's bd0 rx '$drxb' vs vpn_rx $rxb"
# the wire carries ciphertext: a UDP payload captured on the veth never contains the plaintext pattern
if command -v tcpdump >/dev/null; then
	ip netns exec $b timeout 5 tcpdump -i vb$$ -c 20 -w /tmp/cap.$$ udp port 1194 >/dev/null 2>&1 &
	tpid=$!
	sleep 2
	ip netns exec $a ping -c 20 -i 0.1 -p 5a5a5a5a -W 2 10.77.0.2 >/dev/null 2>&1
	wait $tpid
	if [ -s /tmp/cap.$$ ] && ! od -An -tx1 /tmp/cap.$$ | tr -d ' \n' | grep -q '5a5a5a5a5a5a5a5a'; then
		ok "captured UDP payloads carry no plaintext"
	else
		nok "capture: missing or plaintext visible"
	fi
fi
# float: a's packets leave through a NAT that changes their source port (nftables in a, as a home router
# whose mapping changed): b's module floats its path 0 to the new source (a PATH_NTF float naming it, PEER_GET's
# remote), its replies go there and the NAT takes them back to a: pings answered; the NAT removed, b floats back
fpings() { ip netns exec $a ping -c "$1" -i 0.2 -W 5 -q 10.77.0.2 >/dev/null 2>&1; }
ip netns exec $b $ctl watch bd0 30 >/tmp/fl.$$ 2>&1 &
wpid=$!
for _ in $(seq 100); do grep -q '^watching' /tmp/fl.$$ 2>/dev/null && break; sleep 0.1; done
# (stateless: the ports rewritten both ways by payload statements, no conntrack binding outlives the table)
echo 'table ip braidfl {
	chain out { type filter hook output priority -300; ip daddr 192.168.77.2 udp sport 1194 udp sport set 40000; }
	chain pre { type filter hook prerouting priority -300; ip saddr 192.168.77.2 udp dport 40000 udp dport set 1194; }
}' | ip netns exec $a nft -f - || nok "float: nft rules"
fpings 5 && ip netns exec $b $ctl show bd0 1 | grep -qx 'path0_remote=192.168.77.1:40000' &&
	ok "float: a behind a NAT (source port 40000): pings answered, b's path 0 remote 192.168.77.1:40000" ||
	nok "float: $(ip netns exec $b $ctl show bd0 1 | grep remote)"
ip netns exec $a nft delete table ip braidfl
fpings 5 && ip netns exec $b $ctl show bd0 1 | grep -qx 'path0_remote=192.168.77.1:1194' &&
	ok "float back: the NAT gone, b's path 0 remote 192.168.77.1:1194 again" ||
	nok "float back: $(ip netns exec $b $ctl show bd0 1 | grep remote)"
sleep 0.5
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null
fl=$(grep 'event=float' /tmp/fl.$$ | sed 's/.* remote=//' | tr '\n' ' ')
[ "$fl" = "192.168.77.1:40000 192.168.77.1:1194 " ] && ok "two PATH_NTF float events, to :40000 and back to :1194" ||
	nok "float notifications: '$fl' ($(tr '\n' ';' </tmp/fl.$$))"
rm -f /tmp/fl.$$
# two paths: a second veth pair, path 1 on both sides; round robin must use both; then path 1 is
# removed on the sender in the middle of a transfer (sha256 intact on the remaining path)
ip link add wa$$ netns $a type veth peer name wb$$ netns $b
ip -n $a addr add 192.168.78.1/24 dev wa$$ && ip -n $a link set wa$$ up
ip -n $b addr add 192.168.78.2/24 dev wb$$ && ip -n $b link set wb$$ up
ip netns exec $a $ctl path bd0 1 1 192.168.78.1:1194 192.168.78.2:1194 &&
	ip netns exec $b $ctl path bd0 1 1 192.168.78.2:1194 192.168.78.1:1194 && ok "second path on both sides" ||
	nok "second path"
b0=$(ip netns exec $a $ctl show bd0 1 | sed -n 's/^path0_rx_packets=[0-9]* path0_tx_packets=//p')
want=$(xfer 2097152 /tmp/recv3.$$)
got=$(cat /tmp/recv3.$$ 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "2 MiB over two paths, sha256 intact" || nok "two paths: sent '$want' received '$got'"
sa=$(ip netns exec $a $ctl show bd0 1)
p0=$(echo "$sa" | sed -n 's/^path0_rx_packets=[0-9]* path0_tx_packets=//p')
p1=$(echo "$sa" | sed -n 's/^path1_rx_packets=[0-9]* path1_tx_packets=//p')
echo "ns a: $(echo "$sa" | grep '^path' | tr '\n' ' ')"
# round robin: in this transfer each path carried 40-60 % of a's packets
d0=$((${p0:-0} - ${b0:-0})) d1=${p1:-0}
[ $((d0 + d1)) -gt 500 ] && [ $((d0 * 10)) -ge $((4 * (d0 + d1))) ] && [ $((d1 * 10)) -ge $((4 * (d0 + d1))) ] &&
	ok "round robin over two paths: path0 $d0, path1 $d1 packets" || nok "round robin: path0 $d0 path1 $d1"
# PATH_SET: path 1 cut (its veth down in a) in the middle of a transfer and marked down on both sides:
# a's round robin leaves it (else it keeps sending every other packet into the cut link), the transfer
# completes with its sha256
pstat() { ip netns exec $a $ctl show bd0 1 | sed -n "s/^path$1_rx_packets=[0-9]* path$1_tx_packets=//p"; }
pings() { ip netns exec $a ping -c "$1" -i 0.2 -W 5 -q 10.77.0.2 >/dev/null 2>&1; }
want=$(xfer 2097152 /tmp/recv6.$$ "ip link set wa$$ down; $ctl pathset bd0 1 1 down; ip netns exec $b $ctl pathset bd0 1 1 down")
got=$(cat /tmp/recv6.$$ 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "path 1 cut mid-transfer and set down, sha256 intact" ||
	nok "path cut + PATH_SET down: sent '$want' received '$got'"
ip netns exec $a $ctl show bd0 1 | grep -qx 'path1_down=1 path1_backup=0' && ok "PEER_GET: path 1 down" || nok "path 1 state"
q0=$(pstat 0) q1=$(pstat 1)
pings 10 && ok "ping with path 1 down" || nok "ping with path 1 down"
d0=$(($(pstat 0) - q0)) d1=$(($(pstat 1) - q1))
[ "$d1" -eq 0 ] && [ "$d0" -ge 10 ] && ok "path 1 down: 10 pings, path0 +$d0, path1 +0" || nok "path 1 down: path0 +$d0 path1 +$d1"
# backup: path 1 up again, path 0 a backup: it carries nothing while path 1 is up, everything when it is down
ip -n $a link set wa$$ up
ip netns exec $a $ctl pathset bd0 1 1 up && ip netns exec $b $ctl pathset bd0 1 1 up &&
	ip netns exec $a $ctl pathset bd0 1 0 backup && ok "path 1 up, path 0 backup" || nok "PATH_SET up / backup"
sleep 1
q0=$(pstat 0) q1=$(pstat 1)
pings 10 || nok "ping with path 0 a backup"
d0=$(($(pstat 0) - q0)) d1=$(($(pstat 1) - q1))
[ "$d0" -eq 0 ] && [ "$d1" -ge 10 ] && ok "backup path 0 idle while path 1 is up: path0 +0, path1 +$d1" ||
	nok "backup idle: path0 +$d0 path1 +$d1"
ip netns exec $a $ctl pathset bd0 1 1 down || nok "PATH_SET path 1 down"
q0=$(pstat 0) q1=$(pstat 1)
pings 10 || nok "ping on the backup path"
d0=$(($(pstat 0) - q0)) d1=$(($(pstat 1) - q1))
[ "$d1" -eq 0 ] && [ "$d0" -ge 10 ] && ok "path 1 down: the backup path 0 carries the pings (+$d0), path1 +0" ||
	nok "backup use: path0 +$d0 path1 +$d1"
ip netns exec $a $ctl pathset bd0 1 1 up && ip netns exec $a $ctl pathset bd0 1 0 primary &&
	ip netns exec $a $ctl show bd0 1 | grep -c '^path[01]_down=0 path[01]_backup=0$' | grep -qx 2 &&
	ok "both paths up and primary again" || nok "PATH_SET restore"
# path events without userspace's word: a's sends on path 1 fail (its veth down in a, so no route), the module
# notifies tx-error once with the errno, sends that packet on path 0 instead, its round robin leaves path 1 and
# the pings go on path 0, none lost; with the veth
# back, a PACKET_SEND on path 1 works, is notified tx-resumed, and path 1 carries data again. (b cannot see
# the cut, its sends into the dead veth vanish: its path 1 is set down as its probes would, and up again.)
ip netns exec $a $ctl watch bd0 40 >/tmp/ntf.$$ 2>&1 &
wpid=$!
for _ in $(seq 100); do grep -q '^watching' /tmp/ntf.$$ 2>/dev/null && break; sleep 0.1; done
ip netns exec $b $ctl pathset bd0 1 1 down || nok "b: PATH_SET path 1 down"
rr0=$(ip netns exec $a $ctl sched bd0 | sed -n 's/.*reroutes=//p')
ip -n $a link set wa$$ down
q0=$(pstat 0) q1=$(pstat 1)
ip netns exec $a ping -c 10 -i 0.2 -W 2 10.77.0.2 >/tmp/ping.$$ 2>&1
rx=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' /tmp/ping.$$)
d0=$(($(pstat 0) - q0)) d1=$(($(pstat 1) - q1))
[ "${rx:-0}" -eq 10 ] && [ "$d1" -eq 0 ] && [ "$d0" -ge 10 ] &&
	ok "path 1 failing to send: $rx/10 pings answered (the one whose send failed went on path 0), path0 +$d0, path1 +0" ||
	nok "path 1 failing: $rx/10 answered, path0 +$d0 path1 +$d1"
rr=$(($(ip netns exec $a $ctl sched bd0 | sed -n 's/.*reroutes=//p') - ${rr0:-0}))
[ "$rr" = 1 ] && ok "PROG_GET: reroutes +1 (the one packet whose send failed: a ping or a packet of the stack's own)" ||
	nok "PROG_GET reroutes +$rr"
ip netns exec $a $ctl show bd0 1 | grep -qx 'path1_tx_failing=1' && ok "PEER_GET: path 1 tx-failing" ||
	nok "PEER_GET path 1 tx_failing: $(ip netns exec $a $ctl show bd0 1 | grep tx_failing | tr '\n' ' ')"
ip -n $a link set wa$$ up
for _ in $(seq 50); do ip -n $a route get 192.168.78.2 >/dev/null 2>&1 && break; sleep 0.1; done
ip netns exec $b $ctl pathset bd0 1 1 up || nok "b: PATH_SET path 1 up"
r=$(ip netns exec $a $ctl send bd0 1 1 2a187bf3641eb4cb07ed2d0a981fc748)
case $r in packet_id=*) ok "PACKET_SEND on path 1 with its veth back: $r" ;; *) nok "PACKET_SEND on path 1: $r" ;; esac
q0=$(pstat 0) q1=$(pstat 1)
pings 10 || nok "ping with path 1 sending again"
d0=$(($(pstat 0) - q0)) d1=$(($(pstat 1) - q1))
[ "$d1" -ge 3 ] && [ "$d0" -ge 3 ] && ok "path 1 back in the round robin: path0 +$d0, path1 +$d1" ||
	nok "path 1 back: path0 +$d0 path1 +$d1"
sleep 0.5
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null
echo "notifications: $(grep -v '^watching' /tmp/ntf.$$ | tr '\n' ';')"
[ "$(grep -c 'event=tx-error' /tmp/ntf.$$)" = 1 ] &&
	grep -qx 'path peer=1 id=1 event=tx-error error=101 down=0 backup=0 tx_failing=1 remote=192.168.78.2:1194' /tmp/ntf.$$ &&
	ok "one PATH_NTF tx-error for path 1, errno 101 (ENETUNREACH)" || nok "tx-error notification"
[ "$(grep -c 'event=tx-resumed' /tmp/ntf.$$)" = 1 ] &&
	grep -qx 'path peer=1 id=1 event=tx-resumed down=0 backup=0 tx_failing=0 remote=192.168.78.2:1194' /tmp/ntf.$$ &&
	ok "one PATH_NTF tx-resumed for path 1" || nok "tx-resumed notification"
rm -f /tmp/ntf.$$ /tmp/ping.$$
want=$(xfer 2097152 /tmp/recv4.$$ "$ctl pathdel bd0 1 1")
got=$(cat /tmp/recv4.$$ 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "path 1 removed mid-transfer, sha256 intact" || nok "path removal: sent '$want' received '$got'"
sa2=$(ip netns exec $a $ctl show bd0 1)
echo "$sa2" | grep -q '^path1_' && nok "path 1 still listed" || ok "path 1 gone from PEER_GET"
# an IPv6 path (path 2 over the second veth) alone: 1 MiB, sha256 intact, its counters carry the traffic
ip -n $a addr add fd00:78::1/64 dev wa$$ nodad && ip -n $b addr add fd00:78::2/64 dev wb$$ nodad
ip netns exec $a $ctl pathdel bd0 1 0 && ip netns exec $b $ctl pathdel bd0 1 0 && ip netns exec $b $ctl pathdel bd0 1 1 &&
	ip netns exec $a $ctl path bd0 1 2 '[fd00:78::1]:1194' '[fd00:78::2]:1194' &&
	ip netns exec $b $ctl path bd0 1 2 '[fd00:78::2]:1194' '[fd00:78::1]:1194' && ok "IPv6 path 2 replaces the others" ||
	nok "IPv6 path set-up"
want=$(xfer 1048576 /tmp/recv5.$$)
got=$(cat /tmp/recv5.$$ 2>/dev/null)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "1 MiB over the IPv6 path, sha256 intact" || nok "IPv6 path: sent '$want' received '$got'"
p2=$(ip netns exec $b $ctl show bd0 1 | sed -n 's/^path2_rx_packets=\([0-9]*\) .*/\1/p')
[ "${p2:-0}" -gt 300 ] && ok "b received $p2 packets on the IPv6 path" || nok "IPv6 path rx $p2"
echo "data: $fail failed"
exit $fail
