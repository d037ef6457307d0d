# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM with braid_dco loaded (tests/kmod/guest.sh): braidd's kernel backend
# (daemon/dataplane/backend_kmod.c) carrying a TLS client's session.
#  1. braidd client `dco on` as `user nobody`, single path <-> userspace braidd gateway (`multipath on`, `dco off`): the
#     session socket handed to the module, 4 MiB through the tunnel with sha256, the path's PEER_GET counters
#     in the status file, the module's cost counters in it ('Braid dco cost', cost_stats on for the transfer), a renegotiation (reneg-sec 15: the new key as the secondary + KEY_SWAP) and 4 MiB
#     more with sha256 intact, the kernel's key slots, no ping-restart, the gateway unreachable for ~3 s (one
#     log line when the module's sends fail, one when they work again, no restart), the device deleted at exit (all after the
#     privilege drop).
#  2. braidd client `dco on` with two `mp-path`s <-> the same gateway (mp-scheduler ratio): both paths handed to the
#     module, 4 MiB with sha256, each path's PEER_GET counters (both carried data both ways), the gateway's path
#     challenges answered through PACKET_SEND, a renegotiation (reneg-sec 20) and 4 MiB more with sha256 intact;
#     then a cut beyond the first hop (path 2's packets dropped in the gateway's namespace, the veth up) during an
#     8 MiB upload: braidd's probes find the path dead and mark it down (PATH_SET), the upload arrives intact, the
#     status shows the path failed; the cut undone, the path is marked up and 4 MiB more arrive intact.
#     Then the same with `dco-scheduler bpf/sched.bpf.o act_weighted` as `user nobody` (CAP_BPF kept): attached,
#     both paths send, 4 MiB intact, the program's runs (PROG_GET), and the cut again (a program is not overruled
#     by PATH_SET: braidd's map update is what takes the dead path out).
#     DCO_DBG=1: the gateway's view of the paths twice a second, and the same paths with the userspace data plane.
#  3. braidd client `dco on`, single path <-> stock openvpn server (userspace): 2 MiB with sha256.
# c (client ns) 10.61.1.2 --- 10.61.1.1 g (gateway ns, listens there)
#               10.61.2.2 --- 10.61.2.1    (path 2: policy-routed to 10.61.1.1 over the second link)
# $1: the source tree, $2: the build tree (bin/braidd). Exit status: failures.
src=$1 braidd=$2/bin/braidd
c=dcobc$$ g=dcobg$$ w=/tmp/dcob$$ fail=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
cleanup() {
	for p in $(cat $w/pids 2>/dev/null); do kill "$p" 2>/dev/null; done
	sleep 0.5
	ip netns del $c 2>/dev/null
	ip netns del $g 2>/dev/null
	rm -rf $w
}
trap cleanup EXIT
bg() { ns=$1; shift; ip netns exec "$ns" "$@" & echo $! >>$w/pids; }
wait_log() {	# file text seconds
	i=0
	while [ $i -lt $(($3 * 10)) ]; do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
wait_log_file() {	# file seconds: wait until it exists
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		[ -e "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
get() {	# sha256 of http://10.8.0.1:8080/$1 fetched in the client ns
	rm -f $w/got
	ip netns exec $c curl -sf --max-time 60 -o $w/got "http://10.8.0.1:8080/$1"
	sha256sum <$w/got | cut -d' ' -f1
}
stopd() { [ -n "$1" ] && kill "$1" 2>/dev/null; i=0; while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done; }
mkdir -p $w
modprobe tun 2>/dev/null	# /dev/net/tun for the gateway and stock openvpn (no udev in the VM)
[ -e /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
[ -x "$braidd" ] || { nok "dco braidd: no $braidd"; exit 1; }
bash "$src/tests/lib/pki.sh" $w/pki client1 >/dev/null 2>&1 || { nok "dco braidd: pki.sh"; exit 1; }
openvpn --genkey secret $w/pki/ta.key >/dev/null 2>&1 || { nok "dco braidd: openvpn --genkey"; exit 1; }
head -c 4194304 /dev/urandom >$w/blob
head -c 2097152 /dev/urandom >$w/blob2
want=$(sha256sum <$w/blob | cut -d' ' -f1) want2=$(sha256sum <$w/blob2 | cut -d' ' -f1)
ip netns add $c && ip netns add $g || { nok "dco braidd: netns"; exit 1; }
for i in 1 2; do
	ip link add vc$i$$ netns $c type veth peer name vg$i$$ netns $g
	ip -n $c addr add 10.61.$i.2/24 dev vc$i$$ && ip -n $c link set vc$i$$ up
	ip -n $g addr add 10.61.$i.1/24 dev vg$i$$ && ip -n $g link set vg$i$$ up
done
ip -n $c link set lo up && ip -n $g link set lo up
ip -n $c rule add from 10.61.2.2 table 2 && ip -n $c route add 10.61.1.1 dev vc2$$ table 2
ip netns exec $g sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
bg $g python3 -m http.server --bind 0.0.0.0 --directory $w 8080 >/dev/null 2>&1
pki=$w/pki

# the gateway profile braidd and stock openvpn share (each adds its own lines)
server_conf() {
	cat <<EOF
dev tun
topology subnet
server 10.8.0.0 255.255.255.0
proto udp
port 1194
local 10.61.1.1
ca $pki/ca.crt
cert $pki/server.crt
key $pki/server.key
dh none
keepalive 2 30
tls-auth $pki/ta.key 0
EOF
}
# mp-scheduler ratio (no slots: equal weights): the gateway's download goes over both of the DCO client's kernel paths
# whatever their measured delays. Under edf, on this one-vCPU TCG guest, the gateway measures the DCO client's answers
# slow during a transfer (srtt 50-230 ms against 1-10 ms for a userspace client in the same run, DCO_DBG=1) and keeps
# the download on one path (docs/kmod.md "Not done yet").
{ server_conf; printf '%s\n' 'multipath on' 'mp-scheduler ratio 1:1' 'dco off' "status-json $w/gw.json 1" 'verb 4'; } >$w/gw.conf
cat >$w/cli.conf <<EOF
client
dev tun
proto udp
remote 10.61.1.1 1194
nobind
ca $pki/ca.crt
cert $pki/client1.crt
key $pki/client1.key
remote-cert-tls server
tls-auth $pki/ta.key 1
dco on
verb 4
EOF
# client NAME [lines...]: start a braidd client with cli.conf + lines, status NAME.status; pid in $cpid
client() {
	n=$1
	shift
	{ cat $w/cli.conf; echo "status $w/$n.status 1"; for l in "$@"; do echo "$l"; done; } >$w/$n.conf
	bg $c "$braidd" --config $w/$n.conf --log $w/$n.log
	cpid=$(tail -n1 $w/pids)
	if wait_log $w/$n.log "Initialization Sequence Completed" 60; then
		ok "$n: client up ($(grep -o 'dco: using the braid_dco kernel data plane' $w/$n.log))"
	else
		nok "$n: client not up: $(tail -15 $w/$n.log)"
	fi
}
xfer() {	# NAME FILE WANT WHAT
	got=$(get "$2")
	if [ "$got" = "$3" ]; then
		ok "$1: $4, sha256 intact"
	else
		nok "$1: $4: sha256 $got, want $3"
		grep -vE 'SID' $w/gw.log 2>/dev/null | tail -10 | sed 's/^/  gw: /'
		grep -vE 'PUSH|push' $w/$1.log | tail -10 | sed 's/^/  cli: /'
	fi
}
field() { grep "^Braid path,$2," $w/$1.status | cut -d, -f"$3"; }	# NAME PATH COLUMN (7 tx, 9 rx bytes)

# ---- 1. braidd DCO single path <-> userspace braidd gateway, renegotiation ----
bg $g "$braidd" --config $w/gw.conf --log $w/gw.log
gpid=$(tail -n1 $w/pids)
wait_log $w/gw.log "gateway ready" 30 || nok "gateway did not start: $(tail -5 $w/gw.log)"
# as `user nobody`: every renegotiated key, and the device's removal at exit, go through the module's admin-only
# netlink with the CAP_NET_ADMIN the TLS client keeps (docs/braidd.md "Privileges")
client sp "reneg-sec 15" "user nobody" "group nogroup"
grep -q "privileges dropped: user nobody (uid [0-9]*), group nogroup (gid [0-9]*); capabilities kept: cap_net_admin" $w/sp.log &&
	ok "sp: privileges dropped to nobody, cap_net_admin kept" || nok "sp: no privilege drop: $(grep -i privilege $w/sp.log)"
! grep -q "multipath negotiated" $w/gw.log && ok "sp: no multipath offered without mp-path (IV_BRAID_MP)" ||
	nok "sp: the gateway negotiated multipath: $(grep 'multipath negotiated' $w/gw.log)"
grep -qF "dco: path 0 session -> [AF_INET]10.61.1.1:1194 in the kernel" $w/sp.log &&
	ok "sp: the session socket handed to the module" || nok "sp: path: $(grep 'dco:' $w/sp.log)"
ip -n $c -d link show braid0 2>/dev/null | grep -q braid_dco && ok "sp: device braid0 (kind braid_dco)" ||
	nok "sp: no braid0 of kind braid_dco"
# the module's cost counters (module-wide, left non-zero by dco_data.sh) on for this transfer: the status
# file's 'Braid dco cost' line (STATS_GET each second) must show them on and moved by the transfer
param=/sys/module/braid_dco/parameters/cost_stats
cost0=$("$2/bin/dco-nl-drive" cost | tr '\n' ' ')
echo 1 >$param
xfer sp blob "$want" "4 MiB through the kernel data plane"
sleep 2.5	# a status rewrite after a PEER_GET/STATS_GET poll that followed the transfer's last packet
costline=$(grep '^Braid dco cost,' $w/sp.status)	# before the switch goes off (the file is rewritten each second)
echo 0 >$param
grep '^Braid path\|^Braid dco' $w/sp.status | sed 's/^/  /'
# NAME: the counter before the transfer (dco-nl-drive) and in the status line (field F)
cost_delta() {
	now=$(echo "$costline" | cut -d, -f"$2")
	was=$(echo "$cost0" | tr ' ' '\n' | sed -n "s/^$1=//p")
	echo $((${now:-0} - ${was:-0}))
}
ce=$(cost_delta encrypt_packets 3) cdp=$(cost_delta decrypt_packets 5) cs=$(cost_delta sched_packets 7)
cdn=$(cost_delta decrypt_ns 6)
# at least one opened packet per 1448-byte segment of the download, an ACK sealed and scheduled per 64 KiB
if [ "$(echo "$costline" | cut -d, -f2)" = on ] && [ "$cdp" -ge 2897 ] && [ "$ce" -ge 64 ] &&
	[ "$cs" -ge 64 ] && [ "$cdn" -gt 0 ]; then
	ok "sp: status 'Braid dco cost' on: $cdp opened ($((cdn / cdp)) ns each), $ce sealed, $cs scheduled during 4 MiB"
else
	nok "sp: status 'Braid dco cost': $costline (before: $cost0)"
fi
tx=$(field sp 0 7) rx=$(field sp 0 9)
# tx: the download's ACKs; at least one per 64 KiB GRO/TSO super-segment (64 of >= 92 wire bytes):
# how many more depends on the gateway's batching (127,689 B before its TUN offloads, 35,073 B after)
[ "${tx:-0}" -gt 5888 ] && [ "${rx:-0}" -gt 4194304 ] && ok "sp: path 0 counters from PEER_GET: tx $tx B, rx $rx B" ||
	nok "sp: path 0 carried tx ${tx:-?} / rx ${rx:-?} bytes"
rd=$(sed -n 's/^TCP\/UDP read bytes,//p' $w/sp.status)
[ "${rd:-0}" -gt 4194304 ] && ok "sp: status 'TCP/UDP read bytes' $rd (the kernel's included)" ||
	nok "sp: status 'TCP/UDP read bytes' ${rd:-none}"
if wait_log $w/sp.log "renegotiation complete" 60; then
	ok "sp: renegotiated: $(grep 'dco: key_id [1-9]' $w/sp.log | head -1 | sed 's/.*dco: //')"
else
	nok "sp: no renegotiation: $(tail -8 $w/sp.log)"
fi
xfer sp blob "$want" "4 MiB after the key swap"
sleep 1.5
k=$(grep '^Braid dco,' $w/sp.status)
p=$(echo "$k" | cut -d, -f3) s=$(echo "$k" | cut -d, -f4)
[ "${p:-0}" -ge 1 ] && [ "${s:--1}" -ge 0 ] && ok "sp: kernel key slots primary $p, secondary $s (lame duck)" ||
	nok "sp: key slots after reneg: $k"
n=$(grep -c "Inactivity timeout" $w/sp.log)	# (the privilege drop's own line names ping-restart)
[ "$n" = 0 ] && ok "sp: no ping-restart (the kernel's traffic is activity)" || nok "sp: $n ping-restarts"
grep -q "refused" $w/sp.log && nok "sp: refusals: $(grep refused $w/sp.log | head -3)"
# the gateway unreachable for ~3 s (an unreachable route in the client: its addresses stay, so braidd's network
# watch does not reconnect): the module's sends on the path fail, braidd reads tx-failing from PEER_GET and says so
# once; the route gone, the next send works and braidd says that once
ip -n $c route add unreachable 10.61.1.1/32
ip netns exec $c ping -c 6 -i 0.5 -W 1 10.8.0.1 >/dev/null 2>&1
wait_log $w/sp.log "the kernel's sends on it fail" 5 &&
	ok "sp: gateway unreachable: $(grep -o "path 0 .*the kernel's sends on it fail.*" $w/sp.log | head -1)" ||
	nok "sp: gateway unreachable: no tx-failing line: $(tail -5 $w/sp.log)"
for _ in 1 2 3 4 5 6; do grep -q '^Braid path,0,session,[^,]*,failed,' $w/sp.status && break; sleep 0.5; done
grep -q '^Braid path,0,session,[^,]*,failed,' $w/sp.status && ok "sp: status: path 0 failed while its sends fail" ||
	nok "sp: status path line: $(grep '^Braid path' $w/sp.status)"
ip -n $c route del unreachable 10.61.1.1/32
ip netns exec $c ping -c 3 -i 0.5 -W 2 10.8.0.1 >/dev/null 2>&1 && ok "sp: tunnel pings answered with the route back" ||
	nok "sp: no ping answered after the route came back"
wait_log $w/sp.log "the kernel sends on it again" 5 &&
	[ "$(grep -c "the kernel's sends on it fail" $w/sp.log)" = 1 ] &&
	ok "sp: route back: one line each way ($(grep -o 'path 0 .*the kernel sends on it again' $w/sp.log | head -1))" ||
	nok "sp: route back: $(tail -5 $w/sp.log)"
grep -q "process restarting" $w/sp.log && nok "sp: restarted: $(grep 'process restarting' $w/sp.log | head -2)" ||
	ok "sp: the session stayed up through the cut"
stopd "$cpid"
ip -n $c link show braid0 >/dev/null 2>&1 && nok "sp: braid0 left after exit" || ok "sp: device deleted at exit"

# cut_upload NAME: a cut beyond the first hop during an upload by client NAME (two mp-paths; see the header)
cut_upload() {
	rm -f $w/up.sum $w/up.half $w/up.go
	# a cut beyond the first hop: path 2's packets vanish in the gateway's namespace both ways, the veth
	# stays up (no send error in the module). braidd's probes find the path dead and mark it down in the
	# module (PATH_SET); an 8 MiB upload that runs through the cut arrives intact; the path comes back.
	bg $g python3 -c 'import hashlib,socket,sys
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1); s.bind(("10.8.0.1",9000)); s.listen(1)
c,_=s.accept(); h=hashlib.sha256(); n=0
while True:
    b=c.recv(65536)
    if not b: break
    h.update(b); n+=len(b)
open(sys.argv[1]+".tmp","w").write("%s %d\n"%(h.hexdigest(),n)); __import__("os").rename(sys.argv[1]+".tmp",sys.argv[1])' $w/up.sum
	head -c 8388608 /dev/urandom >$w/up
	upwant=$(sha256sum <$w/up | cut -d' ' -f1)
	sleep 0.5
	bg $c python3 -c 'import os,socket,sys,time
d=open(sys.argv[1],"rb").read(); s=socket.create_connection(("10.8.0.1",9000),timeout=60)
s.sendall(d[:len(d)//2]); open(sys.argv[2],"w").close()
for _ in range(200):
    if os.path.exists(sys.argv[3]): break
    time.sleep(0.05)
s.sendall(d[len(d)//2:]); s.close()' $w/up $w/up.half $w/up.go
	upid=$(tail -n1 $w/pids)
	if wait_log_file $w/up.half 60; then
		printf '%s\n' 'table inet braidcut {' \
			' chain pre { type filter hook prerouting priority -300; ip saddr 10.61.2.2 drop; }' \
			' chain out { type filter hook output priority -300; ip daddr 10.61.2.2 drop; }' '}' |
			ip netns exec $g nft -f - || nok "$1 cut: nft rules"
		cut_at=$(date +%s.%N)
		: >$w/up.go
		if wait_log $w/$1.log "marked down" 10; then
			down_at=$(grep -m1 "path 1 (10.61.2.2).*marked down" $w/$1.log | cut -c12-23)
			ms=$(python3 -c 'import sys,datetime
c=float(sys.argv[1]); d=sys.argv[2]; t=datetime.datetime.fromtimestamp(c)
h,m,s=d.split(":"); dt=(int(h)*3600+int(m)*60+float(s))-(t.hour*3600+t.minute*60+t.second+t.microsecond/1e6)
print(int(dt*1000))' "$cut_at" "$down_at" 2>/dev/null)
			ok "$1 cut: path 1 marked down ${ms:-?} ms after the cut ($(grep -m1 'path 1 (10.61.2.2).*marked down' $w/$1.log | sed 's/.*\]//'))"
		else
			nok "$1 cut: path 1 not marked down: $(grep 'dco:' $w/$1.log | tail -3)"
		fi
		wait_log_file $w/up.sum 90 || nok "$1 cut: the upload did not finish"
		got=$(cut -d' ' -f1 $w/up.sum 2>/dev/null)
		[ "$got" = "$upwant" ] && ok "$1 cut: 8 MiB upload through the cut, sha256 intact ($(cut -d' ' -f2 $w/up.sum) B)" ||
			nok "$1 cut: upload sha256 ${got:-none}, want $upwant"
		sleep 1.2
		grep -q '^Braid path,1,10.61.2.2,.*,failed,' $w/$1.status && ok "$1 cut: status shows path 1 failed" ||
			nok "$1 cut: status: $(grep '^Braid path,1' $w/$1.status)"
		ip netns exec $g nft delete table inet braidcut
		if wait_log $w/$1.log "path 1 (10.61.2.2): answers probes again" 10; then
			ok "$1 cut: path 1 back ($(grep -m1 'path 1 (10.61.2.2): answers probes again' $w/$1.log | sed 's/.*\]//'))"
		else
			nok "$1 cut: path 1 not back: $(grep 'dco:' $w/$1.log | tail -3)"
		fi
		xfer $1 blob "$want" "4 MiB over both paths after the cut"
	else
		nok "$1 cut: the upload did not start"
	fi
	stopd "$upid"
}

# ---- 2. braidd DCO two paths <-> userspace braidd gateway (DCO_MP=0 skips it) ----
if [ "${DCO_MP:-1}" = 1 ]; then
	client mp "mp-path 10.61.1.2" "mp-path 10.61.2.2" "reneg-sec 20"
	grep -qF "dco: path 1 10.61.2.2 -> [AF_INET]10.61.1.1:1194 in the kernel" $w/mp.log &&
		ok "mp: two paths handed to the module" || nok "mp: paths: $(grep 'dco:' $w/mp.log)"
	if [ "${DCO_DBG:-0}" = 1 ]; then	# the gateway's view of each path, twice a second (debugging)
		( while :; do python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["clients"]:
    print(" ".join("%s:%s bw %.1f rate %.1f srtt %.1f minrtt %.1f owdrel %.1f q %.1f qb %d tx %d fail %d susp %d mtu %d/%d/%d" % (p["index"], p["state"], p["bw_mbit"],
        p["rate_mbit"], p["srtt_ms"], p["min_rtt_ms"], p["owd_rel_ms"], p["qdelay_ms"], p["queue_bytes"], p["tx_bytes"], p["failures"], p["suspects"],
        p["mtu"], p["mtu_probes"], p["mtu_probes_lost"]) for p in c.get("paths", [])))' \
			$w/gw.json 2>/dev/null; sleep 0.5; done >$w/gwtrace ) &
		echo $! >>$w/pids
	fi
	xfer mp blob "$want" "4 MiB over two kernel paths"
	[ "${DCO_DBG:-0}" = 1 ] && sed 's/^/  trace: /' $w/gwtrace
	sleep 1.5
	grep '^Braid path\|^Braid dco' $w/mp.status | sed 's/^/  /'
	for i in 0 1; do
		tx=$(field mp $i 7) rx=$(field mp $i 9)
		[ "${tx:-0}" -gt 50000 ] && [ "${rx:-0}" -gt 200000 ] && ok "mp: path $i carried data both ways: tx $tx B, rx $rx B" ||
			nok "mp: path $i carried tx ${tx:-?} / rx ${rx:-?} bytes"
	done
	ch=$(grep '^Braid dco,' $w/mp.status | cut -d, -f7)
	[ "${ch:-0}" -ge 2 ] && ok "mp: $ch path challenges answered through PACKET_SEND" || nok "mp: challenges answered: ${ch:-none}"
	# after a renegotiation the REPORTs name the new key generation's packet ids (dco_mpctl.h)
	if wait_log $w/mp.log "renegotiation complete" 60; then
		ok "mp: renegotiated"
		xfer mp blob "$want" "4 MiB over two kernel paths after the key swap"
	else
		nok "mp: no renegotiation: $(tail -5 $w/mp.log)"
	fi
	cut_upload mp
	grep -iE 'path|valid' $w/gw.log | grep -v SID | tail -12 | sed 's/^/  gw: /'
	[ $fail = 0 ] || python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["clients"]:
    print("  gw engine:", c.get("engine"))
    for p in c.get("paths", []): print("  gw path:", p)' $w/gw.json
	stopd "$cpid"

	# dco-scheduler: braidd loads bpf/sched.bpf.o with one step (act_weighted), attaches it and publishes the
	# paths' state, as `user nobody` (CAP_BPF kept). A program is not overruled by PATH_SET: through the cut
	# the upload survives only because braidd publishes the dead path as down in the program's map.
	so=$2/bpf/sched.bpf.o
	if [ -s "$so" ] && [ -x "$2/bin/braid-sched-attach" ]; then
		client mps "mp-path 10.61.1.2" "mp-path 10.61.2.2" "user nobody" "group nogroup" \
			"dco-scheduler $so act_weighted"
		grep -qF "dco-scheduler: $so: act_weighted (1 step) attached to the device, 2 paths published" $w/mps.log &&
			ok "mps: program attached, paths published" || nok "mps: attach: $(grep 'dco-scheduler' $w/mps.log)"
		grep -q "capabilities kept: cap_net_admin,cap_bpf" $w/mps.log && ok "mps: $(grep -o 'capabilities kept: .*' $w/mps.log | head -1)" ||
			nok "mps: CAP_BPF not kept: $(grep -i 'privilege' $w/mps.log | head -2)"
		xfer mps blob "$want" "4 MiB with the eBPF scheduler"
		sleep 1.5
		for i in 0 1; do	# act_weighted with the published equal weights: the ACKs go out on both paths
			tx=$(field mps $i 7)
			[ "${tx:-0}" -gt 50000 ] && ok "mps: path $i sent $tx B" || nok "mps: path $i sent ${tx:-?} B"
		done
		runs0=$(ip netns exec $c "$2/bin/braid-sched-attach" show braid0 | sed -n 's/^runs=//p')
		[ "${runs0:-0}" -gt 1000 ] && ok "mps: the program ran $runs0 times" || nok "mps: program runs ${runs0:-?}"
		cut_upload mps
		runs1=$(ip netns exec $c "$2/bin/braid-sched-attach" show braid0 | sed -n 's/^runs=//p')
		[ "${runs1:-0}" -gt $((runs0 + 5000)) ] && ok "mps: it scheduled the upload through the cut ($runs0 -> $runs1 runs)" ||
			nok "mps: program runs ${runs0:-?} -> ${runs1:-?}"
		stopd "$cpid"
	else
		nok "mps: no $so or braid-sched-attach (bpf/ not built)"
	fi
	if [ "${DCO_DBG:-0}" = 1 ]; then	# the same two paths with the userspace data plane, for comparison
		sed -i 's/^dco on$/dco off/' $w/cli.conf
		client mpu "mp-path 10.61.1.2" "mp-path 10.61.2.2"
		xfer mpu blob "$want" "4 MiB over two userspace paths"
		sleep 1.5
		grep '^Braid path' $w/mpu.status | sed 's/^/  mpu: /'
		sed 's/^/  trace: /' $w/gwtrace | tail -4
		stopd "$cpid"
		sed -i 's/^dco off$/dco on/' $w/cli.conf
	fi
fi
stopd "$gpid"

# ---- 3. braidd DCO single path <-> stock openvpn ----
{ server_conf; printf '%s\n' disable-dco 'verb 3'; } >$w/ovpn.conf
bg $g openvpn --config $w/ovpn.conf --log $w/ovpn.log
opid=$(tail -n1 $w/pids)
wait_log $w/ovpn.log "Initialization Sequence Completed" 60 || nok "openvpn: server not up: $(tail -5 $w/ovpn.log)"
client ov
xfer ov blob2 "$want2" "2 MiB with stock $(openvpn --version | head -1 | cut -d' ' -f1-2)"
sleep 1.5
rx=$(field ov 0 9)
[ "${rx:-0}" -gt 2000000 ] && ok "ov: path 0 rx $rx B (PEER_GET)" || nok "ov: path 0 rx ${rx:-?}"
stopd "$cpid"
stopd "$opid"
exit $fail
