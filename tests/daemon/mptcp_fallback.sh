#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# MPTCP fallback (issue 14): net.mptcp.enabled=0 in the gateway's namespace only (the sysctl is per netns).
# The gateway with `mptcp on` is refused MPTCP sockets and listens on plain TCP (a warning); the braidd client
# with `mptcp on` connects over MPTCP, the server answers plain TCP: the fallback is logged once, also across a
# SIGUSR1 reconnect; the status shows one path, "tcp (mptcp fallback)"; an 8 MiB download sha256-verified.
# Then net.mptcp.enabled=0 in the client's namespace too and `mptcp auto`: plain TCP at once (an info line,
# no endpoints added), download verified. Finally `mptcp on` over UDP, `mp-path auto`, an mp-path
# remote and `multipath on` with `mptcp` are refused with clear errors.
set -uo pipefail
source "$(dirname "$0")/mptcp_lib.sh"
tm_setup 2
tb_exec "$TB_CLI" sysctl -qw net.mptcp.enabled=1
tb_exec "$TB_SRV" sysctl -qw net.mptcp.enabled=0

mt_gateway gw
grep -q "MPTCP: the kernel refuses MPTCP sockets (.*): the gateway listens on plain TCP" "$TB_DIR/gw.log" ||
	fail "gateway: no refusal warning"
grep -qF "gateway listening on TCP [AF_INET]10.1.2.2:1194" "$TB_DIR/gw.log" || fail "gateway not on plain TCP"
mt_client cli
bd_wait_log cli "Initialization Sequence Completed" 20 || fail "client did not come up"
fb="MPTCP: [AF_INET]10.1.2.2:1194 (or a middlebox) does not speak MPTCP: fallback to plain TCP"
grep -qF "$fb" "$TB_DIR/cli.log" || fail "client: no fallback line"
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "download over the fallback: sha256 $got"
sleep 1.2
grep -q "^Braid multipath,on,1 paths,tcp (mptcp fallback)" "$TB_DIR/cli.status" ||
	fail "status: $(grep '^Braid' "$TB_DIR/cli.status")"
[ "$(mt_paths cli | wc -l)" = 1 ] || fail "want one path: $(mt_paths cli)"
[ "$(mt_path_rx cli 10.1.1.2)" -gt 8388608 ] || fail "the path's rx bytes: $(mt_paths cli)"
kill -USR1 "${BD_PID[cli]}"
for _ in $(seq 1 100); do
	[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 2 ] && break
	sleep 0.1
done
[ "$(grep -c "Initialization Sequence Completed" "$TB_DIR/cli.log")" = 2 ] || fail "no reconnect after SIGUSR1"
[ "$(grep -cF "$fb" "$TB_DIR/cli.log")" = 1 ] || fail "the fallback was logged $(grep -cF "$fb" "$TB_DIR/cli.log") times, want once"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping after the reconnect"
bd_stop cli || fail "client exit code $?"
echo "ok: gateway refused MPTCP (net.mptcp.enabled=0): client fell back to TCP, logged once, 8 MiB sha256"

tb_exec "$TB_CLI" sysctl -qw net.mptcp.enabled=0
tm_client cli2 "proto tcp-client" "mptcp auto" "mp-path c1" "mp-path c2"
bd_wait_log cli2 "Initialization Sequence Completed" 20 || fail "auto client did not come up"
grep -q "MPTCP: not enabled in this kernel (net.mptcp.enabled): plain TCP to" "$TB_DIR/cli2.log" || fail "auto: no info line"
grep -q "endpoint" "$TB_DIR/cli2.log" && fail "auto without MPTCP touched endpoints"
got=$(tm_get blob) && [ "$got" = "$TM_WANT" ] || fail "auto download: sha256 $got"
bd_stop cli2 || fail "auto client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: mptcp auto with net.mptcp.enabled=0: plain TCP, 8 MiB sha256"

bd_conf bad "client" "dev tun" "proto udp" "remote 10.1.2.2 1194" "ca $TB_DIR/pki/ca.crt" \
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "mptcp on"
out=$("$BRAIDD" --config "$TB_DIR/bad.conf" 2>&1) && fail "mptcp on over UDP accepted"
grep -q "option 'mptcp on': MPTCP is a TCP transport" <<<"$out" || fail "mptcp on over UDP: $out"
echo "ok: 'mptcp on' over UDP refused"
for cell in "mp-path auto|option 'mp-path auto' is not supported with 'mptcp' yet" \
	"mp-path c1 10.1.2.2|an MPTCP endpoint is local only" \
	"multipath on|option 'multipath on' is Braid's UDP multipath"; do
	IFS='|' read -r lines want <<<"$cell"
	IFS=';' read -r -a extra <<<"$lines"
	bd_conf bad "client" "dev tun" "proto tcp-client" "remote 10.1.2.2 1194" "ca $TB_DIR/pki/ca.crt" \
		"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "mptcp on" "${extra[@]}"
	out=$("$BRAIDD" --config "$TB_DIR/bad.conf" 2>&1) && fail "'$lines' with mptcp accepted"
	grep -qF "$want" <<<"$out" || fail "'$lines' with mptcp: $out"
done
echo "ok: mp-path auto, an mp-path remote and 'multipath on' refused with 'mptcp'"
