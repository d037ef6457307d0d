#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# man_check.sh - the man pages: braidd(8) and braidd's directive table agree both ways (man_options.py), the
# generated no-op/refused sections are current (gen_man_sections.py --check), and man renders the three pages
# without a warning.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
BRAIDD=${BRAIDD:-${BRAID_BIN_DIR:-$root/build/bin}/braidd}
[ -x "$BRAIDD" ] || { echo "FAIL: braidd not built ($BRAIDD)" >&2; exit 1; }
rc=0
python3 "$root/tests/packaging/man_options.py" "$BRAIDD" "$root/docs/man/braidd.8" || rc=1
python3 "$root/packaging/man/gen_man_sections.py" "$BRAIDD" "$root/docs/man/braidd.8" --check || rc=1
for p in braidd.8 braidctl.8 braid.conf.5 braid-gui.1 braid-helper.8; do
	w=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l -Tutf8 "$root/docs/man/$p" 2>&1 >/dev/null)
	[ -z "$w" ] || { echo "FAIL: man $p: $w"; rc=1; }
	LC_ALL=C.UTF-8 man -l "$root/docs/man/$p" 2>/dev/null | grep -q '^NAME' || { echo "FAIL: man -l $p renders no NAME"; rc=1; }
done
# braidctl(8) names every command braidctl --help lists
"${BRAID_BIN_DIR:-$root/build/bin}/braidctl" --help | awk '/^Commands:/ {c=1; next} c && NF {print $1}' >/tmp/braidctl-cmds.$$
while read -r c; do
	grep -q "^\.B[IR]* $c\b" "$root/docs/man/braidctl.8" || { echo "FAIL: braidctl(8) lacks command '$c'"; rc=1; }
done </tmp/braidctl-cmds.$$
rm -f /tmp/braidctl-cmds.$$
[ $rc = 0 ] && echo "PASS: man pages"
exit $rc
