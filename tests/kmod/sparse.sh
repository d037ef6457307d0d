#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# sparse.sh - braid_dco built with the kernel's static checker (make C=2 CHECK=sparse: address spaces such as
# __rcu and __user, endianness annotations, locking contexts) against KVER's headers; any sparse diagnostic
# fails the test.
#   sparse.sh [KVER]      default: the VM kernel (tests/vm/lib.sh's vm_kver, as kmod/CMakeLists.txt's)
set -uo pipefail
src=$(cd "$(dirname "$0")/../../kmod" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
# shellcheck source=../vm/lib.sh
. "$src/../tests/vm/lib.sh"
kv=${1:-$(vm_kver)} || fail "no VM kernel (linux-image-amd64 with its /lib/modules)"
command -v sparse >/dev/null || fail "sparse missing (apt-get install sparse; packaging/install-deps.sh)"
[ -e "/lib/modules/$kv/build/Makefile" ] || fail "no headers for $kv"
work=$(mktemp -d /tmp/braid-kmod-sparse.XXXXXX)
trap 'rm -rf "$work"' EXIT
vm_kmod_tree "$src" "$work" || fail "link the sources into $work"
make -s -C "/lib/modules/$kv/build" M="$work" C=2 CHECK=sparse modules >"$work/make.log" 2>&1 ||
	fail "build with sparse against $kv: $(tail -20 "$work/make.log")"
diag=$(grep -E '(warning|error):' "$work/make.log" | grep -v 'BTF generation')
[ -z "$diag" ] || fail "sparse against $kv: $diag"
echo "ok: sparse $(sparse --version 2>/dev/null) on $(ls "$src"/*.c | wc -l) files against $kv: no diagnostic"
