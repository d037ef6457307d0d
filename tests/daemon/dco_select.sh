#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `dco auto|on|off` (issue 15 part 4, docs/braidd.md "Kernel data plane"), two static-key braidd peers over
# path 1 of the test bed, the braid_dco module absent (as on any host that has not loaded it):
#   srv `dco auto`: starts, exactly one 'dco:' log line naming why it runs the userspace data plane, and the
#     status file's backend is "userspace"; cli `disable-dco` (= dco off): no 'dco:' line; ping through;
#   `dco on`: braidd exits 1 at once with the 'dco on: ... not starting' error and creates no TUN device;
#   `dco bogus`: refused as a configuration error.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
bd_require
tb_setup -n 1 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"

bd_pair AES-256-GCM "dco auto" "status-json $TB_DIR/srv.json 1" -- "disable-dco"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping through the tunnel"
n=$(grep -c 'dco: ' "$TB_DIR/srv.log")
[ "$n" = 1 ] || fail "srv (dco auto): $n 'dco:' lines, want 1"
grep -qE "dco: the braid_dco kernel module is (not available \(generic netlink family 'braid_dco': .*\)|loaded, but .*): using the userspace data plane" \
	"$TB_DIR/srv.log" || fail "srv (dco auto): no fallback line naming why"
grep -q 'dco' "$TB_DIR/cli.log" && fail "cli (disable-dco): a dco line: $(grep dco "$TB_DIR/cli.log")"
for _ in $(seq 50); do [ -s "$TB_DIR/srv.json" ] && break; sleep 0.1; done
[ "$(jq -r .backend "$TB_DIR/srv.json")" = userspace ] || fail "status backend: $(jq -c .backend "$TB_DIR/srv.json")"
echo "ok: dco auto: $(grep -o 'dco: .*' "$TB_DIR/srv.log"); status backend userspace; disable-dco: silent"
bd_stop cli || fail "cli exit code $?"
bd_stop srv || fail "srv exit code $?"

bd_conf on "dev tun" "proto udp" "local $(tb_srv_addr 1)" "lport 1195" "secret $TB_DIR/key 0" \
	"cipher AES-256-GCM" "ifconfig 10.203.0.1 10.203.0.2" "dco on" "verb 4"
links=$(tb_exec "$TB_SRV" ip -o link | wc -l)
tb_exec "$TB_SRV" timeout 20 "$BRAIDD" --config "$TB_DIR/on.conf" >"$TB_DIR/on.log" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "dco on without the module: exit $rc, want 1"
grep -qF "dco on: the braid_dco kernel module" "$TB_DIR/on.log" && grep -qF "not starting ('dco auto' falls back" "$TB_DIR/on.log" ||
	fail "dco on: no clear error: $(cat "$TB_DIR/on.log")"
[ "$(tb_exec "$TB_SRV" ip -o link | wc -l)" = "$links" ] || fail "dco on: a device was left behind"
echo "ok: dco on: exit 1, $(grep -o 'dco on: .*' "$TB_DIR/on.log" | cut -c1-90)..."

"$BRAIDD" --dco bogus --secret "$TB_DIR/key" --dev tun >"$TB_DIR/bogus.log" 2>&1 && fail "dco bogus accepted"
grep -qF "expected auto, on or off" "$TB_DIR/bogus.log" || fail "dco bogus: $(cat "$TB_DIR/bogus.log")"
echo "ok: dco bogus refused: $(grep -o "'bogus'.*" "$TB_DIR/bogus.log" | head -1)"
