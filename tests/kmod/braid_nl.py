# SPDX-License-Identifier: GPL-2.0-only
"""Minimal netlink client for the braid_dco tests: generic netlink (family resolution, requests,
dumps, multicast) and rtnetlink (links of kind braid_dco), with extack messages returned on errors.
The constants mirror kmod/uapi/linux/braid_dco.h (the test reads them from there, not from a copy)."""
import os
import re
import socket
import struct

NETLINK_ROUTE, NETLINK_GENERIC = 0, 16
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK, NLM_F_DUMP = 1, 2, 4, 0x300
NLM_F_CREATE, NLM_F_EXCL = 0x400, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000
SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 1, 10, 11
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_MISS_TYPE = 1, 2, 5
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_MCAST_GROUPS = 1, 2, 7
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2
RTM_NEWLINK, RTM_DELLINK = 16, 17
IFLA_IFNAME, IFLA_LINKINFO, IFLA_INFO_KIND, IFLA_INFO_DATA = 3, 18, 1, 2


def uapi(path):
    """enum and #define constants of the UAPI header, as a dict (enumerators counted from 0)"""
    text = open(path).read()
    consts = {}
    for name, val in re.findall(r'#define\s+(BRAID_DCO_\w+)\s+(0x[0-9A-Fa-f]+|\d+)\b', text):
        consts[name] = int(val, 0)
    for name, val in re.findall(r'#define\s+(BRAID_DCO_\w+)\s+"([^"]*)"', text):
        consts[name] = val
    for body in re.findall(r'enum\s*\w*\s*\{(.*?)\};', text, re.S):
        n = 0
        for name, val in re.findall(r'^\s*(\w+)\s*(?:=\s*([^,\n]+?))?\s*,?\s*$', body, re.M):
            if val:
                n = eval(val, {}, dict(consts))  # the header's own arithmetic: (__X_MAX - 1)
            consts[name] = n
            n += 1
    return consts


def attr(atype, data):
    if isinstance(data, int):
        data = struct.pack('=I', data)
    hdr = struct.pack('=HH', 4 + len(data), atype)
    return hdr + data + b'\0' * ((4 - len(data) % 4) % 4)


def nest(atype, *attrs):
    return attr(atype | NLA_F_NESTED, b''.join(attrs))


def parse(data):
    """{type: [payload, ...]} of a run of attributes"""
    out = {}
    off = 0
    while off + 4 <= len(data):
        ln, t = struct.unpack_from('=HH', data, off)
        if ln < 4:
            break
        out.setdefault(t & 0x3fff, []).append(data[off + 4:off + ln])
        off += (ln + 3) & ~3
    return out


def u32(b):
    return struct.unpack('=I', b[:4])[0]


def u64(b):
    return struct.unpack('=Q', b[:8])[0]


class NlError(Exception):
    def __init__(self, err, msg, miss):
        super().__init__('%s (%s)' % (os.strerror(err), msg))
        self.errno, self.msg, self.miss = err, msg, miss


class Netlink:
    def __init__(self, proto):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.bind((0, 0))
        self.seq = 1

    def request(self, mtype, flags, payload):
        """send one request; returns the payloads of the replies (a list); raises NlError"""
        self.seq += 1
        seq = self.seq
        self.s.send(struct.pack('=IHHII', 16 + len(payload), mtype, flags | NLM_F_REQUEST | NLM_F_ACK,
                                seq, 0) + payload)
        replies = []
        while True:
            data = self.s.recv(1 << 16)
            off = 0
            while off + 16 <= len(data):
                ln, t, fl, rseq, _ = struct.unpack_from('=IHHII', data, off)
                body = data[off + 16:off + ln]
                off += (ln + 3) & ~3
                if rseq != seq:
                    continue
                if t == NLMSG_DONE and (len(body) < 4 or struct.unpack_from('=i', body)[0] == 0):
                    return replies
                if t in (NLMSG_ERROR, NLMSG_DONE):
                    err = -struct.unpack_from('=i', body)[0]
                    if err == 0:
                        return replies
                    # NLMSG_ERROR: errno + the request's header (capped); NLMSG_DONE of a dump: errno only
                    tlv = parse(body[20 if t == NLMSG_ERROR else 4:]) if fl & NLM_F_ACK_TLVS else {}
                    msg = tlv.get(NLMSGERR_ATTR_MSG, [b''])[0].rstrip(b'\0').decode()
                    miss = u32(tlv[NLMSGERR_ATTR_MISS_TYPE][0]) if NLMSGERR_ATTR_MISS_TYPE in tlv else None
                    raise NlError(err, msg, miss)
                replies.append(body)


class Genl(Netlink):
    def __init__(self, family):
        super().__init__(NETLINK_GENERIC)
        r = self.request(GENL_ID_CTRL, 0, struct.pack('=BBH', CTRL_CMD_GETFAMILY, 1, 0) +
                         attr(CTRL_ATTR_FAMILY_NAME, family.encode() + b'\0'))
        a = parse(r[0][4:])
        self.family = struct.unpack('=H', a[CTRL_ATTR_FAMILY_ID][0][:2])[0]
        self.groups = {}
        for g in parse(a.get(CTRL_ATTR_MCAST_GROUPS, [b''])[0]).values():
            ga = parse(g[0])
            self.groups[ga[CTRL_ATTR_MCAST_GRP_NAME][0].rstrip(b'\0').decode()] = u32(ga[CTRL_ATTR_MCAST_GRP_ID][0])

    def cmd(self, cmd, *attrs, dump=False):
        """replies as lists of top-level attribute dicts"""
        r = self.request(self.family, NLM_F_DUMP if dump else 0,
                         struct.pack('=BBH', cmd, 1, 0) + b''.join(attrs))
        return [parse(b[4:]) for b in r]

    def subscribe(self, group):
        self.s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, self.groups[group])

    def notification(self, timeout=5.0):
        """(cmd, attrs) of the next multicast message, or None"""
        self.s.settimeout(timeout)
        try:
            data = self.s.recv(1 << 16)
        except socket.timeout:
            return None
        finally:
            self.s.settimeout(None)
        return data[16], parse(data[20:])


class Rtnl(Netlink):
    def __init__(self):
        super().__init__(NETLINK_ROUTE)

    def link_add(self, name, kind, info_data=b''):
        li = attr(IFLA_INFO_KIND, kind.encode() + b'\0')
        if info_data:
            li += nest(IFLA_INFO_DATA, info_data)
        self.request(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
                     struct.pack('=BxHiII', 0, 0, 0, 0, 0) + attr(IFLA_IFNAME, name.encode() + b'\0') +
                     nest(IFLA_LINKINFO, li))
        return socket.if_nametoindex(name)

    def link_del(self, ifindex):
        self.request(RTM_DELLINK, 0, struct.pack('=BxHiII', 0, 0, ifindex, 0, 0))
