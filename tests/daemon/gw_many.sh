#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# gw_many.sh - GW_MANY (default 24) stock OpenVPN 2.6 clients (`--dev null`, one namespace, each
# its own source port, duplicate-cn with one certificate) connect to one braidd gateway at the
# same time: every one gets a distinct address 10.8.0.2.. and peer-id 0..N-1, the status file
# lists N clients, keepalive pings flow; with explicit-exit-notify they all leave and the
# status file is empty again, every pool entry free (the next client gets 10.8.0.2).
source "$(dirname "$0")/gw_lib.sh"
gw_require
N=${GW_MANY:-24}
gw_setup 1
C1=$(gw_cns 1)
gw_server_conf "tls-crypt $GW_DIR/tc.key" "duplicate-cn" "keepalive 1 10"
sed -i 's/^keepalive 10 60$//' "$GW_DIR/server.conf"
gw_start_server
gw_client_conf 1 "tls-crypt $GW_DIR/tc.key" "explicit-exit-notify 1"
sed -i 's/^dev tun$/dev null/' "$GW_DIR/c1.conf"
pids=()
t0=$(date +%s%N)
for ((i = 1; i <= N; i++)); do
	ip netns exec "$C1" openvpn --cd "$GW_DIR" --config "$GW_DIR/c1.conf" --ifconfig-noexec \
		--route-noexec --log "$GW_DIR/m$i.log" &
	pids+=("$!")
	GW_PIDS+=("$!")
done
for ((i = 1; i <= N; i++)); do
	gw_wait "$GW_DIR/m$i.log" "Initialization Sequence Completed" 30 || gw_fail "client $i of $N did not connect"
done
t1=$(date +%s%N)
echo "ok: $N clients connected in $(((t1 - t0) / 1000000)) ms"
# the status file is rewritten every second: wait (up to 10 s on a loaded host) for a rewrite listing them all
for ((i = 0; i < 100; i++)); do
	[ "$(grep -c '^CLIENT_LIST,client1,' "$GW_DIR/status.txt" 2>/dev/null)" = "$N" ] && break
	sleep 0.1
done
[ "$(grep -c '^CLIENT_LIST,client1,' "$GW_DIR/status.txt")" = "$N" ] ||
	gw_fail "status file lists $(grep -c '^CLIENT_LIST,' "$GW_DIR/status.txt") clients, want $N"
addrs=$(grep '^CLIENT_LIST,' "$GW_DIR/status.txt" | cut -d, -f4 | sort -t. -k4 -n | tr '\n' ' ')
want=$(for ((i = 2; i <= N + 1; i++)); do printf '10.8.0.%d ' "$i"; done)
[ "$addrs" = "$want" ] || gw_fail "addresses: $addrs"
pids_seen=$(grep '^CLIENT_LIST,' "$GW_DIR/status.txt" | cut -d, -f12 | sort -n | tr '\n' ' ')
# worker w (of gw_workers, 1: all peer-ids are worker 0's) fills its slots w, w+W, w+2W … from the
# lowest: its peer-ids must be exactly the first of them (with one worker: 0 .. N-1)
nw=$(gw_workers)
bad=$(for p in $pids_seen; do echo "$p"; done | awk -v w="$nw" '{ k = $1 % w; c[k]++; if ($1 != k + (c[k] - 1) * w) bad = bad " " $1 }
	END { print bad; }')
[ "$(echo $pids_seen | wc -w)" = "$N" ] && [ -z "$bad" ] || gw_fail "peer-ids: $pids_seen (out of place:$bad)"
s=$(gw_stats)
[[ "$s" == *"clients $N, sessions created $N,"* ]] || gw_fail "stats: $s"
echo "ok: $N distinct addresses and peer-ids in the status file"
for p in "${pids[@]}"; do kill "$p"; done
for ((i = 0; i < 60; i++)); do
	[ "$(grep -c 'explicit exit notification' "$GW_DIR/server.log")" -ge "$N" ] && break
	sleep 0.1
done
[ "$(grep -c 'explicit exit notification (control EXIT)' "$GW_DIR/server.log")" = "$N" ] ||
	gw_fail "only $(grep -c 'explicit exit notification' "$GW_DIR/server.log") of $N clients removed on exit"
for ((i = 0; i < 100; i++)); do
	grep -q '^CLIENT_LIST,' "$GW_DIR/status.txt" || break
	sleep 0.1
done
grep -q '^CLIENT_LIST,' "$GW_DIR/status.txt" && gw_fail "status file not empty after all clients left"
s=$(gw_stats)
[[ "$s" == *"clients 0, sessions created $N, live control sessions 0,"* ]] || gw_fail "stats after exit: $s"
ip netns exec "$C1" openvpn --cd "$GW_DIR" --config "$GW_DIR/c1.conf" --ifconfig-noexec \
	--route-noexec --log "$GW_DIR/last.log" &
GW_PIDS+=("$!")
gw_wait "$GW_DIR/last.log" "Initialization Sequence Completed" 15 || gw_fail "a new client after the others"
pl=$(gw_peer_id 1)	# 0 with one worker, the first slot of its worker with more
gw_pid_ok "$pl" 0 || gw_fail "a new client after the others: peer-id '$pl'"
grep -qF "ifconfig 10.8.0.2 255.255.255.0,peer-id $pl," "$GW_DIR/last.log" || gw_fail "pool/peer-id not free again"
echo "PASS: gw_many"
