#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The CI short run of one harness (ctest label fuzz): replay tests/fuzz/regressions/NAME/ (every crash
# found so far), then fuzz a temp copy of tests/fuzz/corpus/NAME/ for SECONDS. Nothing is written into
# the repository; a crash input is copied to $BRAID_FUZZ_ARTIFACTS (default: the build's fuzz-artifacts/).
# usage: short-run.sh BINARY NAME SECONDS    (env BRAID_FUZZ_SECONDS overrides SECONDS)
set -euo pipefail
bin=$(readlink -f "$1") name=$2 secs=${BRAID_FUZZ_SECONDS:-$3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "/tmp/braid-fuzz-$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus" "$tmp/art"
[ -d "$here/corpus/$name" ] && cp -r "$here/corpus/$name/." "$tmp/corpus/"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:abort_on_error=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}:halt_on_error=1
if [ -d "$here/regressions/$name" ] && [ -n "$(ls -A "$here/regressions/$name")" ]; then
	echo "== $name: replaying $(ls "$here/regressions/$name" | wc -l) regression inputs"
	"$bin" "$here/regressions/$name"/* </dev/null
fi
echo "== $name: fuzzing for ${secs}s from $(ls "$tmp/corpus" | wc -l) corpus files"
rc=0
(cd "$tmp" && "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$tmp/art/" "$tmp/corpus" </dev/null 2>&1) | tail -n 40 || rc=$?
if [ -n "$(ls -A "$tmp/art")" ]; then
	dest=${BRAID_FUZZ_ARTIFACTS:-$(dirname "$bin")/../fuzz-artifacts/$name}
	mkdir -p "$dest" && cp "$tmp/art"/* "$dest/"
	echo "== $name: crash inputs kept in $dest:"; ls -l "$dest"
	exit 1
fi
exit $rc
