#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mgmt_pylibs.sh - PyPI management libraries drive a stock `openvpn --server` and a braidd gateway
# (management-client-auth, one stock client) in the same netns with the same script
# (mgmt_pylibs.py); the objects each library parses must be equal for both daemons except for times,
# addresses and counters. Libraries (pinned; mgmt_pylibs_install.sh installs them with pip into their
# own directory, tests/run-all.sh does it once before the builds):
#   A  openvpn-management-api 0.4.0: connect (banner check), version, >CLIENT:CONNECT/ADDRESS/
#      ESTABLISHED/DISCONNECT parsed into its ClientEvent objects (with the ENV dict), client-auth-nt
#      answered, `state` into its State, `load-stats` into its ServerStats, `bytecount 1` with the
#      >BYTECOUNT_CLI notifications (A has no bytecount event: the test registers one through A's
#      own events.register_event extension point, and A's event thread parses the lines), client-kill
#      (its reply and the DISCONNECT event), `status 1` through A's get_status (openvpn_status 0.2.2).
#   B  openvpn-monitor 2.0.4 (its collector, not its web app): version parsed as semver, `state`,
#      `load-stats` and `status 3` into its session dicts (what the openvpn-monitor page shows).
#   C  ovpn-manager 1.1.0 for `status 2`: A and B have no status 2 parser, and C is the only PyPI
#      library with one.
# Steps a library cannot do, and what the test does instead (found with stock 2.6.14 itself):
#   - status 2: C reads TIME/Connected Since as 2.4's "%a %b %d %H:%M:%S %Y" and raises ValueError
#     on 2.6's ISO dates, from stock as from braidd; the test compares that outcome (the exception
#     text with the date normalised). status 2's bytes are compared by daemon.mgmt_gateway_*.
#   - status 1 through A's get_status fails with ParsingError (A joins the reply's lines, see state;
#     openvpn_status 0.2.2 would also refuse 2.6's ISO dates); compared as such. status 3 parsed by B
#     is the status the objects are compared on.
#   - state: A joins the lines of a reply without a newline (its send_command), so a server's state
#     line, which ends in the local port, reads "...,1194END" and A's State raises ValueError (from
#     stock as from braidd; compared as such); B's parse_state gives the state objects.
#   - client-auth and the ENV blocks: only A parses >CLIENT: notifications; B and C have none.
#   - bytecount: neither library parses >BYTECOUNT_CLI (see A above).
#   - stock serves one management connection at a time: A, B, C connect one after the other. A leaves
#     without `quit`: after quit the server closes the socket and A's I/O thread reconnects at once
#     (its auto-reconnect), holding the one slot stock has.
# Normalised (mgmt_pylibs.py): times (datetimes, time_t, dates in exception texts), the client's
# source port in real addresses, byte counters (only "above 0" is kept), the version title.
# The ENV dicts are compared on the names braidd gives (docs/management.md); the names only stock
# gives are printed.
#   mgmt_pylibs.sh [udp|tcp]
source "$(dirname "$0")/gw_lib.sh"
PROTO=${1:-udp}
HERE=$(cd "$(dirname "$0")" && pwd)
gw_require
PYLIBS=$(bash "$HERE/mgmt_pylibs_install.sh") || gw_fail "could not install the PyPI libraries"
gw_setup 1
if [ "$PROTO" = tcp ]; then SP=tcp-server CP=tcp-client; else SP=udp CP=udp; fi
printf 'user1\npass1\n' >"$GW_DIR/up.txt"

for impl in openvpn braidd; do
	gw_server_conf "tls-crypt $GW_DIR/tc.key" "proto $SP" "management 127.0.0.1 7505" \
		"management-client-auth"
	rm -f "$GW_DIR/ready"
	if [ $impl = braidd ]; then
		gw_start_server
	else
		: >"$GW_DIR/server.log"
		ip netns exec "$GW_NS" openvpn --cd "$GW_DIR" --config "$GW_DIR/server.conf" \
			--log "$GW_DIR/server.log" &
		GW_PID[server]=$!
		GW_PIDS+=("$!")
		gw_wait "$GW_DIR/server.log" "Initialization Sequence Completed" 10 || gw_fail "stock server"
	fi
	ip netns exec "$GW_NS" env PYTHONPATH="$PYLIBS" python3 "$HERE/mgmt_pylibs.py" 127.0.0.1 7505 \
		"$GW_DIR/$impl.json" "$GW_DIR/ready" >"$GW_DIR/$impl.out" 2>&1 &
	drv=$!
	for _ in $(seq 1 100); do [ -e "$GW_DIR/ready" ] && break; sleep 0.1; done
	[ -e "$GW_DIR/ready" ] || gw_fail "$impl: the libraries did not connect ($(tail -5 "$GW_DIR/$impl.out"))"
	gw_client_conf 1 "tls-crypt $GW_DIR/tc.key" "proto $CP" "connect-retry-max 1" \
		"auth-user-pass $GW_DIR/up.txt"
	gw_start_client 1
	# traffic through the tunnel: stock announces a client's bytecount only when its bytes move
	ip netns exec "$(gw_cns 1)" sh -c 'sleep 3; exec ping -q -i 0.2 -w 40 10.8.0.1' >/dev/null 2>&1 &
	png=$!
	GW_PIDS+=("$png")
	wait "$drv" || gw_fail "$impl: the libraries' script failed: $(tail -15 "$GW_DIR/$impl.out")"
	cat "$GW_DIR/$impl.out"
	# braidd's peer-id for the comparison: 0 with one worker, its worker's first slot with more (gw_pid_ok)
	if [ $impl = braidd ]; then
		BPID=$(gw_peer_id 1)
		gw_pid_ok "$BPID" 0 || gw_fail "braidd: peer-id '$BPID' for the only client"
	fi
	kill "$png" 2>/dev/null
	gw_stop_client 1
	gw_stop_server
done
[ -n "${MGMT_KEEP:-}" ] && cp "$GW_DIR"/*.json "$MGMT_KEEP"/
python3 - "$GW_DIR/openvpn.json" "$GW_DIR/braidd.json" "$BPID" <<'PY' || gw_fail "the parsed objects differ"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])


def pid(o, want):
    """every peer_id is the session's (stock: 0; braidd: the one its log gave), then compared as PID"""
    if isinstance(o, dict):
        for k in o:
            if k == "peer_id":
                assert str(o[k]) == want, "peer_id %s, want %s" % (o[k], want)
                o[k] = "PID"
            else:
                pid(o[k], want)
    elif isinstance(o, list):
        for v in o:
            pid(v, want)


try:
    pid(a, "0")
    pid(b, sys.argv[3])
except AssertionError as e:
    sys.exit("peer-id: %s" % e)
other = sorted(set(a.pop("env_other")) - set(b.pop("env_other")))
bad = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
for k in bad:
    print("%s differs:\n  stock:  %s\n  braidd: %s" % (k, json.dumps(a.get(k), sort_keys=True),
                                                     json.dumps(b.get(k), sort_keys=True)))
if other:
    print("note: >CLIENT:ENV names only stock gives (not compared): " + " ".join(other))
if bad:
    sys.exit(1)
print("ok: %d parsed objects equal (%s)" % (len(a), " ".join(sorted(a))))
PY
echo "PASS: mgmt_pylibs $PROTO"
