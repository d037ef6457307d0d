#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen_man_sections.py - the generated parts of braidd(8): the entries of OPTIONS WITHOUT EFFECT and OPTIONS
BRAIDD REFUSES, one per directive of that class in braidd's table, with the text braidd itself prints for it
(the no-op's log line, the refusal's error), so the man page says what the daemon does.

Usage: gen_man_sections.py BRAIDD MANPAGE [--check]
Rewrites the blocks between '.\\" BEGIN GENERATED CLASS' and '.\\" END GENERATED CLASS' in MANPAGE; with
--check only compares and exits 1 when the page is out of date (tests/packaging: pkg.man_options).
"""
import os
import re
import subprocess
import sys

SAMPLE = {"dev-type": ["tun"], "resolv-retry": ["infinite"]}


def table(braidd):
    out = subprocess.run([braidd, "--help-options"], check=True, capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def message(braidd, name):
    """the no-op's reason or the refusal's message, as braidd prints it"""
    tries = [SAMPLE[name]] if name in SAMPLE else [["1"] * k for k in range(5)]
    for args in tries:
        r = subprocess.run([braidd, "--" + name] + args, capture_output=True, text=True, cwd="/")
        for line in r.stderr.splitlines():
            if "expects" in line and "argument" in line:
                break
            m = re.search(r"option '%s'(?: has no effect in braidd)?: (.*)$" % re.escape(name), line)
            if m:
                return m.group(1)
    raise SystemExit(f"gen_man_sections: no message from braidd --{name}")


def roff(text):
    return text.replace("\\", "\\e").replace("-", "\\-")


def block(braidd, cls):
    out = []
    for name, c in table(braidd):
        if c != cls:
            continue
        out += [".TP", ".B " + roff(name), roff(message(braidd, name))]
    return "\n".join(out) + "\n"


def main():
    braidd, page = os.path.abspath(sys.argv[1]), sys.argv[2]
    text = open(page, encoding="utf-8").read()
    new = text
    for cls in ("no-op", "refused"):
        begin = '.\\" BEGIN GENERATED %s (packaging/man/gen_man_sections.py)\n' % cls
        end = '.\\" END GENERATED %s\n' % cls
        a, b = new.index(begin) + len(begin), new.index(end)
        new = new[:a] + block(braidd, cls) + new[b:]
    if "--check" in sys.argv:
        if new != text:
            print(f"FAIL: {page} is out of date: run packaging/man/gen_man_sections.py {braidd} {page}")
            return 1
        print(f"ok: {page}: the generated sections match braidd")
        return 0
    if new != text:
        open(page, "w", encoding="utf-8").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
