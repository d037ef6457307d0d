# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Runs inside the kmod VM with braid_dco loaded (tests/kmod/guest.sh): the wire format against the
# userspace data plane. ns u plays the userspace peer with daemon/dc itself (tests/unit/dc/dc-vector,
# direction 0 of a 256-byte key2, peer id 5); ns k runs a braid_dco device with the same key2's other
# direction, keyed by braidd's own client (daemon/dataplane/dco_nl.c braid_dco_nl_key_install: cipher key = the
# slot's first 32 bytes, nonce tail = the hmac slot's first 8, as dc.c) through tests/kmod/dco_nl_drive.c.
#   u -> k: dc-vector seals an inner IPv4/UDP datagram; the DCO device must deliver its payload.
#   k -> u: a datagram sent through the DCO device must open with dc-vector (opcode 9, peer id 5).
# $1: the source tree, $2: the build tree (bin/dc-vector). Exit status: failures.
src=$1 bin=$2/bin/dc-vector
ctl="python3 -B $src/tests/kmod/dco_ctl.py"
# ns k is configured by braidd's own client of the module (daemon/dataplane/dco_nl.c) and reads the hand-ups
# with its parser (dco_up.c): tests/kmod/dco_nl_drive.c
drive=$2/bin/dco-nl-drive
u=dcou$$ k=dcok$$ fail=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; fail=$((fail + 1)); }
cleanup() { ip netns del $u 2>/dev/null; ip netns del $k 2>/dev/null; }
trap cleanup EXIT
[ -x "$bin" ] || { nok "no $bin (cmake --build: target dc-vector)"; exit 1; }
[ -x "$drive" ] || { nok "no $drive (cmake --build: target dco-nl-drive)"; exit 1; }
K2=$(python3 -c 'print(bytes(range(256)).hex())')
ip netns add $u && ip netns add $k || { nok "netns"; exit 1; }
ip link add vu$$ netns $u type veth peer name vk$$ netns $k
ip -n $u addr add 192.168.79.1/24 dev vu$$ && ip -n $u link set vu$$ up
ip -n $k addr add 192.168.79.2/24 dev vk$$ && ip -n $k link set vk$$ up
# dc direction 0 sends with keys[0] (k[0..64) cipher, k[64..128) hmac), receives with keys[1] (k[128..256))
# HOLD=1: dco-nl-drive keeps the path socket and prints the first datagram handed up (keepalive below), raw
# and as braidd's parser reads it
# (dco-nl-drive up: the whole key2, direction 1 = the TLS server's, sliced by braidd's dco_nl.c as dc.c does)
HOLD=1 ip netns exec $k $drive up bd0 5 192.168.79.2:1194 192.168.79.1:1195 1 "$K2" 1 >/tmp/interop-up.$$ 2>&1 &
upid=$!
for _ in $(seq 100); do grep -qs held /tmp/interop-up.$$ && break; sleep 0.1; done
grep -q held /tmp/interop-up.$$ && ok "interop: DCO peer 5 keyed from the key2" ||
	nok "interop: DCO up: $(cat /tmp/interop-up.$$)"
ip -n $k addr add 10.79.0.2/24 dev bd0 && ip -n $k link set bd0 up

# u -> k
ip netns exec $k python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("10.79.0.2", 7777)); s.settimeout(15)
open(sys.argv[1], "w").write("ready")
d, a = s.recvfrom(2048); print(d.decode(), a[0])' /tmp/interop-rdy1.$$ >/tmp/interop-rx.$$ 2>&1 &
lpid=$!
for _ in $(seq 300); do [ -s /tmp/interop-rdy1.$$ ] && break; sleep 0.1; done	# bound: a TCG guest is slow
ip netns exec $u python3 -c '
import socket, struct, subprocess, sys
payload = b"from-userspace-dc"
udp = struct.pack("!HHHH", 4000, 7777, 8 + len(payload), 0) + payload
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                 socket.inet_aton("10.79.0.1"), socket.inet_aton("10.79.0.2"))
s = sum(struct.unpack("!10H", ip)); s = (s & 0xffff) + (s >> 16); s = (s & 0xffff) + (s >> 16)
ip = ip[:10] + struct.pack("!H", ~s & 0xffff) + ip[12:]
out = subprocess.run([sys.argv[1], "encrypt", "--cipher", "AES-256-GCM", "--key2", sys.argv[2], "--direction", "0",
                      "--peer-id", "5", "--key-id", "1", "--packet-id", "1", "--plaintext", (ip + udp).hex()],
                     check=True, capture_output=True, text=True).stdout.split()[0]
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("192.168.79.1", 1195))
u.sendto(bytes.fromhex(out), ("192.168.79.2", 1194))' "$bin" "$K2"
wait $lpid
got=$(cat /tmp/interop-rx.$$)
[ "$got" = "from-userspace-dc 10.79.0.1" ] && ok "interop: daemon/dc's P_DATA_V2 opened by the module ($got)" ||
	nok "interop u->k: got '$got'"

# k -> u
ip netns exec $u python3 -c '
import socket, subprocess, sys, time
# the device may send other packets first (IPv6 link-local traffic): the first one carrying the datagram counts
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("192.168.79.1", 1195)); u.settimeout(15)
open(sys.argv[3], "w").write("ready")
want = b"from-kernel-dco".hex()
for _ in range(20):
    pkt, _ = u.recvfrom(4096)
    r = subprocess.run([sys.argv[1], "decrypt", "--cipher", "AES-256-GCM", "--key2", sys.argv[2], "--direction", "0",
                        "--peer-id", "5", "--key-id", "1", "--packet", pkt.hex()], capture_output=True, text=True)
    line = "%d %d %d %s" % (pkt[0], int.from_bytes(pkt[1:4], "big"), r.returncode, r.stdout.strip())
    if r.returncode or line.endswith(want):
        break
print(line)' "$bin" "$K2" /tmp/interop-rdy2.$$ >/tmp/interop-tx.$$ 2>&1 &
lpid=$!
for _ in $(seq 300); do [ -s /tmp/interop-rdy2.$$ ] && break; sleep 0.1; done
ip netns exec $k python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"from-kernel-dco", ("10.79.0.1", 4000))'
wait $lpid
got=$(cat /tmp/interop-tx.$$)
want=$(printf 'from-kernel-dco' | od -An -tx1 | tr -d ' \n')
case $got in
"73 5 0 ok key_id=1 packet_id="*" opcode=9 plaintext="*"$want") ok "interop: the module's P_DATA_V2 opened by daemon/dc ($(echo "$got" | cut -c1-60)...)" ;;
*) nok "interop k->u: '$got'" ;;
esac
# keepalive: OpenVPN's ping (not an IP packet) sealed by daemon/dc must reach the path socket's reader as an
# up-opcode datagram (BRAID_DCO_UP_OPCODE 31: 0xf8 | key id 1, peer id 5, packet id 2, 16 zero bytes, the
# ping magic); forged up-opcode datagrams sent first from the network (32 bytes, 3 bytes) must not reach it.
ping=2a187bf3641eb4cb07ed2d0a981fc748
ip netns exec $u python3 -c '
import socket, subprocess, sys
out = subprocess.run([sys.argv[1], "encrypt", "--cipher", "AES-256-GCM", "--key2", sys.argv[2], "--direction", "0",
                      "--peer-id", "5", "--key-id", "1", "--packet-id", "2", "--plaintext", sys.argv[3]],
                     check=True, capture_output=True, text=True).stdout.split()[0]
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("192.168.79.1", 1195))
u.sendto(bytes([0xf9, 0, 0, 5, 0, 0, 0, 9]) + bytes(16) + b"forged", ("192.168.79.2", 1194))
u.sendto(bytes([0xf9, 0, 0]), ("192.168.79.2", 1194))
u.sendto(bytes.fromhex(out), ("192.168.79.2", 1194))' "$bin" "$K2" "$ping"
wait $upid
got=$(sed -n 2p /tmp/interop-up.$$)
[ "$got" = "f900000500000002$(printf '0%.0s' $(seq 32))$ping" ] &&
	ok "interop: keepalive ping handed up to userspace as up-opcode 31 ($(echo "$got" | cut -c1-24)...), forged ones dropped" ||
	nok "interop: keepalive hand-up: got '$got'"
got=$(sed -n 3p /tmp/interop-up.$$)
[ "$got" = "up peer_id=5 key_id=1 packet_id=2 payload=$ping" ] &&
	ok "interop: braidd's reader parses the hand-up ($got)" || nok "interop: hand-up parsed as '$got'"

# PACKET_SEND: a control payload (OpenVPN's OCC EXIT message) sealed by the module with the data key must
# open with daemon/dc (opcode 9, peer id 5, the packet id the reply names: the data path's counter, no reuse)
occ=287f346bd4ef7a812d56b8d3afc5459c06
ip netns exec $u python3 -c '
import socket, subprocess, sys
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("192.168.79.1", 1195)); u.settimeout(15)
print("ready", flush=True)
for _ in range(20):
    pkt, _ = u.recvfrom(4096)
    r = subprocess.run([sys.argv[1], "decrypt", "--cipher", "AES-256-GCM", "--key2", sys.argv[2], "--direction", "0",
                        "--peer-id", "5", "--key-id", "1", "--packet", pkt.hex()], capture_output=True, text=True)
    if r.returncode or r.stdout.strip().endswith(sys.argv[3]):
        break
print(r.returncode, r.stdout.strip())' "$bin" "$K2" "$occ" >/tmp/interop-send.$$ 2>&1 &
lpid=$!
# the listener must be bound before the send (python under TCG can take seconds to start)
for _ in $(seq 300); do grep -qs ready /tmp/interop-send.$$ && break; sleep 0.1; done
sent=$(ip netns exec $k $drive send bd0 5 0 "$occ")
wait $lpid
got=$(sed 1d /tmp/interop-send.$$)
pid=${sent#packet_id=}
case $got in
"0 ok key_id=1 packet_id=$pid opcode=9 plaintext=$occ")
	if [ "$pid" -gt 1 ]; then ok "interop: PACKET_SEND's OCC payload opened by daemon/dc ($sent, after the data packets)"
	else nok "interop: PACKET_SEND packet id $pid not after the data packets"; fi ;;
*) nok "interop: PACKET_SEND: '$sent', received '$got'" ;;
esac
# PACKET_SEND refusals (errno + extack), then the peer's control counters: 1 sent, 1 handed up (the ping)
refused_send() {	# $1 peer, $2 path, $3 hex payload, $4 the expected "refused ..." prefix, $5 the tool (dco-nl-drive)
	got=$(ip netns exec $k ${5:-$drive} send bd0 "$1" "$2" "$3")
	case $got in
	"$4"*) ok "interop: PACKET_SEND peer $1 path $2 ($(($(printf %s "$3" | wc -c) / 2)) bytes): $got" ;;
	*) nok "interop: PACKET_SEND peer $1 path $2: '$got', want '$4'" ;;
	esac
}
refused_send 5 0 4500001c "refused EINVAL an IP packet: write it to the device"
refused_send 5 0 6000 "refused EINVAL an IP packet: write it to the device"
refused_send 5 0 "" "refused EINVAL an empty payload"
refused_send 5 3 2a "refused ENOENT the peer has no path with this id"
refused_send 6 0 2a "refused ENOENT no peer with this id"
# (braidd's client refuses more than 9000 bytes itself: the kernel's policy is asked with dco_ctl.py)
refused_send 5 0 "$(python3 -c 'print("2a" * 9001)')" "refused ERANGE" "$ctl"
refused_send 5 8 2a "refused ERANGE"
cnt=$(ip netns exec $k $drive show bd0 5 | grep '^ctl_' | tr '\n' ' ')
[ "$cnt" = "ctl_tx_packets=1 ctl_rx_packets=1 " ] && ok "interop: peer control counters: $cnt" ||
	nok "interop: peer control counters: '$cnt'"
rm -f /tmp/interop-up.$$ /tmp/interop-rx.$$ /tmp/interop-tx.$$ /tmp/interop-send.$$ /tmp/interop-rdy1.$$ /tmp/interop-rdy2.$$
echo "interop: $fail failed"
exit $fail
