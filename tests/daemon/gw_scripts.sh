#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_scripts.sh - client-connect / client-disconnect on a braidd gateway, stock 2.6 clients:
#  * client-connect sees script_type, common_name, trusted_ip, ifconfig_pool_remote_ip and the
#    client's IV_ variables; what it writes to its file (ccd syntax) applies: client1 gets
#    ifconfig-push 10.8.0.99 and a pushed route; exit 1 refuses client2 (AUTH_FAILED);
#  * client-disconnect runs when client1 leaves, with bytes_received/bytes_sent/time_duration;
#  * without script-security 2 the gateway refuses to start, naming the option.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 2
TC="tls-crypt $GW_DIR/tc.key"
cat >"$GW_DIR/connect.sh" <<EOS
#!/bin/sh
echo "connect \$script_type \$common_name \$trusted_ip \$ifconfig_pool_remote_ip \$IV_VER" >>"$GW_DIR/events"
[ "\$common_name" = client2 ] && exit 1
printf 'ifconfig-push 10.8.0.99 255.255.255.0\npush "route 192.168.77.0 255.255.255.0"\n' >"\$1"
exit 0
EOS
cat >"$GW_DIR/disconnect.sh" <<EOS
#!/bin/sh
echo "disconnect \$script_type \$common_name \$bytes_received \$bytes_sent \$time_duration" >>"$GW_DIR/events"
EOS
chmod 755 "$GW_DIR/connect.sh" "$GW_DIR/disconnect.sh"

gw_server_conf "$TC" "client-connect $GW_DIR/connect.sh" "client-disconnect $GW_DIR/disconnect.sh"
: >"$GW_DIR/server.log"
ip netns exec "$GW_NS" "$BRAIDD" --config "$GW_DIR/server.conf" --log "$GW_DIR/server.log"
[ $? = 1 ] || gw_fail "started without script-security 2"
grep -qF "option 'client-connect' needs 'script-security 2' (calling external programs is off)" \
	"$GW_DIR/server.log" || gw_fail "no script-security message"
echo "ok: refused without script-security 2"

echo "script-security 2" >>"$GW_DIR/server.conf"
gw_start_server
gw_client_conf 1 "$TC" "explicit-exit-notify 1"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "client1 did not connect"
grep -qF "route 192.168.77.0 255.255.255.0" "$GW_DIR/c1.log" || gw_fail "client-connect push not applied"
grep -qF ",ifconfig 10.8.0.99 255.255.255.0," "$GW_DIR/c1.log" || gw_fail "client-connect ifconfig-push not applied"
grep -qx "connect client-connect client1 10.99.0.11 10.8.0.2 2.6.14" "$GW_DIR/events" ||
	gw_fail "client-connect environment: $(cat "$GW_DIR/events")"
ip netns exec "$(gw_cns 1)" ping -c 2 -i 0.2 -W 2 -q 10.8.0.1 >/dev/null || gw_fail "client1: ping"
echo "ok: client-connect output applied"

gw_client_conf 2 "$TC"
gw_start_client 2
gw_wait "$GW_DIR/c2.log" "AUTH_FAILED" 15 || gw_fail "client2 not refused by client-connect"
grep -qF "authentication failed: client-connect refused the client (non-zero exit)" "$GW_DIR/server.log" ||
	gw_fail "no refusal reason in the log"
echo "ok: client-connect refusal"

gw_stop_client 1
gw_wait "$GW_DIR/events" "disconnect client-disconnect client1 " 5 || gw_fail "client-disconnect did not run"
line=$(grep "^disconnect" "$GW_DIR/events")
read -r _ _ _ rx tx dur <<<"$line"
[ "$rx" -gt 1000 ] && [ "$tx" -gt 1000 ] && [ "$dur" -ge 0 ] || gw_fail "client-disconnect values: $line"
[ "$(grep -c '^disconnect' "$GW_DIR/events")" = 1 ] || gw_fail "client-disconnect ran $(grep -c '^disconnect' "$GW_DIR/events") times (refused client2 must not count)"
ls /tmp/braidd_cc_${GW_PID[server]}_* >/dev/null 2>&1 && gw_fail "client-connect files left in /tmp"
echo "ok: client-disconnect ($line)"
echo "PASS: gw_scripts"
