#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mgmt_gateway.sh - the management interface of a gateway, braidd against stock `openvpn --server`
# on the same script (mgmt_gateway.script: version, state, status 1/2/3, load-stats, bytecount with
# >BYTECOUNT_CLI, kill by CN and IP:port, client-kill) with one stock client connecting in the
# middle; mgmt_compare.py: the normalised replies and notifications (>CLIENT:ESTABLISHED/
# DISCONNECT/ADDRESS with the >CLIENT:ENV names braidd gives) must be equal.
# With "auth": management-client-auth, the client's credentials in >CLIENT:CONNECT, a client-auth
# block with a push line (which must reach the client), >CLIENT:ADDRESS/ESTABLISHED, a renegotiation
# (>CLIENT:REAUTH, answered), DISCONNECT
# (mgmt_gateway_auth.script).
#   mgmt_gateway.sh [udp|tcp] [auth]
source "$(dirname "$0")/gw_lib.sh"
PROTO=${1:-udp}
MODE=${2:-plain}
HERE=$(cd "$(dirname "$0")" && pwd)
gw_require
gw_setup 1
if [ "$PROTO" = tcp ]; then SP=tcp-server CP=tcp-client; else SP=udp CP=udp; fi
SCRIPT=mgmt_gateway.script SRV_EXTRA=() CLI_EXTRA=()
if [ "$MODE" = auth ]; then
	SCRIPT=mgmt_gateway_auth.script
	SRV_EXTRA=("management-client-auth")
	printf 'user1\npass1\n' >"$GW_DIR/up.txt"
	CLI_EXTRA=("auth-user-pass $GW_DIR/up.txt" "reneg-sec 5")
fi
sed "s|@DIR@|$GW_DIR|" "$HERE/$SCRIPT" >"$GW_DIR/script"

for impl in openvpn braidd; do
	gw_server_conf "tls-crypt $GW_DIR/tc.key" "proto $SP" "management 127.0.0.1 7505" "${SRV_EXTRA[@]}"
	rm -f "$GW_DIR/ready"
	if [ $impl = braidd ]; then
		gw_start_server
	else
		: >"$GW_DIR/server.log"
		ip netns exec "$GW_NS" openvpn --cd "$GW_DIR" --config "$GW_DIR/server.conf" \
			--log "$GW_DIR/server.log" &
		GW_PID[server]=$!
		GW_PIDS+=("$!")
		gw_wait "$GW_DIR/server.log" "Initialization Sequence Completed" 10 || gw_fail "stock server"
	fi
	ip netns exec "$GW_NS" python3 "$HERE/mgmt_drive.py" 127.0.0.1:7505 "$GW_DIR/script" \
		"$GW_DIR/$impl.json" &
	drv=$!
	gw_wait "$GW_DIR/ready" "" 10 || [ -e "$GW_DIR/ready" ] || gw_fail "$impl: the driver did not start"
	gw_client_conf 1 "tls-crypt $GW_DIR/tc.key" "proto $CP" "connect-retry-max 1" "${CLI_EXTRA[@]}"
	gw_start_client 1
	wait "$drv" || gw_fail "$impl: the script failed ($(python3 -c "import json,sys; print(chr(10).join(json.load(open(sys.argv[1]))['raw'][-40:]))" "$GW_DIR/$impl.json"))"
	if [ "$MODE" = auth ]; then
		grep -q "route 10.77.0.0 255.255.0.0" "$GW_DIR/c1.log" ||
			gw_fail "$impl: the client-auth block's push line did not reach the client"
		mv "$GW_DIR/c1.log" "$GW_DIR/c1.$impl.log"
	fi
	gw_stop_client 1
	gw_stop_server
	echo "ok: $impl gateway driven through the script"
done
[ -n "${MGMT_KEEP:-}" ] && cp "$GW_DIR"/*.json "$MGMT_KEEP"/	# for a look at the raw transcripts
python3 "$HERE/mgmt_compare.py" "$GW_DIR/openvpn.json" "$GW_DIR/braidd.json" || gw_fail "transcripts differ"
echo "PASS: mgmt_gateway $PROTO $MODE"
