#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""soak_stream.py - one long, sha256-checked TCP stream for the soak test (tests/daemon/soak_flaps.sh).

  soak_stream.py serve --port P --seconds S --rate BYTES_PER_S --out RESULT.json [--ready FILE]
      accept exactly ONE connection (the listening socket is closed right after), send random bytes paced at
      RATE for S seconds, then half-close and wait for the peer's close. RESULT.json: bytes, sha256 of what
      was sent, the peer address, and the connection's TCP_INFO (retransmissions, rtt) at the end.
  soak_stream.py fetch --host H --port P --out RESULT.json --progress PROGRESS.csv
      connect once, read until EOF, hash what arrives; every second one line "t,bytes" to PROGRESS.csv.
      RESULT.json: bytes, sha256, local/peer address, the longest stall (no byte arrived) in seconds.

Either side exits 1 (and writes "error" into its result) when the connection breaks (RST, timeout of
--timeout seconds without progress): a reconnect is impossible by construction, so a result with the same
byte count and sha256 on both sides proves that one TCP connection carried the whole stream.
"""
import argparse
import hashlib
import json
import os
import socket
import struct
import sys
import time

CHUNK = 16384


def tcp_info(s):
    """Selected fields of struct tcp_info (linux/tcp.h): 8 bytes of u8 fields, then u32s."""
    try:
        raw = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    except OSError:
        return {}
    u32 = struct.unpack_from('<24I', raw, 8)
    return {'rtt_us': u32[15], 'rttvar_us': u32[16], 'snd_cwnd': u32[18], 'total_retrans': u32[23]}


def write_json(path, obj):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(obj, f, sort_keys=True)
        f.write('\n')
    os.replace(tmp, path)


def serve(a):
    ls = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    ls.bind(('::', a.port))
    ls.listen(1)
    if a.ready:
        open(a.ready, 'w').close()
    ls.settimeout(a.accept_timeout)
    c, peer = ls.accept()
    ls.close()  # one connection only: a reconnect would be refused
    c.settimeout(a.timeout)
    h = hashlib.sha256()
    sent = 0
    res = {'peer': '%s:%d' % (peer[0], peer[1])}
    start = time.monotonic()
    try:
        while True:
            el = time.monotonic() - start
            if el >= a.seconds:
                break
            allowed = int(a.rate * el) - sent  # token bucket without burst beyond one chunk
            if allowed < CHUNK:
                time.sleep(min(0.01, (CHUNK - allowed) / a.rate))
                continue
            buf = os.urandom(CHUNK)
            c.sendall(buf)
            h.update(buf)
            sent += len(buf)
        res['tcp_info'] = tcp_info(c)
        c.shutdown(socket.SHUT_WR)
        # wait for the client's close (it has everything once it sees our FIN)
        while c.recv(4096):
            pass
    except OSError as e:
        res['error'] = '%s after %d bytes, %.1f s' % (e, sent, time.monotonic() - start)
    res.update(bytes=sent, sha256=h.hexdigest(), seconds=round(time.monotonic() - start, 3))
    c.close()
    write_json(a.out, res)
    return 1 if 'error' in res else 0


def fetch(a):
    h = hashlib.sha256()
    got = 0
    res = {}
    c = socket.create_connection((a.host, a.port), timeout=a.timeout)
    res['local'] = '%s:%d' % c.getsockname()[:2]
    res['peer'] = '%s:%d' % c.getpeername()[:2]
    start = last_rx = time.monotonic()
    next_tick = 1.0
    stall = 0.0
    prog = open(a.progress, 'w', buffering=1)
    prog.write('t,bytes\n0,0\n')
    try:
        while True:
            # short timeouts so the progress file keeps ticking through a stall
            c.settimeout(0.25)
            try:
                buf = c.recv(65536)
            except socket.timeout:
                buf = None
            now = time.monotonic()
            if buf == b'':
                break
            if buf:
                h.update(buf)
                got += len(buf)
                stall = max(stall, now - last_rx)
                last_rx = now
            elif now - last_rx > a.timeout:
                raise TimeoutError('no byte for %d s' % a.timeout)
            while now - start >= next_tick:
                prog.write('%d,%d\n' % (next_tick, got))
                next_tick += 1.0
    except OSError as e:
        res['error'] = '%s after %d bytes, %.1f s' % (e, got, time.monotonic() - start)
    res.update(bytes=got, sha256=h.hexdigest(), seconds=round(time.monotonic() - start, 3),
               max_stall_s=round(stall, 3))
    prog.write('%.3f,%d\n' % (time.monotonic() - start, got))
    prog.close()
    c.close()
    write_json(a.out, res)
    return 1 if 'error' in res else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = p.add_subparsers(dest='cmd', required=True)
    s = sub.add_parser('serve')
    s.add_argument('--port', type=int, required=True)
    s.add_argument('--seconds', type=float, required=True)
    s.add_argument('--rate', type=float, required=True, help='bytes per second')
    s.add_argument('--out', required=True)
    s.add_argument('--ready')
    s.add_argument('--timeout', type=float, default=60)
    s.add_argument('--accept-timeout', type=float, default=60)
    f = sub.add_parser('fetch')
    f.add_argument('--host', required=True)
    f.add_argument('--port', type=int, required=True)
    f.add_argument('--out', required=True)
    f.add_argument('--progress', required=True)
    f.add_argument('--timeout', type=float, default=60)
    a = p.parse_args()
    return serve(a) if a.cmd == 'serve' else fetch(a)


if __name__ == '__main__':
    sys.exit(main())
