#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mgmt_braid_seeds.py DIR - seed inputs for fuzz_mgmt_braid.c: a world chunk (flags, paths, scheduler,
clients) followed by command chunks ("braid " is prepended by the harness), each chunk u16 BE length +
bytes (fuzz_common.h). The commands are the ones docs/management.md "Braid extensions" lists."""
import hashlib
import os
import struct
import sys


def chunk(b):
    return struct.pack(">H", len(b)) + b


def s(b):
    return bytes([len(b)]) + b


def path(idx, dev, local, remote, state, flags=0, slot=None):
    slot = idx if slot is None else slot
    return (bytes([idx]) + s(dev) + s(local) + s(remote) + bytes([state, flags, slot & 0xff])
            + struct.pack(">H", 10000) + bytes([3]) + struct.pack(">H", 0) + bytes([0, 1, 0])
            + struct.pack(">H", 2) + struct.pack(">H", 5000) + bytes([10]) + struct.pack(">H", 4000)
            + bytes([10]) + struct.pack(">H", 1000) + bytes([8]) + struct.pack(">H", 7))


def world(gateway=False, no_dp=False, err=False, sched=b"edf", clients=()):
    flags = (1 if gateway else 0) | (2 if no_dp else 0) | (4 if err else 0)
    paths = [path(0, b"wlan0", b"[AF_INET]192.168.1.20:40001", b"[AF_INET]198.51.100.1:1194", 2),
             path(1, b"", b"[AF_INET6]2001:db8::2:40002", b"[AF_INET6]2001:db8::1:1194", 5, 1)]
    w = bytes([flags, len(paths)]) + b"".join(paths) + s(sched)
    if gateway:
        w += bytes([len(clients)])
        for cid, cn, braid in clients:
            w += bytes([cid]) + s(cn) + s(b"10.0.0.9:5555") + struct.pack(">H", 99) + bytes([braid])
    return chunk(w)


CMDS = [b"paths", b"paths text", b"paths json", b"paths on 1", b"paths on", b"paths off", b"help",
        b"path wlan0 backup on", b"path 1 backup off", b"path path1 disable", b"path wlan0 enable",
        b"path 192.168.1.20 cap 5000000", b"path 2001:db8::2 cap 0", b"path 0 weight 3",
        b'scheduler "ratio 1:2"', b"scheduler ratio 1:2", b"scheduler edf", b"scheduler bogus",
        b"path-add eth1", b"path-add 10.0.0.2 198.51.100.1 1194", b"path-add auto", b"path-remove eth1",
        b"clients", b"client-paths 7", b"client-path 7 0 backup on", b"client-scheduler 7 rtt",
        b"paths on 86401", b"path \"wl an\" cap 1", b"frob"]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = [
        world() + b"".join(chunk(c) for c in CMDS[:18]),
        world(sched=b"ratio 1:1") + chunk(b"path 0 weight 0") + chunk(b"path 1 weight 9") + chunk(b"paths"),
        world(no_dp=True) + b"".join(chunk(c) for c in (b"paths", b"scheduler edf", b"path 0 disable")),
        world(err=True) + b"".join(chunk(c) for c in CMDS[7:22]),
        world() + chunk(b"paths on 1") + chunk(b"path-remove eth1") + chunk(b"paths") + chunk(b"paths off"),
        world(gateway=True, clients=[(7, b"client1", 1), (8, b'c"l\\i\x01\xff', 0)])
        + b"".join(chunk(c) for c in CMDS),
    ]
    for b in seeds:
        open(os.path.join(out, hashlib.sha1(b).hexdigest()), "wb").write(b)


if __name__ == "__main__":
    main()
