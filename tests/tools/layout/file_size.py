#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""file_size.py [ROOT] [LIMIT] - every .c/.h under daemon/ stays within LIMIT lines (default 800), unless its
first 40 lines carry a comment "layout: longer than LIMIT because …" saying why (issue 9). Exit 1 otherwise."""
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "..")
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 800
bad = 0
n = 0
for d, _, names in os.walk(os.path.join(root, "daemon")):
    for f in sorted(names):
        if not f.endswith((".c", ".h")):
            continue
        p = os.path.join(d, f)
        lines = open(p, encoding="utf-8", errors="replace").read().split("\n")
        n += 1
        if len(lines) - 1 > limit and not any("layout: longer than" in l for l in lines[:40]):
            print("%s: %d lines (limit %d) and no 'layout: longer than …' reason at the top"
                  % (os.path.relpath(p, root), len(lines) - 1, limit))
            bad += 1
print("%d files, %d over %d lines without a reason" % (n, bad, limit))
sys.exit(1 if bad else 0)
