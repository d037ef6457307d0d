#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Live demo: two braidd peers on the netns bed with two emulated paths (path 1: 50 Mbit/s RTT 20 ms, path 2:
# 20 Mbit/s RTT 40 ms). A download runs through the tunnel; a per-path table (state, RTT, rate, share, bytes)
# from the server's status file is refreshed every second; after ~10 s path 1 is blackholed and the table shows the
# traffic moving to path 2; at the end the downloaded file's sha256 is checked. Exit 0 when the transfer survived
# and matched, 1 otherwise. Needs root and a built tree (BRAID_BIN_DIR, default build/bin). ~1 minute.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export BRAID_BIN_DIR=${BRAID_BIN_DIR:-$HERE/../../build/bin}
source "$HERE/../daemon/mplib.sh"
bd_require
SIZE_MB=${SIZE_MB:-100}
CUT_AT=${CUT_AT:-10}
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
head -c $((SIZE_MB * 1048576)) /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
tb_emu_start 1 -r 50 -d 10 >/dev/null
tb_emu_start 2 -r 20 -d 20 >/dev/null
mp_http_start
mp_pair 2
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "tunnel did not come up"
mp_wait_paths srv 2 active 10 || fail "paths not validated"

table() { # the server sends the download: its per-path view
	jq -r '.paths[] | [.index, .remote, .state, (.srtt_ms | floor), (.rate_mbit * 10 | floor / 10),
		(.share_pct), (.tx_bytes / 1048576 | floor)] | @tsv' "$TB_DIR/srv.json" 2>/dev/null |
		awk -F'\t' '{printf "  #%s  client %-26s %-9s rtt %4s ms  rate %6s Mbit/s  share %5s %%  sent %5s MiB\n", $1, $2, $3, $4, $5, $6, $7}'
}
echo "== downloading $SIZE_MB MiB through the tunnel (path 1: 50 Mbit/s 20 ms, path 2: 20 Mbit/s 40 ms)"
(tb_exec "$TB_CLI" curl -sf --max-time 300 -o "$TB_DIR/got" "http://10.200.0.1:8080/blob") &
cpid=$!
t0=$SECONDS cut=0 prev=0 b_before=0 b_after=0
while kill -0 "$cpid" 2>/dev/null; do
	sleep 1
	el=$((SECONDS - t0))
	tot=$(jq '.tunnel.link_tx_bytes' "$TB_DIR/srv.json" 2>/dev/null || echo "$prev")
	echo "-- t=${el}s  tunnel $(((tot - prev) * 8 / 1000000)) Mbit/s"
	prev=$tot
	table
	if [ $cut = 0 ] && [ $el -ge "$CUT_AT" ]; then
		echo "== t=${el}s: path 1 (client 10.1.1.2) blackholed (silently, link stays up)"
		tb_blackhole 1
		cut=$SECONDS
		b_before=$(mp_path_field srv 2 tx_bytes)
	fi
done
wait "$cpid"
rc=$?
dur=$((SECONDS - t0))
mp_refresh srv
b_after=$(mp_path_field srv 2 tx_bytes)
got=$(sha256sum <"$TB_DIR/got" 2>/dev/null | cut -d' ' -f1)
echo "== summary"
table
echo "  download: curl exit $rc, $SIZE_MB MiB in ${dur}s ($((SIZE_MB * 8 * 1048576 / (dur > 0 ? dur : 1) / 1000000)) Mbit/s average)"
[ $cut != 0 ] && echo "  path 2 carried $(((b_after - b_before) / 1048576)) MiB after path 1 was cut"
echo "  srv path 1 failures: $(mp_path_field srv 1 failures), lost $(mp_path_field srv 1 lost_pkts), re-sent $(mp_path_field srv 1 resent_pkts)"
if [ $rc = 0 ] && [ "$got" = "$want" ]; then
	echo "RESULT: ok, sha256 matches ($got)"
	exit 0
fi
echo "RESULT: FAILED (curl $rc, sha256 $got, want $want)"
exit 1
