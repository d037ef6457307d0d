#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""braid_dco netlink tests, run inside the VM with the module loaded (tests/kmod/vm_kmod.sh):
devices through rtnetlink (p2p, mp, a refused mode), then every generic netlink operation accepted
and refused (errno + extack message checked), the peer-del notifications, and at the end the
created/destroyed balance read with STATS_GET after all devices are gone. Prints TAP-like lines
and exits non-zero if any check failed."""
import errno
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import braid_nl as nl  # noqa: E402

C = nl.uapi(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../kmod/uapi/linux/braid_dco.h'))
A = type('A', (), {k[len('BRAID_DCO_'):]: v for k, v in C.items() if k.startswith('BRAID_DCO_')})
n_ok = n_fail = 0
handler_rejections = 0   # refusals by the module's handlers (counted in STATS_GET); policy refusals are the core's


def check(cond, what):
    global n_ok, n_fail
    if cond:
        n_ok += 1
        print('ok - %s' % what)
    else:
        n_fail += 1
        print('not ok - %s' % what)


def refused(fn, err, msg_part, what, handler=True, miss=None):
    """fn() must fail with errno err and an extack message containing msg_part"""
    global handler_rejections
    try:
        fn()
    except nl.NlError as e:
        good = e.errno == err and msg_part in e.msg and (miss is None or e.miss == miss)
        check(good, '%s: refused %s "%s"%s' % (what, errno.errorcode.get(e.errno, e.errno), e.msg,
                                                '' if miss is None else ' missing attr %s' % e.miss))
        if handler and e.errno == err:
            handler_rejections += 1
        return
    check(False, '%s: accepted, should be refused with %s' % (what, errno.errorcode[err]))


def accepted(fn, what):
    try:
        r = fn()
        check(True, what)
        return r
    except nl.NlError as e:
        check(False, '%s: %s "%s"' % (what, errno.errorcode.get(e.errno, e.errno), e.msg))
        return None


g = nl.Genl(C['BRAID_DCO_FAMILY_NAME'])
mon = nl.Genl(C['BRAID_DCO_FAMILY_NAME'])
mon.subscribe(C['BRAID_DCO_MCGRP_PEERS'])
rt = nl.Rtnl()
tag = os.getpid() % 10000


def ifx(i):
    return nl.attr(A.A_IFINDEX, i)


def peer(*a):
    return nl.nest(A.A_PEER, *a)


def peer_new(dev, pid, *extra):
    return g.cmd(A.CMD_PEER_NEW, ifx(dev), peer(nl.attr(A.A_PEER_ID, pid), *extra))


def stats():
    s = nl.parse(g.cmd(A.CMD_STATS_GET)[0][A.A_STATS][0])
    return {k: nl.u64(s[v][0]) for k, v in (
        ('devs+', A.A_STATS_DEVS_CREATED), ('devs-', A.A_STATS_DEVS_DESTROYED),
        ('peers+', A.A_STATS_PEERS_CREATED), ('peers-', A.A_STATS_PEERS_DESTROYED),
        ('paths+', A.A_STATS_PATHS_CREATED), ('paths-', A.A_STATS_PATHS_DESTROYED),
        ('keys+', A.A_STATS_KEYS_CREATED), ('keys-', A.A_STATS_KEYS_DESTROYED),
        ('rejected', A.A_STATS_REJECTED))}


base = stats()
check(all(base[k] == 0 for k in base), 'STATS_GET on a fresh module: all zero %s' % base)
refused(lambda: g.cmd(A.CMD_STATS_GET, ifx(1)), errno.EINVAL, 'Unsupported attribute',
        'STATS_GET with an attribute', handler=False)

# --- devices (rtnetlink) ---
p2p = accepted(lambda: rt.link_add('bdp%d' % tag, 'braid_dco'), 'link add p2p (default mode)')
mp = accepted(lambda: rt.link_add('bdm%d' % tag, 'braid_dco',
                                  nl.attr(C['IFLA_BRAID_DCO_MODE'], struct.pack('B', A.MODE_MP))),
              'link add mp')
refused(lambda: rt.link_add('bdx%d' % tag, 'braid_dco', nl.attr(C['IFLA_BRAID_DCO_MODE'], struct.pack('B', 2))),
        errno.ERANGE, 'out of range', 'link add mode 2', handler=False)

# --- device lookup ---
refused(lambda: peer_new(1, 5), errno.EINVAL, 'not a braid_dco device', 'PEER_NEW on lo')
refused(lambda: peer_new(999999, 5), errno.ENODEV, 'no such interface', 'PEER_NEW on a missing ifindex')
refused(lambda: g.cmd(A.CMD_PEER_NEW, peer(nl.attr(A.A_PEER_ID, 5))), errno.EINVAL, '',
        'PEER_NEW without ifindex', miss=A.A_IFINDEX)

# --- peers ---
accepted(lambda: peer_new(p2p, 1, nl.attr(A.A_PEER_VPN_IPV4, socket.inet_aton('10.8.0.2'))), 'PEER_NEW p2p id 1')
refused(lambda: peer_new(p2p, 2), errno.EEXIST, 'only one peer', 'PEER_NEW second peer on p2p')
refused(lambda: peer_new(mp, A.PEER_ID_MAX + 1), errno.ERANGE, 'out of range', 'PEER_NEW id > 0xFFFFFF',
        handler=False)
refused(lambda: g.cmd(A.CMD_PEER_NEW, ifx(mp), peer(nl.attr(A.A_PEER_VPN_IPV4, b'\x0a\0\0\x03'))),
        errno.EINVAL, '', 'PEER_NEW without id', miss=A.A_PEER_ID)
refused(lambda: peer_new(mp, 3, nl.attr(A.A_PEER_VPN_IPV4, b'\x0a\0\0')), errno.ERANGE, '',
        'PEER_NEW vpn-ipv4 of 3 bytes', handler=False)
refused(lambda: peer_new(mp, 3, nl.attr(A.A_PEER_VPN_TX_BYTES, struct.pack('=Q', 1))), errno.EINVAL,
        'Unsupported attribute', 'PEER_NEW with a reply-only counter', handler=False)
refused(lambda: peer_new(mp, 3, nl.attr(40, 1)), errno.EINVAL, 'Unknown attribute type',
        'PEER_NEW with an unknown attribute', handler=False)
for i in (1, 2, 3):
    accepted(lambda: peer_new(mp, i, nl.attr(A.A_PEER_VPN_IPV4, socket.inet_aton('10.9.0.%d' % (i + 1))),
                              nl.attr(A.A_PEER_VPN_IPV6, socket.inet_pton(socket.AF_INET6, 'fd00::%d' % i))),
             'PEER_NEW mp id %d' % i)
refused(lambda: peer_new(mp, 2), errno.EEXIST, 'with this id exists', 'PEER_NEW duplicate id')

# --- paths ---
def path_events():
    """the PATH_NTF notifications waiting: (ifindex, peer, path, event, down, backup, tx-failing) each"""
    out = []
    while True:
        n = mon.notification(0.3)
        if n is None:
            return out
        if n[0] != A.CMD_PATH_NTF:
            out.append(('other', n[0]))
            continue
        pa = nl.parse(n[1][A.A_PATH][0])
        out.append((nl.u32(n[1][A.A_IFINDEX][0]), nl.u32(pa[A.A_PATH_PEER_ID][0]), nl.u32(pa[A.A_PATH_ID][0]),
                    nl.u32(pa[A.A_PATH_EVENT][0]), pa[A.A_PATH_DOWN][0][0], pa[A.A_PATH_BACKUP][0][0],
                    pa[A.A_PATH_TX_FAILING][0][0]) + ((nl.u32(pa[A.A_PATH_ERROR][0]),) if A.A_PATH_ERROR in pa else ()))


path_events()   # drain what the peer operations sent
u4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u4.bind(('127.0.0.1', 0))
u6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
t4 = socket.socket(socket.AF_INET, socket.SOCK_STREAM)


def path_add(dev, pid, path_id, fd, *addr):
    return g.cmd(A.CMD_PATH_ADD, ifx(dev), nl.nest(A.A_PATH, nl.attr(A.A_PATH_PEER_ID, pid),
                                                   nl.attr(A.A_PATH_ID, path_id), nl.attr(A.A_PATH_SOCKET, fd),
                                                   *addr))


def r4(ip='127.0.0.2', port=1194):
    return [nl.attr(A.A_PATH_REMOTE_IPV4, socket.inet_aton(ip)), nl.attr(A.A_PATH_REMOTE_PORT, struct.pack('=H', port))]


r6 = [nl.attr(A.A_PATH_REMOTE_IPV6, socket.inet_pton(socket.AF_INET6, '::1')),
      nl.attr(A.A_PATH_REMOTE_PORT, struct.pack('=H', 1194))]
accepted(lambda: path_add(mp, 1, 0, u4.fileno(), *r4()), 'PATH_ADD peer 1 path 0 (UDPv4)')
accepted(lambda: path_add(mp, 1, 1, u6.fileno(), *r6), 'PATH_ADD peer 1 path 1 (UDPv6)')
accepted(lambda: path_add(mp, 1, 2, u6.fileno(), *r4('127.0.0.3')), 'PATH_ADD peer 1 path 2 (IPv4 on a v6 socket)')
accepted(lambda: path_add(mp, 2, 0, u4.fileno(), *r4('127.0.0.4'),
                          nl.attr(A.A_PATH_LOCAL_IPV4, socket.inet_aton('127.0.0.1')),
                          nl.attr(A.A_PATH_LOCAL_PORT, struct.pack('=H', u4.getsockname()[1]))),
         'PATH_ADD peer 2 path 0, shared socket, local endpoint')
u4b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
refused(lambda: path_add(p2p, 1, 0, u4.fileno(), *r4()), errno.EBUSY, 'serves another braid_dco device',
        'PATH_ADD with a socket of the other device')
accepted(lambda: path_add(p2p, 1, 0, u4b.fileno(), *r4()), 'PATH_ADD p2p peer (own socket)')
u4b.close()
refused(lambda: path_add(mp, 1, 0, u4.fileno(), *r4()), errno.EEXIST, 'has a path with this id', 'PATH_ADD id in use')
refused(lambda: path_add(mp, 1, 3, t4.fileno(), *r4()), errno.EPROTONOSUPPORT, 'not a UDP socket', 'PATH_ADD TCP socket')
refused(lambda: path_add(mp, 1, 3, 9999, *r4()), errno.EBADF, 'not an open socket', 'PATH_ADD closed fd')
refused(lambda: path_add(mp, 1, 3, u4.fileno(), *r6), errno.EAFNOSUPPORT, 'cannot reach', 'PATH_ADD IPv6 remote on a v4 socket')
refused(lambda: path_add(mp, 9, 3, u4.fileno(), *r4()), errno.ENOENT, 'no peer with this id', 'PATH_ADD unknown peer')
refused(lambda: path_add(mp, 1, A.PATHS_MAX, u4.fileno(), *r4()), errno.ERANGE, 'out of range', 'PATH_ADD id 8',
        handler=False)
refused(lambda: path_add(mp, 1, 3, u4.fileno(), *r4(port=0)), errno.ERANGE, 'out of range', 'PATH_ADD port 0',
        handler=False)
refused(lambda: path_add(mp, 1, 3, u4.fileno(), *r4(), r6[0]), errno.EINVAL, 'not both', 'PATH_ADD v4 and v6 remote')
refused(lambda: path_add(mp, 1, 3, u4.fileno()), errno.EINVAL, 'required', 'PATH_ADD without remote')
refused(lambda: path_add(mp, 1, 3, u4.fileno(), r4()[0]), errno.EINVAL, '', 'PATH_ADD without remote port',
        miss=A.A_PATH_REMOTE_PORT)
refused(lambda: g.cmd(A.CMD_PATH_ADD, ifx(mp), nl.nest(A.A_PATH, nl.attr(A.A_PATH_PEER_ID, 1),
                                                       nl.attr(A.A_PATH_ID, 3), *r4())),
        errno.EINVAL, '', 'PATH_ADD without socket', miss=A.A_PATH_SOCKET)
u6.close()   # the module holds its own reference: the paths stay
accepted(lambda: g.cmd(A.CMD_PATH_DEL, ifx(mp), nl.nest(A.A_PATH, nl.attr(A.A_PATH_PEER_ID, 1),
                                                        nl.attr(A.A_PATH_ID, 2))), 'PATH_DEL peer 1 path 2')
refused(lambda: g.cmd(A.CMD_PATH_DEL, ifx(mp), nl.nest(A.A_PATH, nl.attr(A.A_PATH_PEER_ID, 1),
                                                       nl.attr(A.A_PATH_ID, 2))),
        errno.ENOENT, 'no path with this id', 'PATH_DEL again')
ADDED, DELETED, SET = A.PATH_EVENT_ADDED, A.PATH_EVENT_DELETED, A.PATH_EVENT_SET
ev = path_events()
check(ev == [(mp, 1, 0, ADDED, 0, 0, 0), (mp, 1, 1, ADDED, 0, 0, 0), (mp, 1, 2, ADDED, 0, 0, 0),
             (mp, 2, 0, ADDED, 0, 0, 0), (p2p, 1, 0, ADDED, 0, 0, 0), (mp, 1, 2, DELETED, 0, 0, 0)],
      'PATH_NTF: added for the 5 accepted PATH_ADDs, deleted for the PATH_DEL, none for the refusals: %s' % ev)


def path_set(ifindex, peer_id, path_id, *attrs):
    return g.cmd(A.CMD_PATH_SET, ifx(ifindex), nl.nest(A.A_PATH, nl.attr(A.A_PATH_PEER_ID, peer_id),
                                                       nl.attr(A.A_PATH_ID, path_id), *attrs))


def path_state(ifindex, peer_id, path_id):
    """(down, backup) of a path as PEER_GET reports it"""
    r = g.cmd(A.CMD_PEER_GET, ifx(ifindex), nl.nest(A.A_PEER, nl.attr(A.A_PEER_ID, peer_id)))
    p = nl.parse(r[0][A.A_PEER][0])
    for x in p.get(A.A_PEER_PATH, []):
        pa = nl.parse(x)
        if nl.u32(pa[A.A_PATH_ID][0]) == path_id:
            return pa[A.A_PATH_DOWN][0][0], pa[A.A_PATH_BACKUP][0][0]
    return None


def u8(atype, v):
    return nl.attr(atype, struct.pack('=B', v))


check(path_state(mp, 1, 0) == (0, 0), 'PEER_GET: a new path is up, not a backup')
accepted(lambda: path_set(mp, 1, 0, u8(A.A_PATH_DOWN, 1), u8(A.A_PATH_BACKUP, 1)), 'PATH_SET path 0 down, backup')
check(path_state(mp, 1, 0) == (1, 1), 'PEER_GET: path 0 down and backup')
accepted(lambda: path_set(mp, 1, 0, u8(A.A_PATH_DOWN, 0)), 'PATH_SET path 0 up (backup unchanged)')
check(path_state(mp, 1, 0) == (0, 1), 'PEER_GET: path 0 up, still backup')
accepted(lambda: path_set(mp, 1, 0, u8(A.A_PATH_BACKUP, 0)), 'PATH_SET path 0 not backup')
check(path_state(mp, 1, 0) == (0, 0), 'PEER_GET: path 0 back to up, not backup')
refused(lambda: path_set(mp, 1, 2, u8(A.A_PATH_DOWN, 1)), errno.ENOENT, 'no path with this id', 'PATH_SET removed path')
refused(lambda: path_set(mp, 9, 0, u8(A.A_PATH_DOWN, 1)), errno.ENOENT, 'no peer with this id', 'PATH_SET unknown peer')
refused(lambda: path_set(mp, 1, 0), errno.EINVAL, 'nothing to set', 'PATH_SET without down or backup')
refused(lambda: path_set(mp, 1, 0, u8(A.A_PATH_DOWN, 2)), errno.ERANGE, 'out of range', 'PATH_SET down 2',
        handler=False)
refused(lambda: g.cmd(A.CMD_PATH_SET, ifx(mp), nl.nest(A.A_PATH, nl.attr(A.A_PATH_PEER_ID, 1),
                                                       u8(A.A_PATH_DOWN, 1))),
        errno.EINVAL, '', 'PATH_SET without path id', miss=A.A_PATH_ID)
refused(lambda: path_set(mp, 1, 0, nl.attr(A.A_PATH_SOCKET, 3)), errno.EINVAL, 'Unsupported attribute',
        'PATH_SET with a socket',
        handler=False)
ev = path_events()
check(ev == [(mp, 1, 0, SET, 1, 1, 0), (mp, 1, 0, SET, 0, 1, 0), (mp, 1, 0, SET, 0, 0, 0)],
      'PATH_NTF: set, with the state after it, for the 3 accepted PATH_SETs only: %s' % ev)


# --- keys ---
def key_new(dev, pid, slot, key_id, alg, ek=b'k' * 32, dk=b'K' * 32, en=b'n' * 8, dn=b'N' * 8):
    return g.cmd(A.CMD_KEY_NEW, ifx(dev), nl.nest(
        A.A_KEYCONF, nl.attr(A.A_KEYCONF_PEER_ID, pid), nl.attr(A.A_KEYCONF_SLOT, slot),
        nl.attr(A.A_KEYCONF_KEY_ID, key_id), nl.attr(A.A_KEYCONF_CIPHER_ALG, alg),
        nl.nest(A.A_KEYCONF_ENCRYPT_DIR, nl.attr(A.A_KEYDIR_CIPHER_KEY, ek), nl.attr(A.A_KEYDIR_NONCE_TAIL, en)),
        nl.nest(A.A_KEYCONF_DECRYPT_DIR, nl.attr(A.A_KEYDIR_CIPHER_KEY, dk), nl.attr(A.A_KEYDIR_NONCE_TAIL, dn))))


def keyconf(cmd, dev, pid, *a):
    return g.cmd(cmd, ifx(dev), nl.nest(A.A_KEYCONF, nl.attr(A.A_KEYCONF_PEER_ID, pid), *a))


def key_ids(dev, pid):
    p = nl.parse(g.cmd(A.CMD_PEER_GET, ifx(dev), peer(nl.attr(A.A_PEER_ID, pid)))[0][A.A_PEER][0])
    return tuple(nl.u32(p[a][0]) if a in p else None for a in (A.A_PEER_PRIMARY_KEY_ID, A.A_PEER_SECONDARY_KEY_ID))


PRI, SEC = A.KEY_SLOT_PRIMARY, A.KEY_SLOT_SECONDARY
accepted(lambda: key_new(mp, 1, PRI, 1, A.CIPHER_ALG_AES_GCM), 'KEY_NEW primary aes-256-gcm')
accepted(lambda: key_new(mp, 1, SEC, 2, A.CIPHER_ALG_CHACHA20_POLY1305), 'KEY_NEW secondary chacha20-poly1305')
accepted(lambda: key_new(mp, 2, PRI, 0, A.CIPHER_ALG_AES_GCM, ek=b'a' * 16, dk=b'b' * 16), 'KEY_NEW aes-128-gcm')
accepted(lambda: key_new(p2p, 1, PRI, 3, A.CIPHER_ALG_AES_GCM), 'KEY_NEW p2p peer')
check(key_ids(mp, 1) == (1, 2), 'PEER_GET key ids primary 1, secondary 2: %s' % (key_ids(mp, 1),))
accepted(lambda: keyconf(A.CMD_KEY_SWAP, mp, 1), 'KEY_SWAP')
check(key_ids(mp, 1) == (2, 1), 'after KEY_SWAP primary 2, secondary 1: %s' % (key_ids(mp, 1),))
accepted(lambda: key_new(mp, 1, SEC, 4, A.CIPHER_ALG_AES_GCM), 'KEY_NEW replaces the secondary slot')
check(key_ids(mp, 1) == (2, 4), 'after the replacement primary 2, secondary 4: %s' % (key_ids(mp, 1),))
refused(lambda: key_new(mp, 1, PRI, 1, A.CIPHER_ALG_AES_GCM, ek=b'k' * 20), errno.EINVAL, 'wrong length',
        'KEY_NEW 20-byte AES key')
refused(lambda: key_new(mp, 1, PRI, 1, A.CIPHER_ALG_CHACHA20_POLY1305, dk=b'k' * 16), errno.EINVAL, 'wrong length',
        'KEY_NEW 16-byte chacha key')
refused(lambda: key_new(mp, 1, PRI, 1, A.CIPHER_ALG_NONE), errno.EOPNOTSUPP, 'not offloaded', 'KEY_NEW cipher none')
refused(lambda: key_new(mp, 1, PRI, 1, A.CIPHER_ALG_AES_GCM, ek=b'k' * 33), errno.ERANGE, '',
        'KEY_NEW 33-byte key', handler=False)
refused(lambda: key_new(mp, 1, PRI, 1, A.CIPHER_ALG_AES_GCM, en=b'n' * 7), errno.ERANGE, '',
        'KEY_NEW 7-byte nonce tail', handler=False)
refused(lambda: key_new(mp, 1, PRI, A.KEY_ID_MAX + 1, A.CIPHER_ALG_AES_GCM), errno.ERANGE, 'out of range',
        'KEY_NEW key id 8', handler=False)
refused(lambda: key_new(mp, 1, 2, 1, A.CIPHER_ALG_AES_GCM), errno.ERANGE, 'out of range', 'KEY_NEW slot 2',
        handler=False)
refused(lambda: key_new(mp, 1, PRI, 1, 3), errno.ERANGE, 'out of range', 'KEY_NEW cipher 3', handler=False)
refused(lambda: key_new(mp, 7, PRI, 1, A.CIPHER_ALG_AES_GCM), errno.ENOENT, 'no peer', 'KEY_NEW unknown peer')
refused(lambda: g.cmd(A.CMD_KEY_NEW, ifx(mp), nl.nest(A.A_KEYCONF, nl.attr(A.A_KEYCONF_PEER_ID, 1))),
        errno.EINVAL, '', 'KEY_NEW without slot', miss=A.A_KEYCONF_SLOT)
refused(lambda: keyconf(A.CMD_KEY_SWAP, mp, 1, nl.attr(A.A_KEYCONF_SLOT, 0)), errno.EINVAL,
        'Unsupported attribute', 'KEY_SWAP with a slot', handler=False)
accepted(lambda: keyconf(A.CMD_KEY_DEL, mp, 1, nl.attr(A.A_KEYCONF_SLOT, SEC)), 'KEY_DEL secondary')
check(key_ids(mp, 1) == (2, None), 'after KEY_DEL only the primary: %s' % (key_ids(mp, 1),))
refused(lambda: keyconf(A.CMD_KEY_DEL, mp, 1, nl.attr(A.A_KEYCONF_SLOT, SEC)), errno.ENOKEY, 'slot is empty',
        'KEY_DEL empty slot')
refused(lambda: keyconf(A.CMD_KEY_SWAP, mp, 1), errno.ENOKEY, 'no secondary key', 'KEY_SWAP without secondary')

# --- PEER_GET do and dump ---
r = accepted(lambda: g.cmd(A.CMD_PEER_GET, ifx(mp), peer(nl.attr(A.A_PEER_ID, 1))), 'PEER_GET peer 1')
if r:
    p = nl.parse(r[0][A.A_PEER][0])
    paths = sorted(nl.u32(nl.parse(x)[A.A_PATH_ID][0]) for x in p.get(A.A_PEER_PATH, []))
    check(paths == [0, 1], 'peer 1 has paths [0, 1]: %s' % paths)
    check(p[A.A_PEER_VPN_IPV4][0] == socket.inet_aton('10.9.0.2'), 'peer 1 vpn-ipv4 10.9.0.2')
    pa = {nl.u32(nl.parse(x)[A.A_PATH_ID][0]): nl.parse(x) for x in p.get(A.A_PEER_PATH, [])}
    check(0 in pa and pa[0][A.A_PATH_REMOTE_IPV4][0] == socket.inet_aton('127.0.0.2') and
          struct.unpack('=H', pa[0][A.A_PATH_REMOTE_PORT][0][:2])[0] == 1194, 'path 0 remote 127.0.0.2:1194')
    check(all(k not in p for k in ()) and b'k' * 32 not in r[0][A.A_PEER][0], 'PEER_GET carries no key material')
refused(lambda: g.cmd(A.CMD_PEER_GET, ifx(mp), peer(nl.attr(A.A_PEER_ID, 77))), errno.ENOENT, 'no peer',
        'PEER_GET unknown peer')
d = accepted(lambda: g.cmd(A.CMD_PEER_GET, ifx(mp), dump=True), 'PEER_GET dump')
if d is not None:
    ids = sorted(nl.u32(nl.parse(m[A.A_PEER][0])[A.A_PEER_ID][0]) for m in d)
    check(ids == [1, 2, 3], 'dump lists peers [1, 2, 3]: %s' % ids)
refused(lambda: g.cmd(A.CMD_PEER_GET, dump=True), errno.EINVAL, 'ifindex', 'PEER_GET dump without ifindex')

# --- not admin: every operation needs CAP_NET_ADMIN ---
pid = os.fork()
if pid == 0:
    os.setgid(65534)
    os.setuid(65534)
    try:
        peer_new(mp, 50)
        os._exit(1)
    except nl.NlError as e:
        os._exit(0 if e.errno == errno.EPERM else 2)
check(os.waitpid(pid, 0)[1] == 0, 'PEER_NEW as nobody: EPERM')

# --- PEER_DEL and its notification ---
while mon.notification(0.1):
    pass
accepted(lambda: g.cmd(A.CMD_PEER_DEL, ifx(mp), peer(nl.attr(A.A_PEER_ID, 2))), 'PEER_DEL peer 2')
n = mon.notification()
check(n is not None and n[0] == A.CMD_PEER_DEL_NTF and
      nl.u32(nl.parse(n[1][A.A_PEER][0])[A.A_PEER_ID][0]) == 2 and
      nl.u32(nl.parse(n[1][A.A_PEER][0])[A.A_PEER_DEL_REASON][0]) == A.DEL_REASON_USERSPACE,
      'peer-del notification for peer 2, reason userspace')
refused(lambda: g.cmd(A.CMD_PEER_DEL, ifx(mp), peer(nl.attr(A.A_PEER_ID, 2))), errno.ENOENT, 'no peer',
        'PEER_DEL again')

s = stats()
check(s['rejected'] == handler_rejections, 'STATS_GET rejected = %d (the handlers\' refusals): %d' %
      (handler_rejections, s['rejected']))
# refused PEER_NEW (p2p second peer, duplicate id) and PATH_ADD (id in use) built the object first
check(s['devs+'] == 2 and s['peers+'] == 6 and s['paths+'] == 6 and s['keys+'] == 5,
      'created: 2 devices, 6 peers, 6 paths, 5 keys: %s' % s)

# --- teardown with live peers, paths and keys ---
accepted(lambda: rt.link_del(mp), 'link del mp (peers 1 and 3 with paths and keys)')
reasons = sorted((nl.u32(nl.parse(x[1][A.A_PEER][0])[A.A_PEER_ID][0]),
                  nl.u32(nl.parse(x[1][A.A_PEER][0])[A.A_PEER_DEL_REASON][0]))
                 for x in (mon.notification(), mon.notification()) if x)
check(reasons == [(1, A.DEL_REASON_TEARDOWN), (3, A.DEL_REASON_TEARDOWN)],
      'teardown notifications for peers 1 and 3: %s' % reasons)
accepted(lambda: rt.link_del(p2p), 'link del p2p')
u4.close()
t4.close()
deadline = time.time() + 20
while True:
    s = stats()
    bal = all(s[k + '+'] == s[k + '-'] for k in ('devs', 'peers', 'paths', 'keys'))
    if bal or time.time() > deadline:
        break
    time.sleep(0.2)
check(bal, 'created == destroyed for every kind after the devices are gone: %s' % s)
print('netlink: %d passed, %d failed' % (n_ok, n_fail))
sys.exit(1 if n_fail else 0)
