#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# kerneldoc.sh - kernel-doc on every braid_dco function another file calls (issue 15: "kernel-doc on every
# export"; the module exports no symbol, so its interface is what kmod/*.h declare): each such function has a
# `/** NAME() - ...` comment in a .c or .h, and the kernel's own scripts/kernel-doc (the newest kbuild
# installed: 6.12's checks more than 6.1's) finds no warning in any file with -Wall.
#   kerneldoc.sh [KMOD_DIR]
set -uo pipefail
dir=${1:-$(cd "$(dirname "$0")/../../kmod" && pwd)}
fail() { echo "FAIL: $*" >&2; exit 1; }
kd=$(ls -d /usr/lib/linux-kbuild-*/scripts/kernel-doc 2>/dev/null | sort -V | tail -n1)
[ -n "$kd" ] || fail "no scripts/kernel-doc (linux-kbuild, with linux-headers-amd64: packaging/install-deps.sh)"
cd "$dir" || fail "no $dir"
# functions declared in the headers (not static inline: those are documented where they stand, if at all)
decl=$(grep -hoE '^[a-z_][a-z0-9_ ]*[ *]\**braid_[a-z0-9_]+\(' ./*.h | grep -v '^static' |
	sed -E 's/.*(braid_[a-z0-9_]+)\($/\1/' | sort -u)
[ -n "$decl" ] || fail "no function declarations found in $dir/*.h"
# a kernel-doc comment: "/**" on its own line, then " * NAME() - ..."
doc=$(awk 'prev == "/**" && match($0, /^ \* braid_[a-z0-9_]+\(\) - /) { print substr($0, 4, RLENGTH - 8) }
	{ prev = $0 }' ./*.c ./*.h | sort -u)
missing=$(comm -23 <(echo "$decl") <(echo "$doc"))
[ -z "$missing" ] || fail "declared in kmod/*.h without a kernel-doc comment: $(echo $missing)"
warn=$(perl "$kd" -none -Wall ./*.c ./*.h 2>&1)
[ -z "$warn" ] || fail "$kd -Wall: $warn"
echo "ok: $(echo "$decl" | wc -l) functions declared in kmod/*.h, each with its kernel-doc comment; $kd -none -Wall on $(ls ./*.c ./*.h | wc -l) files: no warning"
