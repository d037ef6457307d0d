# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM with braid_dco loaded (tests/kmod/guest.sh): braidd's kernel backend
# (daemon/dataplane/backend_kmod.c) carrying a TLS client's session.
#  1. braidd client `dco on`, two `mp-path` lines <-> userspace braidd gateway (`multipath on`, `dco off`):
#     4 MiB through the tunnel with sha256, both paths' PEER_GET counters in the status file ("Braid path"
#     lines from the module), the gateway validated both paths (answered from userspace through
#     PACKET_SEND), then a renegotiation (reneg-sec 12: the new key as the secondary + KEY_SWAP) and a
#     second transfer with sha256 intact.
#  2. braidd client `dco on`, single path <-> stock openvpn server (userspace): 2 MiB with sha256.
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

# ---- 1. braidd DCO (two paths) <-> userspace braidd gateway ----
cat >$w/gw.conf <<EOF
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
multipath on
dco off
verb 4
EOF
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
mp-path 10.61.1.2
mp-path 10.61.2.2
reneg-sec 12
dco on
status $w/cli.status 1
verb 4
EOF
bg $g "$braidd" --config $w/gw.conf --log $w/gw.log
gpid=$(tail -n1 $w/pids)
wait_log $w/gw.log "gateway ready" 30 || nok "dco braidd: gateway did not start: $(tail -5 $w/gw.log)"
bg $c "$braidd" --config $w/cli.conf --log $w/cli.log
cpid=$(tail -n1 $w/pids)
if wait_log $w/cli.log "Initialization Sequence Completed" 60; then
	ok "dco braidd: client up ($(grep -o 'dco: using the braid_dco kernel data plane' $w/cli.log))"
else
	nok "dco braidd: client not up: $(tail -15 $w/cli.log)"
fi
grep -qF "dco: path 1 10.61.2.2 -> [AF_INET]10.61.1.1:1194 in the kernel" $w/cli.log && ok "dco braidd: two paths handed to the module" ||
	nok "dco braidd: paths: $(grep 'dco:' $w/cli.log)"
ip -n $c link show braid0 >/dev/null 2>&1 && ok "dco braidd: device braid0 (kind braid_dco)" || nok "dco braidd: no braid0"
got=$(get blob)
if [ "$got" = "$want" ]; then
	ok "dco braidd: 4 MiB through the kernel data plane, sha256 intact"
else
	nok "dco braidd: sha256 $got, want $want"
	grep -iE 'path|valid|challenge' $w/gw.log | tail -12 | sed 's/^/  gw: /'
	ip -n $c -s link show braid0 | sed 's/^/  /'
	grep -vE 'dco: path|PUSH|push' $w/cli.log | tail -12 | sed 's/^/  cli: /'
fi
sleep 1.5	# one status rewrite after the PEER_GET poll
grep '^Braid path\|^Braid dco' $w/cli.status | sed 's/^/  /'
for i in 0 1; do
	l=$(grep "^Braid path,$i," $w/cli.status)
	tx=$(echo "$l" | cut -d, -f7) rx=$(echo "$l" | cut -d, -f9)
	if [ "${tx:-0}" -gt 100000 ] && [ "${rx:-0}" -gt 1000000 ]; then
		ok "dco braidd: path $i counters from PEER_GET: tx $tx B, rx $rx B"
	else
		nok "dco braidd: path $i carried tx ${tx:-?} / rx ${rx:-?} bytes: $l"
	fi
done
n=$(grep -c "learned from an authenticated packet" $w/gw.log)
[ "$n" = 2 ] && ok "dco braidd: the gateway learned 2 paths" || nok "dco braidd: gateway learned $n paths"
ch=$(grep '^Braid dco' $w/cli.status | cut -d, -f7)
[ "${ch:-0}" -ge 2 ] && ok "dco braidd: $ch path challenges answered through PACKET_SEND" ||
	nok "dco braidd: challenges answered: ${ch:-none}"
if wait_log $w/cli.log "renegotiation complete" 60; then
	ok "dco braidd: renegotiated: $(grep -m1 'dco: key_id [1-9]' $w/cli.log | sed 's/.*dco: //')"
else
	nok "dco braidd: no renegotiation: $(tail -8 $w/cli.log)"
fi
got=$(get blob)
[ "$got" = "$want" ] && ok "dco braidd: 4 MiB after the key swap, sha256 intact" || nok "dco braidd: after reneg: sha256 $got"
sleep 1.5
k=$(grep '^Braid dco' $w/cli.status)
p=$(echo "$k" | cut -d, -f3) s=$(echo "$k" | cut -d, -f4)
[ "${p:-0}" -ge 1 ] && [ "${s:--1}" -ge 0 ] && ok "dco braidd: kernel key slots primary $p secondary $s" ||
	nok "dco braidd: key slots after reneg: $k"
grep -q "dco: key_id.*refused\|PACKET_SEND.*refused" $w/cli.log && nok "dco braidd: refusals: $(grep refused $w/cli.log | head -3)"
stopd "$cpid"
stopd "$gpid"
ip -n $c link show braid0 >/dev/null 2>&1 && nok "dco braidd: braid0 left after exit" || ok "dco braidd: device deleted at exit"

# ---- 2. braidd DCO (single path) <-> stock openvpn ----
cat >$w/ovpn.conf <<EOF
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
disable-dco
verb 3
EOF
sed '/^mp-path/d; /^reneg-sec/d' $w/cli.conf >$w/cli1.conf
bg $g openvpn --config $w/ovpn.conf --log $w/ovpn.log
opid=$(tail -n1 $w/pids)
wait_log $w/ovpn.log "Initialization Sequence Completed" 60 || nok "dco openvpn: server not up: $(tail -5 $w/ovpn.log)"
bg $c "$braidd" --config $w/cli1.conf --log $w/cli1.log
cpid=$(tail -n1 $w/pids)
wait_log $w/cli1.log "Initialization Sequence Completed" 60 && ok "dco openvpn: braidd DCO client up with stock $(openvpn --version | head -1 | cut -d' ' -f1-2)" ||
	nok "dco openvpn: client not up: $(tail -10 $w/cli1.log)"
got=$(get blob2)
[ "$got" = "$want2" ] && ok "dco openvpn: 2 MiB with stock openvpn, sha256 intact" || nok "dco openvpn: sha256 $got, want $want2"
sleep 1.5
l=$(grep "^Braid path,0," $w/cli1.status)
rx=$(echo "$l" | cut -d, -f9)
[ "${rx:-0}" -gt 2000000 ] && ok "dco openvpn: path 0 rx $rx B (PEER_GET)" || nok "dco openvpn: path counters: $l"
stopd "$cpid"
stopd "$opid"
[ $fail = 0 ] || { echo "--- client log"; tail -40 $w/cli.log; echo "--- gateway log"; tail -20 $w/gw.log; echo "--- cli1"; tail -20 $w/cli1.log 2>/dev/null; }
exit $fail
