#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""doc_examples.py - every complete configuration in the docs parses.

A fenced block with the info string `ovpn` in README.md, docs/*.md or packaging/examples/*.conf is a whole
config file: it is written to a temporary directory and checked with `braidd --test-config --config FILE`
(the parser and the start-up checks; the files a config names are not read). A failure names the document and
the block's first line. Also: at least one example for each of the three users in docs/configuration.md, and a
broken block is caught (the check itself can fail).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

root = sys.argv[1]
braidd = os.path.join(os.environ["BRAID_BIN_DIR"], "braidd")


def blocks(path):
    out, cur, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if cur is None and re.fullmatch(r"```ovpn", s):
                cur, start = [], n + 1
            elif cur is not None and s == "```":
                out.append((start, "".join(cur)))
                cur = None
            elif cur is not None:
                cur.append(line)
    return out


def check(text, tmp, name="example.conf"):
    p = os.path.join(tmp, name)
    with open(p, "w", encoding="utf-8") as f:
        f.write(text)
    r = subprocess.run([braidd, "--test-config", "--config", p], capture_output=True, text=True, cwd=tmp)
    return r.returncode, (r.stdout + r.stderr).strip()


docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
bad, n = 0, 0
with tempfile.TemporaryDirectory() as tmp:
    for d in docs:
        for line, text in blocks(d):
            rc, msg = check(text, tmp)
            n += 1
            rel = os.path.relpath(d, root)
            if rc != 0:
                print(f"FAIL: {rel}:{line}: {msg}")
                bad += 1
            else:
                print(f"ok: {rel}:{line}: {msg}")
    for ex in sorted(glob.glob(os.path.join(root, "packaging", "examples", "*.conf"))):
        with open(ex, encoding="utf-8") as f:
            text = f.read()
        # the package's examples run as user/group braid (created by the package): checked without those lines
        text = re.sub(r"^(user|group) braid$", "", text, flags=re.M)
        rc, msg = check(text, tmp)
        n += 1
        print(f"{'ok' if rc == 0 else 'FAIL'}: {os.path.relpath(ex, root)}: {msg}")
        bad += rc != 0
    rc, msg = check("dev tun\nremote-bogus-option x\n", tmp)
    if rc == 0 or "remote-bogus-option" not in msg:
        print(f"FAIL: a broken config passed the check: {msg}")
        bad += 1

cfg = os.path.join(root, "docs", "configuration.md")
with open(cfg, encoding="utf-8") as f:
    guide = f.read()
for who in ("Amira", "Tomasz", "Priya"):
    if who not in guide:
        print(f"FAIL: docs/configuration.md has no example for {who}")
        bad += 1
print(f"{n} example configs checked, {bad} failure(s)")
sys.exit(1 if bad or n < 6 else 0)
