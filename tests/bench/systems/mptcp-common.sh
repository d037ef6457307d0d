# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# MPTCP helpers shared by the mptcp and ovpn-mptcp systems (testbed.md §4 variant A: the in-kernel path manager
# on cli and srv, srv announces 10.I.2.2 (I >= 2) as `signal` endpoints, the client opens the extra subflow from
# 10.I.1.2, which its source policy routing keeps on path I).

# mptcp_sample: called by run-cell.sh every 0.5 s during the transfer; appends "<max subflows of one connection>
# <established TCP subflows leaving from path 2's client address>".
mptcp_sample() {
	local sf p2
	sf=$(tb_exec "$TB_CLI" ss -Mni 2>/dev/null | grep -o 'subflows:[0-9]*' | cut -d: -f2 | sort -n | tail -1)
	p2=$(tb_exec "$TB_CLI" ss -tnH state established src "$(tb_cli_addr 2)" 2>/dev/null | wc -l)
	echo "${sf:-0} ${p2:-0}" >>"$TB_DIR/mptcp-samples"
}

# mptcp_info: JSON members for run-cell.sh: subflows per connection (the initial one + joined ones, maximum
# seen) and the number of established subflows on path 2 (maximum seen).
mptcp_info() {
	local f=$TB_DIR/mptcp-samples sf=0 p2=0 a b
	if [ -s "$f" ]; then
		while read -r a b; do
			[ "$a" -gt "$sf" ] && sf=$a
			[ "$b" -gt "$p2" ] && p2=$b
		done <"$f"
		echo "\"mptcp_subflows\": $((sf + 1)), \"path2_subflows\": $p2, \"mptcp_samples\": $(wc -l <"$f")"
	else
		echo "\"mptcp_subflows\": null, \"path2_subflows\": null, \"mptcp_samples\": 0"
	fi
}
