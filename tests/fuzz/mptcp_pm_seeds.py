#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# mptcp_pm_seeds.py OUTDIR - the seed corpus of fuzz_mptcp_pm from the running kernel: in a fresh network
# namespace (`ip netns exec NS python3 mptcp_pm_seeds.py DIR`, root), ask the generic netlink controller for
# "mptcp_pm", add two endpoints, set and get the limits, dump the endpoints, provoke an error, and record each
# received buffer as a seed (byte 0: 0 reply, 2 controller); plus hand-built events (byte 0: 1).
import os
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
F_REQUEST, F_ACK, F_DUMP = 1, 4, 0x300
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
s.bind((0, 0))
seq = 1
n_seeds = 0


def attr(t, payload):
    ln = 4 + len(payload)
    return struct.pack("=HH", ln, t) + payload + b"\0" * ((4 - ln % 4) % 4)


def msg(t, flags, cmd, attrs, version=1):
    global seq
    seq += 1
    body = struct.pack("=BBH", cmd, version, 0) + attrs
    return struct.pack("=IHHII", 16 + len(body), t, flags, seq, 0) + body


def save(kind, data, name):
    global n_seeds
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes([kind]) + data)
    n_seeds += 1


def talk(req, kind, name):
    s.send(req)
    i = 0
    first = None
    while True:
        data = s.recv(65536)
        save(kind, data, f"{name}-{i}")
        first = first or data
        i += 1
        # stop at an error/ACK or DONE message
        off, stop = 0, False
        while off + 16 <= len(data):
            ln, t = struct.unpack_from("=IH", data, off)
            if t in (2, 3):
                stop = True
            off += (ln + 3) & ~3
        if stop or i > 8:
            return first


r = talk(msg(GENL_ID_CTRL, F_REQUEST | F_ACK, 3, attr(2, b"mptcp_pm\0")), 2, "ctrl-family")
fam = None
off = 20
while off + 4 <= len(r):
    ln, t = struct.unpack_from("=HH", r, off)
    if t == 1:
        fam = struct.unpack_from("=H", r, off + 4)[0]
    off += (ln + 3) & ~3
assert fam, "no mptcp_pm family"


def addr(fam_, a, flags, ifidx=0, port=0, id_=0):
    p = attr(1, struct.pack("=H", fam_))
    p += attr(3 if fam_ == socket.AF_INET else 4, socket.inet_pton(fam_, a))
    if id_:
        p += attr(2, bytes([id_]))
    if port:
        p += attr(5, struct.pack("=H", port))
    p += attr(6, struct.pack("=I", flags))
    if ifidx:
        p += attr(7, struct.pack("=i", ifidx))
    return attr(1 | 0x8000, p)


os.system("ip link add dummy0 type veth peer name dummy1; ip link set dummy0 up; ip link set dummy1 up; "
          "ip addr add 10.77.0.1/24 dev dummy0; ip addr add fd77::1/64 dev dummy0 nodad")
idx = socket.if_nametoindex("dummy0")
talk(msg(fam, F_REQUEST | F_ACK, 1, addr(socket.AF_INET, "10.77.0.1", 2, idx)), 0, "add-v4")
talk(msg(fam, F_REQUEST | F_ACK, 1, addr(socket.AF_INET6, "fd77::1", 1 | 4, idx, 1194)), 0, "add-v6")
talk(msg(fam, F_REQUEST | F_ACK, 1, addr(socket.AF_INET, "10.77.0.1", 2, idx)), 0, "add-dup-error")
talk(msg(fam, F_REQUEST | F_ACK, 5, attr(2, struct.pack("=I", 4)) + attr(3, struct.pack("=I", 4))), 0, "set-limits")
talk(msg(fam, F_REQUEST | F_ACK, 6, b""), 0, "get-limits")
talk(msg(fam, F_REQUEST | F_ACK | F_DUMP, 3, b""), 0, "dump")
talk(msg(fam, F_REQUEST | F_ACK, 2, attr(1 | 0x8000, attr(2, bytes([200])))), 0, "del-missing")
# the userspace path manager's commands (ANNOUNCE 8, SUBFLOW_CREATE 10, SUBFLOW_DESTROY 11) on an unknown token:
# the kernel's error replies, with their extended ACK (MPTCP_PM_ATTR_TOKEN 4, ADDR_REMOTE 6)
os.system("sysctl -qw net.mptcp.pm_type=1")
tok = attr(4, struct.pack("=I", 0x1234))
talk(msg(fam, F_REQUEST | F_ACK, 8, tok + addr(socket.AF_INET, "10.77.0.1", 1, 0, 0, 3)), 0, "announce-no-token")
rem = attr(6 | 0x8000, attr(1, struct.pack("=H", 2)) + attr(3, socket.inet_pton(socket.AF_INET, "10.77.0.2")) +
           attr(5, struct.pack("=H", 1194)))
# SET_FLAGS (7) of one subflow by token (backup: local address and port, remote address and port)
talk(msg(fam, F_REQUEST | F_ACK, 7, tok + addr(socket.AF_INET, "10.77.0.1", 4, 0, 40000) + rem), 0,
     "set-flags-token-no-token")
talk(msg(fam, F_REQUEST | F_ACK, 10, tok + addr(socket.AF_INET, "10.77.0.1", 0, idx, 0, 2) + rem), 0,
     "subflow-create-no-token")
talk(msg(fam, F_REQUEST | F_ACK, 11, tok + addr(socket.AF_INET, "10.77.0.1", 0, 0, 40000) + rem), 0,
     "subflow-destroy-no-token")
talk(msg(fam, F_REQUEST | F_ACK, 10, tok + addr(socket.AF_INET, "10.77.0.1", 0, idx)), 0, "subflow-create-no-id")
os.system("sysctl -qw net.mptcp.pm_type=0")


# events as the kernel sends them (MPTCP_EVENT_SUB_ESTABLISHED = 10, CREATED = 1, ANNOUNCED = 6)
def ev(cmd, attrs):
    return msg(fam, 0, cmd, attrs)


v4 = socket.inet_pton(socket.AF_INET, "10.2.1.2")
d4 = socket.inet_pton(socket.AF_INET, "10.1.2.2")
v6 = socket.inet_pton(socket.AF_INET6, "fd0b:2:1::2")
save(1, ev(1, attr(1, struct.pack("=I", 0x15beff83)) + attr(2, struct.pack("=H", 2)) + attr(5, v4) + attr(7, d4) +
           attr(9, struct.pack("!H", 40000)) + attr(10, struct.pack("!H", 1194))), "event-created")
save(1, ev(10, attr(1, struct.pack("=I", 7)) + attr(2, struct.pack("=H", 2)) + attr(3, b"\x02") + attr(4, b"\x00") +
           attr(5, v4) + attr(7, d4) + attr(9, struct.pack("!H", 40001)) + attr(10, struct.pack("!H", 1194)) +
           attr(11, b"\x01") + attr(15, struct.pack("=i", 3))), "event-sub-established")
save(1, ev(6, attr(1, struct.pack("=I", 7)) + attr(2, struct.pack("=H", 10)) + attr(4, b"\x01") + attr(8, v6) +
           attr(10, struct.pack("!H", 1194))), "event-announced-v6")
save(1, ev(11, attr(1, struct.pack("=I", 7)) + attr(12, b"\x6e")), "event-sub-closed")
# established / closed as the userspace path manager follows them: server side as the flags attribute (13, 6.10+)
# and as the older server_side attribute (18)
save(1, ev(2, attr(1, struct.pack("=I", 0x15beff83)) + attr(2, struct.pack("=H", 2)) + attr(5, d4) + attr(7, v4) +
           attr(9, struct.pack("!H", 1194)) + attr(10, struct.pack("!H", 40000)) + attr(13, struct.pack("=H", 1)) +
           attr(18, b"\x01")), "event-established-server")
save(1, ev(2, attr(1, struct.pack("=I", 9)) + attr(2, struct.pack("=H", 2)) + attr(5, v4) + attr(7, d4) +
           attr(9, struct.pack("!H", 40002)) + attr(10, struct.pack("!H", 1194))) +
     ev(3, attr(1, struct.pack("=I", 9))), "event-established-closed")
# MP_PRIO: sub-priority (13) with the backup attribute (11) set, then cleared
save(1, ev(13, attr(1, struct.pack("=I", 7)) + attr(2, struct.pack("=H", 2)) + attr(3, b"\x00") + attr(4, b"\x02") +
           attr(5, d4) + attr(7, v4) + attr(9, struct.pack("!H", 1194)) + attr(10, struct.pack("!H", 40001)) +
           attr(11, b"\x01") + attr(15, struct.pack("=i", 2))) +
     ev(13, attr(1, struct.pack("=I", 7)) + attr(2, struct.pack("=H", 2)) + attr(5, d4) + attr(7, v4) +
        attr(9, struct.pack("!H", 1194)) + attr(10, struct.pack("!H", 40001)) + attr(11, b"\x00")), "event-sub-priority")
print(f"{n_seeds} seeds in {out}")
