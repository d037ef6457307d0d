#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath over TLS: a gateway learns a client's path only from an authenticated, fresh packet of that
# client (docs/multipath-negotiation.md). With a braidd client on 2 mp-paths up, a real DATA_V2 packet captured
# at the gateway is sent again from three other namespaces (routers 1, 2 and the app namespace: other source
# addresses, same peer-id), and once more with a ciphertext byte flipped: the gateway counts them as replays /
# authentication failures, learns no path, the client's traffic goes on (sha256-verified download).
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=4194304 tm_setup 2
tm_gateway gw "multipath on"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping"
[ "$(grep -c "learned from an authenticated packet" "$TB_DIR/gw.log")" = 2 ] || fail "gateway did not learn 2 paths"

# a data packet on either path (the scheduler picks the path of each ping)
(tb_exec "$TB_SRV" python3 "$(dirname "$0")/mp_capture.py" s1 1194 1000 "$TB_DIR/pkt1" 10) &
cap1=$!
(tb_exec "$TB_SRV" python3 "$(dirname "$0")/mp_capture.py" s2 1194 1000 "$TB_DIR/pkt2" 10) &
cap2=$!
sleep 0.3
tb_exec "$TB_CLI" ping -c 20 -i 0.05 -s 1200 -q "$TM_GW_TUN" >/dev/null
wait "$cap1"; wait "$cap2"
if [ -s "$TB_DIR/pkt1" ]; then cp "$TB_DIR/pkt1" "$TB_DIR/pkt"; else cp "$TB_DIR/pkt2" "$TB_DIR/pkt" 2>/dev/null; fi
[ -s "$TB_DIR/pkt" ] || fail "no data packet captured on s1 or s2"
[ "$(($(od -An -tu1 -N1 "$TB_DIR/pkt") >> 3))" = 9 ] || fail "captured packet is not P_DATA_V2"
python3 - "$TB_DIR/pkt" "$TB_DIR/pkt-bad" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
d[40] ^= 0x01  # a ciphertext byte
open(sys.argv[2], "wb").write(d)
PY
# the multipath session's peer-id (0 with one worker; with `workers N` its worker's first slot)
peer=$(sed -n 's/.*multipath negotiated.*: peer-id \([0-9]*\),.*/\1/p' "$TB_DIR/gw.log" | head -n1)
[ -n "$peer" ] && [ "$peer" -lt "$(bd_workers "$TB_DIR/gw.log")" ] || fail "multipath peer-id '$peer'"
gw_counters() { # the gateway's per-client counters line (SIGUSR2)
	local n
	n=$(grep -c "multipath peer-id $peer: link rx" "$TB_DIR/gw.log")
	kill -USR2 "${BD_PID[gw]}"
	for _ in $(seq 1 40); do
		[ "$(grep -c "multipath peer-id $peer: link rx" "$TB_DIR/gw.log")" -gt "$n" ] && break
		sleep 0.05
	done
	grep "multipath peer-id $peer: link rx" "$TB_DIR/gw.log" | tail -n1
}
field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<"$1"; }
c0=$(gw_counters)
send() { # NS FILE COUNT
	tb_exec "$1" python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
d = open(sys.argv[1], "rb").read()
for _ in range(int(sys.argv[3])): s.sendto(d, (sys.argv[2], 1194))' "$2" "$(tb_srv_addr 1)" "$3"
}
for ns in "${TB_R[1]}" "${TB_R[2]}" "$TB_APP"; do
	send "$ns" "$TB_DIR/pkt" 10
	send "$ns" "$TB_DIR/pkt-bad" 10
done
sleep 0.3
c1=$(gw_counters)
dr=$(($(field "$c1" replays) - $(field "$c0" replays)))
da=$(($(field "$c1" auth_failures) - $(field "$c0" auth_failures)))
[ "$dr" = 30 ] || fail "gateway counted $dr replays, want 30 ($c0 -> $c1)"
[ "$da" = 30 ] || fail "gateway counted $da authentication failures, want 30 ($c0 -> $c1)"
learned=$(grep -c "learned from an authenticated packet" "$TB_DIR/gw.log")
[ "$learned" = 2 ] || fail "gateway learned $learned paths after the replays, want 2"
grep -q "paths_learned=2 " <<<"$(grep "paths_learned=" "$TB_DIR/gw.log" | tail -n1)" || fail "engine paths_learned is not 2"
echo "ok: 30 replayed + 30 forged packets from 3 other namespaces: 30 replays, 30 auth failures, no path added"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download after the replays: sha256 mismatch"
[ "$(tm_status cli | wc -l)" = 2 ] || fail "client has $(tm_status cli | wc -l) paths, want 2"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: the client's traffic is unaffected (4 MiB sha256)"
