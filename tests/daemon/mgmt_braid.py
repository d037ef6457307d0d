#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mgmt_braid.py - talk to braidd's management interface braid extension (docs/management.md
"Braid extensions") for the netns tests, and check its objects against the GUI's contract
(gui/README.md: keys, types, ranges).

  mgmt_braid.py SOCK cmd CMD...         send each command, print its reply lines (CRLF stripped)
  mgmt_braid.py SOCK paths [N]          `braid paths`: check every object, print them as one JSON
                                        array; exit 1 if an object breaks the contract or (N) there
                                        are not N objects
  mgmt_braid.py SOCK watch OUT [S]      `braid paths on S` (1), then append "EPOCH_TIME STATE JSON"
                                        to OUT for each >BRAID-PATH: event ("INVALID ..." if it
                                        breaks the contract) until killed
  mgmt_braid.py check JSON              check one object (exit 1 with the reason)
SOCK: a unix socket path or HOST:PORT.
"""
import json
import socket
import sys
import time

STATES = {"up", "probing", "degraded", "down", "disabled", "removed"}


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check(obj, event=False):
    """the reason obj breaks the contract, or None"""
    if not isinstance(obj, dict):
        return "not an object"
    need = {"id": int, "ifname": str, "local": str, "remote": str, "state": str, "backup": bool,
            "tx_bps": "n", "rx_bps": "n", "tx_bytes": "n", "rx_bytes": "n", "cap_bps": "n",
            "rtt_ms": "n?", "loss_pct": "n?"}
    for k, t in need.items():
        if k not in obj:
            return f"key {k} missing"
        v = obj[k]
        if t == "n" and not (num(v) and v >= 0):
            return f"{k}={v!r} is not a number >= 0"
        if t == "n?" and not (v is None or (num(v) and v >= 0)):
            return f"{k}={v!r} is not null or a number >= 0"
        if t in (int, str, bool) and (not isinstance(v, t) or (t is int and isinstance(v, bool))):
            return f"{k}={v!r} is not {t.__name__}"
    if not 0 <= obj["id"] <= 65535:
        return "id out of range"
    if len(obj["ifname"]) > 64 or len(obj["local"]) > 80 or len(obj["remote"]) > 80:
        return "a string is too long"
    if obj["state"] not in STATES or (obj["state"] == "removed" and not event):
        return f"state {obj['state']!r}"
    if obj["loss_pct"] is not None and obj["loss_pct"] > 100:
        return "loss_pct > 100"
    if "share_pct" in obj and not (num(obj["share_pct"]) and 0 <= obj["share_pct"] <= 100):
        return "share_pct out of range"
    return None


class Mgmt:
    def __init__(self, where):
        if ":" in where and not where.startswith("/"):
            host, port = where.rsplit(":", 1)
            self.s = socket.create_connection((host, int(port)), timeout=10)
        else:
            self.s = socket.socket(socket.AF_UNIX)
            self.s.settimeout(10)
            self.s.connect(where)
        self.buf = b""
        self.events = []
        first = self.line()
        if not first.startswith(">INFO:"):
            raise SystemExit(f"unexpected banner {first!r}")

    def line(self):
        while b"\n" not in self.buf:
            d = self.s.recv(65536)
            if not d:
                raise SystemExit("management connection closed")
            self.buf += d
        ln, self.buf = self.buf.split(b"\n", 1)
        if len(ln) + 1 > 8192:
            raise SystemExit(f"a line of {len(ln) + 1} bytes (> 8192)")
        if not ln.endswith(b"\r"):
            raise SystemExit(f"a line without CRLF: {ln!r}")
        return ln[:-1].decode()

    def reply(self, cmd):
        """the reply lines of cmd (notifications kept in self.events)"""
        self.s.sendall(cmd.encode() + b"\n")
        out = []
        while True:
            ln = self.line()
            if ln.startswith(">"):
                self.events.append((time.time(), ln))
                continue
            if not out and (ln.startswith("SUCCESS:") or ln.startswith("ERROR:")):
                return [ln]
            out.append(ln)
            if ln == "END":
                return out


def main():
    if sys.argv[1] == "check":
        why = check(json.loads(sys.argv[2]), event=True)
        if why:
            print(why)
            sys.exit(1)
        return
    m = Mgmt(sys.argv[1])
    mode = sys.argv[2]
    if mode == "cmd":
        for c in sys.argv[3:]:
            for ln in m.reply(c):
                print(ln)
    elif mode == "paths":
        lines = m.reply("braid paths")
        if lines[-1] != "END":
            print("braid paths: " + " ".join(lines))
            sys.exit(1)
        objs = []
        for ln in lines[:-1]:
            o = json.loads(ln)
            why = check(o)
            if why:
                print(f"object breaks the contract: {why}: {ln}")
                sys.exit(1)
            objs.append(o)
        if len(sys.argv) > 3 and len(objs) != int(sys.argv[3]):
            print(f"{len(objs)} paths, want {sys.argv[3]}: {lines}")
            sys.exit(1)
        print(json.dumps(objs))
    elif mode == "watch":
        out = open(sys.argv[3], "a", buffering=1)
        r = m.reply("braid paths on " + (sys.argv[4] if len(sys.argv) > 4 else "1"))
        if r != ["SUCCESS: braid path events on"]:
            raise SystemExit(f"braid paths on: {r}")
        m.s.settimeout(None)
        while True:
            ln = m.line()
            if not ln.startswith(">BRAID-PATH:"):
                continue
            t = time.time()
            try:
                o = json.loads(ln[len(">BRAID-PATH:"):])
                why = check(o, event=True)
            except ValueError as e:
                o, why = None, str(e)
            if why:
                out.write(f"{t:.3f} INVALID {why} {ln}\n")
            else:
                out.write(f"{t:.3f} {o['state']} {json.dumps(o, separators=(',', ':'))}\n")
    else:
        raise SystemExit("usage: see the docstring")


if __name__ == "__main__":
    main()
