# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# MPTCP helpers shared by the mptcp and ovpn-mptcp systems (testbed.md §4 variant A: the in-kernel path manager
# on cli and srv, srv announces 10.I.2.2 (I >= 2) as `signal` endpoints, the client opens the extra subflow from
# 10.I.1.2, which its source policy routing keeps on path I).

# mptcp_setup: path manager + an `ip mptcp monitor` on the client that logs every subflow event of the run
# (short transfers finish between two ss samples; the monitor sees every join).
mptcp_setup() {
	tb_mptcp_setup || { echo "MPTCP setup failed (net.mptcp.enabled / ip mptcp)" >&2; return 1; }
	tb_bg "$TB_CLI" ip mptcp monitor >"$TB_DIR/mptcp-monitor.log" 2>&1
	sleep 0.2 # let the monitor subscribe before the first connection
}

# mptcp_sample: called by run-cell.sh every 0.5 s during the transfer; appends "<max subflows of one connection>
# <established TCP subflows leaving from path 2's client address>".
mptcp_sample() {
	local sf p2
	sf=$(tb_exec "$TB_CLI" ss -Mni 2>/dev/null | grep -o 'subflows:[0-9]*' | cut -d: -f2 | sort -n | tail -1)
	p2=$(tb_exec "$TB_CLI" ss -tnH state established src "$(tb_cli_addr 2)" 2>/dev/null | wc -l)
	echo "${sf:-0} ${p2:-0}" >>"$TB_DIR/mptcp-samples"
}

# mptcp_info: JSON members for run-cell.sh. mptcp_subflows: subflows of one connection (initial + joined, maximum
# seen by the ss samples); path2_subflows: established subflows from path 2's client address (maximum seen by the
# samples); path2_joins: SF_ESTABLISHED events from that address logged by `ip mptcp monitor` over the whole run
# (tunnel setup included); mptcp_connections: ESTABLISHED events (MPTCP connections opened by the client).
mptcp_info() {
	local f=$TB_DIR/mptcp-samples m=$TB_DIR/mptcp-monitor.log sf=0 p2=0 a b joins conns
	joins=$(grep -c "SF_ESTABLISHED.*saddr4=$(tb_cli_addr 2) " "$m" 2>/dev/null)
	conns=$(grep -c "^\[ *ESTABLISHED\]" "$m" 2>/dev/null)
	if [ -s "$f" ]; then
		while read -r a b; do
			[ "$a" -gt "$sf" ] && sf=$a
			[ "$b" -gt "$p2" ] && p2=$b
		done <"$f"
		echo -n "\"mptcp_subflows\": $((sf + 1)), \"path2_subflows\": $p2, \"mptcp_samples\": $(wc -l <"$f"), "
	else
		echo -n "\"mptcp_subflows\": null, \"path2_subflows\": null, \"mptcp_samples\": 0, "
	fi
	echo "\"path2_joins\": ${joins:-0}, \"mptcp_connections\": ${conns:-0}"
}
