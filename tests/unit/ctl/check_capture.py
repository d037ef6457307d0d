#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parse a pcap of a stock openvpn tls-crypt session (server 10.99.0.1:1194) and feed every
control packet to ctl-vector crypt-unwrap (role = receiver). Checks: every control packet
unwraps and decodes, opcodes/session ids/ACKs are consistent.
usage: check_capture.py CTL_VECTOR PCAP TC_KEY"""
import re
import struct
import subprocess
import sys

tool, pcap, keyfile = sys.argv[1:4]
txt = open(keyfile).read()
key = bytes.fromhex("".join(txt.split("-----BEGIN OpenVPN Static key V1-----")[1]
                            .split("-----END")[0].split()))
data = open(pcap, "rb").read()
magic = struct.unpack("<I", data[:4])[0]
endian = "<" if magic in (0xa1b2c3d4, 0xa1b23c4d) else ">"
linktype = struct.unpack(endian + "I", data[20:24])[0]
pos, pkts = 24, []
while pos + 16 <= len(data):
    _, _, incl, _ = struct.unpack(endian + "IIII", data[pos:pos + 16])
    frame = data[pos + 16:pos + 16 + incl]
    pos += 16 + incl
    off = 14 if linktype == 1 else 16 if linktype == 113 else 0
    if linktype == 1 and frame[12:14] != b"\x08\x00":
        continue
    ip = frame[off:]
    ihl = (ip[0] & 15) * 4
    if ip[9] != 17:
        continue
    src = ".".join(map(str, ip[12:16]))
    udp = ip[ihl:]
    pkts.append((src == "10.99.0.1", udp[8:]))  # (from server, payload)

fails = []
ctrl = {True: [], False: []}
for from_server, p in pkts:
    op = p[0] >> 3
    if op in (6, 9):
        continue
    ctrl[from_server].append(p)
out = {}
for from_server in (False, True):
    role = "client" if from_server else "server"  # the receiver unwraps
    r = subprocess.run([tool, "crypt-unwrap", role, key.hex(), "-"] + [p.hex() for p in ctrl[from_server]],
                       capture_output=True, text=True)
    lines = r.stdout.strip().split("\n") if r.stdout.strip() else []
    out[from_server] = lines
n_c, n_s = len(ctrl[False]), len(ctrl[True])
print(f"captured {len(pkts)} UDP packets: {n_c} control c->s, {n_s} control s->c")
if n_c < 3 or n_s < 3:
    fails.append("too few control packets captured")
parsed = {}
for fs in (False, True):
    parsed[fs] = []
    for ln in out[fs]:
        m = re.match(r"OK op=(\d+) kid=(\d+) sid=(\w+) acks=([\d,]*) ack_sid=(\w*) pid=([\d-]+) len=(\d+)", ln)
        if not m:
            fails.append(f"{'s->c' if fs else 'c->s'}: {ln}")
            continue
        parsed[fs].append(m.groups())
    if len(parsed[fs]) != len(ctrl[fs]):
        fails.append(f"{len(ctrl[fs]) - len(parsed[fs])} packets did not parse")
if parsed[False] and parsed[True]:
    csids = {g[2] for g in parsed[False]}
    ssids = {g[2] for g in parsed[True]}
    if len(csids) != 1 or len(ssids) != 1:
        fails.append(f"session ids not constant: {csids} {ssids}")
    if parsed[False][0][0] != "7" or parsed[False][0][5] != "0":
        fails.append(f"first c->s is not HARD_RESET_CLIENT_V2 pid 0: {parsed[False][0]}")
    if parsed[True][0][0] != "8" or parsed[True][0][3] != "0" or parsed[True][0][4] not in csids:
        fails.append(f"first s->c is not HARD_RESET_SERVER_V2 ACKing 0: {parsed[True][0]}")
    for fs in (False, True):
        peer_sid = ssids if not fs else csids
        sent_pids = {g[5] for g in parsed[not fs] if g[5] != "-"}
        for g in parsed[fs]:
            if g[3] and g[4] not in peer_sid:
                fails.append(f"ack_sid {g[4]} is not the peer's sid")
            for a in filter(None, g[3].split(",")):
                if a not in sent_pids:
                    fails.append(f"ACK of id {a} the peer never sent")
    ops = sorted({g[0] for fs in (False, True) for g in parsed[fs]})
    print("opcodes seen:", ",".join(ops), "; c->s msg ids:", " ".join(g[5] for g in parsed[False]))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
