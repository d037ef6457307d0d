#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The metrics endpoint (docs/metrics.md) of the TLS client and the gateway: a braidd gateway (`multipath on`,
# `metrics`) and a braidd client with 2 mp-path lines and `metrics`, each on 127.0.0.1:9446 of its namespace,
# both with a control socket (the management interface) for braidctl's status to compare with.
#  1. during a download through both paths (shaped to 8 Mbit/s each): curl the endpoint of each; the text is parsed by
#     prometheus_client's OpenMetrics parser; every counter that has a status value a user sees lies between
#     that value read just before and just after the scrape (the sampling skew we allow):
#       client (`braidctl status --json`): braid_tunnel_{tun_read,tun_write,link_rx,link_tx}_bytes_total =
#       tunnel.{tun_read,tun_write,link_read,link_write}_bytes, braid_path_wire_{tx,rx}_bytes_total =
#       paths[].{tx,rx}_bytes by path id; equal: braid_session_up (state CONNECTED), braid_session_multipath,
#       braid_session_paths (paths[] count), braid_path_state (paths[].state: validated/active/standby = up);
#       gateway (`braidctl status --json`, `braidctl paths --json`): braid_client_{rx,tx}_bytes_total =
#       clients[].{rx,tx}_bytes, per client the paths' wire bytes and states as above, braid_session_paths =
#       clients[].paths, braid_session_multipath = clients[].braid, braid_session_since_seconds =
#       clients[].since, braid_gateway_clients = load.nclients = the clients listed;
#     not compared, having no user-visible status value since braidctl reads the management interface (their
#     rows in docs/braidd.md say "none"): the tunnel packet counts, auth_failures, replays, malformed, pings,
#     restarts, renegotiations, failovers, the other path counters, the gateway totals, max_clients, uptime;
#     a second scrape: every counter monotonic, the byte counters grew; the download's sha256 is right;
#  2. Accept: text/plain gets Prometheus text 0.0.4 (its own parser); HEAD gets the headers only;
#  3. bad requests get their codes (405 + Allow, 404, 400, 414, 431, 505), a request that never ends is
#     dropped after 5 s, a 9th connection gets 503; each is counted in braid_metrics_rejected_total{reason}
#     exactly and logged.
set -uo pipefail
source "$(dirname "$0")/tls_mp_lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
BRAIDCTL=${BRAIDCTL:-$BRAID_BIN_DIR/braidctl}
[ -x "$BRAIDCTL" ] || { echo "FAIL: braidctl not built ($BRAIDCTL)" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
# the parser: python3-prometheus-client (packaging/install-deps.sh); the distribution's python3 has it
PY=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] || { echo "FAIL: python3-prometheus-client not installed (packaging/install-deps.sh)" >&2; exit 1; }
TM_BLOB_BYTES=12582912 tm_setup 2
GS=$TB_DIR/gw.sock CS=$TB_DIR/cli.sock
URL=http://127.0.0.1:9446/metrics

tm_gateway gw "multipath on" "control-socket $GS" "metrics 127.0.0.1 9446"
mapfile -t paths < <(tm_client_paths "" 2)
tm_client cli "${paths[@]}" "control-socket $CS" "metrics"
bd_wait_log cli "multipath negotiated with the server" 15 || fail "braidd client: multipath not negotiated"
tm_wait_active cli 2 10 || fail "client paths not active: $(tm_status cli)"
tb_wait_ping "$TB_CLI" "$TM_GW_TUN" 10 || fail "braidd client: no ping"
grep -q "metrics: serving http://127.0.0.1:9446/metrics" "$TB_DIR/gw.log" || fail "gateway: no 'metrics: serving' line"
grep -q "metrics: serving http://127.0.0.1:9446/metrics" "$TB_DIR/cli.log" || fail "client: no 'metrics: serving' line"

# scrape NS OUT [curl args]: headers OUT.h, body OUT.b, parsed OUT.json
scrape() {
	local ns=$1 out=$2
	shift 2
	tb_exec "$ns" curl -s --max-time 5 -D "$out.h" -o "$out.b" "$@" "$URL" || fail "curl $URL in $ns"
	"$PY" "$HERE/metrics_check.py" parse "$out.h" "$out.b" "$out.json" || fail "scrape $out does not parse"
}
# status ROLE OUT: braidctl's status JSON (and a gateway's paths) now
status() {
	if [ "$1" = cli ]; then
		"$BRAIDCTL" -s "$CS" status --json >"$2" || fail "cli status"
	else
		"$BRAIDCTL" -s "$GS" status --json >"$2" || fail "gw status"
		"$BRAIDCTL" -s "$GS" paths --json >"$2.paths" || fail "gw paths"
	fi
}
# bracket ROLE NS N: status, scrape, status; the counters between
bracket() {
	local role=$1 ns=$2 n=$3 d=$TB_DIR/$1.$3
	status "$role" "$d.before"
	scrape "$ns" "$d"
	status "$role" "$d.after"
	if [ "$role" = cli ]; then
		"$PY" "$HERE/metrics_check.py" bracket client "$d.json" "$d.before" "$d.after" || fail "client counters vs status"
	else
		"$PY" "$HERE/metrics_check.py" bracket gateway "$d.json" "$d.before" "$d.after" "$d.before.paths" \
			"$d.after.paths" || fail "gateway counters vs status"
	fi
}

# 1. during a download paced by the paths (8 Mbit/s each: 12 MiB take about 6 s), once the HTTP server answers
tb_tbf 1 8
tb_tbf 2 8
for _ in $(seq 1 100); do tb_exec "$TB_CLI" curl -sf -I --max-time 2 -o /dev/null "http://$TM_GW_TUN:8080/blob" && break; sleep 0.1; done
tb_exec "$TB_CLI" curl -sf --max-time 60 "http://$TM_GW_TUN:8080/blob" -o "$TB_DIR/got" &
DL=$!
sleep 1.5
bracket cli "$TB_CLI" 1
bracket gw "$TB_SRV" 1
sleep 1.5
bracket cli "$TB_CLI" 2
bracket gw "$TB_SRV" 2
"$PY" "$HERE/metrics_check.py" monotonic "$TB_DIR/cli.1.json" "$TB_DIR/cli.2.json" "braid_tunnel_tun_write_bytes_total{}" \
	"braid_tunnel_link_rx_bytes_total{}" || fail "client: counters between two scrapes"
"$PY" "$HERE/metrics_check.py" monotonic "$TB_DIR/gw.1.json" "$TB_DIR/gw.2.json" "braid_client_tx_bytes_total{client=client1,*" \
	"braid_path_wire_tx_bytes_total{client=client1,*" ||
	fail "gateway: counters between two scrapes"
# the paths carried the download: both paths' received bytes on the client are in the scrape
for i in 0 1; do
	v=$(jq -r --arg k "braid_path_wire_rx_bytes_total{" '.samples | to_entries[] | select(.key | startswith($k)) |
		select(.key | contains("path='"$i"',")) | .value' "$TB_DIR/cli.2.json")
	[ -n "$v" ] && [ "$(jq -n "$v > 100000")" = true ] || fail "client path $i wire_rx_bytes $v"
done
[ "$(jq -r '.samples | to_entries[] | select(.key | startswith("braid_path_state{")) | select(.key | contains("state=active")) | .value' \
	"$TB_DIR/cli.2.json" | sort | tr "\n" " ")" = "1 1 " ] || fail "client: path_state active not 1 for both paths"
jq -e '.samples | keys[] | select(startswith("braid_build_info{role=client,version="))' "$TB_DIR/cli.2.json" >/dev/null ||
	fail "client: no braid_build_info{role=client}"
wait "$DL" || fail "download failed"
[ "$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)" = "$TM_WANT" ] || fail "download sha256"
echo "ok: client and gateway scrapes parse (OpenMetrics), counters within the status before/after, monotonic; sha256 ok"

# 2. Prometheus text 0.0.4 on request; HEAD
scrape "$TB_CLI" "$TB_DIR/cli.prom" -H "Accept: text/plain;version=0.0.4;q=0.3,*/*;q=0.1"
grep -q '^# TYPE braid_tunnel_tun_write_bytes_total counter$' "$TB_DIR/cli.prom.b" || fail "0.0.4: counter TYPE line"
tb_exec "$TB_CLI" curl -s --max-time 5 -I "$URL" >"$TB_DIR/head.h" || fail "HEAD"
grep -q '^HTTP/1.1 200 OK' "$TB_DIR/head.h" && grep -qi '^Content-Length: [1-9]' "$TB_DIR/head.h" || fail "HEAD: $(cat "$TB_DIR/head.h")"
echo "ok: Accept: text/plain -> Prometheus 0.0.4 (parsed); HEAD -> 200 headers only"

# 3. refusals (in the gateway's namespace)
code() { tb_exec "$TB_SRV" curl -s --max-time 5 -o /dev/null -w '%{http_code}' "$@"; }
[ "$(code -X POST "$URL")" = 405 ] || fail "POST: not 405"
tb_exec "$TB_SRV" curl -s --max-time 5 -D - -o /dev/null -X DELETE "$URL" | grep -qi '^Allow: GET, HEAD' || fail "405 without Allow"
[ "$(code http://127.0.0.1:9446/)" = 404 ] || fail "/: not 404"
[ "$(code http://127.0.0.1:9446/metrics/x)" = 404 ] || fail "/metrics/x: not 404"
[ "$(code -H "X-Big: $(head -c 2000 /dev/zero | tr '\0' a)" "$URL")" = 431 ] || fail "2000-byte header: not 431"
[ "$(code "$URL?$(head -c 1100 /dev/zero | tr '\0' a)")" = 414 ] || fail "1100-byte target: not 414"
raw() { tb_exec "$TB_SRV" "$PY" -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", 9446)); s.sendall(sys.argv[1].encode().decode("unicode_escape").encode("latin-1"))
print(s.recv(200).split(b"\r\n")[0].decode())' "$1"; }
[ "$(raw 'GET /metrics HTTP/2.0\r\n\r\n')" = "HTTP/1.1 505 HTTP Version Not Supported" ] || fail "HTTP/2.0: not 505"
[ "$(raw 'GET /metrics HTTP/1.1\r\n\r\n')" = "HTTP/1.1 400 Bad Request" ] || fail "no Host: not 400"
[ "$(raw 'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello')" = "HTTP/1.1 400 Bad Request" ] || fail "a body: not 400"
# 8 connections that never finish their request, a 9th: 503 at once; the 8 are dropped after 5 s
tb_exec "$TB_SRV" "$PY" -c '
import socket, time
held = []
for i in range(8):
    s = socket.create_connection(("127.0.0.1", 9446)); s.sendall(b"GET /metr"); held.append(s)
time.sleep(0.3)
s = socket.create_connection(("127.0.0.1", 9446)); s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
print(s.recv(100).split(b"\r\n")[0].decode())
t0 = time.time()
for h in held:
    h.settimeout(8)
    assert h.recv(100) == b"", "a held connection got an answer"
print("closed after %.1f s" % (time.time() - t0))' >"$TB_DIR/held.txt" || fail "held connections: $(cat "$TB_DIR/held.txt")"
head -n1 "$TB_DIR/held.txt" | grep -qx "HTTP/1.1 503 Service Unavailable" || fail "9th connection: $(cat "$TB_DIR/held.txt")"
scrape "$TB_SRV" "$TB_DIR/gw.rej"
for want in bad_method:2 not_found:2 headers_too_large:1 uri_too_long:1 bad_version:1 bad_request:2 timeout:8 \
	too_many_connections:1; do
	r=${want%%:*} n=${want#*:}
	got=$(jq -r --arg k "braid_metrics_rejected_total{reason=$r}" '.samples[$k]' "$TB_DIR/gw.rej.json")
	[ "$got" = "$n" ] || fail "rejected{reason=$r} = $got, want $n"
done
[ "$(jq -r '.samples["braid_metrics_requests_total{code=503}"]' "$TB_DIR/gw.rej.json")" = 1 ] || fail "requests{code=503}"
grep -q "metrics: \\[AF_INET\\]127.0.0.1:[0-9]*: Method Not Allowed (bad_method, 1 so far)" "$TB_DIR/gw.log" || fail "no log line for 405"
grep -q "metrics: \\[AF_INET\\]127.0.0.1:[0-9]*: no complete request in time (timeout, 1 so far)" "$TB_DIR/gw.log" || fail "no log line for the timeout"
[ "$(grep -c 'metrics: .*(timeout, ' "$TB_DIR/gw.log")" = 1 ] || fail "timeout logged more than once a second"
echo "ok: refusals 405 (Allow), 404, 431, 414, 505, 400; slow requests dropped after 5 s, 9th connection 503; counted and logged"

bd_stop cli || fail "client exit code $?"
bd_stop gw || fail "gateway exit code $?"
echo "ok: metrics endpoint of the TLS client and the gateway"
