#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest wrapper: a fresh PKI in a temp dir, then test_session on it; the dir goes on every exit.
set -u
W=$(mktemp -d /tmp/ctl-session.XXXXXX)
trap 'rm -rf "$W"' EXIT INT TERM
"$(dirname "$0")/session_pki.sh" "$W" || { echo "FAIL: PKI generation"; exit 1; }
"$1" "$W"
