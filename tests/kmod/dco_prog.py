#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs inside the kmod VM with braid_dco loaded (tests/kmod/guest.sh): the scheduler program operations
PROG_ATTACH / PROG_DETACH / PROG_GET accepted and refused (errno + extack): missing attributes, a bad fd, a
socket fd, a BPF program of another type, detach with none attached, as nobody; attach, replace and detach
of a minimal sched_cls program loaded here with bpf(2). Prints one ok/not ok line per check; exit status 1
on any failure."""
import ctypes
import errno
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import braid_nl as nl  # noqa: E402

C = nl.uapi(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../kmod/uapi/linux/braid_dco.h'))
A = type('A', (), {k[len('BRAID_DCO_'):]: v for k, v in C.items() if k.startswith('BRAID_DCO_')})
n_fail = 0
libc = ctypes.CDLL(None, use_errno=True)
SYS_BPF, BPF_PROG_LOAD = 321, 5
SOCKET_FILTER, SCHED_CLS = 1, 3


def check(cond, what):
    global n_fail
    n_fail += 0 if cond else 1
    print('%s - prog: %s' % ('ok' if cond else 'not ok', what))


def refused(fn, err, msg_part, what, miss=None):
    try:
        fn()
    except nl.NlError as e:
        check(e.errno == err and msg_part in e.msg and (miss is None or e.miss == miss),
              '%s: refused %s "%s"' % (what, errno.errorcode.get(e.errno, e.errno), e.msg))
        return
    check(False, '%s: accepted, should be refused with %s' % (what, errno.errorcode[err]))


def prog_load(ptype, ret):
    """a two-instruction program (r0 = ret; exit) of type ptype; its fd"""
    insns = ctypes.create_string_buffer(struct.pack('<BBhi', 0xb7, 0, 0, ret) + struct.pack('<BBhi', 0x95, 0, 0, 0))
    lic = ctypes.create_string_buffer(b'GPL')
    attr = ctypes.create_string_buffer(struct.pack('=IIQQIIQII16s', ptype, 2, ctypes.addressof(insns),
                                                   ctypes.addressof(lic), 0, 0, 0, 0, 0, b'braid_test'), 128)
    fd = libc.syscall(SYS_BPF, BPF_PROG_LOAD, attr, 128)
    if fd < 0:
        sys.exit('bpf(BPF_PROG_LOAD): %s' % os.strerror(ctypes.get_errno()))
    return fd


g = nl.Genl(C['BRAID_DCO_FAMILY_NAME'])
ifindex = nl.Rtnl().link_add('bpfdco%d' % (os.getpid() % 10000), 'braid_dco')


def attach(fd):
    return g.cmd(A.CMD_PROG_ATTACH, nl.attr(A.A_IFINDEX, ifindex), nl.nest(A.A_SCHED, nl.attr(A.A_SCHED_PROG_FD, fd)))


def get():
    r = g.cmd(A.CMD_PROG_GET, nl.attr(A.A_IFINDEX, ifindex))
    s = nl.parse(r[0][A.A_SCHED][0])
    return (nl.u32(s[A.A_SCHED_PROG_ID][0]) if A.A_SCHED_PROG_ID in s else 0,
            nl.u64(s[A.A_SCHED_RUNS][0]), nl.u64(s[A.A_SCHED_FALLBACKS][0]))


check(get() == (0, 0, 0), 'PROG_GET on a new device: no program, 0 runs, 0 fallbacks: %s' % (get(),))
s0 = nl.parse(g.cmd(A.CMD_PROG_GET, nl.attr(A.A_IFINDEX, ifindex))[0][A.A_SCHED][0])
check(nl.u64(s0[A.A_SCHED_COPIES][0]) == 0 and nl.u64(s0[A.A_SCHED_REROUTES][0]) == 0,
      'PROG_GET on a new device: 0 copies, 0 reroutes')
refused(lambda: g.cmd(A.CMD_PROG_DETACH, nl.attr(A.A_IFINDEX, ifindex)), errno.ENOENT,
        'no scheduler program is attached', 'PROG_DETACH with none attached')
refused(lambda: g.cmd(A.CMD_PROG_ATTACH, nl.attr(A.A_IFINDEX, ifindex)), errno.EINVAL, '',
        'PROG_ATTACH without the sched nest', miss=A.A_SCHED)
refused(lambda: g.cmd(A.CMD_PROG_ATTACH, nl.attr(A.A_IFINDEX, ifindex), nl.nest(A.A_SCHED)), errno.EINVAL, '',
        'PROG_ATTACH without prog-fd', miss=A.A_SCHED_PROG_FD)
refused(lambda: attach(9999), errno.EBADF, 'prog-fd is not an open file descriptor', 'PROG_ATTACH fd 9999')
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
refused(lambda: attach(s.fileno()), errno.EINVAL, 'not a BPF program of type sched_cls', 'PROG_ATTACH a socket fd')
s.close()
sf = prog_load(SOCKET_FILTER, 0)
refused(lambda: attach(sf), errno.EINVAL, 'not a BPF program of type sched_cls',
        'PROG_ATTACH a socket_filter program')
refused(lambda: g.cmd(A.CMD_PROG_ATTACH, nl.attr(A.A_IFINDEX, ifindex), nl.nest(
    A.A_SCHED, nl.attr(A.A_SCHED_PROG_FD, sf), nl.attr(A.A_SCHED_RUNS, struct.pack('=Q', 1)))),
    errno.EINVAL, 'attribute', 'PROG_ATTACH with a reply-only attribute (runs)')
refused(lambda: g.cmd(A.CMD_PROG_GET), errno.EINVAL, '', 'PROG_GET without ifindex', miss=A.A_IFINDEX)
p1, p2 = prog_load(SCHED_CLS, 0), prog_load(SCHED_CLS, 1)
try:
    attach(p1)
    check(True, 'PROG_ATTACH a sched_cls program')
except nl.NlError as e:
    check(False, 'PROG_ATTACH a sched_cls program: %s' % e)
id1 = get()[0]
check(id1 > 0, 'PROG_GET names the attached program: id %d' % id1)
os.close(p1)
attach(p2)
id2 = get()[0]
check(id2 > 0 and id2 != id1, 'PROG_ATTACH again replaces it: id %d -> %d' % (id1, id2))
pid = os.fork()
if pid == 0:
    os.setgid(65534)
    os.setuid(65534)
    try:
        g2 = nl.Genl(C['BRAID_DCO_FAMILY_NAME'])
        g2.cmd(A.CMD_PROG_DETACH, nl.attr(A.A_IFINDEX, ifindex))
        os._exit(1)
    except nl.NlError as e:
        os._exit(0 if e.errno == errno.EPERM else 2)
check(os.waitpid(pid, 0)[1] == 0, 'PROG_DETACH as nobody: EPERM')
g.cmd(A.CMD_PROG_DETACH, nl.attr(A.A_IFINDEX, ifindex))
check(get()[0] == 0, 'PROG_DETACH: no program attached')
attach(p2)
nl.Rtnl().link_del(ifindex)
check(True, 'a device deleted with a program attached')
print('prog: %d failed' % n_fail)
sys.exit(1 if n_fail else 0)
