#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# unshaped.sh - data-plane throughput on the unshaped bed (raw veths, no emulator): braid's multipath data plane on
# 1 and on 2 paths, braidd's single-path mode and stock OpenVPN 2.6 over UDP, interleaved in the same run, with
# iperf3 (1 and 4 flows, download direction) and an http download. One run-cell.sh per (repetition, workload,
# variant), each gated with tb_quiet; the JSON lines (plus "variant", "braidd" and "git") are appended to OUT, and a
# table of medians with the ratio to ovpn-udp of the same run is printed at the end.
#
#   unshaped.sh [options]
#     --reps N            repetitions (default 3)
#     --secs N            iperf duration (default 5)
#     --size MB           http file size (default 8)
#     --workloads LIST    comma-separated, of iperf1,iperf4,http (default all three)
#     --variants LIST     comma-separated, of ovpn-udp,braid-sp,braid-mp1,braid-mp2,gw-stock,gw-braid
#                         (default the first four)
#     --gate BUSY:TIMEOUT tb_quiet gate passed to run-cell.sh (default 25:30); --no-gate skips it
#     --out FILE          JSON lines appended here (default docs/bench/unshaped.jsonl); --out - : stdout only
#     --label TEXT        copied into every line as "label" (e.g. "before", "after")
#
# Variants: braid-mp1 / braid-mp2 = system braid (multipath on, mp-path lines) with --paths 1 / 2; braid-sp = the same
# two braidd peers with the mp-path lines turned into single-path `local`/`remote` lines by a small wrapper around
# braidd (BRAIDD), so that braid.sh starts them unchanged. BRAIDD (default $BRAID_BIN_DIR/braidd) picks the binary.
# gw-stock / gw-braid = ovpn-udp's configuration (TLS, tls-crypt, AES-256-GCM, UDP) with braidd as the server (the
# gateway, one session), and a stock client / a braidd client (single path: no multipath asked for).
# Needs root (network namespaces), like run-cell.sh.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$BENCH_DIR/../.." && pwd)
PY=/usr/bin/python3

usage() {
	sed -n '9,19p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
bad() {
	echo "unshaped.sh: $*" >&2
	exit 2
}

REPS=3 SECS=5 SIZE=8 WORKLOADS=iperf1,iperf4,http VARIANTS=ovpn-udp,braid-sp,braid-mp1,braid-mp2 GATE=(--gate 25:30)
OUT=$REPO/docs/bench/unshaped.jsonl LABEL=
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=$2; shift 2 ;;
	--secs) SECS=$2; shift 2 ;;
	--size) SIZE=$2; shift 2 ;;
	--workloads) WORKLOADS=$2; shift 2 ;;
	--variants) VARIANTS=$2; shift 2 ;;
	--gate) GATE=(--gate "$2"); shift 2 ;;
	--no-gate) GATE=(--no-gate); shift ;;
	--out) OUT=$2; shift 2 ;;
	--label) LABEL=$2; shift 2 ;;
	-h | --help) usage ;;
	*) bad "unknown option '$1' (see --help)" ;;
	esac
done
[[ $REPS =~ ^[1-9][0-9]*$ ]] || bad "--reps must be a positive integer, got '$REPS'"
[[ $SECS =~ ^[1-9][0-9]*$ ]] || bad "--secs must be a positive integer, got '$SECS'"
[[ $SIZE =~ ^[0-9]+([.][0-9]+)?$ ]] || bad "--size must be a number of MiB, got '$SIZE'"
IFS=, read -r -a WL <<<"$WORKLOADS"
IFS=, read -r -a VR <<<"$VARIANTS"
for w in "${WL[@]}"; do case $w in iperf1 | iperf4 | http) ;; *) bad "unknown workload '$w'" ;; esac; done
for v in "${VR[@]}"; do
	case $v in ovpn-udp | braid-sp | braid-mp1 | braid-mp2 | gw-stock | gw-braid) ;;
	*) bad "unknown variant '$v'" ;; esac
done
[ "$(id -u)" = 0 ] || { echo "unshaped.sh: needs root (network namespaces)" >&2; exit 77; }

export BRAID_BIN_DIR=${BRAID_BIN_DIR:-$REPO/build/bin}
BIN=${BRAIDD:-$BRAID_BIN_DIR/braidd}
[ -x "$BIN" ] || bad "braidd not built at $BIN (set BRAID_BIN_DIR or BRAIDD)"
GIT=$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null)$(git -C "$REPO" diff --quiet HEAD -- daemon 2>/dev/null || echo "+dirty")

TMP=$(mktemp -d /tmp/unshaped.XXXXXX) || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM HUP
# the single-path wrapper: the config braid.sh wrote, mp-path lines turned into local/remote, mp-* lines dropped
cat >"$TMP/braidd-sp" <<EOF
#!/bin/bash
args=("\$@")
for ((i = 0; i < \${#args[@]}; i++)); do
	if [ "\${args[i]}" = --config ]; then
		c=\${args[i + 1]}
		awk '\$1 == "mp-path" && NF == 2 { print "local " \$2; next }
		     \$1 == "mp-path" && NF >= 3 { print "remote " \$3 " " (NF >= 4 ? \$4 : 1194); next }
		     \$1 ~ /^mp-/ { next } { print }' "\$c" >"\$c.sp" || exit 1
		args[i + 1]=\$c.sp
	fi
done
exec "$BIN" "\${args[@]}"
EOF
chmod +x "$TMP/braidd-sp"

add_fields() { # $1 variant: the run-cell line on stdin, extra members added
	jq -c --arg v "$1" --arg b "$2" --arg g "$GIT" --arg l "$LABEL" \
		'. + {variant: $v, braidd: $b, git: $g} + (if $l != "" then {label: $l} else {} end)'
}

ALL=$TMP/all.jsonl
: >"$ALL"
for ((r = 1; r <= REPS; r++)); do
	for w in "${WL[@]}"; do
		for v in "${VR[@]}"; do
			args=(-w "$w" --unshaped --secs "$SECS" --size "$SIZE" --scenario "unshaped-$v" --run "$r" "${GATE[@]}")
			env=()
			case $v in
			ovpn-udp) args+=(-s ovpn-udp --paths 1) ;;
			braid-mp1) args+=(-s braid --paths 1) ;;
			braid-mp2) args+=(-s braid --paths 2) ;;
			braid-sp) args+=(-s braid --paths 1); env=(BRAIDD="$TMP/braidd-sp") ;;
			gw-stock) args+=(-s ovpn-udp --paths 1); env=(OVPN_SERVER_BIN="$BIN") ;;
			gw-braid) args+=(-s ovpn-udp --paths 1); env=(OVPN_SERVER_BIN="$BIN" OVPN_CLIENT_BIN="$BIN") ;;
			esac
			line=$(env "${env[@]}" "$BENCH_DIR/run-cell.sh" "${args[@]}" 2>"$TMP/err")
			[ -n "$line" ] || { echo "unshaped.sh: $v/$w run $r printed no result: $(tail -c 300 "$TMP/err")" >&2; continue; }
			line=$(add_fields "$v" "$BIN" <<<"$line")
			echo "$line" >>"$ALL"
			[ "$OUT" = - ] || echo "$line" >>"$OUT"
			jq -r '"\(.variant)\t\(.workload)\trun \(.run)\t\(.goodput_mbps // "FAIL") Mbit/s\tcpu \(.cpu)\tgated \(.gated)\t\(.error)"' \
				<<<"$line" >&2
		done
	done
done

"$PY" - "$ALL" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
med = {}
for r in rows:
    if r.get('ok'):
        med.setdefault((r['workload'], r['variant']), []).append(r['goodput_mbps'])
print(f"{'workload':8} {'variant':10} {'n':>2} {'median Mbit/s':>14} {'min':>8} {'max':>8} {'x ovpn-udp':>10}")
for (w, v), g in sorted(med.items()):
    m = statistics.median(g)
    base = med.get((w, 'ovpn-udp'))
    ratio = f"{m / statistics.median(base):.2f}" if base else '-'
    print(f"{w:8} {v:10} {len(g):2d} {m:14.1f} {min(g):8.1f} {max(g):8.1f} {ratio:>10}")
failed = [r for r in rows if not r.get('ok')]
for r in failed:
    print(f"FAILED {r['variant']} {r['workload']} run {r['run']}: {r.get('error')}")
sys.exit(1 if failed else 0)
EOF
