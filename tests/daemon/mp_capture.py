# SPDX-License-Identifier: GPL-2.0-only
"""mp_capture.py IFNAME PORT MINLEN OUT [TIMEOUT_S]: save the UDP payload of the first IPv4 datagram to PORT
of at least MINLEN payload bytes seen on IFNAME (AF_PACKET, so it sees what arrives) to OUT. Exit 1 on timeout."""
import socket
import sys
import time

ifname, port, minlen, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
s.bind((ifname, 0))
s.settimeout(0.5)
end = time.monotonic() + timeout
while time.monotonic() < end:
    try:
        d = s.recv(65535)
    except socket.timeout:
        continue
    if len(d) < 28 or d[9] != 17:
        continue
    ihl = (d[0] & 15) * 4
    if int.from_bytes(d[ihl + 2:ihl + 4], "big") != port:
        continue
    payload = d[ihl + 8:]
    if len(payload) < minlen:
        continue
    with open(out, "wb") as f:
        f.write(payload)
    sys.exit(0)
sys.exit(1)
