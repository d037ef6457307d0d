#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_workers_auto.sh - `workers auto` on a gateway (issue 16; docs/braidd.md, docs/scaling.md "Workers"):
# auto stays one worker until every gateway test runs with more (docs/scaling.md), so it runs today's single
# loop and says so in one log line with the core count; two stock OpenVPN 2.6 clients connect, each downloads
# 2 MiB through it (sha256 checked), the status file lists each once; `workers 2` without CAP_BPF falls back to one
# worker with one log line and still serves; `braidd --test-config` accepts
# `workers 2` and refuses `workers 2` with cluster-etcd at start (daemon.gw_workers runs 2 workers).
unset GW_TEST_WORKERS	# it sets `workers` itself
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 2

gw_serve_blob 2097152
want=$GW_WANT

gw_server_conf "workers auto"
gw_start_server
cores=$(getconf _NPROCESSORS_ONLN)
grep -qF "workers auto: $cores core(s) online, 1 worker (docs/scaling.md \"Workers\")" "$GW_DIR/server.log" ||
	gw_fail "no 'workers auto: $cores core(s) online, 1 worker' line in the gateway's log"
for i in 1 2; do
	gw_client_conf "$i"
	gw_start_client "$i"
done
for i in 1 2; do
	gw_wait "$GW_DIR/c$i.log" "Initialization Sequence Completed" 20 || gw_fail "client $i did not connect"
done
for i in 1 2; do
	got=$(ip netns exec "$(gw_cns "$i")" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum |
		cut -d' ' -f1)
	[ "$got" = "$want" ] || gw_fail "client $i: 2 MiB download through the gateway: sha256 mismatch"
done
for i in 1 2; do
	gw_wait "$GW_DIR/status.txt" "CLIENT_LIST,client$i,10.99.0.1$i:" 5 || gw_fail "the status file does not list client$i"
	n=$(grep -c "^CLIENT_LIST,client$i," "$GW_DIR/status.txt")
	[ "$n" = 1 ] || gw_fail "client$i listed $n times in the status file, want 1"
done
gw_stop_client 1
gw_stop_client 2
gw_stop_server

# workers 2 without CAP_BPF (capsh drops it): the steering program cannot load, one worker, said in one line;
# a stock client still gets through
command -v capsh >/dev/null || gw_fail "capsh missing (packaging/install-deps.sh: libcap2-bin)"
printf '#!/bin/sh\nexec capsh --drop=cap_bpf,cap_sys_admin,cap_perfmon -- -c "exec %s \\"\\$@\\"" -- "$@"\n' \
	"$BRAIDD" >"$GW_DIR/braidd-nobpf" && chmod +x "$GW_DIR/braidd-nobpf"
sed -i 's/^workers auto$/workers 2/' "$GW_DIR/server.conf"
BRAIDD=$GW_DIR/braidd-nobpf gw_start_server
grep -qF "workers: sk_reuseport steering unavailable (Operation not permitted): 1 worker" "$GW_DIR/server.log" ||
	gw_fail "no fallback line without CAP_BPF: $(grep -i 'workers' "$GW_DIR/server.log")"
grep -qF "workers: 2, sessions steered" "$GW_DIR/server.log" && gw_fail "2 workers started without CAP_BPF"
gw_start_client 1
gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 20 || gw_fail "client 1 did not connect (1-worker fallback)"
got=$(ip netns exec "$(gw_cns 1)" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
[ "$got" = "$want" ] || gw_fail "client 1 (1-worker fallback): sha256 mismatch"
gw_stop_client 1
gw_stop_server
sed -i 's/^workers 2$/workers auto/' "$GW_DIR/server.conf"

# more than one worker: accepted by the configuration check; not yet with cluster-etcd (refused at start,
# before any etcd request: none listens here)
sed -i 's/^workers auto$/workers 2/' "$GW_DIR/server.conf"
out=$("$BRAIDD" --test-config --config "$GW_DIR/server.conf" 2>&1) || gw_fail "--test-config refused 'workers 2': $out"
printf '%s\n' "cluster-etcd http://127.0.0.1:1" >>"$GW_DIR/server.conf"
out=$(ip netns exec "$GW_NS" timeout 10 "$BRAIDD" --config "$GW_DIR/server.conf" 2>&1) &&
	gw_fail "'workers 2' with cluster-etcd started"
grep -qF "workers 2: not yet with cluster-etcd" <<<"$out" || gw_fail "no 'workers 2' refusal in: $out"
echo "PASS: gw_workers_auto"
