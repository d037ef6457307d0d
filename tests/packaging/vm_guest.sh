#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vm_guest.sh - the checks inside the Debian 12 VM of tests/packaging/vm_systemd.sh, run by
# braid-vmtest.service once systemd has booted (installed as /usr/local/sbin/braid-vmtest).
# The bed (braid-vmtest-net.service): the gateway braid-server@gw in the root namespace on 10.200.0.1 (lo),
# the client braid-client@br in the namespace "cli" (a drop-in sets NetworkNamespacePath=), two veth pairs
# s1-c1 (10.201.1.0/24) and s2-c2 (10.201.2.0/24), a default route per client interface: the client's
# `mp-path c1` / `mp-path c2` make two paths. Checked: both units active (systemctl start returns at
# READY=1), two active paths, the path lines in `journalctl -u braid-client@br`, a ping through the tunnel
# with 0 % loss, `systemctl reload` of the gateway and of the client with the session kept (one
# "Initialization Sequence Completed", same client id and peer id at the gateway, same main PID, a ping
# running across the reload, 0 % loss after it), both units active after the reloads; the status files
# written after the drop to `user braid` and no "Permission denied" in either journal.
# Results: ok:/FAIL: lines and the journals in /run/vmtest, written as a tar to /dev/vdb; then power off.
set -uo pipefail
O=/run/vmtest
mkdir -p "$O"
SRV=braid-server@gw
CLI=braid-client@br
SSOCK=/run/braid/server-gw/control.sock
CSOCK=/run/braid/client-br/control.sock
nfail=0
up() { cut -d' ' -f1 /proc/uptime; }
say() { printf '%s\n' "$*" >>"$O/result"; printf 'vmtest: %s\n' "$*"; }
ok() { say "ok: $*"; }
bad() { say "FAIL: $*"; nfail=$((nfail + 1)); }
stop() { bad "$*"; exit 1; }
finish() {
	journalctl -b --no-pager -o short-monotonic >"$O/journal.txt" 2>&1
	journalctl -u "$SRV" --no-pager -o short-monotonic >"$O/server.journal" 2>&1
	journalctl -u "$CLI" --no-pager -o short-monotonic >"$O/client.journal" 2>&1
	systemctl status --no-pager "$SRV" "$CLI" braid-vmtest-net >"$O/status.txt" 2>&1
	systemctl list-units --failed --no-pager >>"$O/status.txt" 2>&1
	systemd-analyze time >"$O/boot-time.txt" 2>&1
	systemd-analyze blame --no-pager 2>/dev/null | head -n 15 >>"$O/boot-time.txt"
	if [ "$nfail" -eq 0 ]; then say "result: PASS at uptime $(up) s"; else say "result: FAIL ($nfail) at uptime $(up) s"; fi
	tar -cf /dev/vdb -C "$O" . && sync
	systemctl poweroff -ff
}
trap finish EXIT
# wait_for SECONDS COMMAND...: until COMMAND succeeds (every 0.5 s)
wait_for() {
	local n=$(($1 * 2))
	shift
	while ((n-- > 0)); do
		"$@" && return 0
		sleep 0.5
	done
	return 1
}
active_is() { [ "$(systemctl is-active "$1")" = active ]; }
# the client's working paths (braidctl paths: one row per path, its state a column: up, or active before the
# management-interface braidctl)
active_paths() { braidctl -s "$CSOCK" paths 2>/dev/null | awk '$1 ~ /^[0-9]+$/ && / (up|active) / { n++ } END { print n + 0 }'; }
two_active() { [ "$(active_paths)" -ge 2 ]; }
# the gateway's client row for CN branch1 (client id, peer id ... as braidctl clients prints it)
client_row() { braidctl -s "$SSOCK" clients 2>/dev/null | grep -w branch1 | head -n 1; }
ping_loss() { sed -n 's/.* \([0-9.]*\)% packet loss.*/\1/p' "$1"; }
inits() { journalctl -u "$CLI" --no-pager -o cat | grep -c "Initialization Sequence Completed"; }

say "boot: the test driver started at uptime $(up) s"
active_is braid-vmtest-net.service || stop "braid-vmtest-net.service: $(systemctl is-active braid-vmtest-net.service)"
ip -n cli -br addr show c2 | grep -q 10.201.2.2 || stop "the client namespace has no c2 address"

t=$(up)
timeout 180 systemctl start "$SRV" || stop "systemctl start $SRV failed (rc $?)"
active_is "$SRV" || stop "$SRV: $(systemctl is-active "$SRV") after start"
ok "$SRV active (systemctl start returned at READY=1 after $(awk -v a="$(up)" -v b="$t" 'BEGIN{printf "%.1f", a-b}') s)"
t=$(up)
timeout 180 systemctl start "$CLI" || stop "systemctl start $CLI failed (rc $?)"
active_is "$CLI" || stop "$CLI: $(systemctl is-active "$CLI") after start"
ok "$CLI active (systemctl start returned at READY=1 after $(awk -v a="$(up)" -v b="$t" 'BEGIN{printf "%.1f", a-b}') s)"
braidctl -s "$CSOCK" paths >"$O/paths-before.txt" 2>&1
wait_for 60 two_active || bad "not 2 working client paths: $(braidctl -s "$CSOCK" paths 2>&1)"
braidctl -s "$CSOCK" paths >"$O/paths.txt" 2>&1
[ "$(active_paths)" -eq 2 ] && ok "2 working paths (braidctl paths)"

f0=$nfail
# the path lines in the client unit's journal: each path added and routed through its own interface
j=$(journalctl -u "$CLI" --no-pager -o cat)
for i in 1 2; do
	grep -qE "multipath: path .*10\.201\.$i\.2.* added" <<<"$j" || bad "journalctl -u $CLI: no 'path added' line for path $i (10.201.$i.2)"
	grep -qE "multipath: path .*10\.201\.$i\.2.*: route .*c$i" <<<"$j" || bad "journalctl -u $CLI: no route line for path $i via c$i"
done
systemctl kill -s SIGUSR2 --kill-who=main "$CLI"
wait_for 10 sh -c "[ \$(journalctl -u $CLI --no-pager -o cat | grep -c 'multipath: path [0-9] .*state=active') -ge 2 ]" ||
	bad "journalctl -u $CLI: not two 'multipath: path N ... state=active' lines after SIGUSR2"
journalctl -u "$CLI" --no-pager -o cat | grep 'multipath: path' >"$O/path-lines.txt"
[ "$nfail" -eq "$f0" ] && ok "journalctl -u $CLI shows the path lines: $(grep -c . "$O/path-lines.txt") lines, both paths added, routed by c1/c2 and active"

# a ping through the tunnel
ip netns exec cli ping -c 10 -i 0.2 -W 3 10.8.0.1 >"$O/ping1.txt" 2>&1
l=$(ping_loss "$O/ping1.txt")
[ "$l" = 0 ] && ok "ping through the tunnel: 0% loss ($(tail -n 1 "$O/ping1.txt"))" || bad "ping through the tunnel: ${l:-?}% loss: $(tail -n 2 "$O/ping1.txt")"

# systemctl reload of the gateway (verb and a push line changed) and then of the client: sessions kept
f0=$nfail
braidctl -s "$SSOCK" clients >"$O/clients-before.txt" 2>&1
row0=$(client_row)
[ -n "$row0" ] || bad "braidctl clients: no branch1 row: $(braidctl -s "$SSOCK" clients 2>&1)"
spid=$(systemctl show -p MainPID --value "$SRV") cpid=$(systemctl show -p MainPID --value "$CLI")
i0=$(inits)
sed -i 's/^verb 3$/verb 4/; s/dhcp-option DNS 10\.8\.0\.1/dhcp-option DNS 10.8.0.53/' /etc/braid/server/gw.conf
ip netns exec cli ping -c 30 -i 0.2 -W 3 10.8.0.1 >"$O/ping-reload.txt" 2>&1 &
pp=$!
sleep 1
t=$(up)
timeout 60 systemctl reload "$SRV" || bad "systemctl reload $SRV: rc $?"
wait_for 30 active_is "$SRV" || bad "$SRV: $(systemctl is-active "$SRV") after reload"
wait_for 20 sh -c "journalctl -u $SRV --no-pager -o cat | grep -q 'reload: done'" || bad "no 'reload: done' in journalctl -u $SRV"
journalctl -u "$SRV" --no-pager -o cat | grep -q "reload: verb 4" || bad "the gateway's reload did not apply verb 4"
[ "$nfail" -eq "$f0" ] && ok "systemctl reload $SRV: done in $(awk -v a="$(up)" -v b="$t" 'BEGIN{printf "%.1f", a-b}') s, $SRV $(systemctl is-active "$SRV"): $(journalctl -u "$SRV" --no-pager -o cat | grep 'reload: done' | tail -n 1)"
sed -i 's/^verb 3$/verb 4/' /etc/braid/client/br.conf
f1=$nfail t=$(up)
timeout 60 systemctl reload "$CLI" || bad "systemctl reload $CLI: rc $?"
wait_for 30 active_is "$CLI" || bad "$CLI: $(systemctl is-active "$CLI") after reload"
wait_for 20 sh -c "journalctl -u $CLI --no-pager -o cat | grep -q 'reload: done'" || bad "no 'reload: done' in journalctl -u $CLI"
[ "$nfail" -eq "$f1" ] && ok "systemctl reload $CLI: done in $(awk -v a="$(up)" -v b="$t" 'BEGIN{printf "%.1f", a-b}') s, $CLI $(systemctl is-active "$CLI"): $(journalctl -u "$CLI" --no-pager -o cat | grep 'reload: done' | tail -n 1)"
wait "$pp"
l=$(ping_loss "$O/ping-reload.txt")
[ -n "$l" ] && [ "${l%%.*}" -le 10 ] || bad "ping across the reloads: ${l:-?}% loss"
sleep 1
braidctl -s "$SSOCK" clients >"$O/clients-after.txt" 2>&1
row1=$(client_row)
# ID (the client id), CN, REAL, VIRTUAL and SINCE (date, time) stay; the byte counts move
key0=$(awk '{print $1, $2, $3, $4, $(NF-1), $NF}' <<<"$row0")
key1=$(awk '{print $1, $2, $3, $4, $(NF-1), $NF}' <<<"$row1")
[ "$key1" = "$key0" ] || bad "the gateway's client row changed across the reload: '$row0' -> '$row1'"
[ "$(journalctl -u "$SRV" --no-pager -o cat | grep -c 'branch1/.*: connected, peer-id')" = 1 ] ||
	bad "the gateway connected branch1 more than once: $(journalctl -u "$SRV" --no-pager -o cat | grep 'connected, peer-id')"
[ "$(inits)" = "$i0" ] && [ "$i0" = 1 ] || bad "client: $(inits) x 'Initialization Sequence Completed' (was $i0): a reconnect"
journalctl -u "$CLI" --no-pager -o cat | grep -q "state: RECONNECTING" && bad "the client restarted its session (state: RECONNECTING)"
[ "$(systemctl show -p MainPID --value "$SRV")" = "$spid" ] || bad "$SRV: main PID changed"
[ "$(systemctl show -p MainPID --value "$CLI")" = "$cpid" ] || bad "$CLI: main PID changed"
ip netns exec cli ping -c 5 -i 0.2 -W 3 10.8.0.1 >"$O/ping2.txt" 2>&1
l2=$(ping_loss "$O/ping2.txt")
[ "$l2" = 0 ] || bad "ping after the reloads: ${l2:-?}% loss"
wait_for 10 two_active || bad "not 2 working paths after the reloads"
for u in "$SRV" "$CLI"; do active_is "$u" || bad "$u: $(systemctl is-active "$u") at the end"; done

[ "$nfail" -eq "$f0" ] && ok "systemctl reload kept the session: 1 x Initialization Sequence Completed, gateway row '$key1' unchanged (one 'connected, peer-id' line), same main PIDs, ping ${l}% loss across the reloads and 0% after; both units active"

# after `user braid` the status files are still written (RuntimeDirectoryMode=0751), nothing was refused
f0=$nfail
for u in "$SRV" "$CLI"; do
	journalctl -u "$u" --no-pager -o cat | grep -i "permission denied\|operation not permitted" >"$O/denied.txt" &&
		bad "journalctl -u $u: $(head -n 3 "$O/denied.txt")"
done
[ -s /run/braid/server-gw/status.log ] && [ -s /run/braid/client-br/status.log ] ||
	bad "a status file is empty or missing: $(ls -l /run/braid/*/status.log 2>&1)"
[ "$nfail" -eq "$f0" ] && ok "status files written after the privilege drop, no 'Permission denied' in either journal"
exit 0
