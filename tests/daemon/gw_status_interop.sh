#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_status_interop.sh - the gateway's status file has the same shape as stock OpenVPN 2.6's:
# for status-version 1, 2 and 3 the same scenario (one client, topology subnet, server-ipv6,
# a ccd iroute) runs against `openvpn --server` and against braidd; both files are normalised
# (times, numbers, ports, the TITLE text; routing-table rows sorted, as 2.6 prints them in hash
# order) and must be identical line for line.
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 1
mkdir -p "$GW_DIR/ccd"
echo "iroute 192.168.51.0 255.255.255.0" >"$GW_DIR/ccd/client1"

# Normalise a status file: TITLE text, dates, ports and numbers replaced; routing-table rows sorted
# (2.6 prints them in its hash table's order). Also fails on an empty or truncated file (no END).
norm() {
	/usr/bin/python3 - "$1" <<'EOP'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and lines[-2] == "END", "no END line"
out, routes, in_v1_routes = [], [], False
def n(l):
    l = re.sub(r"^(TITLE[,\t]).*", r"\1T", l)
    l = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "DATE", l)
    l = re.sub(r":\d+(?=[,\t]|$)", ":PORT", l)
    return re.sub(r"(?<=[,\t])\d+(?=[,\t]|$)", "N", l)
for l in map(n, lines[:-1]):
    if l.startswith("Virtual Address,Common Name"):
        out.append(l); in_v1_routes = True; continue
    if in_v1_routes and l != "GLOBAL STATS" or l.startswith("ROUTING_TABLE"):
        routes.append(l); continue
    if routes:
        out += sorted(routes); routes = []
    in_v1_routes = False
    out.append(l)
print("\n".join(out))
EOP
}

for v in 1 2 3; do
	for impl in openvpn braidd; do
		gw_server_conf "tls-crypt $GW_DIR/tc.key" "server-ipv6 fd00:8::/64" \
			"client-config-dir $GW_DIR/ccd" "route 192.168.51.0 255.255.255.0"
		sed -i "s/^status-version 2$/status-version $v/" "$GW_DIR/server.conf"
		rm -f "$GW_DIR/status.txt"
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
		gw_client_conf 1 "tls-crypt $GW_DIR/tc.key"
		gw_start_client 1
		gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 15 || gw_fail "v$v $impl: connect"
		ip netns exec "$(gw_cns 1)" ping -c 1 -W 2 -q 10.8.0.1 >/dev/null
		sleep 2.2
		norm "$GW_DIR/status.txt" >"$GW_DIR/status.$impl.$v"
		gw_stop_client 1
		gw_stop_server
	done
	diff -u "$GW_DIR/status.openvpn.$v" "$GW_DIR/status.braidd.$v" >&2 ||
		gw_fail "status-version $v differs from stock OpenVPN's (normalised diff above)"
	echo "ok: status-version $v has stock OpenVPN's shape ($(wc -l <"$GW_DIR/status.braidd.$v") lines)"
done
echo "PASS: gw_status_interop"
