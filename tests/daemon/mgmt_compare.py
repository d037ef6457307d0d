#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mgmt_compare.py STOCK.json BRAID.json: the two normalised transcripts of mgmt_drive.py must be
equal: every reply and the notifications (>STATE:, >HOLD:, >PASSWORD:, >INFO:, >CLIENT:) in order.
Prints the differences and exits 1 if any; prints a summary line otherwise."""
import difflib
import json
import sys

a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
bad = 0
for i, ((ca, ra), (cb, rb)) in enumerate(zip(a["replies"], b["replies"])):
    assert ca == cb, (ca, cb)
    if ra != rb:
        bad += 1
        print("reply to %r differs:" % ca)
        for d in difflib.unified_diff(ra, rb, "stock", "braidd", lineterm="", n=1):
            print("   ", d)
if len(a["replies"]) != len(b["replies"]):
    bad += 1
    print("a different number of replies: %d vs %d" % (len(a["replies"]), len(b["replies"])))
if a["notes"] != b["notes"]:
    bad += 1
    print("notifications differ:")
    for d in difflib.unified_diff(a["notes"], b["notes"], "stock", "braidd", lineterm="", n=2):
        print("   ", d)
for name, t in (("stock", a), ("braidd", b)):
    if "bytecount" in " ".join(c for c, _ in t["replies"]) and \
            not any(i > 0 and o > 0 for i, o in t["bytecounts"]):
        bad += 1
        print("%s: no >BYTECOUNT with both counters above 0: %s" % (name, t["bytecounts"][-3:]))
missing = sorted(set(a.get("env_other", [])) - set(b.get("env_other", [])))
if missing:
    print("note: >CLIENT:ENV names stock gives and braidd does not (not compared): " +
          " ".join(missing))
if bad:
    sys.exit(1)
print("ok: %d replies and %d notifications equal after normalisation" %
      (len(a["replies"]), len(a["notes"])))
