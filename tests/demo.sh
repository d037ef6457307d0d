#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# README's main job. Until braidd carries traffic over several paths, this is the quick baseline benchmark:
# the four stock systems (OpenVPN UDP, OpenVPN TCP, OpenVPN over MPTCP, plain MPTCP) on the emulated 2-path bed,
# a few minutes, results printed as a table (and written to build/demo/quick.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j "$(nproc)"
mkdir -p build/demo
out=build/demo/quick-$(date +%Y%m%d-%H%M%S).jsonl
/usr/bin/python3 tests/bench/bench.py --grid quick --out "$out" "$@"
/usr/bin/python3 tests/bench/report.py --no-plots --md "${out%.jsonl}.md" "$out"
sed -n "/^| /p" "${out%.jsonl}.md"
