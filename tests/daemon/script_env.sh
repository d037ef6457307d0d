#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The scripts' environment, braidd against stock openvpn 2.6 (docs/braidd.md "Scripts"): a server with
# up, down, auth-user-pass-verify (via-env), client-connect and client-disconnect, a client with up and down (and a
# setenv), each script dumping its environment (and a static-key pair with up and down at both ends); run once with stock openvpn at both ends, once with braidd
# at both ends (same configuration files, same PKI), 300 pings of 1000 bytes through the tunnel, then the
# client stopped. Asserted for each script kind:
#  - every variable stock gives, braidd gives too, except the documented ones (EXCEPT below);
#  - the values that must be equal are (script_type, common_name, username, trusted_ip, untrusted_ip,
#    ifconfig_pool_remote_ip, ifconfig_local, dev, tun_mtu, route_network_1, foreign_option_1, verb, the
#    certificate variables, IV_VER, signal, setenv's FOO, the config file's name ...);
#  - client-disconnect: time_duration >= 1 and bytes_received >= the bytes of the pings (300 x 1028);
#  - the static-key server end's >UPDOWN:UP / DOWN blocks (management-up-down): the names stock gives.
#   script_env.sh
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
tc_setup
cat >"$TB_DIR/dump.sh" <<'S'
#!/bin/sh
env > "$ENVDIR/$script_type.env"
exit 0
S
chmod +x "$TB_DIR/dump.sh"
D=$TB_DIR/dump.sh
printf 'user1\npass1\n' >"$TB_DIR/up.txt"
SRV=("script-security 3" "auth-user-pass-verify $D via-env" "client-connect $D" "client-disconnect $D" "up $D" "down $D"
	"setenv ENVDIR $TB_DIR/srvenv")
CLI=("client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" "ca $TB_DIR/pki/ca.crt"
	"cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" "remote-cert-tls server" "verb 4"
	"tls-auth $TB_DIR/pki/ta.key 1" "auth-user-pass $TB_DIR/up.txt" "script-security 2" "up $D" "down $D"
	"setenv FOO bar" "setenv ENVDIR $TB_DIR/clienv")

for impl in openvpn braidd; do
	rm -rf "$TB_DIR/srvenv" "$TB_DIR/clienv"
	mkdir -p "$TB_DIR/srvenv" "$TB_DIR/clienv"
	tc_server "srv-$impl" udp tls-auth "${SRV[@]}"
	if [ $impl = braidd ]; then
		tc_server_stop
		bd_start "srv-$impl" "$TB_SRV"
		bd_wait_log "srv-$impl" "Initialization Sequence Completed" 10 || fail "braidd gateway"
	fi
	bd_conf "cli-$impl" "${CLI[@]}"
	if [ $impl = braidd ]; then
		bd_start "cli-$impl" "$TB_CLI"
		bd_wait_log "cli-$impl" "Initialization Sequence Completed" 20 || fail "braidd client"
	else
		: >"$TB_DIR/cli-$impl.log"
		tb_bg "$TB_CLI" openvpn --cd "$TB_DIR" --config "$TB_DIR/cli-$impl.conf" --log "$TB_DIR/cli-$impl.log"
		BD_PID[cli-$impl]=$TB_LAST_PID
		for _ in $(seq 1 200); do grep -q "Initialization Sequence Completed" "$TB_DIR/cli-$impl.log" && break; sleep 0.05; done
	fi
	tb_wait_ping "$TB_CLI" 10.8.0.1 10 || fail "$impl: no ping through the tunnel"
	tb_exec "$TB_CLI" ping -q -c 300 -i 0.005 -s 1000 10.8.0.1 >/dev/null || fail "$impl: pings lost"
	sleep 1.1	# time_duration >= 1
	bd_stop "cli-$impl"
	for _ in $(seq 1 100); do [ -e "$TB_DIR/srvenv/client-disconnect.env" ] && break; sleep 0.05; done
	if [ $impl = braidd ]; then bd_stop "srv-$impl"; else tc_server_stop; fi
	mkdir -p "$TB_DIR/$impl"
	for side in srv cli; do
		for f in "$TB_DIR/${side}env"/*.env; do
			[ -e "$f" ] || fail "$impl: no $side environment dumps"
			cp "$f" "$TB_DIR/$impl/$side-$(basename "$f")"
		done
	done
	echo "ok: $impl: $(ls "$TB_DIR/$impl" | tr '\n' ' ')"
done
# the static-key peers' up/down: the same two configurations run by stock, then by braidd
bd_keygen "$TB_DIR/key"
P2P=("dev tun" "proto udp" "verb 4" "script-security 2" "up $D" "down $D")
printf '%s\n' 'WAIT ^>UPDOWN:ENV,END 30' 'WAIT ^>UPDOWN:DOWN 30' 'WAIT ^>UPDOWN:ENV,END 30' >"$TB_DIR/updown.script"
for impl in openvpn braidd; do
	# stock 2.6 has no AEAD cipher with a static key, braidd only AEAD ones (no script variable names it)
	if [ $impl = braidd ]; then P2P+=("cipher AES-256-GCM"); else P2P+=("cipher AES-256-CBC"); fi
	rm -rf "$TB_DIR/p2psrv" "$TB_DIR/p2pcli"
	mkdir -p "$TB_DIR/p2psrv" "$TB_DIR/p2pcli"
	bd_conf "p2psrv-$impl" "${P2P[@]}" "local $(tb_srv_addr 1)" "lport 1194" "secret $TB_DIR/key 0" \
		"ifconfig 10.200.0.1 10.200.0.2" "ifconfig-ipv6 fd00:200::1/64 fd00:200::2" "setenv ENVDIR $TB_DIR/p2psrv" \
		"management 127.0.0.1 7515" "management-client" "management-up-down"
	# the server end's >UPDOWN: blocks (management-up-down), read by a driver it connects out to
	tc_mgmt_listen "$TB_SRV" 7515 "$TB_DIR/updown.script" "$TB_DIR/ud-p2p-$impl.json"
	UD=$TB_LAST_PID
	bd_conf "p2pcli-$impl" "${P2P[@]}" "remote $(tb_srv_addr 1) 1194" "nobind" "secret $TB_DIR/key 1" \
		"ifconfig 10.200.0.2 10.200.0.1" "ifconfig-ipv6 fd00:200::2/64 fd00:200::1" "setenv ENVDIR $TB_DIR/p2pcli"
	for side in srv cli; do
		ns=$TB_SRV; [ $side = cli ] && ns=$TB_CLI
		if [ $impl = braidd ]; then
			bd_start "p2p$side-$impl" "$ns"
		else
			: >"$TB_DIR/p2p$side-$impl.log"
			tb_bg "$ns" openvpn --cd "$TB_DIR" --config "$TB_DIR/p2p$side-$impl.conf" --log "$TB_DIR/p2p$side-$impl.log"
			BD_PID[p2p$side-$impl]=$TB_LAST_PID
		fi
	done
	# both ends' `up` ran (a ping alone can pass through the previous run's device while it goes away)
	for _ in $(seq 1 300); do [ -e "$TB_DIR/p2pcli/up.env" ] && [ -e "$TB_DIR/p2psrv/up.env" ] && break; sleep 0.05; done
	tb_wait_ping "$TB_CLI" 10.200.0.1 15 || fail "$impl: no ping through the static-key tunnel"
	bd_stop "p2pcli-$impl"
	bd_stop "p2psrv-$impl"
	wait "$UD" || fail "$impl: static-key >UPDOWN: not seen ($(tail -c 600 "$TB_DIR/ud-p2p-$impl.json"))"
	for side in srv cli; do
		for f in up down; do
			[ -e "$TB_DIR/p2p$side/$f.env" ] || fail "$impl: static-key $side: no $f environment"
			cp "$TB_DIR/p2p$side/$f.env" "$TB_DIR/$impl/p2p$side-$f.env"
		done
	done
	echo "ok: $impl static-key up/down"
	unset 'P2P[-1]'
done
[ -n "${ENV_KEEP:-}" ] && cp -r "$TB_DIR/openvpn" "$TB_DIR/braidd" "$ENV_KEEP"/
# the static-key peer's >UPDOWN:UP / DOWN blocks: in order, and the names stock gives, braidd gives too
# (but the peer's learned address, as for its scripts)
python3 - "$TB_DIR/ud-p2p-openvpn.json" "$TB_DIR/ud-p2p-braidd.json" <<'PY' || fail "static-key >UPDOWN: blocks differ"
import json, sys
def blocks(f):
    n = json.load(open(f))["notes"]
    up, down = n.index(">UPDOWN:UP"), n.index(">UPDOWN:DOWN")
    assert up < down, (f, up, down)
    names = lambda s: {t.split("=", 1)[0] for t in s.split() if "=" in t}
    return names(n[up + 1]), names(n[down + 1]), n[up + 1]
su, sd, _ = blocks(sys.argv[1])
bu, bd, text = blocks(sys.argv[2])
# script_type: stock's block carries it when its environment set saw a script already (here up/down are
# configured); braidd's block never has it, as stock's client block without scripts (mgmt_outgoing)
skip = {"trusted_ip", "trusted_port", "route_net_gateway", "redirect_gateway", "script_type"}
assert not (su - bu - skip), "UP: braidd lacks %s" % sorted(su - bu - skip)
assert not (sd - bd - skip), "DOWN: braidd lacks %s" % sorted(sd - bd - skip)
assert " dev=tun0 " in " " + text + " " and " ifconfig_local=10.200.0.1 " in " " + text + " ", text
print("ok: static-key >UPDOWN:UP / DOWN: %d / %d names as stock's" % (len(bu), len(bd)))
PY

python3 - "$TB_DIR/openvpn" "$TB_DIR/braidd" <<'PY' || fail "the environments differ"
import os, sys
a_dir, b_dir = sys.argv[1:3]
# stock's variables braidd does not give (docs/braidd.md "Scripts"): deferred-auth files (braidd runs
# the scripts asynchronously itself), the host's default gateway, redirect_gateway; stock's own env
EXCEPT = {"auth_control_file", "auth_failed_reason_file", "auth_pending_file", "client_connect_config_file",
          "client_connect_deferred_file", "route_net_gateway", "redirect_gateway", "ifconfig_pool_local_ip6",
          "PWD", "SHLVL", "_", "OLDPWD", "INVOCATION_ID", "JOURNAL_STREAM", "LANG", "TERM", "HOME", "USER",
          "LOGNAME", "SHELL", "MAIL"}
# values that may differ: times, pids, ports the kernel picks, byte counts, the config file's directory,
# the client's protocol flags (IV_PROTO: braidd's client is another implementation)
VOLATILE = {"IV_PROTO", "daemon_pid", "daemon_start_time", "time_unix", "time_ascii", "time_duration", "bytes_sent",
            "bytes_received", "trusted_port", "untrusted_port", "config", "ENVDIR"}
def load(d, f):
    env = {}
    for ln in open(os.path.join(d, f)):
        k, _, v = ln.rstrip("\n").partition("=")
        env[k] = v
    return env
bad = 0
for f in sorted(os.listdir(a_dir)):
    a = load(a_dir, f)
    if not os.path.exists(os.path.join(b_dir, f)):
        print("%s: braidd did not run it" % f); bad += 1; continue
    b = load(b_dir, f)
    # a static-key peer's scripts do not name the peer's learned address (trusted_ip/port at down)
    exc = EXCEPT | ({"trusted_ip", "trusted_port"} if f.startswith("p2p") else set())
    missing = sorted(k for k in a if k not in b and k not in exc)
    differ = sorted(k for k in a if k in b and k not in VOLATILE | EXCEPT and a[k] != b[k] and k != "PATH")
    if missing:
        print("%s: braidd does not give %s" % (f, " ".join(missing))); bad += 1
    for k in differ:
        print("%s: %s: stock %r, braidd %r" % (f, k, a[k], b[k])); bad += 1
    if os.path.basename(a.get("config", "")) != os.path.basename(b.get("config", "")).replace("cli-braidd", "cli-openvpn").replace("srv-braidd", "srv-openvpn"):
        print("%s: config: %r vs %r" % (f, a.get("config"), b.get("config"))); bad += 1
    print("%s: %d variables from stock, %d compared equal, %d from braidd" %
          (f, len(a), len([k for k in a if k in b]), len(b)))
d = load(b_dir, "srv-client-disconnect.env")
assert int(d["time_duration"]) >= 1, d["time_duration"]
assert int(d["bytes_received"]) >= 300 * 1028, d["bytes_received"]
assert int(d["bytes_sent"]) >= 300 * 1028, d["bytes_sent"]
assert load(b_dir, "cli-down.env")["signal"] == "sigterm"
assert load(b_dir, "srv-down.env")["signal"] == "sigterm"
assert load(b_dir, "srv-client-connect.env")["script_type"] == "client-connect"
sys.exit(1 if bad else 0)
PY
echo "PASS: script_env"
