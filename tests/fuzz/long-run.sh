#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# long-run.sh - one long fuzzing run of one harness, recorded (docs/fuzzing.md "Long runs").
#
#   long-run.sh HARNESS SECONDS [BUILD_DIR]       BUILD_DIR default: build-fuzz (a -DBRAID_FUZZ=ON build)
#
# Runs build/bin/fuzz_HARNESS at nice 19 on a temp copy of tests/fuzz/corpus/HARNESS/ until the fuzzer has
# used SECONDS of CPU time (sampled from /proc every 5 s; then SIGINT, libFuzzer prints its final stats),
# merges the run's corpus back into the committed one with -merge=1 (cut to stay under ~300 KB), and
# appends one JSON line to docs/fuzz/long-runs.jsonl: harness, date, cpu_s, wall_s, execs, cov (edges,
# from the last status line), ft, corpus files and bytes after the merge, since_new_s (CPU seconds since
# the last NEW input), crashes.
# Crash inputs stay in BUILD_DIR/fuzz-artifacts/HARNESS/ (make each one a regression: README.md).
# One at a time; never while a benchmark runs. Exit 1 if the run found a crash.
set -uo pipefail
h=$1 secs=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "${3:-$repo/build-fuzz}" && pwd)
bin=$build/bin/fuzz_$h
[ -x "$bin" ] || { echo "no $bin"; exit 2; }
tmp=$(mktemp -d "/tmp/braid-longfuzz-$h.XXXXXX")
pid=
cleanup() { [ -n "$pid" ] && kill -INT "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$tmp/corpus" "$tmp/art" "$tmp/merged"
cp -r "$here/corpus/$h/." "$tmp/corpus/" 2>/dev/null
tck=$(getconf CLK_TCK)
start=$(date +%s)
(cd "$tmp" && ASAN_OPTIONS=detect_leaks=1 exec nice -n 19 "$bin" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$tmp/art/" "$tmp/corpus" </dev/null >"$tmp/log" 2>&1) &
pid=$!
cpu=0 last_new_cpu=0 n_new=0
while kill -0 "$pid" 2>/dev/null; do
	sleep 5
	# the fuzzer is the subshell's child (exec'd: same pid)
	st=$(cat "/proc/$pid/stat" 2>/dev/null) || break
	set -- ${st#*) }
	cpu=$(((${12} + ${13}) / tck))
	n=$(grep -cE '^#[0-9]+[[:space:]]+NEW[[:space:]]' "$tmp/log")
	if [ "$n" != "$n_new" ]; then n_new=$n last_new_cpu=$cpu; fi
	[ "$cpu" -ge "$secs" ] && kill -INT "$pid" && break
done
wait "$pid" 2>/dev/null
pid=
wall=$(($(date +%s) - start))
last=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$tmp/log" | tail -n1)
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/log" | tail -n1)
[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
# slow-unit-* are inputs that took over 10 s of wall clock once (a loaded host at nice 19), not findings
slow=$(find "$tmp/art" -name 'slow-unit-*' | wc -l)
crashes=$(find "$tmp/art" -type f ! -name 'slow-unit-*' | wc -l)
[ "$slow" -gt 0 ] && echo "long-run $h: $slow slow unit(s) (wall clock, not findings): $(ls "$tmp/art")"
if [ "$crashes" -gt 0 ]; then
	mkdir -p "$build/fuzz-artifacts/$h" && cp "$tmp/art"/* "$build/fuzz-artifacts/$h/"
	grep -E 'ERROR|SUMMARY|invariant|#[0-9]+ 0x' "$tmp/log" | head -30
	echo "long-run $h: $crashes crash input(s) in $build/fuzz-artifacts/$h"
fi
# merge back: the committed corpus keeps only inputs that add coverage
"$bin" -merge=1 "$tmp/merged" "$here/corpus/$h" "$tmp/corpus" </dev/null >"$tmp/merge.log" 2>&1 ||
	{ tail -5 "$tmp/merge.log"; echo "merge failed"; exit 1; }
# keep the committed corpus small (a few hundred KB): above 300 KB, merge again with inputs cut to 2048,
# then 1024 bytes (libFuzzer writes the cut inputs)
for ml in 2048 1024; do
	[ "$(cat "$tmp/merged"/* 2>/dev/null | wc -c)" -le 300000 ] && break
	rm -rf "$tmp/cut" && mkdir "$tmp/cut"
	"$bin" -merge=1 -max_len=$ml "$tmp/cut" "$tmp/merged" </dev/null >>"$tmp/merge.log" 2>&1 || break
	rm -rf "$tmp/merged" && mv "$tmp/cut" "$tmp/merged"
done
rm -f "$here/corpus/$h"/*
cp "$tmp/merged"/* "$here/corpus/$h/" 2>/dev/null
files=$(ls "$here/corpus/$h" | wc -l)
bytes=$(cat "$here/corpus/$h"/* 2>/dev/null | wc -c)
mkdir -p "$repo/docs/fuzz"
printf '{"harness":"%s","date":"%s","cpu_s":%d,"wall_s":%d,"execs":%s,"cov":%s,"ft":%s,"corpus_files":%d,"corpus_bytes":%d,"since_new_s":%d,"crashes":%d}\n' \
	"$h" "$(date -u +%FT%TZ)" "$cpu" "$wall" "${execs:-0}" "${cov:-0}" "${ft:-0}" "$files" "$bytes" \
	$((cpu - last_new_cpu)) "$crashes" | tee -a "$repo/docs/fuzz/long-runs.jsonl"
[ "$crashes" -eq 0 ]
