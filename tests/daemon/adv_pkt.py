#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""adv_pkt.py MODE ... - the attacker's packet tool for the adversarial netns tests (tests/daemon/adv_*.sh).

It only ever sees what an attacker on the path (capture) or off the path (everything else) could:
no key, no certificate.

  capture IFNAME PORT udp|tcp SECONDS OUTDIR
        save every IPv4 packet sent *to* PORT seen on IFNAME (AF_PACKET: what arrives there) as
        OUTDIR/NNNN-opOO-LEN.bin: UDP payloads, or for TCP the OpenVPN packets deframed from each
        connection's byte stream (the 2-byte length removed). Stops after SECONDS or on SIGTERM.
  pick OUTDIR OPCODE MINLEN      print the path of the first captured packet of OPCODE and >= MINLEN bytes
  mutate IN OUT flip:OFF | trunc:N | op:OPCODE
        a copy of IN with byte OFF xor 0x01 / cut to N bytes / the opcode bits replaced (key-id kept)
  forge OUT KIND [ARGS]          craft a packet:
        ctl LEN          P_CONTROL_V1 (op 4, key-id 0) of LEN bytes, random after the opcode
        data PEERID LEN  P_DATA_V2 (op 9) with PEERID, packet-id 1, random tag and body, LEN bytes in all
        challenge PEERID P_DATA_V2 with PEERID whose "plaintext" is a multipath PATH_CHALLENGE (docs/multipath.md
                         §6: magic, type 4, path_id, token): what a forger without the key can send
        reset            P_CONTROL_HARD_RESET_CLIENT_V2 without tls-auth/tls-crypt (14 bytes)
  udp DST PORT COUNT FILE...     send each FILE COUNT times from one UDP socket; prints "sent N from PORT"
  tcp DST PORT WAIT FILE...      connect, send each FILE framed (2-byte length; FILE "raw:HEX" sends HEX bytes
                                 unframed), then wait up to WAIT s for the gateway to close the connection:
                                 prints "closed T" (seconds after the last byte) or "open"
  hold DST PORT N CHECK_S MAX_S  open N TCP connections that send nothing; after CHECK_S prints
                                 "open K of N"; then waits until all are closed (at most MAX_S) and prints
                                 "closed K max T" (T = the latest close, in seconds after connect)
  dribble DST PORT N MAX_S       N TCP connections that send one byte a second (a frame that never ends);
                                 prints "closed K max T bytes B" when all are closed or MAX_S passed
"""
import os
import random
import select
import signal
import socket
import struct
import sys
import time

MP_MAGIC = bytes.fromhex("4252414944 2d4d50 9e3779b97f4a7c15".replace(" ", ""))


def capture(ifname, port, proto, seconds, outdir):
    os.makedirs(outdir, exist_ok=True)
    # ETH_P_ALL: a bridge port's frames reach only the taps, not the per-protocol handlers
    s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0003))
    s.bind((ifname, 0))
    s.settimeout(0.2)
    stop = [False]
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__(0, True))
    end = time.monotonic() + seconds
    n = 0
    streams = {}  # (src, sport) -> [next_seq, bytes]

    def save(pkt):
        nonlocal n
        if not pkt:
            return
        with open(os.path.join(outdir, "%04d-op%02d-%d.bin" % (n, pkt[0] >> 3, len(pkt))), "wb") as f:
            f.write(pkt)
        n += 1

    while not stop[0] and time.monotonic() < end:
        try:
            d, sa = s.recvfrom(70000)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        if sa[1] != 0x0800 or sa[2] == socket.PACKET_OUTGOING or len(d) < 20:
            continue
        ihl = (d[0] & 15) * 4
        tot = int.from_bytes(d[2:4], "big")
        d = d[:tot]
        if proto == "udp":
            if d[9] != 17 or int.from_bytes(d[ihl + 2:ihl + 4], "big") != port:
                continue
            save(d[ihl + 8:])
            continue
        if d[9] != 6 or int.from_bytes(d[ihl + 2:ihl + 4], "big") != port:
            continue
        key = (d[12:16], d[ihl:ihl + 2])
        seq = int.from_bytes(d[ihl + 4:ihl + 8], "big")
        flags = d[ihl + 13]
        doff = (d[ihl + 12] >> 4) * 4
        data = d[ihl + doff:]
        if flags & 0x02:  # SYN
            streams[key] = [(seq + 1) & 0xFFFFFFFF, b""]
            continue
        st = streams.get(key)
        if st is None or not data:
            continue
        delta = (seq - st[0]) & 0xFFFFFFFF
        if delta >= 0x80000000:  # (partly) a retransmission
            skip = (st[0] - seq) & 0xFFFFFFFF
            data = data[skip:]
        elif delta:
            del streams[key]  # a gap: this stream can no longer be deframed
            continue
        st[0] = (st[0] + len(data)) & 0xFFFFFFFF
        st[1] += data
        while len(st[1]) >= 2:
            ln = int.from_bytes(st[1][:2], "big")
            if len(st[1]) < 2 + ln:
                break
            save(st[1][2:2 + ln])
            st[1] = st[1][2 + ln:]
    print("captured %d" % n)


def pick(outdir, opcode, minlen):
    for name in sorted(os.listdir(outdir)):
        p = os.path.join(outdir, name)
        d = open(p, "rb").read()
        if d and d[0] >> 3 == opcode and len(d) >= minlen:
            print(p)
            return 0
    return 1


def mutate(src, dst, how):
    d = bytearray(open(src, "rb").read())
    kind, arg = how.split(":")
    if kind == "flip":
        d[int(arg)] ^= 0x01
    elif kind == "trunc":
        d = d[:int(arg)]
    elif kind == "op":
        d[0] = (int(arg) << 3) | (d[0] & 7)
    else:
        raise SystemExit("mutate: unknown %s" % how)
    open(dst, "wb").write(bytes(d))


def forge(out, kind, args):
    if kind == "ctl":
        n = int(args[0])
        d = bytes([4 << 3]) + os.urandom(n - 1)
    elif kind == "data":
        pid, n = int(args[0]), int(args[1])
        d = bytes([9 << 3]) + pid.to_bytes(3, "big") + struct.pack("!I", 1) + os.urandom(n - 8)
    elif kind == "challenge":
        pid = int(args[0])
        body = MP_MAGIC + bytes([4]) + struct.pack("!I", 1) + os.urandom(8)
        d = bytes([9 << 3]) + pid.to_bytes(3, "big") + struct.pack("!I", 0x7fffffff) + bytes(16) + body
    elif kind == "reset":
        d = bytes([7 << 3]) + os.urandom(8) + b"\0" + b"\0\0\0\0"
    else:
        raise SystemExit("forge: unknown kind %s" % kind)
    open(out, "wb").write(d)


def udp(dst, port, count, files):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 0))
    n = 0
    for f in files:
        d = open(f, "rb").read()
        for _ in range(count):
            s.sendto(d, (dst, port))
            n += 1
            if n % 50 == 0:
                time.sleep(0.002)
    print("sent %d from %d" % (n, s.getsockname()[1]))


def wait_closed(s, wait):
    """seconds until the peer closed s (EOF or reset), or None after wait"""
    t0 = time.monotonic()
    s.setblocking(False)
    while time.monotonic() - t0 < wait:
        r, _, _ = select.select([s], [], [], 0.05)
        if r:
            try:
                if s.recv(65536) == b"":
                    return time.monotonic() - t0
            except (ConnectionResetError, BrokenPipeError):
                return time.monotonic() - t0
            except BlockingIOError:
                pass
    return None


def tcp(dst, port, wait, files):
    s = socket.create_connection((dst, port), timeout=5)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        for f in files:
            if f.startswith("raw:"):
                s.sendall(bytes.fromhex(f[4:]))
            else:
                d = open(f, "rb").read()
                s.sendall(struct.pack("!H", len(d) & 0xFFFF) + d)
    except (ConnectionResetError, BrokenPipeError):
        print("closed 0.000")
        return
    t = wait_closed(s, wait)
    print("open" if t is None else "closed %.3f" % t)


def is_closed(s):
    try:
        return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, TimeoutError):
        return False
    except OSError:  # reset, broken pipe
        return True


def hold(dst, port, n, check_s, max_s):
    socks = []
    t0 = time.monotonic()
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect((dst, port))
        socks.append(s)
    time.sleep(check_s)
    print("open %d of %d" % (sum(not is_closed(s) for s in socks), n), flush=True)
    closed = {}
    while len(closed) < n and time.monotonic() - t0 < max_s:
        for i, s in enumerate(socks):
            if i not in closed and is_closed(s):
                closed[i] = time.monotonic() - t0
        time.sleep(0.05)
    print("closed %d max %.1f" % (len(closed), max(closed.values(), default=0)))


def dribble(dst, port, n, max_s):
    socks = [socket.create_connection((dst, port), timeout=5) for _ in range(n)]
    for s in socks:
        s.setblocking(False)
    t0 = time.monotonic()
    closed = {}
    sent = 0
    nxt = t0
    while len(closed) < n and time.monotonic() - t0 < max_s:
        if time.monotonic() >= nxt:
            nxt += 1.0
            for i, s in enumerate(socks):
                if i in closed:
                    continue
                try:
                    # a frame of length 0x2000 that never completes, one byte a second
                    s.send(b"\x20" if sent < n else b"\x00")
                    sent += 1
                except OSError:
                    closed[i] = time.monotonic() - t0
        for i, s in enumerate(socks):
            if i not in closed and is_closed(s):
                closed[i] = time.monotonic() - t0
        time.sleep(0.05)
    print("closed %d max %.1f bytes %d" % (len(closed), max(closed.values(), default=0), sent))


def main():
    a = sys.argv[1:]
    if not a:
        raise SystemExit(__doc__)
    m = a[0]
    if m == "capture":
        capture(a[1], int(a[2]), a[3], float(a[4]), a[5])
    elif m == "pick":
        return pick(a[1], int(a[2]), int(a[3]))
    elif m == "mutate":
        mutate(a[1], a[2], a[3])
    elif m == "forge":
        forge(a[1], a[2], a[3:])
    elif m == "udp":
        udp(a[1], int(a[2]), int(a[3]), a[4:])
    elif m == "tcp":
        tcp(a[1], int(a[2]), float(a[3]), a[4:])
    elif m == "hold":
        hold(a[1], int(a[2]), int(a[3]), float(a[4]), float(a[5]))
    elif m == "dribble":
        dribble(a[1], int(a[2]), int(a[3]), float(a[4]))
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    random.seed()
    sys.exit(main())
