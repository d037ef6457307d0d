#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# braidd client: pushed DNS applied to the host's resolver and restored (docs/braidd.md "DNS").
# braidd runs in its own mount namespace inside the client netns: a temp file bind-mounted over
# /etc/resolv.conf, a temp dir over /run (no systemd-resolved; the backup dir /run/braidd kept across runs
# as on a real host), PATH chosen per case.
#   A  stock server, dhcp-option DNS/DOMAIN/DOMAIN-SEARCH (after the profile's own DOMAIN), file backend: the
#      pushed lines while up (sha256 download) and the backup file, after SIGTERM the file byte-identical and
#      the backup gone
#   G  braidd killed (SIGKILL): the next braidd on the interface restores the backup first, then its own exit
#   B  braidd gateway pushing 2.6 `dns server`/`dns search-domains` (the lowest priority wins over dhcp-option),
#      SIGUSR1 restart: restored and applied again, SIGINT: byte-identical
#   C  resolvconf on PATH (a recording stand-in): `-a IF.braidd` with the text on stdin, `-d` on exit
#   D  resolvectl on PATH and "running" (a recording stand-in): `dns`/`domain IF ...`, `revert IF` on exit
#   E  `dns-updown disable` and `pull-filter ignore "dhcp-option"`: the file untouched while connected
#   F  a stock server pushing `dns server`/`dns search-domains`: those win over its dhcp-option DNS
set -uo pipefail
source "$(dirname "$0")/tls_client_lib.sh"
command -v unshare >/dev/null || { echo "SKIP: unshare not installed"; exit 77; }
tc_setup

RC=$TB_DIR/resolv.conf
# no trailing newline, a comment, options: a restore must give back these bytes exactly
printf '# the host resolver\nnameserver 192.0.2.1\noptions edns0 timeout:2\nsearch home.arpa' >"$RC"
WANT_RC=$(sha256sum <"$RC" | cut -d' ' -f1)
cp "$RC" "$RC.orig"
mkdir -p "$TB_DIR/nobin" "$TB_DIR/fakebin-rc" "$TB_DIR/fakebin-rd" "$TB_DIR/run"
cat >"$TB_DIR/fakebin-rc/resolvconf" <<EOF
#!/bin/sh
PATH=/usr/bin:/bin
echo "resolvconf \$*" >>"$TB_DIR/fake.log"
cat >>"$TB_DIR/fake.log"
EOF
cat >"$TB_DIR/fakebin-rd/resolvectl" <<EOF
#!/bin/sh
PATH=/usr/bin:/bin
echo "resolvectl \$*" >>"$TB_DIR/fake.log"
EOF
chmod +x "$TB_DIR/fakebin-rc/resolvconf" "$TB_DIR/fakebin-rd/resolvectl"

# dns_client NAME PATHDIR CONFLINES...: braidd as a TLS client in a private mount namespace
dns_client() {
	local name=$1 bin=$2 i
	shift 2
	bd_conf "$name" "client" "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" "nobind" \
		"ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/client1.crt" "key $TB_DIR/pki/client1.key" \
		"remote-cert-tls server" "verb 4" "tls-auth $TB_DIR/pki/ta.key 1" "$@"
	: >"$TB_DIR/$name.log"
	# every step execs: the pid stays braidd's
	tb_bg "$TB_CLI" unshare -m --propagation private sh -c \
		'mount --bind "$1" /etc/resolv.conf && mount --bind "$6" /run &&
		 exec env PATH="$2" "$3" --config "$4" --log "$5"' sh \
		"$RC" "$bin" "$BRAIDD" "$TB_DIR/$name.conf" "$TB_DIR/$name.log" "$TB_DIR/run"
	BD_PID[$name]=$TB_LAST_PID
	bd_wait_log "$name" "Initialization Sequence Completed" 20 || fail "$name: client did not come up"
}

rc_same() { [ "$(sha256sum <"$RC" | cut -d' ' -f1)" = "$WANT_RC" ]; }

# ---- A: stock server, dhcp-option, file backend
tc_server srv1 udp tls-auth 'push "dhcp-option DOMAIN corp.example"' 'push "dhcp-option DOMAIN-SEARCH lab.example"' \
	'push "dhcp-option DNS6 fd00:8::53"'
dns_client a "$TB_DIR/nobin" "dhcp-option DOMAIN own.example"
bd_wait_log a "applied through /etc/resolv.conf" 5 || fail "A: DNS not applied through the file"
grep -qx "nameserver 10.8.0.53" "$RC" || fail "A: pushed DNS missing: $(cat "$RC")"
grep -qx "nameserver fd00:8::53" "$RC" || fail "A: pushed DNS6 missing: $(cat "$RC")"
grep -qx "search own.example corp.example lab.example" "$RC" || fail "A: configured + pushed domains missing: $(cat "$RC")"
grep -q "192.0.2.1" "$RC" && fail "A: the host's server is still listed"
cmp -s "$RC.orig" "$TB_DIR/run/braidd/resolv.conf.$(sed -n 's/^# braidd \([^:]*\):.*/\1/p' "$RC")" ||
	fail "A: no byte-identical backup in /run/braidd: $(ls -l "$TB_DIR/run/braidd")"
tc_transfer "A: download while DNS is applied" a
bd_stop a || fail "A: exit code $?"
rc_same || fail "A: resolv.conf not restored byte for byte: $(od -c "$RC" | head)"
grep -qF "DNS: /etc/resolv.conf restored" "$TB_DIR/a.log" || fail "A: restore not logged"
[ -z "$(ls -A "$TB_DIR/run/braidd")" ] || fail "A: backup left behind: $(ls "$TB_DIR/run/braidd")"

# ---- G: braidd killed (SIGKILL): its settings stay; the next braidd on that interface restores the backup first
dns_client g1 "$TB_DIR/nobin"
kill -KILL "${BD_PID[g1]}"
wait "${BD_PID[g1]}" 2>/dev/null
unset "BD_PID[g1]"
grep -qx "nameserver 10.8.0.53" "$RC" || fail "G: the killed braidd's settings are not there: $(cat "$RC")"
dns_client g2 "$TB_DIR/nobin"
grep -qF "from an earlier run: restored from /run/braidd/resolv.conf." "$TB_DIR/g2.log" ||
	fail "G: the stale settings were not recovered"
bd_stop g2 || fail "G: exit code $?"
rc_same || fail "G: resolv.conf not the original after a kill and a clean run: $(cat "$RC")"

# ---- E: dns-updown disable, pull-filter ignore
dns_client e1 "$TB_DIR/nobin" "dns-updown disable"
grep -qF "DNS: pushed settings not applied (dns-updown disable)" "$TB_DIR/e1.log" || fail "E: disable not logged"
rc_same || fail "E: dns-updown disable changed resolv.conf"
bd_stop e1 || fail "E: exit code $?"
dns_client e2 "$TB_DIR/nobin" 'pull-filter ignore "dhcp-option"'
rc_same || fail "E: pull-filter ignore dhcp-option still changed resolv.conf"
grep -q "DNS:" "$TB_DIR/e2.log" && fail "E: DNS applied although filtered: $(grep DNS: "$TB_DIR/e2.log")"
bd_stop e2 || fail "E: exit code $?"

# ---- C: resolvconf
: >"$TB_DIR/fake.log"
dns_client c "$TB_DIR/fakebin-rc"
bd_wait_log c "applied through resolvconf" 5 || fail "C: not applied through resolvconf"
ifn=$(sed -n 's/.*DNS apply: resolvconf -a \([a-z0-9]*\)\.braidd.*/\1/p' "$TB_DIR/c.log" | head -n1)
[ -n "$ifn" ] || fail "C: no resolvconf -a line"
grep -qx "resolvconf -a $ifn.braidd" "$TB_DIR/fake.log" || fail "C: resolvconf not run: $(cat "$TB_DIR/fake.log")"
grep -qx "nameserver 10.8.0.53" "$TB_DIR/fake.log" || fail "C: no nameserver on resolvconf's stdin"
bd_stop c || fail "C: exit code $?"
grep -qx "resolvconf -d $ifn.braidd -f" "$TB_DIR/fake.log" || fail "C: resolvconf -d not run: $(cat "$TB_DIR/fake.log")"
rc_same || fail "C: the resolvconf backend touched resolv.conf"

# ---- D: systemd-resolved (resolvectl)
: >"$TB_DIR/fake.log"
dns_client d "$TB_DIR/fakebin-rd"
bd_wait_log d "applied through systemd-resolved" 5 || fail "D: not applied through resolvectl"
grep -qx "resolvectl dns $ifn 10.8.0.53 fd00:8::53" "$TB_DIR/fake.log" || fail "D: resolvectl dns: $(cat "$TB_DIR/fake.log")"
grep -qx "resolvectl domain $ifn corp.example lab.example" "$TB_DIR/fake.log" || fail "D: resolvectl domain: $(cat "$TB_DIR/fake.log")"
bd_stop d || fail "D: exit code $?"
grep -qx "resolvectl revert $ifn" "$TB_DIR/fake.log" || fail "D: resolvectl revert not run: $(cat "$TB_DIR/fake.log")"
rc_same || fail "D: the resolved backend touched resolv.conf"
tc_server_stop

# ---- F: a stock server pushing the 2.6 `dns` option
tc_server srv2 udp tls-auth 'push "dns server 0 address 10.8.0.77"' 'push "dns search-domains f.example"' 
dns_client f "$TB_DIR/nobin"
grep -qF "dns server 0 address 10.8.0.77" "$OV_LOG" || fail "F: the stock server did not push the dns option"
grep -qx "nameserver 10.8.0.77" "$RC" || fail "F: stock server's dns option not applied: $(cat "$RC")"
grep -qx "search f.example" "$RC" || fail "F: stock server's search-domains not applied: $(cat "$RC")"
bd_stop f || fail "F: exit code $?"
rc_same || fail "F: resolv.conf not restored"
tc_server_stop

# ---- B: braidd gateway, 2.6 dns option, SIGUSR1 restart, SIGINT
bd_conf gw "dev tun" "topology subnet" "server 10.8.0.0 255.255.255.0" "proto udp" "port 1194" \
	"local $(tb_srv_addr 1)" "ca $TB_DIR/pki/ca.crt" "cert $TB_DIR/pki/server.crt" \
	"key $TB_DIR/pki/server.key" "dh none" "keepalive 2 20" "tls-auth $TB_DIR/pki/ta.key 0" "verb 4" \
	'push "dhcp-option DNS 10.8.0.53"' 'push "dns server 1 address 10.8.0.99"' \
	'push "dns server 0 address 10.8.0.54 [fd00:8::54]:53 10.8.0.55:5353"' \
	'push "dns server 0 resolve-domains corp.example"' 'push "dns search-domains a.example b.example"' \
	'push "dns server 0 transport DoT"' 'push "dns server 2 bogus x"'
bd_start gw "$TB_SRV"
bd_wait_log gw "gateway ready" 10 || fail "B: braidd gateway did not start"
dns_client b "$TB_DIR/nobin"
bd_wait_log b "applied through /etc/resolv.conf" 5 || fail "B: DNS not applied"
printf -v want '%s\n' "search a.example b.example" "nameserver 10.8.0.54" "nameserver fd00:8::54"
[ "$(tail -n +2 "$RC")" = "${want%$'\n'}" ] || fail "B: resolv.conf: $(cat "$RC")"
grep -qF "port 5353: the resolver takes port 53 only" "$TB_DIR/b.log" || fail "B: port 5353 not refused"
grep -qF "pushed 'dns server 2': unknown keyword 'bogus': ignored" "$TB_DIR/b.log" || fail "B: bad dns line not logged"
tc_transfer "B: download (dns pushed)" b
kill -USR1 "${BD_PID[b]}"
for _ in $(seq 1 200); do [ "$(grep -c "applied through /etc/resolv.conf" "$TB_DIR/b.log")" = 2 ] && break; sleep 0.05; done
[ "$(grep -c "DNS: /etc/resolv.conf restored" "$TB_DIR/b.log")" = 1 ] || fail "B: SIGUSR1 did not restore"
[ "$(grep -c "applied through /etc/resolv.conf" "$TB_DIR/b.log")" = 2 ] || fail "B: not applied again after SIGUSR1"
grep -qx "nameserver 10.8.0.54" "$RC" || fail "B: after SIGUSR1: $(cat "$RC")"
kill -INT "${BD_PID[b]}"
wait "${BD_PID[b]}"
unset "BD_PID[b]"
rc_same || fail "B: resolv.conf not restored byte for byte after SIGINT: $(cat "$RC")"
bd_stop gw || fail "B: gateway exit code $?"
echo "ok: pushed DNS applied (file, resolvconf, resolved; dhcp-option and 2.6 dns) and restored byte for byte on SIGTERM, SIGUSR1, SIGINT"
