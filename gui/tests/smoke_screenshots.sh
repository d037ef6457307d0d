#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Smoke test: braid-gui offscreen against two fake management interfaces (a multipath client and a gateway),
# with two fixtures imported and one broken import; it visits every screen and saves DIR/<screen>.png.
# Asserts: exit 0, five distinct PNGs of the window's size; then copies them to $2 (docs/gui/).
# Usage: smoke_screenshots.sh BRAID_GUI_BINARY OUTPUT_DIR
set -euo pipefail
gui=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
tmp=$(mktemp -d /tmp/braid-gui-smoke.$$.XXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

start_fake() {  # name args...
	local name=$1; shift
	"$py" "$here/fake_mgmt.py" --unix "$tmp/$name.sock" "$@" >"$tmp/$name.out" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do grep -q READY "$tmp/$name.out" && return 0; sleep 0.1; done
	echo "fake $name did not start"; cat "$tmp/$name.out"; return 1
}
start_fake client --hold --tick 0.25
start_fake gateway --role gateway

export QT_QPA_PLATFORM=offscreen QT_QUICK_BACKEND=software
fx=$here/fixtures
rc=0
"$gui" --mgmt "unix:$tmp/client.sock" --admin "unix:$tmp/gateway.sock" --profile-dir "$tmp/profiles" \
	--import "$fx/01-access-server-userlogin.ovpn" --import "$fx/08-networkmanager-export/work.conf" \
	--import "$fx/10-connection-blocks-multi-remote.ovpn" --import "$fx/broken/mismatched-close.ovpn" \
	--screenshots "$tmp/shots" --screenshot-timeout 30000 >"$tmp/gui.log" 2>&1 || rc=$?
cat "$tmp/gui.log"
[ $rc -eq 0 ] || { echo "FAIL: braid-gui exited $rc"; exit 1; }
fail=0
for s in connection paths profiles log gateway; do
	f=$tmp/shots/$s.png
	if [ ! -s "$f" ] || [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
		echo "FAIL: $s.png missing or not a PNG"; fail=1; continue
	fi
	# 960x680 window: width and height from the IHDR chunk
	wh=$(od -An -tu1 -j16 -N8 "$f" | awk '{print $3*256+$4 "x" $7*256+$8}')
	[ "$wh" = 960x680 ] || { echo "FAIL: $s.png is $wh, not 960x680"; fail=1; }
done
n=$(sha256sum "$tmp"/shots/*.png | awk '{print $1}' | sort -u | wc -l)
[ "$n" -eq 5 ] || { echo "FAIL: only $n distinct screenshots"; fail=1; }
[ $fail -eq 0 ] || exit 1
mkdir -p "$out"
cp "$tmp"/shots/*.png "$out/"
echo "PASS: 5 screenshots in $out"
