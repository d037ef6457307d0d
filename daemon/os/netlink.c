// SPDX-License-Identifier: GPL-2.0-only
/*
 * netlink.c - rtnetlink link/address/route requests over libmnl.
 */
#include "os/netlink.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct braid_nl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;
};

int braid_nl_open(struct braid_nl **out)
{
	struct braid_nl *nl = calloc(1, sizeof(*nl));
	int r;

	if (!nl)
		return -ENOMEM;
	nl->sock = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl->sock) {
		r = -errno;
		goto err_free;
	}
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto err_close;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);
	*out = nl;
	return 0;
err_close:
	mnl_socket_close(nl->sock);
err_free:
	free(nl);
	return r;
}

void braid_nl_close(struct braid_nl *nl)
{
	if (!nl)
		return;
	mnl_socket_close(nl->sock);
	free(nl);
}

bool braid_nl_buf_ok(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	struct nlmsghdr h;

	while (len >= sizeof(h)) {
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return false;
		if (NLMSG_ALIGN(h.nlmsg_len) >= len)
			break;
		p += NLMSG_ALIGN(h.nlmsg_len);
		len -= NLMSG_ALIGN(h.nlmsg_len);
	}
	return true;
}

/* Send one request and wait for its ACK. */
static int talk(struct braid_nl *nl, struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t n;
	int r;

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl->sock, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		if (!braid_nl_buf_ok(buf, (size_t)n))
			return -EPROTO;
		r = mnl_cb_run(buf, (size_t)n, nlh->nlmsg_seq, nl->portid, NULL, NULL);
		if (r < 0)	/* errno is the reply's -error: any int, keep it an errno */
			return errno > 0 && errno < 4096 ? -errno : -EPROTO;
		if (r == MNL_CB_STOP)
			return 0;
	}
}

int braid_nl_link_set(struct braid_nl *nl, int ifindex, int mtu, bool up)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	if (mtu > 0)
		mnl_attr_put_u32(nlh, IFLA_MTU, (uint32_t)mtu);
	return talk(nl, nlh);
}

static size_t addr_len(int family)
{
	return family == AF_INET6 ? 16 : 4;
}

int braid_nl_addr(struct braid_nl *nl, bool add, int ifindex, int family, const void *local,
		  const void *peer, uint8_t prefix)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifaddrmsg *ifa;
	size_t al = addr_len(family);

	nlh->nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
	if (add)
		nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_prefixlen = prefix;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = (uint32_t)ifindex;
	mnl_attr_put(nlh, IFA_LOCAL, al, local);
	mnl_attr_put(nlh, IFA_ADDRESS, al, peer ? peer : local);
	if (family == AF_INET6)
		mnl_attr_put_u32(nlh, IFA_FLAGS, IFA_F_NODAD);
	return talk(nl, nlh);
}

int braid_nl_route(struct braid_nl *nl, bool add, int ifindex, int family, const void *dst,
		   uint8_t prefix, const void *gw, uint32_t metric)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;
	size_t al = addr_len(family);

	nlh->nlmsg_type = add ? RTM_NEWROUTE : RTM_DELROUTE;
	if (add)
		nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_dst_len = prefix;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_type = RTN_UNICAST;
	rtm->rtm_scope = (gw || family == AF_INET6) ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
	if (gw)
		rtm->rtm_flags = RTNH_F_ONLINK;
	if (!add)
		rtm->rtm_scope = RT_SCOPE_NOWHERE;
	mnl_attr_put(nlh, RTA_DST, al, dst);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifindex);
	if (gw)
		mnl_attr_put(nlh, RTA_GATEWAY, al, gw);
	if (metric)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, metric);
	return talk(nl, nlh);
}
