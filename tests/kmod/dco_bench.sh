# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM with braid_dco loaded (tests/kmod/vm_bench.sh): the same two namespaces and veth
# carry first a braid_dco tunnel (dco_ctl.py, aes-256-gcm), then a braidd static-key tunnel (the userspace
# data plane, AES-256-GCM); each is measured with iperf3 (measure() below: TCP throughput, 64-byte UDP
# packets/s saturated and per CPU-second at a fixed rate). One JSON object
# on the line starting 'bench-json: '. Then the in-module cost counters (module parameter cost_stats, read
# with braidd's dco_nl.c through dco-nl-drive): ns per encrypt, decrypt and path schedule over 64-byte UDP at
# 400 packets/s, with the built-in round robin and with a 4-program bpf/ chain (entry, two selectors, the
# weighted actor). $1: the source tree, $2: the build tree (bin/braidd, bin/dco-nl-drive, bpf/sched.bpf.o).
# TCG figures: emulation distorts both sides (one emulated CPU runs sender, tunnel and receiver).
src=$1 build=$2
ctl="python3 -B $src/tests/kmod/dco_ctl.py"
a=dcba$$ b=dcbb$$ w=/tmp/dcb$$ fail=0
K1=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
K2=f0e0d0c0b0a090807060504030201000f1e1d1c1b1a191817161514131211101
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
cleanup() {
	[ -n "${bpids:-}" ] && kill $bpids 2>/dev/null
	umount $w/pin 2>/dev/null
	ip netns pids $a 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids $b 2>/dev/null | xargs -r kill 2>/dev/null
	sleep 0.5
	ip netns del $a 2>/dev/null; ip netns del $b 2>/dev/null; rm -rf $w
}
trap cleanup EXIT
mkdir -p $w
modprobe tun 2>/dev/null	# /dev/net/tun for braidd (no udev in the VM)
ip netns add $a && ip netns add $b || { nok "netns"; exit 1; }
ip link add va$$ netns $a type veth peer name vb$$ netns $b
ip -n $a addr add 192.168.78.1/24 dev va$$ && ip -n $a link set va$$ up && ip -n $a link set lo up
ip -n $b addr add 192.168.78.2/24 dev vb$$ && ip -n $b link set vb$$ up && ip -n $b link set lo up

busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9; exit}' /proc/stat; }	# jiffies (USER_HZ)

# measure DST NAME: iperf3 server in b on DST; prints "tcp_mbps udp_sat_pps udp_cpu_pps udp_loss_pct":
# TCP bulk throughput; 64-byte UDP delivered packets/s with an unlimited sender (saturation: on one CPU the
# sender and the receiver compete with the tunnel, so this rewards whoever starves the receiver least);
# 64-byte UDP at a fixed 400 packets/s offered: delivered packets per second of CPU time (all of the VM's CPU:
# iperf3 both ends + tunnel, the same iperf3 cost on both sides), i.e. the packets/s one CPU sustains.
measure() {
	ip netns exec $b iperf3 -s -B "$1" -D -I $w/iperf.pid >/dev/null 2>&1
	sleep 1
	ip netns exec $a iperf3 -c "$1" -t 8 -J >$w/$2-tcp.json 2>&1
	ip netns exec $a iperf3 -c "$1" -u -b 0 -l 64 -t 5 -J >$w/$2-udp.json 2>&1
	sleep 1
	c0=$(busy)
	ip netns exec $a iperf3 -c "$1" -u -b 204800 -l 64 -t 8 -J >$w/$2-udpr.json 2>&1
	c1=$(busy)
	kill "$(cat $w/iperf.pid)" 2>/dev/null
	sleep 0.5
	python3 -c '
import json, sys
def load(p):
    try:
        return json.load(open(p))
    except Exception:
        return {}
def got(u):
    s = u.get("end", {}).get("sum", {})
    return s.get("packets", 0) - s.get("lost_packets", 0), s.get("seconds", 0), s.get("lost_percent", 100)
t = load(sys.argv[1])
mbps = t.get("end", {}).get("sum_received", {}).get("bits_per_second", 0) / 1e6
n, sec, _ = got(load(sys.argv[2]))
sat = n / sec if sec else 0
n, sec, loss = got(load(sys.argv[3]))
cpu_s = int(sys.argv[4]) / 100.0
print("%.1f %.0f %.0f %.1f" % (mbps, sat, n / cpu_s if cpu_s else 0, loss))' \
		$w/$2-tcp.json $w/$2-udp.json $w/$2-udpr.json $((c1 - c0))
}

# 1. braid_dco
ip netns exec $a $ctl up bd0 1 192.168.78.1:1194 192.168.78.2:1194 1 $K1 $K2 &&
	ip netns exec $b $ctl up bd0 1 192.168.78.2:1194 192.168.78.1:1194 1 $K2 $K1 || nok "dco up"
ip -n $a addr add 10.78.0.1/24 dev bd0 && ip -n $a link set bd0 up
ip -n $b addr add 10.78.0.2/24 dev bd0 && ip -n $b link set bd0 up
ip netns exec $a ping -c 2 -i 0.2 -W 5 -q 10.78.0.2 >/dev/null || nok "dco: no ping"
# the kernel's gcm(aes) implementation the module's keys got (the highest-priority synchronous one)
gcm=$(awk '/^name/{n=$3} /^driver/{d=$3} /^priority/{p=$3} /^async/{if (n == "gcm(aes)" && $3 == "no") print p, d}' \
	/proc/crypto | sort -n | tail -1 | cut -d' ' -f2)
set -- $(measure 10.78.0.2 dco)
dco_mbps=$1 dco_pps=$2 dco_cpps=$3 dco_loss=$4
# the cost counters (module-wide, both devices: a's encrypts and schedules, b's decrypts) over 64-byte UDP at
# 400 packets/s for 5 s; cost_run NAME writes the counters before and after as $w/NAME-0 and $w/NAME-1
param=/sys/module/braid_dco/parameters/cost_stats
cost_run() {
	ip netns exec $b iperf3 -s -B 10.78.0.2 -D -I $w/iperf.pid >/dev/null 2>&1
	sleep 1
	"$build/bin/dco-nl-drive" cost >$w/$1-0
	echo 1 >$param
	ip netns exec $a iperf3 -c 10.78.0.2 -u -b 204800 -l 64 -t 5 >/dev/null 2>&1
	echo 0 >$param
	"$build/bin/dco-nl-drive" cost >$w/$1-1
	kill "$(cat $w/iperf.pid)" 2>/dev/null
	sleep 0.5
}
cost_run rr
# the chain: braid_sched (step 0) -> sel_tuple (UDP) -> sel_len -> act_weighted on path 0: 4 programs a packet
mkdir -p $w/pin && mount -t bpf bpf $w/pin || nok "mount bpffs"
ip netns exec $a "$build/bin/braid-sched-attach" attach bd0 "$build/bpf/sched.bpf.o" $w/pin/c -w 1 -u 0 \
	sel_tuple:next=1,miss=1 sel_len:lmin=0,lmax=65535,next=2,miss=2 act_weighted >/dev/null || nok "chain attach"
cost_run chain
ip netns exec $a "$build/bin/braid-sched-attach" show bd0 | sed 's/^/bench: chain /'
ip netns exec $a "$build/bin/braid-sched-attach" detach bd0 $w/pin/c >/dev/null || nok "chain detach"
cost_json=$(python3 -c '
import json, sys
def kv(p):
    return {k: int(v) for k, v in (l.strip().split("=") for l in open(p) if "=" in l)}
d = {}
for name in ("rr", "chain"):
    a, b = kv(sys.argv[1] + "/" + name + "-0"), kv(sys.argv[1] + "/" + name + "-1")
    for op in ("encrypt", "decrypt", "sched"):
        n = b[op + "_packets"] - a[op + "_packets"]
        d["cost_%s_%s_packets" % (name, op)] = n
        d["cost_%s_ns_per_%s" % (name, op)] = round((b[op + "_ns"] - a[op + "_ns"]) / n) if n else None
print(json.dumps(d))' $w) || nok "cost counters"
echo "bench: cost $cost_json"
ip -n $a link del bd0; ip -n $b link del bd0
echo "bench: dco tcp ${dco_mbps} Mbit/s, udp ${dco_pps} pkt/s (saturated), ${dco_cpps} pkt per CPU-second (400 pkt/s, ${dco_loss} % lost)"

# 2. braidd, userspace data plane (static key, AES-256-GCM)
openvpn --genkey secret $w/key >/dev/null 2>&1 || nok "openvpn --genkey"
cat >$w/a.conf <<EOC
dev tun
proto udp
local 192.168.78.1
lport 1194
remote 192.168.78.2 1194
secret $w/key 0
cipher AES-256-GCM
ifconfig 10.79.0.1 10.79.0.2
dco off
verb 3
EOC
sed -e 's/local 192.168.78.1/local 192.168.78.2/; s/remote 192.168.78.2/remote 192.168.78.1/' \
	-e 's/key 0/key 1/; s/10.79.0.1 10.79.0.2/10.79.0.2 10.79.0.1/' $w/a.conf >$w/b.conf
ip netns exec $a "$build/bin/braidd" --config $w/a.conf >$w/a.log 2>&1 &
bpids=$!
ip netns exec $b "$build/bin/braidd" --config $w/b.conf >$w/b.log 2>&1 &
bpids="$bpids $!"
for _ in $(seq 60); do ip netns exec $a ping -c 1 -W 1 -q 10.79.0.2 >/dev/null 2>&1 && break; sleep 0.5; done
ip netns exec $a ping -c 2 -i 0.2 -W 5 -q 10.79.0.2 >/dev/null || { nok "braidd: no ping"; tail -5 $w/a.log; }
set -- $(measure 10.79.0.2 user)
user_mbps=$1 user_pps=$2 user_cpps=$3 user_loss=$4
kill $bpids; wait $bpids 2>/dev/null; bpids=
echo "bench: userspace tcp ${user_mbps} Mbit/s, udp ${user_pps} pkt/s (saturated), ${user_cpps} pkt per CPU-second (400 pkt/s, ${user_loss} % lost)"

python3 -c '
import json, sys
k = ["dco_tcp_mbps", "dco_udp64_sat_pps", "dco_udp64_pps_per_cpu_s", "dco_udp64_fixed_loss_pct",
     "user_tcp_mbps", "user_udp64_sat_pps", "user_udp64_pps_per_cpu_s", "user_udp64_fixed_loss_pct"]
d = dict(zip(k, map(float, sys.argv[1:9])))
def ratio(a, b):
    return round(d[a] / d[b], 2) if d[b] else None
d.update(tcp_ratio=ratio("dco_tcp_mbps", "user_tcp_mbps"),
         sat_pps_ratio=ratio("dco_udp64_sat_pps", "user_udp64_sat_pps"),
         cpu_pps_ratio=ratio("dco_udp64_pps_per_cpu_s", "user_udp64_pps_per_cpu_s"))
d.update(kernel=sys.argv[9], vm="QEMU/TCG -smp 1 -m 1G -cpu max (emulated: TCG figures)",
         cipher="AES-256-GCM", tcp="iperf3 -t 8, receiver Mbit/s",
         udp_sat="iperf3 -u -b 0 -l 64 -t 5, delivered packets/s",
         udp_fixed="iperf3 -u -b 204800 -l 64 -t 8 (400 packets/s), delivered packets per CPU-second (/proc/stat)")
d.update(kernel_gcm_driver=sys.argv[10], cpu_flags_aes_pclmul=sys.argv[11])
d.update(json.loads(sys.argv[12] or "{}"))
d.update(cost="in-module ktime_get_ns() sums (cost_stats) over iperf3 -u -b 204800 -l 64 -t 5; rr: built-in round "
         "robin, chain: braid_sched -> sel_tuple -> sel_len -> act_weighted (4 BPF programs)")
print("bench-json: " + json.dumps(d, sort_keys=True))' "$dco_mbps" "$dco_pps" "$dco_cpps" "$dco_loss" \
	"$user_mbps" "$user_pps" "$user_cpps" "$user_loss" "$(uname -r)" "${gcm:-?}" \
	"$(grep -m1 -o -w -e aes -e pclmulqdq /proc/cpuinfo | sort -u | tr '\n' ' ')" "${cost_json:-}"
python3 -c 'import sys; sys.exit(0 if min(map(float, sys.argv[1:])) > 0 else 1)' "$dco_mbps" "$user_mbps" ||
	nok "a TCP measurement failed ($dco_mbps, $user_mbps Mbit/s)"
exit $fail
