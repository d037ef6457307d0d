// SPDX-License-Identifier: GPL-2.0-only
/*
 * nlroute.c - RTM_GETROUTE for a path and the parser of its answer (see nlroute.h).
 */
#include "os/nlroute.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "os/netlink.h"

/* The payload of one RTM_NEWROUTE (after its header), left bytes long. */
static int parse_route(const uint8_t *p, size_t left, int family, struct braid_nl_route_info *out)
{
	size_t alen = family == AF_INET ? 4 : 16;
	struct rtmsg rtm;

	if (left < sizeof(rtm))
		return -EPROTO;
	memcpy(&rtm, p, sizeof(rtm));
	if (rtm.rtm_family != family)
		return -EPROTO;
	memset(out, 0, sizeof(*out));
	out->table = rtm.rtm_table;
	left -= NLMSG_ALIGN(sizeof(rtm)) <= left ? NLMSG_ALIGN(sizeof(rtm)) : left;
	p += NLMSG_ALIGN(sizeof(rtm));
	while (left >= sizeof(struct nlattr)) {
		struct nlattr a;
		size_t plen, step;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < sizeof(a) || a.nla_len > left)
			return -EPROTO;
		plen = a.nla_len - sizeof(a);
		switch (a.nla_type & NLA_TYPE_MASK) {
		case RTA_OIF:
			if (plen == 4) {
				uint32_t v;

				memcpy(&v, p + sizeof(a), 4);
				out->oif = v > (uint32_t)INT32_MAX ? 0 : (int)v;
			}
			break;
		case RTA_TABLE:
			if (plen == 4)
				memcpy(&out->table, p + sizeof(a), 4);
			break;
		case RTA_GATEWAY:
			if (plen == alen) {
				memcpy(out->gw, p + sizeof(a), alen);
				out->has_gw = true;
			}
			break;
		default:
			break;
		}
		step = NLA_ALIGN(a.nla_len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	return 0;
}

int braid_nl_route_parse(const void *buf, size_t len, uint32_t seq, uint32_t portid, int family,
			 struct braid_nl_route_info *out)
{
	const uint8_t *p = buf;

	if (!braid_nl_buf_ok(buf, len))
		return -EPROTO;
	while (len >= NLMSG_HDRLEN) {
		struct nlmsghdr h;
		size_t step;

		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
			return -EPROTO;
		if (h.nlmsg_seq == seq && h.nlmsg_pid == portid) {
			if (h.nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr e;

				if (h.nlmsg_len < NLMSG_HDRLEN + sizeof(e))
					return -EPROTO;
				memcpy(&e, p + NLMSG_HDRLEN, sizeof(e));
				if (e.error >= 0 || e.error < -4095)	/* an ACK is no answer here */
					return -EPROTO;
				return e.error;
			}
			if (h.nlmsg_type == RTM_NEWROUTE)
				return parse_route(p + NLMSG_HDRLEN, h.nlmsg_len - NLMSG_HDRLEN, family,
						   out);
		}
		step = NLMSG_ALIGN(h.nlmsg_len);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return -EAGAIN;
}

int braid_nl_route_get(int family, const void *dst, const void *src, int oif,
		       struct braid_nl_route_info *out)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int alen = family == AF_INET ? 4 : 16;
	struct mnl_socket *s;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	uint32_t seq = (uint32_t)time(NULL), portid;
	int r = -EAGAIN;

	if (family != AF_INET && family != AF_INET6)
		return -EAFNOSUPPORT;
	s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!s)
		return -errno;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(s);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	/* the routing table entry itself: with an oif and no route through it, the kernel
	 * answers an error, not its "destination is on-link" guess */
	rtm->rtm_flags = RTM_F_FIB_MATCH;
	rtm->rtm_dst_len = (unsigned char)(alen * 8);
	mnl_attr_put(nlh, RTA_DST, alen, dst);
	if (src) {
		rtm->rtm_src_len = (unsigned char)(alen * 8);
		mnl_attr_put(nlh, RTA_SRC, alen, src);
	}
	if (oif > 0)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)oif);
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	/* a few reads at most: anything not ours is skipped, an empty read ends it */
	for (int tries = 0; tries < 4 && r == -EAGAIN; tries++) {
		ssize_t n = mnl_socket_recvfrom(s, buf, sizeof(buf));

		if (n <= 0) {
			r = n < 0 ? -errno : -EPROTO;
			break;
		}
		r = braid_nl_route_parse(buf, (size_t)n, seq, portid, family, out);
	}
	if (r == -EAGAIN)
		r = -EPROTO;
out:
	mnl_socket_close(s);
	return r;
}
