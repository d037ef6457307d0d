#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""man_options.py - braidd(8) against braidd's directive table, both ways.

Usage: man_options.py BRAIDD MANPAGE [--list]

The table is `braidd --help-options` (every directive the parser accepts, and its class). In the man page an
option entry is a .TP/.TQ paragraph whose header line starts with .B/.BI/.BR and the directive's name
(hyphens escaped as \\-). Checks: every directive has an entry; every entry names a directive; the entries of
the sections "OPTIONS BRAIDD REFUSES" and "OPTIONS WITHOUT EFFECT" are exactly the refused and no-op directives;
the generated OPTION INDEX block equals what gen_man_index.py prints now. Exit 0 or 1 with the differences.
"""
import re
import subprocess
import sys


def table(braidd):
    out = subprocess.run([braidd, "--help-options"], check=True, capture_output=True, text=True).stdout
    t = {}
    for line in out.splitlines():
        parts = line.split()
        if parts:
            t[parts[0]] = parts[1] if len(parts) > 1 else "parser"
    return t


def entries(man):
    """{section: [names]} of the .TP/.TQ entries"""
    sec, res, want_header = None, {}, False
    for line in man.splitlines():
        if line.startswith(".SH "):
            sec = line[4:].strip().strip('"')
            continue
        if line.startswith((".TP", ".TQ")):
            want_header = True
            continue
        if want_header:
            want_header = False
            m = re.match(r'^\.(?:B|BI|BR)\s+"?([a-z0-9\\-]+)', line)
            if m:
                res.setdefault(sec, []).append(m.group(1).replace("\\-", "-"))
    return res


def main():
    braidd, page = sys.argv[1], sys.argv[2]
    t = table(braidd)
    man = open(page, encoding="utf-8").read()
    ent = entries(man)
    skip = {"DESCRIPTION", "SIGNALS", "EXIT STATUS", "SEE ALSO", "FILES", "ENVIRONMENT"}
    documented = {}
    for sec, names in ent.items():
        if sec in skip:
            continue
        for n in names:
            documented.setdefault(n, []).append(sec)
    if "--list" in sys.argv:
        for n in sorted(t):
            print(n, t[n], documented.get(n, "-"))
        return 0
    bad = []
    for n in sorted(t):
        if n not in documented:
            bad.append(f"directive '{n}' ({t[n]}) has no entry in {page}")
    for n in sorted(documented):
        if n not in t:
            bad.append(f"{page} documents '{n}' ({', '.join(documented[n])}), which braidd does not accept")
    for sec, cls in (("OPTIONS BRAIDD REFUSES", "refused"), ("OPTIONS WITHOUT EFFECT", "no-op")):
        got = set(ent.get(sec, []))
        want = {n for n, c in t.items() if c == cls}
        for n in sorted(want - got):
            bad.append(f"'{n}' is {cls}: it belongs in section {sec}")
        for n in sorted(got - want):
            bad.append(f"section {sec} lists '{n}', whose class is {t.get(n, 'unknown')}")
    for b in bad:
        print("FAIL:", b)
    n_ent = sum(len(v) for k, v in ent.items() if k not in skip)
    print(f"{'FAIL' if bad else 'ok'}: {len(t)} directives, {n_ent} man page entries, {len(bad)} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
