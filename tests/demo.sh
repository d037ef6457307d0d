#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# README's main job: install, build, then the live multipath demo (tests/demo/multipath.sh): a braidd TLS client
# with two paths by interface against a braidd gateway (multipath on) on the emulated two-link bed, a download
# through the tunnel with the client's `braidctl status` table redrawn in place, one path cut and restored, an
# address change on the other, and a verdict line (goodput vs the best single path, longest outage, sha256).
#   bash tests/demo.sh            the live multipath demo (about a minute)
#   bash tests/demo.sh bench      the quick baseline benchmark instead (stock systems + braid, a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j "$(nproc)"
export BRAID_BIN_DIR=$PWD/build/bin
case ${1:-demo} in
demo) exec bash tests/demo/multipath.sh ;;
bench)
	mkdir -p build/demo
	out=build/demo/quick-$(date +%Y%m%d-%H%M%S).jsonl
	/usr/bin/python3 tests/bench/bench.py --grid quick --out "$out"
	/usr/bin/python3 tests/bench/report.py --no-plots --md "${out%.jsonl}.md" "$out"
	sed -n "/^| /p" "${out%.jsonl}.md"
	;;
*) echo "demo.sh: unknown mode '$1' (demo or bench)" >&2; exit 2 ;;
esac
