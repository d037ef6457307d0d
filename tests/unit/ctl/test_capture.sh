#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Capture a stock openvpn 2.6 tls-crypt client<->server handshake in two network
# namespaces and check that our decoder + tls-crypt unwrap parse every control packet.
#   test_capture.sh CTL_VECTOR
# Exit 77 (skip) when not root or openvpn/tcpdump are missing.
set -u
TOOL=$1
HERE=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v openvpn >/dev/null && command -v tcpdump >/dev/null || { echo "SKIP: openvpn/tcpdump missing"; exit 77; }
[ -c /dev/net/tun ] || { echo "SKIP: no /dev/net/tun"; exit 77; }

ID=ctl$$$RANDOM
NS_S=${ID}s NS_C=${ID}c
W=$(mktemp -d /tmp/ctl-capture.XXXXXX)
cleanup() {
	for f in "$W"/*.pid; do [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	[ -n "${TD:-}" ] && kill "$TD" 2>/dev/null
	sleep 0.2
	ip netns del "$NS_S" 2>/dev/null
	ip netns del "$NS_C" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

"$HERE/../../lib/pki.sh" "$W/pki" >/dev/null || exit 1
ip netns add "$NS_S" && ip netns add "$NS_C" || exit 1
ip link add "${ID}a" type veth peer name "${ID}b" || exit 1
ip link set "${ID}a" netns "$NS_S" && ip link set "${ID}b" netns "$NS_C" || exit 1
ip -n "$NS_S" addr add 10.99.0.1/24 dev "${ID}a"
ip -n "$NS_C" addr add 10.99.0.2/24 dev "${ID}b"
for n in "$NS_S" "$NS_C"; do ip -n "$n" link set lo up; done
ip -n "$NS_S" link set "${ID}a" up
ip -n "$NS_C" link set "${ID}b" up

ip netns exec "$NS_S" tcpdump -i "${ID}a" -U -w "$W/cap.pcap" udp port 1194 2>"$W/td.log" &
TD=$!
sleep 0.5
P=$W/pki
ip netns exec "$NS_S" openvpn --cd "$W" --dev tun --topology subnet --server 10.8.0.0 255.255.255.0 \
	--proto udp --port 1194 --local 10.99.0.1 --ca "$P/ca.crt" --cert "$P/server.crt" \
	--key "$P/server.key" --dh none --tls-crypt "$P/tc.key" --verb 3 --log "$W/s.log" \
	--daemon --writepid "$W/s.pid" || exit 1
ip netns exec "$NS_C" openvpn --cd "$W" --client --dev null --ifconfig-noexec --route-noexec \
	--proto udp --remote 10.99.0.1 1194 --nobind --ca "$P/ca.crt" --cert "$P/client1.crt" \
	--key "$P/client1.key" --remote-cert-tls server --tls-crypt "$P/tc.key" --verb 3 \
	--log "$W/c.log" --daemon --writepid "$W/c.pid" --ping 1 || exit 1
for _ in $(seq 1 50); do
	grep -q "Initialization Sequence Completed" "$W/c.log" 2>/dev/null && break
	sleep 0.2
done
grep -q "Initialization Sequence Completed" "$W/c.log" || { echo "FAIL: stock client did not connect"; tail -5 "$W/c.log" "$W/s.log"; exit 1; }
sleep 1.5
kill "$TD"; wait "$TD" 2>/dev/null; TD=
/usr/bin/python3 "$HERE/check_capture.py" "$TOOL" "$W/cap.pcap" "$P/tc.key"
