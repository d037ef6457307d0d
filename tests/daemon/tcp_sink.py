#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""tcp_sink.py ADDR PORT OUT - accept one TCP connection on ADDR:PORT (IP_FREEBIND: the address may come later),
read it to the end, write the sha256 of its bytes (hex + newline) to OUT when it closes (renamed into place, so a
reader never sees half a line). The upload half of the gateway tests' sha256 checks (gw_lib.sh gw_sink_start,
tls_client_braidgw.sh)."""
import hashlib
import os
import socket
import sys

s = socket.socket()
s.setsockopt(socket.SOL_IP, 15, 1)  # IP_FREEBIND
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(1)
c, _ = s.accept()
h = hashlib.sha256()
while True:
    b = c.recv(65536)
    if not b:
        break
    h.update(b)
with open(sys.argv[3] + ".tmp", "w") as f:
    f.write(h.hexdigest() + "\n")
os.rename(sys.argv[3] + ".tmp", sys.argv[3])
