# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# etcd_lib.sh - a real etcd (Debian's etcd-server) for the cluster tests, in a network namespace of the test's.
#
# etcd_start NS DIR LISTEN ADVERTISE   start etcd in NS (data in DIR/etcd, log DIR/etcd.log) listening for clients
#                                      on LISTEN (e.g. http://0.0.0.0:2379), wait until it answers (10 s);
#                                      ETCD_NS=NS, ETCD_PID=its pid; 1 if it did not come up
# etcd_get KEY / etcd_put KEY VALUE / etcd_del KEY    through its JSON gateway on 127.0.0.1:2379 in ETCD_NS
ETCD_NS=
ETCD_PID=

etcd_start() {
	local ns=$1 dir=$2 listen=$3 adv=$4 i
	ETCD_NS=$ns
	ip netns exec "$ns" etcd --name braidtest --data-dir "$dir/etcd" --listen-client-urls "$listen" \
		--advertise-client-urls "$adv" --listen-peer-urls http://127.0.0.1:2380 \
		--initial-advertise-peer-urls http://127.0.0.1:2380 \
		--initial-cluster braidtest=http://127.0.0.1:2380 >"$dir/etcd.log" 2>&1 &
	ETCD_PID=$!
	for ((i = 0; i < 100; i++)); do
		ip netns exec "$ns" curl -sf --max-time 1 -X POST http://127.0.0.1:2379/v3/maintenance/status \
			-d '{}' >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

etcd_get() { # KEY -> value (empty if absent)
	local k
	k=$(printf %s "$1" | base64 -w0)
	ip netns exec "$ETCD_NS" curl -s --max-time 2 -X POST http://127.0.0.1:2379/v3/kv/range \
		-d "{\"key\":\"$k\"}" | jq -r '.kvs[0].value // empty' | base64 -d
}

etcd_put() { # KEY VALUE
	ip netns exec "$ETCD_NS" curl -sf --max-time 2 -X POST http://127.0.0.1:2379/v3/kv/put \
		-d "{\"key\":\"$(printf %s "$1" | base64 -w0)\",\"value\":\"$(printf %s "$2" | base64 -w0)\"}" >/dev/null
}

etcd_del() { # KEY
	ip netns exec "$ETCD_NS" curl -sf --max-time 2 -X POST http://127.0.0.1:2379/v3/kv/deleterange \
		-d "{\"key\":\"$(printf %s "$1" | base64 -w0)\"}" >/dev/null
}
