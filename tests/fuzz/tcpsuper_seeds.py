#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tcpsuper_seeds.py - the seed corpus of fuzz_tcpsuper (tests/fuzz/corpus/tcpsuper/): frames as a Braid peer
# seals them (flags 0: IPv4 and IPv6, one segment to 45, and one of each refusal kind) and vnet TUN reads as the
# kernel gives them (flags 1: TCP GSO super-packets of 2 to 46 segments, one over a frame). The layouts are
# daemon/os/tun_super.h's and struct virtio_net_hdr's (little-endian on x86).
# usage: tcpsuper_seeds.py DIR
import hashlib, os, struct, sys


def tcp_ip(v6, payload, flags=0x18):
    iphl = 40 if v6 else 20
    tot = iphl + 32 + payload
    if v6:
        ip = struct.pack("!IHBB", 0x60000000, tot - 40, 6, 64) + bytes([0xfd] + [0] * 14 + [1]) + bytes([0xfd] + [0] * 14 + [2])
    else:
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0x1234, 0x4000, 64, 6, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    th = struct.pack("!HHIIBBHHH", 8080, 40000, 0xFFFFF000, 77, 8 << 4, flags, 500, 0, 0) + bytes([1, 1, 8, 10]) + bytes(8)
    return ip + th + bytes((i * 7 + i // 251) & 255 for i in range(payload)), iphl


def frame(v6, payload, gso):
    pkt, iphl = tcp_ip(v6, payload)
    return bytes([0xB5, 2 if v6 else 1]) + struct.pack("!HHHH", gso, iphl + 32, iphl, 16) + pkt


def vnet_read(v6, payload, gso):
    pkt, iphl = tcp_ip(v6, payload)
    return struct.pack("<BBHHHH", 1, 4 if v6 else 1, iphl + 32, gso, iphl, 16) + pkt


seeds = [b"\0" + frame(False, 10 * 1448, 1448), b"\0" + frame(True, 7 * 1428 + 100, 1428),
         b"\0" + frame(False, 1000, 1000), b"\0" + frame(False, 45 * 1448, 1448),
         b"\0" + frame(False, 1448, 1448)[:60],                                   # short
         b"\0" + frame(False, 3000, 0),                                            # gso 0
         b"\0" + bytes([0xB5, 2]) + frame(False, 3000, 1000)[2:],                  # type vs version
         b"\x01" + vnet_read(False, 10 * 1448, 1448), b"\x01" + vnet_read(True, 20 * 1428 + 7, 1428),
         b"\x01" + vnet_read(False, 65535 - 52, 1448), b"\x01" + vnet_read(False, 65535 - 52, 536),
         b"\x01" + vnet_read(False, 2 * 1000, 1000)]
os.makedirs(sys.argv[1], exist_ok=True)
for s in seeds:
    open(os.path.join(sys.argv[1], hashlib.sha1(s).hexdigest()), "wb").write(s)
