#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tcp_frames.py - raw OpenVPN stream frames against braidd (tcp_frames.sh).

  tcp_frames.py send HOST PORT CASE WAIT
      connect, send the bytes of CASE, then wait up to WAIT s for the peer to close the connection;
      prints "closed A.B" (seconds until the close) or "open" (still open after WAIT).
  tcp_frames.py serve HOST PORT CASE N
      a fake server: accept N connections one after another; on each, read the client's first
      frame, answer with the bytes of CASE, wait for the client to close (10 s at most);
      prints "conn I first-frame-len L closed|open" per connection.

CASE: len65535 (\\xff\\xff + 65535 random bytes), len0, len1 (one P_CONTROL_V1 opcode byte),
len9192 (P_CONTROL_V1 + random bytes), len9193 (random), split64 (length split across two segments 0.3 s apart, then a 64-byte frame: P_CONTROL_V1 +
63 random bytes), partial (a 100-byte frame with only 10 bytes sent; never completes).
"""
import os
import socket
import sys
import time


def frame(n, body=None):
    if body is None:
        body = os.urandom(n)
    return n.to_bytes(2, "big") + body


def send_case(s, case):
    if case == "len65535":
        s.sendall(b"\xff\xff" + os.urandom(65535))
    elif case == "len0":
        s.sendall(b"\x00\x00")
    elif case == "len1":
        s.sendall(frame(1, b"\x20"))
    elif case == "len9192":
        s.sendall(frame(9192, b"\x20" + os.urandom(9191)))
    elif case == "len9193":
        s.sendall(b"\x23\xe9" + os.urandom(9193))
    elif case == "split64":
        s.sendall(b"\x00")
        time.sleep(0.3)
        s.sendall(b"\x40\x20" + os.urandom(63))
    elif case == "partial":
        s.sendall(b"\x00\x64" + os.urandom(10))
    else:
        raise SystemExit("unknown case " + case)


def wait_close(s, wait):
    t0 = time.monotonic()
    s.settimeout(0.2)
    while time.monotonic() - t0 < wait:
        try:
            d = s.recv(65536)
            if not d:
                return time.monotonic() - t0
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return time.monotonic() - t0
    return None


def main():
    mode, host, port, case, arg = sys.argv[1:6]
    if mode == "send":
        s = socket.create_connection((host, int(port)), timeout=5)
        try:
            send_case(s, case)
        except (ConnectionResetError, BrokenPipeError):
            print("closed 0.0")
            return
        t = wait_close(s, float(arg))
        print("open" if t is None else "closed %.1f" % t)
        return
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((host, int(port)))
    ls.listen(4)
    ls.settimeout(30)
    for i in range(int(arg)):
        try:
            c, _ = ls.accept()
        except socket.timeout:
            print("conn %d none" % (i + 1), flush=True)
            return
        c.settimeout(10)
        hdr = b""
        while len(hdr) < 2:
            d = c.recv(2 - len(hdr))
            if not d:
                break
            hdr += d
        n = int.from_bytes(hdr, "big") if len(hdr) == 2 else -1
        left = max(n, 0)
        while left:
            d = c.recv(left)
            if not d:
                break
            left -= len(d)
        try:
            send_case(c, case)
        except (ConnectionResetError, BrokenPipeError):
            pass
        t = wait_close(c, 10)
        print("conn %d first-frame-len %d %s" % (i + 1, n, "open" if t is None else "closed"),
              flush=True)
        c.close()


if __name__ == "__main__":
    main()
