#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The management interface of a TLS client, braidd against stock openvpn 2.6 on the same script
# (mgmt_client.script: the OpenVPN GUI connect sequence - state on, log on all, echo on all,
# bytecount, hold release, username/password - then every client command of the subset), both
# clients of the same stock server in the same netns, one after the other (management-hold,
# management-query-passwords, auth-user-pass checked by the server's auth-user-pass-verify).
# mgmt_compare.py: the normalised replies and notifications must be equal (times, pids, byte counts
# and the version title normalised; states, their order, addresses and texts compared).
# With "authfail": a wrong password first, auth-retry interact (mgmt_client_authfail.script).
#   mgmt_client.sh [udp|tcp] [authfail]
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
PROTO=${1:-udp}
SCRIPT=mgmt_client.script
[ "${2:-}" = authfail ] && SCRIPT=mgmt_client_authfail.script
HERE=$(cd "$(dirname "$0")" && pwd)
tc_setup

cat >"$TB_DIR/auth.sh" <<'EOS'
#!/bin/sh
[ "$(sed -n 1p "$1")" = user1 ] && [ "$(sed -n 2p "$1")" = pass1 ]
EOS
chmod +x "$TB_DIR/auth.sh"
if [ "$PROTO" = tcp ]; then SP=tcp-server CP=tcp-client; else SP=udp CP=udp; fi
tc_server srv "$SP" tls-auth "script-security 2" "auth-user-pass-verify $TB_DIR/auth.sh via-file"

common=("auth-user-pass" "management-hold" "management-query-passwords")
[ "$SCRIPT" = mgmt_client_authfail.script ] && common+=("auth-retry interact")
# management-query-remote with a second remote where nothing listens (skipped / modified by the script)
[ "$SCRIPT" = mgmt_client.script ] && common+=("remote $(tb_srv_addr 1) 1195" "management-query-remote")
sed "s|@SRV@|$(tb_srv_addr 1)|g" "$HERE/$SCRIPT" >"$TB_DIR/script"
[ "$PROTO" = udp ] && common+=("explicit-exit-notify 1")

# stock openvpn as the client
printf '%s\n' "client" "dev tun" "proto $CP" "remote $(tb_srv_addr 1) 1194" "nobind" \
	"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
	"remote-cert-tls server" "verb 4" "tls-auth $TB_DIR/pki/ta.key 1" "${common[@]}" \
	"management 127.0.0.1 7505" >"$TB_DIR/ovc.conf"
: >"$TB_DIR/ovc.log"
tb_bg "$TB_CLI" openvpn --cd "$TB_DIR" --config "$TB_DIR/ovc.conf" --log "$TB_DIR/ovc.log"
OVC=$TB_LAST_PID
for _ in $(seq 1 100); do grep -q "Need hold release" "$TB_DIR/ovc.log" && break; sleep 0.05; done
tb_exec "$TB_CLI" python3 "$HERE/mgmt_drive.py" 127.0.0.1:7505 "$TB_DIR/script" \
	"$TB_DIR/stock.json" || fail "stock client: the script failed ($(tail -c 600 "$TB_DIR/stock.json"))"
wait "$OVC" 2>/dev/null
echo "ok: stock openvpn client driven through the script"

tc_client cli "$PROTO" tls-auth "${common[@]}" "management 127.0.0.1 7506"
bd_wait_log cli "Need hold release" 10 || fail "braidd: no hold"
tb_exec "$TB_CLI" python3 "$HERE/mgmt_drive.py" 127.0.0.1:7506 "$TB_DIR/script" \
	"$TB_DIR/braid.json" || fail "braidd client: the script failed ($(tail -c 600 "$TB_DIR/braid.json"))"
wait "${BD_PID[cli]}" 2>/dev/null
echo "ok: braidd client driven through the script"

[ -n "${MGMT_KEEP:-}" ] && cp "$TB_DIR"/*.json "$MGMT_KEEP"/	# for a look at the raw transcripts
python3 "$HERE/mgmt_compare.py" "$TB_DIR/stock.json" "$TB_DIR/braid.json" || fail "transcripts differ"
grep -q "MANAGEMENT: Client connected from" "$TB_DIR/cli.log" || fail "braidd did not log the connection"
# the log history starts at the process start, as stock's
[ "$SCRIPT" = mgmt_client.script ] && ! grep -q ',I,braidd .* starting"' "$TB_DIR/braid.json" &&
	fail "braidd's log history misses its first line"
tc_server_stop
