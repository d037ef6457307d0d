#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Braid control-channel session against stock openvpn 2.6, in two network namespaces:
#
#   [ns S] 10.99.0.1 ----veth---- 10.99.0.2 [ns C]
#   stock `openvpn --server` (tun)          ctlpeer client        (client cases)
#   ctlpeer server (stateless cookie)       stock `openvpn --client --dev null` (server cases)
#
# UDP, and one TCP case per role (u16 length framing; the ctlpeer TCP server keeps state, no cookie).
# Each case: TLS + key-method-2, PUSH_REQUEST/PUSH_REPLY, keys into a braid_dc, keepalive pings
# both ways, DATA_V2 pings decrypted. Wraps none/tls-auth/tls-crypt, AES-256-GCM and
# CHACHA20-POLY1305, EKM and PRF; four cases add one renegotiation (started by the stock side,
# --reneg-sec 5, or by ours, reneg-sec 3) with pings decrypted on the new key_id.
#   test_stock_peer.sh CTLPEER
# Exit 77 (skip) when not root or openvpn is missing.
set -u
PEER=$1
HERE=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v openvpn >/dev/null || { echo "SKIP: openvpn missing"; exit 77; }
[ -c /dev/net/tun ] || { echo "SKIP: no /dev/net/tun"; exit 77; }

ID=csp$$$RANDOM
NS_S=${ID}s NS_C=${ID}c
W=$(mktemp -d /tmp/ctl-stock.XXXXXX)
cleanup() {
	for f in "$W"/*.pid; do [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
	sleep 0.2
	ip netns del "$NS_S" 2>/dev/null
	ip netns del "$NS_C" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

"$HERE/../../lib/pki.sh" "$W/pki" >/dev/null || exit 1
P=$W/pki
openvpn --genkey secret "$P/ta.key" >/dev/null 2>&1 || { echo "FAIL: openvpn --genkey secret"; exit 1; }
ip netns add "$NS_S" && ip netns add "$NS_C" || exit 1
ip link add "${ID}a" type veth peer name "${ID}b" || exit 1
ip link set "${ID}a" netns "$NS_S" && ip link set "${ID}b" netns "$NS_C" || exit 1
ip -n "$NS_S" addr add 10.99.0.1/24 dev "${ID}a"
ip -n "$NS_C" addr add 10.99.0.2/24 dev "${ID}b"
for n in "$NS_S" "$NS_C"; do ip -n "$n" link set lo up; done
ip -n "$NS_S" link set "${ID}a" up
ip -n "$NS_C" link set "${ID}b" up

FAILS=0 N=0 PORT=1194 PROTO=udp
TLS=(--ca "$P/ca.crt" --dh none --verb 3 --suppress-timestamps --data-ciphers AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305)

wrap_args() { # wrap role(server|client)
	case $1 in
	auth) [ "$2" = server ] && echo "--tls-auth $P/ta.key 0" || echo "--tls-auth $P/ta.key 1" ;;
	crypt) echo "--tls-crypt $P/tc.key" ;;
	none) echo "" ;;
	esac
}
wrap_key() { case $1 in auth) echo "$P/ta.key" ;; crypt) echo "$P/tc.key" ;; *) echo "" ;; esac; }

fail() {
	echo "FAIL: $*"
	FAILS=$((FAILS + 1))
}

# ctlpeer as a client against a stock server: case_client WRAP CIPHER KDF [stock|ours (renegotiation)]
case_client() {
	local wrap=$1 cipher=$2 kdf=$3 reneg=${4:-} n=$N extra=() kargs=()
	N=$((N + 1)); PORT=$((PORT + 1))
	case $reneg in
	stock) extra=(--reneg-sec 5) ;;
	ours) kargs=(--reneg-sec 3) ;;
	esac
	# shellcheck disable=SC2046
	ip netns exec "$NS_S" openvpn --cd "$W" --dev tun --topology subnet --server 10.8.0.0 255.255.255.0 \
		--proto "$([ $PROTO = tcp ] && echo tcp-server || echo udp)" --port $PORT --local 10.99.0.1 \
		--cert "$P/server.crt" --key "$P/server.key" \
		"${TLS[@]}" $(wrap_args "$wrap" server) --keepalive 1 10 "${extra[@]}" \
		--log "$W/s$n.log" --daemon --writepid "$W/s$n.pid" || { fail "stock server did not start"; return; }
	for _ in $(seq 1 30); do grep -q "Initialization Sequence Completed" "$W/s$n.log" 2>/dev/null && break; sleep 0.1; done
	[ "$wrap" != none ] && kargs+=(--wrap "$wrap" --wrap-key "$(wrap_key "$wrap")")
	local sfx=
	[ $PROTO = tcp ] && { kargs+=(--tcp); sfx=" tcp"; }
	local desc="client $PROTO wrap=$wrap cipher=$cipher kdf=$kdf${reneg:+ +renegotiation by $reneg side}"
	if ip netns exec "$NS_C" "$PEER" client --remote 10.99.0.1:$PORT --ca "$P/ca.crt" \
		--cert "$P/client1.crt" --key "$P/client1.key" "${kargs[@]}" --cipher "$cipher" --kdf "$kdf" \
		${reneg:+--reneg} --timeout 12 >"$W/p$n.out" 2>"$W/p$n.err"; then
		local up=${kdf^^}
		if grep -q "ctlpeer: OK client$sfx wrap=$wrap cipher=$cipher kdf=$up" "$W/p$n.out"; then
			echo "ok   $desc: $(cat "$W/p$n.out")"
		else
			fail "$desc: unexpected result: $(cat "$W/p$n.out")"
		fi
		# the stock server agrees on the key derivation
		if [ "$kdf" = prf ] && grep -q "using EKM" "$W/s$n.log"; then fail "$desc: server used EKM"; fi
	else
		fail "$desc"
		tail -n 15 "$W/p$n.err" | sed 's/^/   ctlpeer: /'
		tail -n 15 "$W/s$n.log" | sed 's/^/   server: /'
	fi
	kill "$(cat "$W/s$n.pid")" 2>/dev/null
	rm -f "$W/s$n.pid"
}

# ctlpeer as a server answering a stock client: case_server WRAP CIPHER KDF [stock|ours (renegotiation)]
case_server() {
	local wrap=$1 cipher=$2 kdf=$3 reneg=${4:-} n=$N extra=() kargs=()
	N=$((N + 1)); PORT=$((PORT + 1))
	case $reneg in
	stock) extra=(--reneg-sec 5) ;;
	ours) kargs=(--reneg-sec 3) ;;
	esac
	[ "$wrap" != none ] && kargs+=(--wrap "$wrap" --wrap-key "$(wrap_key "$wrap")")
	local sfx=
	[ $PROTO = tcp ] && { kargs+=(--tcp); sfx=" tcp"; }
	local desc="server $PROTO wrap=$wrap cipher=$cipher kdf=$kdf${reneg:+ +renegotiation by $reneg side}"
	ip netns exec "$NS_S" "$PEER" server --local 10.99.0.1:$PORT --ca "$P/ca.crt" \
		--cert "$P/server.crt" --key "$P/server.key" "${kargs[@]}" --cipher "$cipher" --kdf "$kdf" \
		${reneg:+--reneg} --timeout 12 >"$W/p$n.out" 2>"$W/p$n.err" &
	local pp=$!
	sleep 0.2
	# shellcheck disable=SC2046
	ip netns exec "$NS_C" openvpn --cd "$W" --client --dev null --ifconfig-noexec --route-noexec \
		--proto "$([ $PROTO = tcp ] && echo tcp-client || echo udp)" --remote 10.99.0.1 $PORT --nobind --cert "$P/client1.crt" --key "$P/client1.key" \
		--remote-cert-tls server "${TLS[@]}" $(wrap_args "$wrap" client) "${extra[@]}" \
		--log "$W/c$n.log" --daemon --writepid "$W/c$n.pid" || { fail "stock client did not start"; kill $pp; return; }
	if wait $pp; then
		local up=${kdf^^}
		if ! grep -q "ctlpeer: OK server$sfx wrap=$wrap cipher=$cipher kdf=$up" "$W/p$n.out"; then
			fail "$desc: unexpected result: $(cat "$W/p$n.out")"
		elif ! grep -q "Initialization Sequence Completed" "$W/c$n.log"; then
			fail "$desc: stock client did not complete initialization"
		elif ! grep -q "Data Channel: cipher '$cipher', peer-id: 0" "$W/c$n.log"; then
			fail "$desc: stock client does not use $cipher"
		else
			echo "ok   $desc: $(cat "$W/p$n.out")"
		fi
	else
		fail "$desc"
		tail -n 15 "$W/p$n.err" | sed 's/^/   ctlpeer: /'
		tail -n 15 "$W/c$n.log" | sed 's/^/   client: /'
	fi
	kill "$(cat "$W/c$n.pid")" 2>/dev/null
	rm -f "$W/c$n.pid"
}

case_client auth AES-256-GCM ekm stock
case_client crypt AES-256-GCM prf ours
case_client crypt CHACHA20-POLY1305 prf
case_client none AES-256-GCM prf
case_client crypt AES-256-GCM ekm
case_client auth CHACHA20-POLY1305 prf
case_server crypt AES-256-GCM ekm stock
case_server auth AES-256-GCM ekm ours
case_server auth CHACHA20-POLY1305 prf
case_server none AES-256-GCM ekm
case_server crypt CHACHA20-POLY1305 prf
PROTO=tcp
case_client auth AES-256-GCM ekm
case_server crypt CHACHA20-POLY1305 prf
PROTO=udp

echo "$((N - FAILS))/$N cases passed"
[ $FAILS = 0 ]
