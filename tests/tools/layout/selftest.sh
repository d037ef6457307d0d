#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# selftest.sh - the layout checks fail where they must: a file cycle (a.c -> b.h, b.c -> a.h), a folder cycle
# (x/ -> y/ -> x/ through different files), a file of 801 lines; and pass on the same trees without the fault.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
here=$(dirname "$0")
fail() { echo "FAIL: $*"; exit 1; }
mk() { mkdir -p "$dir/$1/daemon/$(dirname "$2")"; printf '%b' "$3" >"$dir/$1/daemon/$2"; }

mk cyc a.c '#include "b.h"\n'; mk cyc a.h ''; mk cyc b.c '#include "a.h"\n'; mk cyc b.h ''
python3 "$here/include_cycles.py" "$dir/cyc" >/dev/null && fail "a.c <-> b.c cycle not found"
mk ok a.c '#include "b.h"\n'; mk ok a.h ''; mk ok b.c '\n'; mk ok b.h ''
python3 "$here/include_cycles.py" "$dir/ok" >/dev/null || fail "a tree without a cycle was refused"
mk fold x/p.c '#include "y/q.h"\n'; mk fold x/p.h ''; mk fold x/r.h ''
mk fold y/q.c '\n'; mk fold y/q.h ''; mk fold y/s.c '#include "x/r.h"\n'
python3 "$here/include_cycles.py" "$dir/fold" | grep -q "cycle between folders" || fail "folder cycle x <-> y not found"
mk big big.c "$(printf 'x\\n%.0s' $(seq 801))"
python3 "$here/file_size.py" "$dir/big" >/dev/null && fail "an 801-line file passed"
mk why why.c "/* layout: longer than 800 because it is a table */\n$(printf 'x\\n%.0s' $(seq 801))"
python3 "$here/file_size.py" "$dir/why" >/dev/null || fail "a long file with a reason was refused"
echo "PASS: layout selftest"
