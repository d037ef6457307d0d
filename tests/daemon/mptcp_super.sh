#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# TCP super-packet frames over the MPTCP transport (issue 14, docs/braidd.md "TCP super-packet frames"): a braidd
# client `proto tcp-client` + `mptcp on` against a braidd gateway `proto tcp-server` + `mptcp on`, both with vnet
# TUNs, both paths shaped to 50 Mbit/s. Asserts: the client announced IV_BRAID_TCPSUPER and the gateway pushed
# `braid-tcp-super 1` (both logs); a 16 MiB sha256-verified download and a 16 MiB sha256-verified upload through
# the tunnel; from both status JSON files, that frames carried the super-packets each way (the gateway's
# tcp_super_tx and the client's tcp_super.rx after the download, the client's tcp_super.tx and the gateway's
# tcp_super_rx after the upload, each side at least 100; the receiver's count may trail the sender's by frames a
# full send queue dropped, as any packet), none rejected, and the session shows
# "tcp_super":true in the gateway's client list. Then a gateway that spoils every 10th frame (test-only
# BRAID_TEST_TCPSUPER_BAD): the client rejects, counts and logs them, and a 4 MiB download is still intact.
set -uo pipefail
TM_BLOB_BYTES=16777216
source "$(dirname "$0")/mptcp_lib.sh"
mt_bed 50

mt_gateway gw "status-json $TB_DIR/gw.json 1"
mt_client cli "mp-path c1" "mp-path c2" "status-json $TB_DIR/cli.json 1"
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
bd_wait_log cli "is multipath TCP" 2 || fail "client not on MPTCP"
grep -q "TCP super-packet frames negotiated (IV_BRAID_TCPSUPER=1, braid-tcp-super 1 pushed)" "$TB_DIR/gw.log" ||
	fail "gateway did not negotiate the frames: $(grep -i super "$TB_DIR/gw.log")"
grep -q "TCP super-packet frames on (IV_BRAID_TCPSUPER, braid-tcp-super 1 pushed)" "$TB_DIR/cli.log" ||
	fail "client did not take the frames: $(grep -i super "$TB_DIR/cli.log")"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"

# jfield FILE EXPR: a number of the status JSON FILE (python3 expression on j), after one rewrite
jfield() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# frames LABEL SENDER_JSON SENDER_EXPR RECEIVER_JSON RECEIVER_EXPR CMD...: CMD prints the sha256 of a transfer, which
# must be TM_WANT; the frames the sender sealed and the receiver opened meanwhile: >= 100 each, receiver <= sender
frames() {
	local label=$1 sj=$2 se=$3 rj=$4 re=$5 s0 r0 got s r
	shift 5
	s0=$(jfield "$sj" "$se") r0=$(jfield "$rj" "$re")
	got=$("$@") && [ "$got" = "$TM_WANT" ] || fail "$label sha256 $got, want $TM_WANT"
	sleep 1.2
	s=$(($(jfield "$sj" "$se") - s0)) r=$(($(jfield "$rj" "$re") - r0))
	echo "  $label: sender sealed $s frames, receiver opened $r"
	[ "$s" -ge 100 ] && [ "$r" -ge 100 ] && [ "$r" -le "$s" ] || fail "$label: $r frames opened of $s sealed, want >= 100"
	FRAMES=$s
}
sleep 1.2
frames download "$TB_DIR/gw.json" 'j["gateway"]["tcp_super_tx"]' "$TB_DIR/cli.json" 'j["tcp_super"]["rx"]' tm_get blob
gtx=$FRAMES
frames upload "$TB_DIR/cli.json" 'j["tcp_super"]["tx"]' "$TB_DIR/gw.json" 'j["gateway"]["tcp_super_rx"]' mt_put
ctx=$FRAMES

[ "$(jfield "$TB_DIR/cli.json" 'j["tcp_super"]["rejected"]')" = 0 ] || fail "client rejected frames"
[ "$(jfield "$TB_DIR/gw.json" 'j["gateway"]["tcp_super_rejected"]')" = 0 ] || fail "gateway rejected frames"
[ "$(jfield "$TB_DIR/gw.json" 'j["clients"][0]["tcp_super"]')" = True ] || fail "gateway client list: tcp_super not true"
bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: TCP super-packet frames over MPTCP: 16 MiB down ($gtx frames) and up ($ctx frames), sha256-verified"

# a frame that fails the receiver's check: the gateway spoils every 10th (test-only BRAID_TEST_TCPSUPER_BAD: gso
# size 0); the client drops each, counts it and logs it; the inner TCP retransmits and a 4 MiB download is intact
head -c 4194304 "$TB_DIR/blob" >"$TB_DIR/small"
want=$(sha256sum <"$TB_DIR/small" | cut -d' ' -f1)
export BRAID_TEST_TCPSUPER_BAD=10
mt_gateway gw2 "status-json $TB_DIR/gw2.json 1"
unset BRAID_TEST_TCPSUPER_BAD
mt_client cli2 "status-json $TB_DIR/cli2.json 1"
bd_wait_log cli2 "Initialization Sequence Completed" 20 || fail "client 2 did not come up"
grep -q "BRAID_TEST_TCPSUPER_BAD=10: every 10th TCP super-packet frame to this client spoiled (test only)" "$TB_DIR/gw2.log" ||
	fail "gateway 2: no test-knob line"
got=$(tm_get small) && [ "$got" = "$want" ] || fail "download with spoiled frames: sha256 $got, want $want"
sleep 1.2
sent=$(jfield "$TB_DIR/gw2.json" 'j["gateway"]["tcp_super_tx"]') bad=$(jfield "$TB_DIR/cli2.json" 'j["tcp_super"]["rejected"]')
echo "  spoiled: the gateway sealed $sent frames, the client rejected $bad"
[ "$bad" -ge 1 ] && [ "$bad" -le $((sent / 10)) ] || fail "client rejected $bad frames of $sent sent (every 10th spoiled)"
grep -q "TCP super-packet frame of [0-9]* bytes dropped: gso size 0 or above the payload (1 so far)" "$TB_DIR/cli2.log" ||
	fail "client did not log the rejected frame: $(grep -i 'super' "$TB_DIR/cli2.log" | tail -3)"
[ "$(jfield "$TB_DIR/gw2.json" 'j["gateway"]["tcp_super_rejected"]')" = 0 ] || fail "gateway 2 rejected frames"
bd_stop cli2 || fail "client 2 exit code $?"
bd_stop gw2 || fail "gateway 2 exit code $?"
echo "ok: spoiled frames: $bad of $sent rejected, counted and logged by the client; 4 MiB download intact"
