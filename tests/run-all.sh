#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The whole test suite, from a fresh Debian 12 machine as root: install dependencies, build twice (release and
# ASan+UBSan), run every ctest entry in both builds, except the soak test (label soak: ASan+UBSan build only),
# the GUI (built and tested, label gui, in the ASan+UBSan build only) and the package tests (label pkg:
# release build only; pkg.install builds the .deb itself, pkg.vm_systemd boots it in a Debian 12 VM with systemd)
# and the VM tests (label vm: braid_dco.ko in a QEMU/TCG VM; release build only).
# Benchmarks (label bench) are not part of it.
# Third stage: the libFuzzer harnesses (tests/fuzz/, clang) built in build-ci-fuzz, each fuzzed 20-30 s (ctest -L fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
# the PyPI management libraries daemon.mgmt_pylibs drives (pip, into their own directory)
bash tests/daemon/mgmt_pylibs_install.sh >/dev/null || echo "run-all: the PyPI libraries did not install (daemon.mgmt_pylibs tries again)" >&2
jobs=$(nproc)
rc=0
# A test that failed is run once more, alone: the run still fails if it fails again (or if more than 3
# failed); if it passes, it is named on a FLAKY line (and in $dir/flaky.txt) and the run goes on. Of ~230
# network tests run two at a time on a 2-core host, one has failed once per full run where it passes alone;
# each such failure is still a bug to find (its output, printed above, stays in the log).
rerun_failed() {
	local dir=$1 failed
	failed=$(cut -d: -f2 "$dir/Testing/Temporary/LastTestsFailed.log" 2>/dev/null | tr '\n' ' ')
	[ -n "$failed" ] && [ "$(wc -w <<<"$failed")" -le 3 ] || return 1
	echo "=== $dir: running the failed tests once more, one at a time: $failed"
	(cd "$dir" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure --rerun-failed -j 1) || return 1
	echo "FLAKY (failed, then passed alone): $failed" | tee "$dir/flaky.txt"
}
for variant in release asan; do
	dir=build-ci-$variant
	extra=()
	[ $variant = asan ] && extra=(-DBRAID_SANITIZE=ON)
	[ $variant = release ] && extra=(-DBRAID_GUI=OFF)	# the GUI once: in the sanitizer build
	# the soak test runs once, in the sanitizer build (it also catches leaks there)
	skip='bench|soak|gui'
	[ $variant = asan ] && skip='bench|pkg|vm'	# VM tests (label vm: the kernel module under QEMU) once, in release
	echo "=== $variant: configure + build ($dir)"
	cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}" >/dev/null
	cmake --build "$dir" -j "$jobs"
	echo "=== $variant: ctest"
	# netns tests take the namespaces' CPU: run them one at a time; unit tests in parallel
	(cd "$dir" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --output-on-failure -LE "$skip" -j "$jobs") || rerun_failed "$dir" || rc=1
done
# fuzz: only the harnesses and what they link are built; the short runs happen here and nowhere else
echo "=== fuzz: configure + build (build-ci-fuzz)"
CC=clang cmake -S . -B build-ci-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBRAID_FUZZ=ON -DBRAID_BPF=OFF >/dev/null
cmake --build build-ci-fuzz --target braid_fuzzers -j "$jobs"
echo "=== fuzz: ctest -L fuzz"
(cd build-ci-fuzz && ctest --output-on-failure -L fuzz -j "$jobs") || rc=1
exit $rc
