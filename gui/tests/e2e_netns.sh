#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# gui_e2e_netns: braid-gui end to end, as a user runs it. A braidd gateway (multipath on) in the test bed's server
# namespace; a private D-Bus system bus and the real polkitd (gui/helper/tests/bus_lib.sh; a rule allows `nobody`);
# braid-helper as root in the client namespace. braid-gui runs offscreen as `nobody`: it imports a profile with
# two mp-path lines (files referenced, read as nobody), connects through braid-helper, and attaches to the
# gateway's management socket for the admin view. The test reads the GUI's own model (--e2e: model.jsonl every
# 200 ms, e2e_driver.h) and asserts:
#   1. Connected, both paths up, both carrying bytes of a download through the tunnel (> 256 KB each);
#   2. path 2's link cut (link down in the client namespace): the model shows it down within 2 s of the cut;
#   3. link back up: the model shows it up again; the 48 MiB download's sha256 matches.
# Screenshots of every screen with both paths up (up-*.png) and with path 2 down (down-*.png) are saved by the
# GUI during the run and copied to OUT_DIR (docs/gui/e2e/, shown in docs/gui.md).
# Usage: e2e_netns.sh BRAID_GUI OUT_DIR   (env: BRAID_BIN_DIR with braidd and braid-helper; BRAID_SRC)
set -uo pipefail
gui=${1:?usage: e2e_netns.sh BRAID_GUI OUT_DIR}
out=${2:?usage: e2e_netns.sh BRAID_GUI OUT_DIR}
src=${BRAID_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
export BRAID_BIN_DIR=${BRAID_BIN_DIR:?}
source "$src/tests/daemon/tls_mp_lib.sh"
source "$src/gui/helper/tests/bus_lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (network namespaces, system bus, polkitd)"; exit 77; }
bh_require
[ -x "$gui" ] || { echo "FAIL: braid-gui not built ($gui)"; exit 1; }
[ -x "$BRAID_BIN_DIR/braid-helper" ] || { echo "FAIL: braid-helper not built"; exit 1; }
id nobody >/dev/null || { echo "FAIL: no user nobody"; exit 1; }
# lib.sh's fail, plus the logs of the braidd braid-helper started and the GUI's model tail
fail() {
	echo "FAIL: $*" >&2
	local f
	for f in "$TB_DIR"/*.log "$TB_DIR"/run/*/braidd.log; do
		[ -f "$f" ] && { echo "---- $f (last 15 lines)" >&2; tail -n 15 "$f" >&2; }
	done
	[ -f "${e2e:-/nonexistent}/model.jsonl" ] && { echo "---- model (last line)" >&2; tail -n 1 "$e2e/model.jsonl" >&2; }
	exit 1
}

TM_BLOB_BYTES=50331648 tm_setup 2
chmod 755 "$TB_DIR"
tb_tbf 1 12
tb_tbf 2 12
tm_gateway gw "multipath on" "management $TB_DIR/gw-mgmt.sock unix" "management-client-user nobody"

# --- the bus, polkitd, the helper (root, client namespace: the braidd it starts gets the client's paths)
bh_bus_start "$TB_DIR" "$src" || fail "dbus-daemon did not start"
TB_PIDS+=("$BH_LAST_PID")
bh_polkit_start "$TB_DIR" "$src" nobody || { TB_PIDS+=("$BH_LAST_PID"); fail "polkitd did not take its name"; }
TB_PIDS+=("$BH_LAST_PID")
mkdir -p "$TB_DIR/run"
tb_bg "$TB_CLI" "$BRAID_BIN_DIR/braid-helper" --braidd "$BRAIDD" --rundir "$TB_DIR/run" >"$TB_DIR/helper.log" 2>&1
bh_wait_name net.braid.Helper1 || fail "braid-helper did not take net.braid.Helper1"

# --- the user's files: a profile referencing its key files, all owned by nobody
home=$TB_DIR/home
mkdir -p "$home/keys"
cp "$TB_DIR/pki/ca.crt" "$TB_DIR/pki/client1.crt" "$TB_DIR/pki/client1.key" "$TB_DIR/pki/ta.key" "$home/keys/"
mapfile -t mp < <(tm_client_paths "" 2)
printf '%s\n' client "dev tun" "proto udp" "remote $(tb_srv_addr 1) 1194" nobind "ca keys/ca.crt" \
	"cert keys/client1.crt" "key keys/client1.key" "remote-cert-tls server" "tls-auth keys/ta.key 1" "verb 4" \
	"${mp[@]}" >"$home/e2e.ovpn"
chown -R nobody "$home"
e2e=$home/e2e

# braid-gui as nobody, offscreen, no session bus (notifications fall back silently)
setpriv --reuid nobody --regid "$(id -g nobody)" --clear-groups env -i PATH=/usr/bin:/bin HOME="$home" \
	XDG_RUNTIME_DIR="$home" QT_QPA_PLATFORM=offscreen QT_QUICK_BACKEND=software \
	DBUS_SYSTEM_BUS_ADDRESS="$BH_BUS" DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent \
	ASAN_OPTIONS="${ASAN_OPTIONS:-}" LSAN_OPTIONS="${LSAN_OPTIONS:-}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" \
	"$gui" --profile-dir "$home/profiles" --import "$home/e2e.ovpn" \
	--admin "unix:$TB_DIR/gw-mgmt.sock" --e2e "$e2e" >"$TB_DIR/gui.log" 2>&1 &
guipid=$!
TB_PIDS+=("$guipid")

# model QUERY [ARGS]: evaluate a Python expression over the model's lines (m = list of dicts, last = m[-1])
model() {
	python3 - "$e2e/model.jsonl" "$@" <<'PY'
import json, sys
m = []
try:
    for l in open(sys.argv[1]):
        try: m.append(json.loads(l))
        except ValueError: pass   # a line being written
except OSError: pass
def path(line, addr):
    for p in line["paths"]:
        if p["local"].startswith(addr + ":") or ("]" + addr + ":") in p["local"] or p["local"] == addr:
            return p
    return None
last = m[-1] if m else None
args = sys.argv[3:]
print(eval(sys.argv[2]))
PY
}
wait_model() {	# SECONDS EXPR [ARGS]: until EXPR is True
	local t=$1 k
	shift
	for ((k = 0; k < t * 10; k++)); do
		[ "$(model "$@")" = True ] && return 0
		kill -0 "$guipid" 2>/dev/null || fail "braid-gui exited: $(tail -n 20 "$TB_DIR/gui.log")"
		sleep 0.1
	done
	return 1
}
# click TAG NAME: the GUI clicks the visible control whose Accessible.name is NAME (e2e_driver.h); retried
# while the control is not laid out yet
click() {
	local tag=$1 name=$2 k
	for ((k = 0; k < 5; k++)); do
		rm -f "$e2e/$tag.clicked" "$e2e/$tag.unclicked"
		printf '%s' "$name" >"$e2e/.req-$tag" && mv "$e2e/.req-$tag" "$e2e/click-$tag"
		for _ in $(seq 100); do [ -e "$e2e/$tag.clicked" ] || [ -e "$e2e/$tag.unclicked" ] && break; sleep 0.1; done
		[ -e "$e2e/$tag.clicked" ] && { echo "ok: clicked '$name'"; return 0; }
		kill -0 "$guipid" 2>/dev/null || fail "braid-gui exited: $(tail -n 20 "$TB_DIR/gui.log")"
		sleep 0.5
	done
	fail "GUI could not click '$name': $(cat "$e2e/$tag.unclicked" 2>/dev/null || echo 'no answer')"
}
for _ in $(seq 300); do [ -s "$e2e/model.jsonl" ] && break; sleep 0.1; done
[ -s "$e2e/model.jsonl" ] || fail "braid-gui wrote no model line: $(tail -n 20 "$TB_DIR/gui.log")"
# as a user: the Profiles screen, then the imported profile's Connect button (a wrong name must be refused)
click nav "Show the Profiles screen"
printf '%s' "Connect profile no-such" >"$e2e/.req-bad" && mv "$e2e/.req-bad" "$e2e/click-bad"
for _ in $(seq 100); do [ -e "$e2e/bad.unclicked" ] || [ -e "$e2e/bad.clicked" ] && break; sleep 0.1; done
grep -q "no visible control named 'Connect profile no-such'" "$e2e/bad.unclicked" 2>/dev/null \
	|| fail "a click on a control that does not exist was not refused"
click connect "Connect profile e2e"
click home "Show the Connection screen"
a1=$(tb_cli_addr 1)
a2=$(tb_cli_addr 2)
both_up='last is not None and last["state"] == "Connected" and all(path(last, a) and path(last, a)["up"] for a in args)'
wait_model 60 "$both_up" "$a1" "$a2" || fail "GUI model not Connected with 2 paths up: $(tail -c 1500 "$e2e/model.jsonl")"
echo "ok: GUI (nobody) connected through braid-helper, both paths up in its model"
ls "$TB_DIR/run" | grep -q . || fail "no session in the helper's run directory"

# 1. a download through the tunnel; both paths carry bytes, seen in the GUI's model
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "no ping through the tunnel"
(tb_exec "$TB_CLI" curl -sf --max-time 90 -o "$TB_DIR/got" "http://$TM_GW_TUN:8080/blob"; echo $? >"$TB_DIR/curl.rc") &
cpid=$!
ms0=$(date +%s%3N)
sleep 3
deltas=$(model '" ".join(str(int(path(m[-1], a)["rxBytes"] - path([l for l in m if l["ms"] >= int(args[2])][0], a)["rxBytes"])) for a in args[:2])' "$a1" "$a2" "$ms0")
read -r d1 d2 <<<"$deltas"
[ "${d1:-0}" -gt 262144 ] && [ "${d2:-0}" -gt 262144 ] || fail "paths' rxBytes in the GUI grew by $d1 / $d2 in 3 s"
echo "ok: bytes moving on both paths in the GUI model: +$d1 / +$d2 B in 3 s"
touch "$e2e/shoot-up"

# 2. cut path 2 (link down at the client and its router); the GUI must show it down within 2 s
for _ in $(seq 100); do [ -e "$e2e/up.done" ] || [ -e "$e2e/up.failed" ] && break; sleep 0.1; done
[ -e "$e2e/up.done" ] || fail "GUI did not save the 'up' screenshots: $(tail -n 5 "$TB_DIR/gui.log")"
cut=$(date +%s%3N)
tb_link_down 2
down='any(l["ms"] >= int(args[1]) and path(l, args[0]) and not path(l, args[0])["up"] for l in m)'
wait_model 10 "$down" "$a2" "$cut" || fail "GUI model does not show path 2 down 10 s after the cut"
seen=$(model '[l["ms"] for l in m if l["ms"] >= int(args[1]) and path(l, args[0]) and not path(l, args[0])["up"]][0]' "$a2" "$cut")
st=$(model '[path(l, args[0])["state"] for l in m if l["ms"] >= int(args[1]) and not path(l, args[0])["up"]][0]' "$a2" "$cut")
lag=$((seen - cut))
[ "$lag" -le 2000 ] || fail "GUI showed path 2 down $lag ms after the cut (limit 2000)"
echo "ok: path 2 cut: the GUI model shows it '$st' $lag ms after the cut (limit 2000 ms)"
[ "$(model 'path(last, args[0])["up"]' "$a1")" = True ] || fail "path 1 not up in the GUI after path 2's cut"
sleep 1
touch "$e2e/shoot-down"
for _ in $(seq 100); do [ -e "$e2e/down.done" ] || [ -e "$e2e/down.failed" ] && break; sleep 0.1; done
[ -e "$e2e/down.done" ] || fail "GUI did not save the 'down' screenshots"

# 3. link back: up again in the GUI; the download survived
tb_link_up 2 2>/dev/null
back=$(date +%s%3N)
wait_model 30 'any(l["ms"] >= int(args[1]) and path(l, args[0])["up"] for l in m)' "$a2" "$back" ||
	fail "GUI model does not show path 2 up again 30 s after the link came back"
echo "ok: path 2 back: up again in the GUI model"
wait "$cpid"
[ "$(cat "$TB_DIR/curl.rc")" = 0 ] || fail "download through the tunnel failed (curl $(cat "$TB_DIR/curl.rc"))"
got=$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)
[ "$got" = "$TM_WANT" ] || fail "download sha256 $got, want $TM_WANT"
echo "ok: 48 MiB download across the cut: sha256 matches"

# screenshots: 5 screens twice, 5 distinct each time; the paths screen changed with the cut
n=0
for f in "$e2e"/up-*.png "$e2e"/down-*.png; do
	[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$f is not a PNG"
	n=$((n + 1))
done
[ "$n" = 10 ] || fail "$n screenshots, want 10"
for t in up down; do
	[ "$(sha256sum "$e2e"/$t-*.png | awk '{print $1}' | sort -u | wc -l)" = 5 ] || fail "the $t screenshots are not 5 distinct"
done
[ "$(sha256sum <"$e2e/up-paths.png")" != "$(sha256sum <"$e2e/down-paths.png")" ] || fail "the paths screen did not change after the cut"
kill "$guipid" 2>/dev/null
wait "$guipid" 2>/dev/null
mkdir -p "$out"
cp "$e2e"/up-*.png "$e2e"/down-*.png "$out/"
echo "PASS: gui_e2e_netns (10 screenshots in $out)"
