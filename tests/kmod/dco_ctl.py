#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A tiny braid_dco configuration tool for the VM data-path test (tests/kmod/dco_data.sh), run in the
namespace it configures:
  dco_ctl.py up DEV PEER_ID LOCAL_IP:PORT REMOTE_IP:PORT KEY_ID EKEY DKEY [ENONCE DNONCE]
                                                                         device, p2p peer, UDP path, primary key
  dco_ctl.py path DEV PEER_ID PATH_ID LOCAL_IP:PORT REMOTE_IP:PORT        one more UDP path (a socket of its own)
  dco_ctl.py pathdel DEV PEER_ID PATH_ID                                 remove a path
  dco_ctl.py pathset DEV PEER_ID PATH_ID [down|up] [backup|primary]     PATH_SET: the path's state
  dco_ctl.py key DEV PEER_ID SLOT KEY_ID EKEY DKEY                        install a key (slot primary|secondary)
  dco_ctl.py swap DEV PEER_ID                                            swap the key slots
  dco_ctl.py send DEV PEER_ID PATH_ID HEX                                PACKET_SEND a control payload: prints
                                                                         "packet_id=N" or "refused ERRNO extack"
  dco_ctl.py show DEV PEER_ID                                            counters as key=value lines
  dco_ctl.py sched DEV                                                   PROG_GET's scheduler counters as
                                                                         "runs=N fallbacks=N copies=N reroutes=N"
  dco_ctl.py watch DEV SECS                                              the "peers" group's notifications about
                                                                         DEV for SECS seconds, one line each
                                                                         ("path peer=P id=I event=E error=N ...
                                                                         remote=IP:PORT");
                                                                         prints "watching" once subscribed
Keys are hex (32 bytes: aes-256-gcm); the nonce tails (8 bytes) default to the keys' first 8 bytes reversed.
With DCO_CTL_HOLD=N in the environment, `up` keeps its path socket and prints the first N datagrams read from
it (hex, one a line; 120 s timeout each): what the module hands up to userspace."""
import errno
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import braid_nl as nl  # noqa: E402

C = nl.uapi(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../kmod/uapi/linux/braid_dco.h'))
A = type('A', (), {k[len('BRAID_DCO_'):]: v for k, v in C.items() if k.startswith('BRAID_DCO_')})


def key_new(g, ifindex, peer_id, slot, key_id, ek, dk, en=None, dn=None):
    ek, dk = bytes.fromhex(ek), bytes.fromhex(dk)
    en = bytes.fromhex(en) if en else ek[7::-1]
    dn = bytes.fromhex(dn) if dn else dk[7::-1]
    g.cmd(A.CMD_KEY_NEW, nl.attr(A.A_IFINDEX, ifindex), nl.nest(
        A.A_KEYCONF, nl.attr(A.A_KEYCONF_PEER_ID, peer_id), nl.attr(A.A_KEYCONF_SLOT, slot),
        nl.attr(A.A_KEYCONF_KEY_ID, key_id), nl.attr(A.A_KEYCONF_CIPHER_ALG, A.CIPHER_ALG_AES_GCM),
        nl.nest(A.A_KEYCONF_ENCRYPT_DIR, nl.attr(A.A_KEYDIR_CIPHER_KEY, ek), nl.attr(A.A_KEYDIR_NONCE_TAIL, en)),
        nl.nest(A.A_KEYCONF_DECRYPT_DIR, nl.attr(A.A_KEYDIR_CIPHER_KEY, dk), nl.attr(A.A_KEYDIR_NONCE_TAIL, dn))))


def path_add(g, ifindex, peer_id, path_id, local, remote):
    """LOCAL and REMOTE: IP:PORT or [IPV6]:PORT"""
    lip, lport = local.rsplit(':', 1)
    rip, rport = remote.rsplit(':', 1)
    v6 = lip.startswith('[')
    fam = socket.AF_INET6 if v6 else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.bind((lip.strip('[]'), int(lport)))
    g.cmd(A.CMD_PATH_ADD, nl.attr(A.A_IFINDEX, ifindex), nl.nest(
        A.A_PATH, nl.attr(A.A_PATH_PEER_ID, peer_id), nl.attr(A.A_PATH_ID, path_id),
        nl.attr(A.A_PATH_SOCKET, s.fileno()),
        nl.attr(A.A_PATH_REMOTE_IPV6 if v6 else A.A_PATH_REMOTE_IPV4, socket.inet_pton(fam, rip.strip('[]'))),
        nl.attr(A.A_PATH_REMOTE_PORT, struct.pack('=H', int(rport)))))
    hold = int(os.environ.get('DCO_CTL_HOLD', '0'))
    if hold and path_id == 0:
        print('held', flush=True)
        s.settimeout(120)
        for _ in range(hold):
            print(s.recv(4096).hex(), flush=True)
    s.close()   # the module keeps its reference


EVENTS = {v: k[len('PATH_EVENT_'):].lower().replace('_', '-') for k, v in vars(A).items()
          if k.startswith('PATH_EVENT_')}


def endpoint_str(pa):
    """a path nest's remote endpoint as IP:PORT ([IPV6]:PORT)"""
    port = struct.unpack('=H', pa[A.A_PATH_REMOTE_PORT][0][:2])[0] if A.A_PATH_REMOTE_PORT in pa else 0
    if A.A_PATH_REMOTE_IPV4 in pa:
        return '%s:%d' % (socket.inet_ntop(socket.AF_INET, pa[A.A_PATH_REMOTE_IPV4][0][:4]), port)
    if A.A_PATH_REMOTE_IPV6 in pa:
        return '[%s]:%d' % (socket.inet_ntop(socket.AF_INET6, pa[A.A_PATH_REMOTE_IPV6][0][:16]), port)
    return '-'


def watch(g, ifindex, secs):
    """print the notifications about device IFINDEX until SECS have passed"""
    import time
    g.subscribe(C['BRAID_DCO_MCGRP_PEERS'])
    print('watching', flush=True)
    end = time.time() + secs
    while time.time() < end:
        n = g.notification(max(0.01, end - time.time()))
        if n is None or nl.u32(n[1][A.A_IFINDEX][0]) != ifindex:
            continue
        if n[0] == A.CMD_PATH_NTF:
            pa = nl.parse(n[1][A.A_PATH][0])
            err = ' error=%d' % nl.u32(pa[A.A_PATH_ERROR][0]) if A.A_PATH_ERROR in pa else ''
            print('path peer=%d id=%d event=%s%s down=%d backup=%d tx_failing=%d remote=%s' % (
                nl.u32(pa[A.A_PATH_PEER_ID][0]), nl.u32(pa[A.A_PATH_ID][0]), EVENTS[nl.u32(pa[A.A_PATH_EVENT][0])],
                err, pa[A.A_PATH_DOWN][0][0], pa[A.A_PATH_BACKUP][0][0], pa[A.A_PATH_TX_FAILING][0][0],
                endpoint_str(pa)), flush=True)
        elif n[0] == A.CMD_PEER_DEL_NTF:
            pe = nl.parse(n[1][A.A_PEER][0])
            print('peer-del peer=%d reason=%d' % (nl.u32(pe[A.A_PEER_ID][0]), nl.u32(pe[A.A_PEER_DEL_REASON][0])),
                  flush=True)


def main(argv):
    g = nl.Genl(C['BRAID_DCO_FAMILY_NAME'])
    cmd, dev = argv[0], argv[1]
    if cmd == 'up':
        peer_id, local, remote, key_id, ek, dk = int(argv[2]), argv[3], argv[4], int(argv[5]), argv[6], argv[7]
        ifindex = nl.Rtnl().link_add(dev, 'braid_dco')
        g.cmd(A.CMD_PEER_NEW, nl.attr(A.A_IFINDEX, ifindex), nl.nest(A.A_PEER, nl.attr(A.A_PEER_ID, peer_id)))
        key_new(g, ifindex, peer_id, A.KEY_SLOT_PRIMARY, key_id, ek, dk, *argv[8:10])
        path_add(g, ifindex, peer_id, 0, local, remote)
    elif cmd == 'path':
        path_add(g, socket.if_nametoindex(dev), int(argv[2]), int(argv[3]), argv[4], argv[5])
    elif cmd == 'pathdel':
        g.cmd(A.CMD_PATH_DEL, nl.attr(A.A_IFINDEX, socket.if_nametoindex(dev)), nl.nest(
            A.A_PATH, nl.attr(A.A_PATH_PEER_ID, int(argv[2])), nl.attr(A.A_PATH_ID, int(argv[3]))))
    elif cmd == 'pathset':
        attrs = [nl.attr(A.A_PATH_PEER_ID, int(argv[2])), nl.attr(A.A_PATH_ID, int(argv[3]))]
        for word in argv[4:]:
            a = {'down': A.A_PATH_DOWN, 'up': A.A_PATH_DOWN, 'backup': A.A_PATH_BACKUP,
                 'primary': A.A_PATH_BACKUP}[word]
            attrs.append(nl.attr(a, struct.pack('=B', word in ('down', 'backup'))))
        g.cmd(A.CMD_PATH_SET, nl.attr(A.A_IFINDEX, socket.if_nametoindex(dev)), nl.nest(A.A_PATH, *attrs))
    elif cmd == 'key':
        slot = A.KEY_SLOT_PRIMARY if argv[3] == 'primary' else A.KEY_SLOT_SECONDARY
        key_new(g, socket.if_nametoindex(dev), int(argv[2]), slot, int(argv[4]), argv[5], argv[6])
    elif cmd == 'swap':
        g.cmd(A.CMD_KEY_SWAP, nl.attr(A.A_IFINDEX, socket.if_nametoindex(dev)),
              nl.nest(A.A_KEYCONF, nl.attr(A.A_KEYCONF_PEER_ID, int(argv[2]))))
    elif cmd == 'send':
        try:
            r = g.cmd(A.CMD_PACKET_SEND, nl.attr(A.A_IFINDEX, socket.if_nametoindex(dev)), nl.nest(
                A.A_SEND, nl.attr(A.A_SEND_PEER_ID, int(argv[2])), nl.attr(A.A_SEND_PATH_ID, int(argv[3])),
                nl.attr(A.A_SEND_PAYLOAD, bytes.fromhex(argv[4]))))
            print('packet_id=%d' % nl.u32(nl.parse(r[0][A.A_SEND][0])[A.A_SEND_PACKET_ID][0]))
        except nl.NlError as e:
            print('refused %s %s' % (errno.errorcode.get(e.errno, e.errno), e.msg))
    elif cmd == 'show':
        r = g.cmd(A.CMD_PEER_GET, nl.attr(A.A_IFINDEX, socket.if_nametoindex(dev)),
                  nl.nest(A.A_PEER, nl.attr(A.A_PEER_ID, int(argv[2]))))
        p = nl.parse(r[0][A.A_PEER][0])
        for name in ('VPN_RX_PACKETS', 'VPN_TX_PACKETS', 'VPN_RX_BYTES', 'VPN_TX_BYTES', 'CTL_TX_PACKETS',
                     'CTL_RX_PACKETS'):
            print('%s=%d' % (name.lower(), nl.u64(p[getattr(A, 'A_PEER_' + name)][0])))
        for name in ('PRIMARY_KEY_ID', 'SECONDARY_KEY_ID'):
            a = getattr(A, 'A_PEER_' + name)
            print('%s=%s' % (name.lower(), nl.u32(p[a][0]) if a in p else '-'))
        for x in p.get(A.A_PEER_PATH, []):
            pa = nl.parse(x)
            print('path%d_rx_packets=%d path%d_tx_packets=%d' % (
                nl.u32(pa[A.A_PATH_ID][0]), nl.u64(pa[A.A_PATH_RX_PACKETS][0]),
                nl.u32(pa[A.A_PATH_ID][0]), nl.u64(pa[A.A_PATH_TX_PACKETS][0])))
            print('path%d_down=%d path%d_backup=%d' % (
                nl.u32(pa[A.A_PATH_ID][0]), pa[A.A_PATH_DOWN][0][0], nl.u32(pa[A.A_PATH_ID][0]),
                pa[A.A_PATH_BACKUP][0][0]))
            print('path%d_tx_failing=%d' % (nl.u32(pa[A.A_PATH_ID][0]), pa[A.A_PATH_TX_FAILING][0][0]))
            print('path%d_remote=%s' % (nl.u32(pa[A.A_PATH_ID][0]), endpoint_str(pa)))
    elif cmd == 'sched':
        s = nl.parse(g.cmd(A.CMD_PROG_GET, nl.attr(A.A_IFINDEX, socket.if_nametoindex(dev)))[0][A.A_SCHED][0])
        print(' '.join('%s=%d' % (n, nl.u64(s[getattr(A, 'A_SCHED_' + n.upper())][0]))
                       for n in ('runs', 'fallbacks', 'copies', 'reroutes')))
    elif cmd == 'watch':
        watch(g, socket.if_nametoindex(dev), float(argv[2]))
    else:
        sys.exit('usage: see the docstring')


if __name__ == '__main__':
    main(sys.argv[1:])
