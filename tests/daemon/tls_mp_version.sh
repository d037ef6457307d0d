#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Multipath protocol version skew between a braidd client and a braidd gateway
# (docs/multipath-negotiation.md §2.1), the version forced with the test-only BRAID_TEST_MP_VERSION:
#   1 newer client (speaks 1..2) vs a version-1 gateway: offered and run at version 1, 2 paths active
#   2 version-1 client vs a newer gateway (1..3): version 1, 2 paths active
#   3 a client announcing garbage (IV_BRAID_MP=v2-beta): the gateway logs it, single path
#   4 a gateway offering garbage (braid-mp x9): the client logs it, the gateway sees no path validate
#     and falls back to single path (logged)
#   5 a gateway offering a version the client does not speak (braid-mp 7): as 4
# Each case ends with a sha256-checked download through the tunnel; no session fails or restarts.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
TM_BLOB_BYTES=4194304 tm_setup 2
mapfile -t paths < <(tm_client_paths "" 2)

# run K GW_KNOB CLI_KNOB: gateway and client with the knobs ("" = unset), wait for the session
run() {
	local k=$1
	if [ -n "$2" ]; then export BRAID_TEST_MP_VERSION=$2; else unset BRAID_TEST_MP_VERSION; fi
	tm_gateway "gw$k" "multipath on"
	if [ -n "$3" ]; then export BRAID_TEST_MP_VERSION=$3; else unset BRAID_TEST_MP_VERSION; fi
	tm_client "cli$k" "${paths[@]}"
	unset BRAID_TEST_MP_VERSION
	bd_wait_log "cli$k" "Initialization Sequence Completed" 15 || fail "case $k: client did not come up"
}

transfer() { # K
	local got=
	for _ in 1 2 3; do	# bounded: a dead data path fails here, not at the ctest timeout
		got=$(tb_exec "$TB_CLI" curl -sf --max-time 20 "http://$TM_GW_TUN:8080/blob" | sha256sum | cut -d' ' -f1)
		[ "$got" = "$TM_WANT" ] && break
		sleep 0.5
	done
	[ "$got" = "$TM_WANT" ] || fail "case $1: download sha256 $got, want $TM_WANT"
	bd_stop "cli$1" || fail "case $1: client exit code $?"
	# one session from start to end: the client never restarted it
	grep -q "final stats: .* restarts=0 " "$TB_DIR/cli$1.log" || fail "case $1: the client's session restarted"
	bd_stop "gw$1" || fail "case $1: gateway exit code $?"
}

# 1: newer client, version-1 gateway
run 1 "" 2
bd_wait_log gw1 "IV_BRAID_MP=2 announced, this gateway speaks 1..1: offering multipath protocol version 1" 5 ||
	fail "case 1: gateway did not offer version 1"
bd_wait_log cli1 "multipath protocol version 1 offered and accepted (this braidd speaks 1..2)" 5 ||
	fail "case 1: client did not run version 1"
tm_wait_active cli1 2 15 || fail "case 1: paths not active: $(tm_status cli1)"
transfer 1

# 2: version-1 client, newer gateway
run 2 3 ""
bd_wait_log gw2 "IV_BRAID_MP=1 announced, this gateway speaks 1..3: offering multipath protocol version 1" 5 ||
	fail "case 2: gateway did not offer version 1"
bd_wait_log cli2 "multipath protocol version 1 offered and accepted (this braidd speaks 1..1)" 5 ||
	fail "case 2: client did not run version 1"
tm_wait_active cli2 2 15 || fail "case 2: paths not active: $(tm_status cli2)"
transfer 2

# 3: garbage announced by the client
run 3 "" v2-beta
bd_wait_log gw3 "IV_BRAID_MP='v2-beta' is not a multipath protocol version (this gateway speaks 1..1): single path" 5 ||
	fail "case 3: gateway did not log the garbage announcement"
grep -qF "multipath negotiated" "$TB_DIR/cli3.log" "$TB_DIR/gw3.log" && fail "case 3: multipath negotiated"
transfer 3

# 4: garbage offered by the gateway
run 4 "=x9" ""
bd_wait_log cli4 "pushed 'braid-mp x9 65536': not a version 1..65535 and a replay window 64..65536: multipath not used, single path" 5 ||
	fail "case 4: client did not log the garbage offer"
bd_wait_log gw4 "the client did not take up multipath (no path validated 5 s after the offer" 15 ||
	fail "case 4: gateway did not fall back to single path"
transfer 4

# 5: a version the client does not speak
run 5 "=7" ""
bd_wait_log cli5 "pushed 'braid-mp 7': a multipath protocol version this braidd does not speak (1..1): single path" 5 ||
	fail "case 5: client did not log the unknown version"
bd_wait_log gw5 "the client did not take up multipath" 15 || fail "case 5: gateway did not fall back to single path"
transfer 5
echo "ok: multipath version skew: newer client/older gateway and older client/newer gateway run version 1 on 2 paths; garbage or unknown versions on either side end in single path with a log line; 5 downloads verified"
