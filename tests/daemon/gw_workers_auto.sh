#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_workers_auto.sh - `workers auto` on a gateway (issue 16; docs/braidd.md, docs/scaling.md "Workers"):
# auto, and a configuration without a `workers` line, run one worker per online core and say so in one log
# line with the core count; two stock OpenVPN 2.6 clients connect, each downloads 2 MiB through it (sha256
# checked), the status file lists each once; `workers 2` without CAP_BPF falls back to one worker with one log
# line and still serves; `braidd --test-config` accepts `workers 2`; with cluster-etcd the gateway is not
# refused nor held to one worker for it (`workers 2` and auto go on to ask etcd, which does not listen here;
# daemon.cluster_etcd runs clustered gateways with 2 workers); with proto tcp-server and no `workers` line the
# gateway runs one worker and names why (daemon.gw_workers runs 2 workers).
unset GW_TEST_WORKERS	# it sets `workers` itself
source "$(dirname "$0")/gw_lib.sh"
gw_require
gw_setup 2

gw_serve_blob 2097152
want=$GW_WANT

cores=$(getconf _NPROCESSORS_ONLN)
nw=$((cores > 64 ? 64 : cores))
if [ "$cores" = 1 ]; then auto_line="workers auto: 1 core, 1 worker"
else auto_line="workers auto: $cores cores, $nw worker$([ "$nw" = 1 ] || echo s)"; fi
# auto_check: the gateway logged the auto line once and runs $nw workers
auto_check() {
	[ "$(grep -cF "$auto_line" "$GW_DIR/server.log")" = 1 ] ||
		gw_fail "not one '$auto_line' line in the gateway's log: $(grep -F 'workers' "$GW_DIR/server.log")"
	[ "$(gw_workers)" = "$nw" ] || gw_fail "$(gw_workers) worker(s) running, want $nw"
}
# one_download WHAT: client 1 connects, downloads 2 MiB (sha256), client and gateway stop
one_download() {
	gw_start_client 1
	gw_wait "$GW_DIR/c1.log" "Initialization Sequence Completed" 20 || gw_fail "client 1 did not connect ($1)"
	got=$(ip netns exec "$(gw_cns 1)" curl -s --max-time 20 http://10.8.0.1:8080/blob | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || gw_fail "client 1 ($1): sha256 mismatch"
	gw_stop_client 1
	gw_stop_server
}
# no `workers` line: auto
gw_server_conf
gw_start_server
auto_check
gw_stop_server
gw_server_conf "workers auto"
gw_start_server
auto_check
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
one_download "1-worker fallback"
sed -i 's/^workers 2$/workers auto/' "$GW_DIR/server.conf"

# more than one worker: accepted by the configuration check; with cluster-etcd too (refused neither for the
# worker count nor held to one worker: the gateway goes on to ask etcd for its lease, and none listens here)
sed -i 's/^workers auto$/workers 2/' "$GW_DIR/server.conf"
out=$("$BRAIDD" --test-config --config "$GW_DIR/server.conf" 2>&1) || gw_fail "--test-config refused 'workers 2': $out"
printf '%s\n' "cluster-etcd http://127.0.0.1:1" >>"$GW_DIR/server.conf"
out=$(ip netns exec "$GW_NS" timeout 10 "$BRAIDD" --config "$GW_DIR/server.conf" 2>&1) &&
	gw_fail "a gateway started without its etcd store"
grep -qF "cluster: cannot get a lease from etcd at http://127.0.0.1:1: Connection refused" <<<"$out" ||
	gw_fail "'workers 2' with cluster-etcd did not reach etcd: $out"
grep -qF "not yet with cluster-etcd" <<<"$out" && gw_fail "'workers 2' with cluster-etcd refused: $out"
# without a `workers` line cluster-etcd runs one worker per core like any other gateway
sed -i '/^workers 2$/d' "$GW_DIR/server.conf"
out=$(ip netns exec "$GW_NS" timeout 10 "$BRAIDD" --config "$GW_DIR/server.conf" 2>&1) &&
	gw_fail "a gateway started without its etcd store (auto)"
grep -qF "$auto_line" <<<"$out" || gw_fail "no '$auto_line' line with cluster-etcd in: $out"
grep -qF "runs on one worker" <<<"$out" && gw_fail "cluster-etcd held to one worker: $out"
grep -qF "cluster: cannot get a lease from etcd at http://127.0.0.1:1: Connection refused" <<<"$out" ||
	gw_fail "cluster-etcd (auto) did not reach etcd: $out"
# proto tcp-server without a `workers` line: one worker, said why; a client connects over TCP
gw_server_conf "proto tcp-server"
gw_start_server
if [ "$cores" -gt 1 ]; then
	grep -qF "workers auto: $cores cores, 1 worker: proto tcp-server runs on one worker" "$GW_DIR/server.log" ||
		gw_fail "no tcp-server one-worker line: $(grep -F 'workers' "$GW_DIR/server.log")"
fi
[ "$(gw_workers)" = 1 ] || gw_fail "proto tcp-server runs $(gw_workers) workers"
gw_client_conf 1 "proto tcp-client"
one_download "tcp-server, one worker"
echo "PASS: gw_workers_auto"
