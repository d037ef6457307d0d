#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""pcap2corpus.py - turn make-corpus.sh's captures into seed files (tests/fuzz/README.md).

usage: pcap2corpus.py RAWDIR OUTDIR

RAWDIR holds, per run NAME (udp-none, tcp-tls-auth, ...): NAME.pcap (the outer traffic on port 1194, -i any),
NAME-inner.pcap (the tunnel's IP packets in the client namespace), NAME-*.log (the stock server's log).
Writes OUTDIR/<harness>/<file> in each harness's input format (fuzz_common.h: flag byte, u16 BE chunks) and
OUTDIR/inner/*.bin (inner IP packets, for fuzz_mkseeds dc). Pure python (no scapy): pcap with Linux cooked
headers (SLL, linktype 113) or SLL2 (276), IPv4/IPv6, UDP/TCP.
"""
import hashlib
import os
import re
import struct
import sys

CTL_OPS = {3, 4, 5, 7, 8, 10, 11}
SERVER_PORT = 1194


def packets(path):
    with open(path, 'rb') as f:
        data = f.read()
    if len(data) < 24:
        return
    magic = struct.unpack('<I', data[:4])[0]
    end = '<' if magic in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    linktype = struct.unpack(end + 'I', data[20:24])[0]
    off = 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + 'IIII', data[off:off + 16])
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if linktype == 113:
            proto, l3 = struct.unpack('>H', frame[14:16])[0], frame[16:]
        elif linktype == 276:
            proto, l3 = struct.unpack('>H', frame[0:2])[0], frame[20:]
        else:
            continue
        yield proto, l3


def ip_payload(proto, l3):
    """(src_port, dst_port, l4 proto, payload) of an IPv4/IPv6 UDP/TCP packet, or None."""
    if proto == 0x0800 and len(l3) >= 20:
        ihl = (l3[0] & 15) * 4
        tot = struct.unpack('>H', l3[2:4])[0]
        l4p, l4 = l3[9], l3[ihl:tot]
    elif proto == 0x86dd and len(l3) >= 40:
        l4p, l4 = l3[6], l3[40:40 + struct.unpack('>H', l3[4:6])[0]]
    else:
        return None
    if l4p == 17 and len(l4) >= 8:
        sp, dp = struct.unpack('>HH', l4[:4])
        return sp, dp, 'udp', l4[8:]
    if l4p == 6 and len(l4) >= 20:
        sp, dp = struct.unpack('>HH', l4[:4])
        doff = (l4[12] >> 4) * 4
        return sp, dp, 'tcp', l4[doff:]
    return None


def chunk(b):
    return struct.pack('>H', len(b)) + b


class Out:
    def __init__(self, root):
        self.root = root
        self.n = {}

    def put(self, harness, data, name=None, limit=16384):
        data = data[:limit]
        d = os.path.join(self.root, harness)
        os.makedirs(d, exist_ok=True)
        name = name or hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)
        self.n[harness] = self.n.get(harness, 0) + 1


def deframe(stream):
    pkts, i = [], 0
    while i + 2 <= len(stream):
        n = struct.unpack('>H', stream[i:i + 2])[0]
        if n == 0 or i + 2 + n > len(stream):
            break
        pkts.append(stream[i + 2:i + 2 + n])
        i += 2 + n
    return pkts


def run(out, raw, name):
    proto, wrap = name.split('-', 1)
    to_srv, to_cli, seg_srv, seg_cli = [], [], [], []
    for p, l3 in packets(os.path.join(raw, name + '.pcap')):
        r = ip_payload(p, l3)
        if not r or not r[3] or SERVER_PORT not in (r[0], r[1]):
            continue
        if r[2] == 'udp':
            (to_srv if r[1] == SERVER_PORT else to_cli).append(r[3])
        else:
            (seg_srv if r[1] == SERVER_PORT else seg_cli).append(r[3])
    if proto == 'tcp':
        # -i any sees each segment once per namespace interface; the first copies are the client's side
        to_srv, to_cli = deframe(b''.join(seg_srv)), deframe(b''.join(seg_cli))
        for segs, tag in ((seg_srv, 'c2s'), (seg_cli, 's2c')):
            body = bytes([0])
            for k, s in enumerate(segs[:48]):
                body += chunk(s)
            out.put('tcpframe', body, f'{name}-{tag}')
            out.put('tcpframe', bytes([4]) + b''.join(chunk(s) for s in segs[:16]), f'{name}-{tag}-space')
            # the same stream cut at every 7th byte: lengths split across segments
            st = b''.join(segs[:8])
            out.put('tcpframe', bytes([0]) + b''.join(chunk(st[i:i + 7]) for i in range(0, len(st), 7)),
                    f'{name}-{tag}-split7')
    ctl_srv = [b for b in to_srv if b and (b[0] >> 3) in CTL_OPS]
    ctl_cli = [b for b in to_cli if b and (b[0] >> 3) in CTL_OPS]
    data = [b for b in to_srv + to_cli if b and (b[0] >> 3) in (6, 9)]
    if wrap == 'none':
        for b in ctl_srv + ctl_cli:
            out.put('ctl_pkt', b)
        for pk, tag in ((ctl_srv, 'c2s'), (ctl_cli, 's2c')):
            body = b''
            for b in pk[:24]:
                body += bytes([0]) + chunk(b) + bytes([2]) + struct.pack('>H', 50) + bytes([3])
            out.put('reliable', body, f'{name}-{tag}')
    elif wrap == 'tls-auth':
        for i, b in enumerate(ctl_srv[:32]):
            out.put('tls_auth', bytes([0]) + chunk(b))
        out.put('tls_auth', bytes([0]) + b''.join(chunk(b) for b in ctl_srv[:32]), f'{name}-seq')
    elif wrap == 'tls-crypt':
        for b in ctl_srv[:32]:
            out.put('tls_crypt', bytes([0]) + chunk(b))
            out.put('tls_crypt', bytes([16]) + chunk(b))
        out.put('tls_crypt', bytes([0]) + b''.join(chunk(b) for b in ctl_srv[:32]), f'{name}-seq')
    if proto == 'udp' and ctl_srv:
        w = {'none': 0, 'tls-auth': 1, 'tls-crypt': 2}[wrap]
        out.put('cookie', bytes([w]) + b''.join(chunk(b) for b in ctl_srv[:4]), f'{name}-captured')
    # encrypted data packets: they do not open with the harness key, but give real headers
    for b in data[:6]:
        out.put('dc', bytes([0]) + chunk(b))
    # inner IP packets for fuzz_mkseeds dc
    inner = os.path.join(raw, name + '-inner.pcap')
    if os.path.exists(inner):
        seen = set()
        for p, l3 in packets(inner):
            if p in (0x0800, 0x86dd) and l3 and len(seen) < 24:
                key = (l3[0] >> 4, l3[9] if p == 0x0800 else l3[6], len(l3) // 200)
                if key in seen:
                    continue
                seen.add(key)
                out.put('inner', l3, f'{name}-{len(seen)}.bin')
    # PUSH_REPLY and other control messages the stock server sent
    for log in os.listdir(raw):
        if log.startswith(name) and log.endswith('.log'):
            with open(os.path.join(raw, log), errors='replace') as f:
                for m in re.finditer(r"SENT CONTROL \[[^]]*\]: '([^']*)'", f.read()):
                    out.put('push', bytes([0]) + chunk(m.group(1).encode()))


def main():
    raw, outdir = sys.argv[1], sys.argv[2]
    out = Out(outdir)
    for f in sorted(os.listdir(raw)):
        if f.endswith('.pcap') and not f.endswith('-inner.pcap'):
            run(out, raw, f[:-5])
    print('pcap2corpus:', ' '.join(f'{k}={v}' for k, v in sorted(out.n.items())))


if __name__ == '__main__':
    main()
