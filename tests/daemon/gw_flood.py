#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""gw_flood.py KIND COUNT DST_IP DST_PORT SRC_NET - spoofed control packets for gw_flood.sh.

KIND reset: P_CONTROL_HARD_RESET_CLIENT_V2 without tls-auth/tls-crypt (14 bytes, op 0x38).
KIND ack:   P_ACK_V1 that ACKs message 0 with a random (guessed) server session id.
Each packet has a random source address in SRC_NET.0/24 (.100-.250) and a random source port,
sent on a raw socket (IP_HDRINCL), so no reply can ever reach the sender. Paced (1 ms per 50)
so that the gateway's socket buffer never overflows and the counts stay exact.
"""
import os
import random
import socket
import struct
import sys
import time


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def main():
    kind, count, dst, dport, net = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    rnd = random.Random(1234)
    for i in range(count):
        sid = os.urandom(8)
        if kind == "reset":
            payload = bytes([0x38]) + sid + b"\0" + b"\0\0\0\0"
        else:
            payload = bytes([0x28]) + sid + b"\x01" + b"\0\0\0\0" + os.urandom(8)
        src = "%s.%d" % (net, rnd.randint(100, 250))
        sport = rnd.randint(1024, 65535)
        udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xFFFF, 0, 64, 17, 0,
                         socket.inet_aton(src), socket.inet_aton(dst))
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        s.sendto(ip + udp, (dst, 0))
        if i % 50 == 49:
            time.sleep(0.001)
    print(count)


if __name__ == "__main__":
    main()
