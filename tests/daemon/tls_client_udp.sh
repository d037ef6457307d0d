#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd `client` against a stock openvpn 2.6 server over UDP (tls-auth, AES-256-GCM, TLS-EKM):
# push applied (subnet ifconfig, ifconfig-ipv6, route, redirect-gateway def1 with the host route to the
# server via the old gateway, dhcp-option DNS handed to the up script only, peer-id / DATA_V2), ping v4+v6,
# peer-info as the stock server logs it (IV_PROTO=478, IV_CIPHERS, IV_BRAID_MP, push-peer-info UV_*),
# a sha256-verified download, up/down scripts with OpenVPN's environment, explicit-exit-notify on SIGTERM,
# everything removed at exit.
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
tc_setup

cat >"$TB_DIR/up.sh" <<EOS
#!/bin/sh
env | sort >"$TB_DIR/\$script_type.env"
echo "\$@" >"$TB_DIR/\$script_type.args"
ip -o addr show dev "\$1" >"$TB_DIR/\$script_type.addr" 2>&1
ip -o route show 10.9.0.0/24 >"$TB_DIR/\$script_type.routes" 2>&1
EOS
chmod +x "$TB_DIR/up.sh"

tc_server srv udp tls-auth 'push "redirect-gateway def1"' "explicit-exit-notify 1"
tc_client cli udp tls-auth "script-security 2" "up $TB_DIR/up.sh" "down $TB_DIR/up.sh" \
	"explicit-exit-notify 1" "setenv FOO bar" "push-peer-info" "setenv UV_TEAM blue" \
	"status $TB_DIR/cli.status 1"
bd_wait_log cli "Initialization Sequence Completed" 15 || fail "client did not come up"
grep -qF "Data Channel: cipher 'AES-256-GCM', peer-id pushed, key-derivation TLS-EKM" "$TB_DIR/cli.log" ||
	fail "data channel line missing (want AES-256-GCM + TLS-EKM)"
tb_wait_ping "$TB_CLI" "$TC_SRV_TUN" 10 || fail "no ping through the tunnel"
for v in "IV_PROTO=478" "IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305" "IV_BRAID_MP=1" "IV_TCPNL=1" \
	"IV_PLAT=linux" "UV_TEAM=blue" "IV_SSL=OpenSSL"; do
	grep -qF "peer info: $v" "$OV_LOG" || fail "stock server did not log peer info $v"
done
tb_exec "$TB_CLI" ping -c3 -i0.2 -W2 -q "$TC_SRV_TUN" >/dev/null || fail "IPv4 ping loss"
tb_exec "$TB_CLI" ping -6 -c3 -i0.2 -W2 -q fd00:8::1 >/dev/null || fail "IPv6 ping through the tunnel"
tc_transfer "udp tls-auth" cli
echo "ok: ping v4+v6, $(stat -c %s "$TB_DIR/blob") B download sha256"
# the status file (OpenVPN's client format) is rewritten every second
for _ in $(seq 1 50); do
	tw=$(sed -n 's/^TUN\/TAP write bytes,//p' "$TB_DIR/cli.status" 2>/dev/null)
	[ -n "$tw" ] && [ "$tw" -ge "$TC_WANT_BYTES" ] && break
	sleep 0.1
done
head -n1 "$TB_DIR/cli.status" | grep -qx "OpenVPN STATISTICS" || fail "status file: bad first line"
tail -n1 "$TB_DIR/cli.status" | grep -qx "END" || fail "status file: no END"
tw=$(sed -n 's/^TUN\/TAP write bytes,//p' "$TB_DIR/cli.status")
ar=$(sed -n 's/^Auth read bytes,//p' "$TB_DIR/cli.status")
[ -n "$tw" ] && [ "$tw" -ge "$TC_WANT_BYTES" ] || fail "status file: TUN/TAP write bytes '$tw' < $TC_WANT_BYTES"
[ -n "$ar" ] && [ "$ar" -gt "$tw" ] || fail "status file: Auth read bytes '$ar' not above the TUN bytes '$tw'"
echo "ok: status file: TUN/TAP write bytes $tw, Auth read bytes $ar"

dev=$(tb_exec "$TB_CLI" ip -o addr show | awk '/10\.8\.0\./ {print $2}')
[ -n "$dev" ] || fail "no 10.8.0.x address in cli"
tb_exec "$TB_CLI" ip -o addr show dev "$dev" | grep "10.8.0.2/24" >/dev/null || fail "subnet address not 10.8.0.2/24"
tb_exec "$TB_CLI" ip -o route show 10.9.0.0/24 | grep "dev $dev" >/dev/null || fail "pushed route 10.9.0.0/24 missing"
tb_exec "$TB_CLI" ip -o route show 0.0.0.0/1 | grep "dev $dev" >/dev/null || fail "redirect-gateway 0.0.0.0/1 missing"
tb_exec "$TB_CLI" ip -o route show 128.0.0.0/1 | grep "dev $dev" >/dev/null || fail "redirect-gateway 128.0.0.0/1 missing"
tb_exec "$TB_CLI" ip -o route show "$(tb_srv_addr 1)" | grep "via 10.1.1.1 dev c1" >/dev/null ||
	fail "host route to the server via the old gateway missing"
grep -q "^foreign_option_1=dhcp-option DNS 10.8.0.53$" "$TB_DIR/up.env" || fail "up env: foreign_option_1 wrong"
grep -q "^ifconfig_local=10.8.0.2$" "$TB_DIR/up.env" || fail "up env: ifconfig_local"
grep -q "^ifconfig_netmask=255.255.255.0$" "$TB_DIR/up.env" || fail "up env: ifconfig_netmask"
grep -q "^route_network_1=10.9.0.0$" "$TB_DIR/up.env" || fail "up env: route_network_1"
grep -q "^dev=$dev$" "$TB_DIR/up.env" || fail "up env: dev"
grep -q "^FOO=bar$" "$TB_DIR/up.env" || fail "up env: setenv FOO"
grep -q "^PATH=" "$TB_DIR/up.env" || fail "up env: PATH not inherited"
grep -q "^$dev 1500 " "$TB_DIR/up.args" || fail "up args: $(cat "$TB_DIR/up.args")"
# OpenVPN's order: the address is there when `up` runs, the routes come after it
grep -q "10.8.0.2/24" "$TB_DIR/up.addr" || fail "up ran before the address was set: $(cat "$TB_DIR/up.addr")"
[ ! -s "$TB_DIR/up.routes" ] || fail "up ran after the routes: $(cat "$TB_DIR/up.routes")"
echo "ok: addresses, routes, redirect-gateway def1, up script environment"

bd_stop cli || fail "client exit code $? after SIGTERM, want 0"
grep -qF "sending exit notification to the server" "$TB_DIR/cli.log" || fail "no exit notification sent"
for _ in $(seq 1 40); do grep -qiE "exit notification|EXIT message|peer-exit" "$OV_LOG" && break; sleep 0.05; done
grep -qiE "exit notification|EXIT message|peer-exit" "$OV_LOG" || fail "server did not log the client's exit"
[ -f "$TB_DIR/down.env" ] || fail "down script did not run"
[ ! -s "$TB_DIR/down.routes" ] || fail "down ran before the routes were removed: $(cat "$TB_DIR/down.routes")"
tb_exec "$TB_CLI" ip link show "$dev" >/dev/null 2>&1 && fail "$dev still exists after exit"
tb_exec "$TB_CLI" ip -o route show "$(tb_srv_addr 1)" | grep . >/dev/null && fail "host route to the server left behind"
tb_exec "$TB_CLI" ip -o route show 0.0.0.0/1 | grep . >/dev/null && fail "0.0.0.0/1 left behind"
echo "ok: explicit-exit-notify, down script, clean exit"
tc_server_stop
