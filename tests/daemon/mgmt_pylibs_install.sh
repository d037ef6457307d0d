#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# mgmt_pylibs_install.sh - install the PyPI management libraries daemon.mgmt_pylibs drives, pinned, into
# their own directory (pip --target; nothing in the system's site-packages changes). Idempotent: a
# directory that has them already is kept. tests/run-all.sh runs it once before the builds; the test
# runs it too (a no-op then). Prints the directory (PYTHONPATH for the test).
#   openvpn-management-api 0.4.0  (HosseyNJF, 2025; events thread, State, ServerStats, openvpn_status)
#   openvpn-monitor 2.0.4         (furlongm, 2025; ManagementConnection, VPNDataCollector parsers)
#   ovpn-manager 1.1.0            (shizacat, 2023; asyncio VPNManager, `status 2` into OVInfo)
# openvpn-monitor is installed without its web stack (Flask, Flask-WTF): only its collector is used;
# geoip2 (which the collector imports), semver and humanize are installed at its pinned versions.
set -euo pipefail
DIR=${BRAID_PYLIBS:-/var/tmp/braid-pylibs-1}
STAMP=$DIR/.installed-1
if [ -e "$STAMP" ]; then
	echo "$DIR"
	exit 0
fi
mkdir -p "$DIR"
pip=(python3 -m pip install -q --disable-pip-version-check --no-input --target "$DIR")
"${pip[@]}" "openvpn-management-api==0.4.0" "openvpn-status==0.2.2" "ovpn-manager==1.1.0" \
	"semver==3.0.2" "humanize==4.11.0" "geoip2==4.8.1" >&2
"${pip[@]}" --no-deps "openvpn-monitor==2.0.4" >&2
touch "$STAMP"
echo "$DIR"
