#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath over TLS, failover (docs/multipath-negotiation.md): braidd client (2 mp-paths) -> braidd gateway
# (multipath on, reneg-sec 3: the transfers cross >= 8 key renegotiations, key_id wraps from 7 to 1). A 16 MiB download runs while
#  1. path 1 is blackholed in the emulator (silent: the link stays up; it also carries the control channel):
#     the inner TCP connection survives, sha256 matches; after tb_restore path 1 is active again and carries
#     bytes of the next download;
#  2. path 2's link goes down (rtnetlink event at the client): the transfer survives, sha256 matches; after
#     tb_link_up path 2 is active again and carries bytes.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=16777216 tm_setup 2
tb_emu_start 1 -r 20 -d 5 >/dev/null
tb_emu_start 2 -r 20 -d 10 >/dev/null
tm_gateway gw "multipath on" "reneg-sec 3"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
bd_wait_log cli "multipath negotiated with the server" 5 || fail "client: multipath not negotiated"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "first download: sha256 mismatch"

download_with() { # EVENT_CMD...: a 16 MiB download, the event 1.5 s in
	(tb_exec "$TB_CLI" curl -sf --max-time 60 -o "$TB_DIR/got" "http://$TM_GW_TUN:8080/blob") &
	local cpid=$!
	sleep 1.5
	"$@"
	wait "$cpid" || fail "download during '$*' failed (curl exit $?): $(tm_status cli)"
	got=$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)
	[ "$got" = "$TM_WANT" ] || fail "download during '$*': sha256 $got, want $TM_WANT"
	rm -f "$TB_DIR/got"
}

# 1. silent blackhole of path 1
download_with tb_blackhole 1
sleep 1.2
st=$(tm_path_field cli 1 state)
[ "$st" = failed ] || [ "$st" = probing ] || fail "blackholed path 1 is '$st' at the client, want failed"
echo "ok: blackhole of path 1 mid-transfer: 16 MiB sha256 matches, path 1 $st"
before=$(tm_path_field cli 1 rx_bytes)
tb_restore 1
tm_wait_active cli 2 15 || fail "path 1 not active again after restore: $(tm_status cli)"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download after restore: sha256 mismatch"
sleep 1.2
after=$(tm_path_field cli 1 rx_bytes)
[ $((after - before)) -gt 1000000 ] || fail "path 1 carried only $((after - before)) bytes after restore"
echo "ok: path 1 restored: active again, carried $((after - before)) bytes of the next download"

# 2. link down on path 2 (rtnetlink event)
download_with tb_link_down 2
bd_wait_log cli "multipath: local address [AF_INET]$(tb_cli_addr 2):" 2 || fail "client did not log path 2 down"
sleep 1.2
[ "$(tm_path_field cli 2 state)" = failed ] || fail "path 2 is '$(tm_path_field cli 2 state)' while its link is down"
echo "ok: link down on path 2 mid-transfer: 16 MiB sha256 matches, path 2 failed"
before=$(tm_path_field cli 2 rx_bytes)
tb_link_up 2 2>/dev/null
tm_wait_active cli 2 15 || fail "path 2 not active again after link up: $(tm_status cli)"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download after link up: sha256 mismatch"
sleep 1.2
after=$(tm_path_field cli 2 rx_bytes)
[ $((after - before)) -gt 1000000 ] || fail "path 2 carried only $((after - before)) bytes after link up"
echo "ok: path 2 back: active again, carried $((after - before)) bytes"

# the key was renegotiated during all this and the engine kept going
# wait (<= 30 s) until key_id 1 came back (the 8th renegotiation: key_id 7 -> 1), then one more download
for _ in $(seq 1 300); do
	[ "$(grep -c "data channel now on key_id 1 " "$TB_DIR/cli.log")" -ge 2 ] && break
	sleep 0.1
done
[ "$(grep -c "data channel now on key_id 1 " "$TB_DIR/cli.log")" -ge 2 ] || fail "key_id did not wrap to 1 within 30 s"
[ "$(tm_get blob)" = "$TM_WANT" ] || fail "download after the key_id wrap: sha256 mismatch"
nreneg=$(grep -c "renegotiation complete" "$TB_DIR/cli.log")
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: all of it across $nreneg key renegotiations (engine ids: generation << 32 | packet-id)"
