#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The metrics endpoint (docs/metrics.md) of the static-key tunnel and its JSON status file: two multipath peers
# (2 paths), the client with `metrics` (127.0.0.1:9446), the server with `metrics 10.1.2.2 9446 allow-remote`.
#  1. a non-loopback address without allow-remote is refused at start with a clear error;
#  2. during a download through both paths (shaped to 8 Mbit/s each): the client's scrape parses (prometheus_client's OpenMetrics
#     parser) and every counter that mirrors the status file lies between the file written just before and
#     the one written just after the scrape (SIGUSR2 writes it at once); the new status fields role, up,
#     uptime_s, failovers are there; a second scrape: counters monotonic, the byte counters grew;
#     then path 2's link down: the failed path and the failover show in the scrape and the file alike;
#  3. the server's endpoint on its path address answers from the client's namespace (allow-remote);
#  4. SIGHUP: the endpoint is served again after the restart.
set -uo pipefail
source "$(dirname "$0")/mplib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
bd_require
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
PY=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] || { echo "FAIL: python3-prometheus-client not installed (packaging/install-deps.sh)" >&2; exit 1; }
tb_setup -n 2 >/dev/null 2>&1 || fail "tb_setup"
bd_keygen "$TB_DIR/key"
URL=http://127.0.0.1:9446/metrics

# 1. refused at start
bd_conf bad "dev tun" "secret $TB_DIR/key 0" "ifconfig 10.200.0.1 10.200.0.2" "metrics 10.1.2.2 9446"
out=$(tb_exec "$TB_SRV" "$BRAIDD" --config "$TB_DIR/bad.conf" 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q "option 'metrics'.*10.1.2.2 is not a loopback address: the endpoint has no authentication; add 'allow-remote'" <<<"$out" ||
	fail "non-loopback metrics address: exit $rc: $out"
echo "ok: metrics 10.1.2.2 without allow-remote refused at start"

head -c 12582912 /dev/urandom >"$TB_DIR/blob"
want=$(sha256sum <"$TB_DIR/blob" | cut -d' ' -f1)
mp_http_start
mp_pair 2 "metrics $(tb_srv_addr 1) 9446 allow-remote" -- "metrics"
tb_wait_ping "$TB_CLI" 10.200.0.1 10 || fail "no ping"
mp_wait_paths cli 2 active 10 || fail "client paths not active"

scrape() {
	local ns=$1 out=$2 url=${3:-$URL}
	tb_exec "$ns" curl -s --max-time 5 -D "$out.h" -o "$out.b" "$url" || fail "curl $url in $ns"
	"$PY" "$HERE/metrics_check.py" parse "$out.h" "$out.b" "$out.json" || fail "scrape $out does not parse"
}
# fresh NAME OUT: SIGUSR2, wait until the status file is replaced, copy it
fresh() {
	local f=$TB_DIR/$1.json before
	before=$(stat -c '%i %.9Y' "$f" 2>/dev/null)
	kill -USR2 "${BD_PID[$1]}"
	for _ in $(seq 1 100); do [ "$(stat -c '%i %.9Y' "$f" 2>/dev/null)" != "$before" ] && break; sleep 0.02; done
	[ "$(stat -c '%i %.9Y' "$f" 2>/dev/null)" != "$before" ] || fail "$1: status file not rewritten on SIGUSR2"
	cp "$f" "$2"
}
bracket() {
	local d=$TB_DIR/cli.$1
	fresh cli "$d.before"
	scrape "$TB_CLI" "$d"
	fresh cli "$d.after"
	"$PY" "$HERE/metrics_check.py" bracket p2p "$d.json" "$d.before" "$d.after" || fail "client counters vs status file"
}

# 2. during a download paced by the paths (8 Mbit/s each: 12 MiB take about 6 s), once the HTTP server answers
tb_tbf 1 8
tb_tbf 2 8
for _ in $(seq 1 100); do tb_exec "$TB_CLI" curl -sf -I --max-time 2 -o /dev/null http://10.200.0.1:8080/blob && break; sleep 0.1; done
tb_exec "$TB_CLI" curl -sf --max-time 60 http://10.200.0.1:8080/blob -o "$TB_DIR/got" &
DL=$!
sleep 1.5
bracket 1
sleep 1.5
bracket 2
[ "$(jq -r '[.role, .up, (.uptime_s > 0), (.failovers | type)] | map(tostring) | join(" ")' "$TB_DIR/cli.2.after")" = "p2p true true number" ] ||
	fail "status file role/up/uptime_s/failovers: $(jq -c '{role, up, uptime_s, failovers}' "$TB_DIR/cli.2.after")"
"$PY" "$HERE/metrics_check.py" monotonic "$TB_DIR/cli.1.json" "$TB_DIR/cli.2.json" "braid_tunnel_tun_write_bytes_total{}" \
	"braid_path_wire_rx_bytes_total{*" || fail "client: counters between two scrapes"
wait "$DL" || fail "download failed"
[ "$(sha256sum <"$TB_DIR/got" | cut -d' ' -f1)" = "$want" ] || fail "download sha256"
echo "ok: static-key scrape parses; counters within the status file before/after; monotonic; sha256 ok"

# 2b. a failover: path 2's link goes down; the scrape shows it failed, the failover counted
tb_link_down 2
mp_wait_paths cli 1 failed 10 || fail "client path on bed path 2 did not fail"
bracket 3
[ "$(jq -r '.samples | to_entries[] | select(.key | startswith("braid_path_state{")) | select(.key | contains("state=failed")) |
	.value' "$TB_DIR/cli.3.json" | sort | tr '\n' ' ')" = "0 1 " ] || fail "braid_path_state: not one path failed"
fo=$(jq -r '.samples["braid_session_failovers_total{}"]' "$TB_DIR/cli.3.json")
fo2=$(jq -r '.samples["braid_session_failovers_total{}"]' "$TB_DIR/cli.2.json")
[ "$fo" -gt "$fo2" ] && [ "$fo" = "$(jq -r .failovers "$TB_DIR/cli.3.after")" ] || fail "failovers $fo (before the link went down $fo2), status $(jq -r .failovers "$TB_DIR/cli.3.after")"
tb_link_up 2
echo "ok: a failed path: braid_path_state{state=failed} 1, braid_session_failovers_total $fo = the status file's failovers"

# 3. allow-remote: the server's endpoint on its path address, from the client's namespace
scrape "$TB_CLI" "$TB_DIR/srv.1" "http://$(tb_srv_addr 1):9446/metrics"
jq -e '.samples | keys[] | select(startswith("braid_build_info{role=p2p,"))' "$TB_DIR/srv.1.json" >/dev/null ||
	fail "server: no braid_build_info{role=p2p}"
[ "$(jq -r '.samples["braid_session_paths{}"]' "$TB_DIR/srv.1.json")" = 2 ] || fail "server: braid_session_paths"
echo "ok: allow-remote endpoint on $(tb_srv_addr 1):9446 answers from the client's namespace"

# 4. SIGHUP: served again
n=$(grep -c "metrics: serving" "$TB_DIR/cli.log")
kill -HUP "${BD_PID[cli]}"
for _ in $(seq 1 100); do [ "$(grep -c "metrics: serving" "$TB_DIR/cli.log")" -gt "$n" ] && break; sleep 0.05; done
[ "$(grep -c "metrics: serving" "$TB_DIR/cli.log")" -gt "$n" ] || fail "no 'metrics: serving' after SIGHUP"
scrape "$TB_CLI" "$TB_DIR/cli.3"
echo "ok: SIGHUP: the endpoint is served again"

bd_stop cli || fail "client exit code $?"
bd_stop srv || fail "server exit code $?"
echo "ok: metrics endpoint and status file of the static-key tunnel"
