#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""netlink_seeds.py - real rtnetlink replies for fuzz_netlink's corpus (run by make-corpus.sh).

usage: ip netns exec NS netlink_seeds.py OUTDIR     (a fresh namespace of the caller's: it adds a veth pair)

Sends the kinds of request braidd sends (RTM_NEWLINK mtu/up, RTM_NEWADDR/DELADDR, RTM_NEWROUTE/DELROUTE,
RTM_GETROUTE) to the kernel and records its answers: ACKs, errors (-EEXIST, -EADDRNOTAVAIL, -ENODEV) and
route replies with RTA_GATEWAY/RTA_OIF. Each seed is a sequence of chunks in fuzz_netlink's format: the flag
byte 1 (stamp the harness's sequence number and port id) and one received buffer, in the order the harness
asks: link, addr, addr, route, then push_apply's addresses, routes and its RTM_GETROUTE.
"""
import os
import socket
import struct
import subprocess
import sys

NLM_F_REQUEST, NLM_F_ACK, NLM_F_CREATE, NLM_F_EXCL, NLM_F_REPLACE = 1, 4, 0x400, 0x200, 0x100
RTM_NEWLINK, RTM_NEWADDR, RTM_DELADDR, RTM_NEWROUTE, RTM_DELROUTE, RTM_GETROUTE = 16, 20, 21, 24, 25, 26


def attr(t, payload):
    ln = 4 + len(payload)
    return struct.pack('=HH', ln, t) + payload + b'\0' * ((4 - ln % 4) % 4)


class NL:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        self.s.bind((0, 0))
        self.seq = 100

    def talk(self, mtype, flags, body):
        self.seq += 1
        msg = struct.pack('=IHHII', 16 + len(body), mtype, flags | NLM_F_REQUEST, self.seq, 0) + body
        self.s.send(msg)
        return self.s.recv(65536)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    subprocess.run(['ip', 'link', 'add', 'fz0', 'type', 'veth', 'peer', 'name', 'fz1'], check=True)
    subprocess.run(['ip', 'link', 'set', 'fz1', 'up'], check=True)
    subprocess.run(['ip', 'link', 'set', 'fz0', 'up'], check=True)
    subprocess.run(['ip', 'addr', 'add', '192.0.2.1/24', 'dev', 'fz0'], check=True)
    subprocess.run(['ip', 'route', 'add', 'default', 'via', '192.0.2.254'], check=True)
    subprocess.run(['ip', '-6', 'addr', 'add', '2001:db8::1/64', 'dev', 'fz0', 'nodad'], check=True)
    subprocess.run(['ip', '-6', 'route', 'add', 'default', 'via', '2001:db8::fe'], check=True)
    idx = socket.if_nametoindex('fz0')
    nl = NL()
    ifi = lambda: struct.pack('=BxHiII', 0, 0, idx, 1, 1)  # noqa: E731 (family, type, index, flags, change)
    ifa = lambda fam, plen: struct.pack('=BBBBI', fam, plen, 0, 0, idx)  # noqa: E731
    rtm = lambda fam, dlen, scope: struct.pack('=BBBBBBBBI', fam, dlen, 0, 0, 254, 4, scope, 1, 0)  # noqa: E731
    a4, p4 = socket.inet_aton('10.8.0.2'), socket.inet_aton('10.8.0.1')
    a6 = socket.inet_pton(socket.AF_INET6, 'fd00::2')
    r = {}
    r['link'] = nl.talk(RTM_NEWLINK, NLM_F_ACK, ifi() + attr(4, struct.pack('=I', 1400)))
    r['link_nodev'] = nl.talk(RTM_NEWLINK, NLM_F_ACK, struct.pack('=BxHiII', 0, 0, 9999, 1, 1))
    r['addr'] = nl.talk(RTM_NEWADDR, NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE,
                        ifa(2, 24) + attr(2, a4) + attr(1, p4))
    r['addr6_del_missing'] = nl.talk(RTM_DELADDR, NLM_F_ACK, ifa(10, 64) + attr(2, a6) + attr(1, a6))
    r['route'] = nl.talk(RTM_NEWROUTE, NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
                         rtm(2, 16, 0) + attr(1, socket.inet_aton('10.9.0.0')) + attr(4, struct.pack('=I', idx)))
    r['route_exists'] = nl.talk(RTM_NEWROUTE, NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL,
                                rtm(2, 16, 0) + attr(1, socket.inet_aton('10.9.0.0')) +
                                attr(4, struct.pack('=I', idx)))
    r['route_del'] = nl.talk(RTM_DELROUTE, NLM_F_ACK, rtm(2, 16, 255) + attr(1, socket.inet_aton('10.9.0.0')) +
                             attr(4, struct.pack('=I', idx)))
    r['getroute4'] = nl.talk(RTM_GETROUTE, 0, rtm(2, 32, 0) + attr(1, socket.inet_aton('198.51.100.1')))
    r['getroute6'] = nl.talk(RTM_GETROUTE, 0, rtm(10, 128, 0) +
                             attr(1, socket.inet_pton(socket.AF_INET6, '2001:db8:1::1')))
    r['getroute_unreach'] = nl.talk(RTM_GETROUTE, 0, rtm(2, 32, 0) + attr(1, socket.inet_aton('127.0.0.1')))
    # the multipath route check (nlroute.c): fib match with source and interface; none through fz1
    fib = lambda fam, dlen, slen=0: struct.pack('=BBBBBBBBI', fam, dlen, slen, 0, 0, 0, 0, 0, 0x2000)  # noqa: E731
    r['fibmatch4'] = nl.talk(RTM_GETROUTE, 0, fib(2, 32, 32) + attr(1, socket.inet_aton('198.51.100.1')) +
                             attr(2, socket.inet_aton('192.0.2.1')) + attr(4, struct.pack('=I', idx)))
    r['fibmatch6'] = nl.talk(RTM_GETROUTE, 0, fib(10, 128) +
                             attr(1, socket.inet_pton(socket.AF_INET6, '2001:db8:1::1')))
    r['fibmatch_none'] = nl.talk(RTM_GETROUTE, 0, fib(2, 32) + attr(1, socket.inet_aton('198.51.100.1')) +
                                 attr(4, struct.pack('=I', socket.if_nametoindex('fz1'))))
    c = lambda k: struct.pack('>H', len(r[k]) + 1) + b'\1' + r[k]  # noqa: E731
    ack = c('link')
    seeds = {
        'all-acks': ack * 24,
        'route-reply': ack * 4 + ack * 4 + c('getroute4') + ack * 12,
        'route-reply-late': ack * 4 + ack * 6 + c('getroute4') + c('getroute6') + ack * 10,
        'route-reply6': ack * 4 + ack * 5 + c('getroute6') + ack * 12,
        'errors': c('link_nodev') + c('addr6_del_missing') + c('route_exists') + c('route_del') + ack * 8 +
                  c('getroute_unreach') + ack * 8,
        'pathroute': ack * 24 + c('fibmatch4') + c('fibmatch6'),
        'pathroute-none': ack * 24 + c('fibmatch_none') + c('fibmatch6'),
        'mixed': c('link') + c('addr') + c('addr6_del_missing') + c('route') + c('addr') + c('route_exists') +
                 c('getroute4') + c('route_del') * 4,
    }
    for k, v in seeds.items():
        with open(os.path.join(out, k), 'wb') as f:
            f.write(v)
    print('netlink_seeds:', len(seeds), 'seeds,', 'replies:', ' '.join(f'{k}={len(v)}' for k, v in r.items()))


if __name__ == '__main__':
    main()
