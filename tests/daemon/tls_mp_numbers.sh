#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The numbers of `braidctl status` mean what they say (issue 10 part 7; the path objects of the management
# interface's `braid paths`, docs/management.md, which braidctl shows):
# a braidd TLS client with 2 paths by interface (mp-path c1, c2; no ip rules), each shaped to 20 Mbit/s, against
# a braidd gateway (multipath on, mp-path-timeout 3: a dead path is removed there and re-learned when it comes back).
#  1. idle: every path's throughput of the last interval ~0, no figure of 100 Mbit/s anywhere in the
#     table, no RATE column (the pacing rate is not shown as a rate);
#  2. loaded (a download): the client's rx throughput of the last interval, summed over the paths, is within
#     a plausible band of the 2 x 20 Mbit/s shaped (12..48 Mbit/s);
#     and the gateway's shares of the data it sends are both > 10 %;
#  3. path 1 blackholed mid-transfer: in the next interval its share of the bytes sent is ~0 (probes) and it shows
#     no RTT ("-" in the table, rtt_ms null); the transfer survives (sha256);
#  4. restored: the gateway re-learns path 1 and its totals go on from where they were (not from 0);
#  5. the client's status file counts the TUN bytes (TUN/TAP read/write bytes > 0, write >= the download);
#  6. path 2's address changes (DHCP renew): the gateway learns the path from the new address and removes the
#     old one after mp-path-timeout; the old one's totals pass to the new one (the client's same mp-path slot),
#     so the gateway's totals over all paths do not go back.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
BRAIDCTL=${BRAIDCTL:-$BRAID_BIN_DIR/braidctl}
[ -x "$BRAIDCTL" ] || { echo "SKIP: no braidctl at $BRAIDCTL"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
# 40 MiB: the download must still run when the dead path's share is read (~2.5 s after the cut on one
# 20 Mbit/s path); with 16 MiB it could end first, and a share of the probes alone is no measure
TM_TB_OPTS=--no-rules TM_BLOB_BYTES=41943040 tm_setup 2
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 10 >/dev/null
tm_gateway gw "multipath on" "mp-path-timeout 3" "control-socket $TB_DIR/gw.sock"
tm_client cli "mp-path c1" "mp-path c2" "control-socket $TB_DIR/cli.sock"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping"

ctl() { tb_exec "$TB_CLI" "$BRAIDCTL" -s "$TB_DIR/cli.sock" "$@"; }
gctl() { tb_exec "$TB_SRV" "$BRAIDCTL" -s "$TB_DIR/gw.sock" "$@"; }
# FIELD of the client's path on bed path I (by its local address), from `braidctl status --json`
pf() { ctl status --json | jq -r --arg a "$(tb_cli_addr "$1"):" \
	'.paths[] | select(.local | startswith($a)) | .'"$2"; }
# FIELD of the gateway's path from the client's bed path I (by its remote address)
gf() { gctl paths client1 --json | jq -r --arg a "$(tb_cli_addr "$1"):" \
	'.paths[] | select(.remote | startswith($a)) | .'"$2"; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# 1. idle
sleep 3.5
table=$(ctl status) || fail "braidctl status"
echo "$table"
for i in 1 2; do
	tx=$(pf "$i" 'tx_bps / 1e6') rx=$(pf "$i" 'rx_bps / 1e6')
	lt "$tx" 0.5 && lt "$rx" 0.5 || fail "idle: path $i tx $tx rx $rx Mbit/s in the last interval, want ~0"
	[ "$(pf "$i" rtt_ms)" != null ] || fail "idle: active path $i shows no RTT"
done
grep -q 'RATE' <<<"$table" && fail "idle: the table still has a RATE column"
grep -Eq '(^|[^0-9.])(9[5-9]|1[0-9][0-9])(\.[0-9]+)?M' <<<"$table" && fail "idle: a ~100 Mbit/s figure in the table"
echo "ok: idle: tx/rx ~0 on both paths, no pacing rate shown as a rate"

# 2./3. loaded, then path 1 blackholed
(tb_exec "$TB_CLI" curl -sf --max-time 60 -o "$TB_DIR/got" "http://$TM_GW_TUN:8080/blob") &
cpid=$!
sleep 2.5
js=$(ctl status --json)
sum=$(jq '[.paths[].rx_bps] | add / 1e6' <<<"$js")
shares="$(gf 1 share_pct) $(gf 2 share_pct)"	# the gateway sends the download
ctl status | sed -n '/^PATH/,/^(/p'
lt 12 "$sum" && lt "$sum" 48 || fail "loaded: client rx $sum Mbit/s over both paths, want 12..48 (2 x 20 shaped)"
read -r s1 s2 <<<"$shares"
lt 10 "$s1" && lt 10 "$s2" && lt 99 "$(awk -v a="$s1" -v b="$s2" 'BEGIN { print a + b }')" ||
	fail "loaded: shares of the last interval $s1 % / $s2 %, want both > 10 and a sum of ~100 on equal links; the gateway's paths: $(gctl paths client1)"
echo "ok: loaded: client receives $sum Mbit/s over 2 x 20 Mbit/s, shares $s1 % / $s2 %"
g1=$(gf 1 rx_bytes)
tb_blackhole 1
ok=
for _ in $(seq 1 40); do
	sleep 0.25
	st=$(pf 1 state)
	[ "$st" = down ] || [ "$st" = probing ] || continue
	sleep 2.1	# the next interval after the failure closed (intervals end on a 1 s tick)
	share=$(pf 1 share_pct) gshare=$(gf 1 share_pct) rtt=$(pf 1 rtt_ms)
	ok=1
	break
done
[ -n "$ok" ] || fail "blackholed path 1 never failed at the client: $(ctl status)"
table=$(ctl status)
echo "$table" | sed -n '/^PATH/,/^(/p'
# (share_pct is of the wire bytes sent: the probes of a dead path stay, well under 1 %)
kill -0 "$cpid" 2>/dev/null || fail "the download ended before the dead path's share was read (test timing)"
lt "$share" 1 || fail "dead path 1: client share of the last interval $share %, want ~0"
[ "$gshare" = "" ] || lt "$gshare" 1 || fail "dead path 1: gateway share $gshare %, want ~0"
[ "$rtt" = null ] || fail "dead path 1 ($st): RTT $rtt ms shown, want none"
row=$(awk -v a="$(tb_cli_addr 1):" '$3 ~ "^"a' <<<"$table")
[ "$(awk '{ print $6 }' <<<"$row")" = - ] || fail "dead path 1: the table's RTT is not '-': $row"
wait "$cpid" || fail "download failed (curl exit $?)"
[ "$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)" = "$TM_WANT" ] || fail "download: sha256 mismatch"
echo "ok: path 1 dead: share 0 (client $share, gateway ${gshare:-removed}), RTT -; 40 MiB sha256 ok"

# 4. the gateway removes path 1 (mp-path-timeout 3), re-learns it after the restore: totals go on
bd_wait_log gw "removed: no answer for mp-path-timeout" 8 || fail "gateway did not remove the dead path"
tb_restore 1
tm_wait_active cli 2 15 || fail "path 1 not active again after restore: $(tm_status cli)"
for _ in $(seq 1 50); do [ -n "$(gf 1 state)" ] && break; sleep 0.2; done
g2=$(gf 1 rx_bytes)
[ -n "$g2" ] && [ "$g2" -ge "$g1" ] || fail "gateway path 1 re-learned with rx total $g2 < $g1 before"
echo "ok: gateway re-learned path 1, rx total $g1 -> $g2 (kept)"

# 5. the client's TUN counters in the status file
sleep 1.2
rd=$(sed -n 's/^TUN\/TAP read bytes,//p' "$TB_DIR/cli.status")
wr=$(sed -n 's/^TUN\/TAP write bytes,//p' "$TB_DIR/cli.status")
[ "${rd:-0}" -gt 100000 ] || fail "status file: TUN/TAP read bytes $rd"
[ "${wr:-0}" -ge 16777216 ] || fail "status file: TUN/TAP write bytes $wr, want >= 16 MiB"
tin=$(ctl status --json | jq .tunnel.tun_write_bytes)
[ "$tin" -ge 16777216 ] || fail "braidctl: tun_write_bytes $tin"
echo "ok: client TUN counters: read $rd, write $wr bytes"

# 6. address change on path 2: the gateway's path from the new address carries the old one's totals
gsum() { gctl paths client1 --json | jq '[.paths[].rx_bytes] | add'; }
# removed after mp-path-timeout, or at once now that the client's path of that slot answers from 10.2.1.3
nremoved() { grep -cE "removed: (no answer for mp-path-timeout|the peer's path of the same slot answers from another address now)" "$TB_DIR/gw.log"; }
s1=$(gsum) o2=$(gf 2 rx_bytes) r1=$(nremoved)
tb_addr_change 2 3 || fail "tb_addr_change"
for _ in $(seq 1 100); do [ "$(nremoved)" -gt "$r1" ] && break; sleep 0.1; done
[ "$(nremoved)" -gt "$r1" ] || fail "the gateway did not remove path 2's old address"
n2=$(gctl paths client1 --json | jq -r '.paths[] | select(.remote | contains("10.2.1.3:")) | .rx_bytes')
s2=$(gsum)
[ -n "$n2" ] && [ "$n2" -ge "$o2" ] || fail "gateway path from 10.2.1.3: rx total ${n2:-none} < $o2 of the old address"
[ "$s2" -ge "$s1" ] || fail "gateway rx total over all paths went back: $s1 -> $s2"
echo "ok: address change on path 2: the gateway's new path goes on from $o2 to $n2 bytes, total $s1 -> $s2"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
