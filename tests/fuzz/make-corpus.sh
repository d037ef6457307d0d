#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make-corpus.sh - (re)build the seed corpora of tests/fuzz/corpus/<harness>/ from real traffic (root, netns,
# stock openvpn 2.6, tcpdump). See tests/fuzz/README.md.
#
#   1. braidd (client) against a stock openvpn server in the test bed (tests/daemon/tls_client_lib.sh), over
#      UDP and TCP, with no wrap, tls-auth and tls-crypt; the tls-auth / tls-crypt keys are the harnesses'
#      fixed test keys (fuzz_mkseeds keyfile), so the captured packets authenticate in the harnesses.
#      tcpdump records port 1194 in the server's namespace and the tunnel's IP packets in the client's.
#   2. pcap2corpus.py cuts the captures into seeds: control packets, tls-auth/tls-crypt wire packets, TCP
#      segments, reliability scripts, captured resets for the cookie, PUSH_REPLY strings from the stock log.
#   3. fuzz_mkseeds seals the captured inner packets (and ping/OCC/multipath payloads) with fuzz_dc's key,
#      runs real client sessions against the cookie, builds key-method-2 and multipath messages.
#   4. netlink_seeds.py records the kernel's answers to braidd's kinds of rtnetlink request.
#   5. config/argv from tests/unit/config/corpus and the runs' own configs; control socket lines.
#   6. each harness merges the new seeds into its committed corpus with -merge=1 (only inputs that add
#      coverage are kept).
# usage: make-corpus.sh [BUILD_DIR]   (default build-fuzz: a -DBRAID_FUZZ=ON build with braidd built too)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$repo/build-fuzz}" && pwd)
export BRAID_BIN_DIR=$build/bin
for b in braidd fuzz_mkseeds fuzz_dc; do
	[ -x "$BRAID_BIN_DIR/$b" ] || { echo "missing $BRAID_BIN_DIR/$b: cmake --build $build --target braid_fuzzers braidd"; exit 1; }
done
command -v tcpdump >/dev/null || { echo "tcpdump not installed"; exit 1; }
TC_BLOB_BYTES=65536
source "$repo/tests/daemon/tls_client_lib.sh"
tc_setup
raw=$TB_DIR/raw seeds=$TB_DIR/seeds
mkdir -p "$raw" "$seeds"
"$BRAID_BIN_DIR/fuzz_mkseeds" keyfile 3 >"$TB_DIR/pki/ta.key"
"$BRAID_BIN_DIR/fuzz_mkseeds" keyfile 4 >"$TB_DIR/pki/tc.key"

capture() { # PROTO WRAP CIPHER
	local proto=$1 wrap=$2 cipher=$3 name="$1-$2" d1 d2
	[ "$proto" = tcp ] && proto=tcp-server
	tb_bg "$TB_SRV" tcpdump -i any -U -s 0 -w "$raw/$name.pcap" port 1194 2>/dev/null
	d1=$TB_LAST_PID
	tb_bg "$TB_CLI" tcpdump -i any -U -s 0 -w "$raw/$name-inner.pcap" net 10.8.0.0/24 or net fd00:8::/64 2>/dev/null
	d2=$TB_LAST_PID
	sleep 1
	tc_server "srv-$name" "$proto" "$wrap" 'push "redirect-gateway def1"' "explicit-exit-notify 1" \
		'push "dhcp-option DOMAIN example.org"' 'push "route-ipv6 fd01::/64"'
	[ "$proto" = tcp-server ] && proto=tcp-client
	tc_client "cli-$name" "$proto" "$wrap" "data-ciphers $cipher" "explicit-exit-notify 1"
	bd_wait_log "cli-$name" "Initialization Sequence Completed" 20 || fail "$name: client did not come up"
	tb_exec "$TB_CLI" ping -c3 -i0.2 -W2 -q "$TC_SRV_TUN" >/dev/null
	tb_exec "$TB_CLI" ping -6 -c2 -i0.2 -W2 -q -s 1300 fd00:8::1 >/dev/null
	tb_exec "$TB_CLI" curl -sf --max-time 10 -o /dev/null "http://$TC_SRV_TUN:8080/blob"
	bd_stop "cli-$name"
	tc_server_stop
	sleep 0.5
	kill -INT "$d1" "$d2" 2>/dev/null
	wait "$d1" "$d2" 2>/dev/null
	cp "$TB_DIR/srv-$name.log" "$raw/$name-server.log"
	cp "$TB_DIR/srv-$name.conf" "$TB_DIR/cli-$name.conf" "$raw/"
	echo "captured $name: $(stat -c %s "$raw/$name.pcap") B outer, $(stat -c %s "$raw/$name-inner.pcap") B inner"
}

capture udp none AES-256-GCM
capture udp tls-auth CHACHA20-POLY1305
capture udp tls-crypt AES-256-GCM
capture tcp none CHACHA20-POLY1305
capture tcp tls-auth AES-256-GCM
capture tcp tls-crypt AES-256-GCM

python3 "$here/pcap2corpus.py" "$raw" "$seeds" || fail "pcap2corpus"
mkdir -p "$seeds"/{dc,cookie,km2,mp_msg,netlink,config,argv,push}
"$BRAID_BIN_DIR/fuzz_mkseeds" dc "$seeds/dc" "$seeds"/inner/*.bin || fail "mkseeds dc"
for h in cookie km2 mp_msg; do "$BRAID_BIN_DIR/fuzz_mkseeds" $h "$seeds/$h" || fail "mkseeds $h"; done
nsn="fzseed$$"
ip netns add "$nsn" && ip netns exec "$nsn" python3 "$here/netlink_seeds.py" "$seeds/netlink"
ip netns del "$nsn"
python3 "$here/mgmt_braid_seeds.py" "$seeds/mgmt_braid" || fail "mgmt_braid seeds"

# configs: the golden profiles, and the runs' configs (as files and as command lines)
cp "$repo"/tests/unit/config/corpus/*.ovpn "$repo"/tests/unit/config/corpus/*.conf "$seeds/config/" 2>/dev/null
for f in "$raw"/*.conf; do
	cp "$f" "$seeds/config/run-$(basename "$f")"
	python3 - "$f" "$seeds/argv/run-$(basename "$f" .conf)" <<'PY'
import shlex, sys
words = []
for line in open(sys.argv[1]):
    t = shlex.split(line, comments=True)
    if t:
        words += ['--' + t[0]] + t[1:]
open(sys.argv[2], 'wb').write(b'\0'.join(w.encode() for w in words))
PY
done
for f in "$repo"/tests/unit/config/corpus/client-tcp.ovpn "$repo"/tests/unit/config/corpus/commercial-client.ovpn; do
	[ -f "$f" ] && python3 - "$f" "$seeds/argv/golden-$(basename "$f" .ovpn)" <<'PY'
import shlex, sys
words = []
for line in open(sys.argv[1]):
    if line.lstrip().startswith('<'):
        break
    try:
        t = shlex.split(line, comments=True)
    except ValueError:
        continue
    if t:
        words += ['--' + t[0]] + t[1:]
open(sys.argv[2], 'wb').write(b'\0'.join(w.encode() for w in words))
PY
done
# control messages a server sends besides PUSH_REPLY (fact sheet §6), and a reply in parts
j=0
while IFS= read -r m; do
	python3 -c 'import struct,sys; m=sys.argv[1].encode(); sys.stdout.buffer.write(bytes([0])+struct.pack(">H",len(m))+m)' "$m" \
		>"$seeds/push/msg-$j"
	j=$((j + 1))
done <<'EOF2'
AUTH_FAILED
AUTH_FAILED,TEMP[backoff 10,advance remote]:try later
AUTH_PENDING,timeout 30
RESTART,[N]server restarting
HALT,bye
EXIT
INFO,WEB_AUTH::https://example.org/auth
PUSH_REPLY,route 10.9.0.0 255.255.255.0,topology subnet,ping 10,ping-restart 60,ifconfig 10.8.0.2 255.255.255.0,peer-id 3,cipher AES-256-GCM,protocol-flags cc-exit tls-ekm dyn-tls-crypt,key-derivation tls-ekm,braid-mp 1 1024
EOF2
python3 - "$seeds/push/continuation" <<'PY'
import struct, sys
parts = [b'PUSH_REPLY,route 10.9.0.0 255.255.255.0,dhcp-option DNS 10.8.0.53,push-continuation 2',
         b'PUSH_REPLY,ifconfig-ipv6 fd00:8::1000/64 fd00:8::1,route-ipv6 fd01::/64,tun-mtu 1400,push-continuation 2',
         b'PUSH_REPLY,redirect-gateway def1 bypass-dhcp,comp-lzo no,explicit-exit-notify 1,push-continuation 1']
open(sys.argv[1], 'wb').write(bytes([0]) + b''.join(struct.pack('>H', len(p)) + p for p in parts))
PY

# merge into the committed corpora: only what adds coverage
for h in $(ls "$seeds"); do
	[ -x "$BRAID_BIN_DIR/fuzz_$h" ] || continue
	dst=$here/corpus/$h new=$TB_DIR/merged-$h
	mkdir -p "$dst" "$new"
	"$BRAID_BIN_DIR/fuzz_$h" -merge=1 "$new" "$dst" "$seeds/$h" </dev/null >"$TB_DIR/merge-$h.log" 2>&1 ||
		{ tail -20 "$TB_DIR/merge-$h.log"; fail "merge $h"; }
	rm -f "$dst"/*
	cp "$new"/* "$dst"/ 2>/dev/null
	echo "corpus $h: $(ls "$dst" | wc -l) files, $(du -sk "$dst" | cut -f1) KB (from $(ls "$seeds/$h" | wc -l) seeds)"
done
