// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_pm.c - the MPTCP path-manager generic netlink family (mptcp_pm.h):
 * requests built with libmnl, everything the kernel sends read by one
 * bounded parser of our own.
 */
#include "os/mptcp_pm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/mptcp.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct braid_mptcp_pm {
	struct mnl_socket *sock;
	uint32_t portid, seq;
	uint16_t family;
	uint32_t event_group;		/* "mptcp_pm_events" multicast group; 0: unknown */
};

/* ---- the parser ---- */

struct attr {
	uint16_t type;
	const uint8_t *p;
	size_t len;
};

/* The next attribute of [*p, end): 1 and *a, 0 at the end, -EPROTO if it overruns. */
static int next_attr(const uint8_t **p, const uint8_t *end, struct attr *a)
{
	struct nlattr h;
	size_t left = (size_t)(end - *p), step;

	if (left < sizeof(h))
		return left ? -EPROTO : 0;
	memcpy(&h, *p, sizeof(h));
	if (h.nla_len < sizeof(h) || h.nla_len > left)
		return -EPROTO;
	a->type = h.nla_type & NLA_TYPE_MASK;
	a->p = *p + sizeof(h);
	a->len = h.nla_len - sizeof(h);
	step = NLA_ALIGN((size_t)h.nla_len);
	*p += step < left ? step : left;
	return 1;
}

static int get_u8(const struct attr *a, uint8_t *v)
{
	if (a->len < 1)
		return -EPROTO;
	*v = a->p[0];
	return 0;
}

static int get_u16(const struct attr *a, uint16_t *v)
{
	if (a->len < 2)
		return -EPROTO;
	memcpy(v, a->p, 2);
	return 0;
}

static int get_u32(const struct attr *a, uint32_t *v)
{
	if (a->len < 4)
		return -EPROTO;
	memcpy(v, a->p, 4);
	return 0;
}

static int get_bytes(const struct attr *a, void *v, size_t n)
{
	if (a->len < n)
		return -EPROTO;
	memcpy(v, a->p, n);
	return 0;
}

/* A nested MPTCP_PM_ATTR_ADDR. */
static int parse_addr(const struct attr *nest, struct braid_mptcp_endp *e)
{
	const uint8_t *p = nest->p, *end = nest->p + nest->len;
	struct attr a;
	uint16_t fam = 0;
	int r;

	while ((r = next_attr(&p, end, &a)) > 0) {
		switch (a.type) {
		case MPTCP_PM_ADDR_ATTR_FAMILY:
			r = get_u16(&a, &fam);
			e->family = fam;
			break;
		case MPTCP_PM_ADDR_ATTR_ID: r = get_u8(&a, &e->id); break;
		case MPTCP_PM_ADDR_ATTR_ADDR4: r = get_bytes(&a, &e->addr.v4, 4); break;
		case MPTCP_PM_ADDR_ATTR_ADDR6: r = get_bytes(&a, &e->addr.v6, 16); break;
		case MPTCP_PM_ADDR_ATTR_PORT: r = get_u16(&a, &e->port); break;
		case MPTCP_PM_ADDR_ATTR_FLAGS: r = get_u32(&a, &e->flags); break;
		case MPTCP_PM_ADDR_ATTR_IF_IDX: r = get_u32(&a, (uint32_t *)&e->ifindex); break;
		default: r = 0; break;	/* newer attributes */
		}
		if (r)
			return r;
	}
	if (r)
		return r;
	if (e->family != AF_INET && e->family != AF_INET6)
		return -EPROTO;
	return 0;
}

static int parse_reply_attr(const struct attr *a, struct braid_mptcp_pm_msg *m)
{
	switch (a->type) {
	case MPTCP_PM_ATTR_ADDR:
		m->has_endp = true;
		return parse_addr(a, &m->endp);
	case MPTCP_PM_ATTR_RCV_ADD_ADDRS:
		m->has_limits = true;
		return get_u32(a, &m->rcv_add_addrs);
	case MPTCP_PM_ATTR_SUBFLOWS:
		m->has_limits = true;
		return get_u32(a, &m->subflows);
	}
	return 0;
}

/* MPTCP_ATTR_* of the events (linux/mptcp.h: TOKEN 1 ... IF_IDX 15). */
enum { EV_TOKEN = 1, EV_FAMILY, EV_LOC_ID, EV_REM_ID, EV_SADDR4, EV_SADDR6, EV_DADDR4,
       EV_DADDR6, EV_SPORT, EV_DPORT, EV_BACKUP, EV_ERROR, EV_FLAGS, EV_TIMEOUT, EV_IF_IDX,
       EV_RESET_REASON, EV_RESET_FLAGS, EV_SERVER_SIDE };
#define EV_FLAG_SERVER_SIDE 0x1u	/* MPTCP_PM_EV_FLAG_SERVER_SIDE in EV_FLAGS (6.10+) */

static int parse_event_attr(const struct attr *a, struct braid_mptcp_pm_msg *m)
{
	uint16_t v16 = 0;
	int r;

	switch (a->type) {
	case EV_TOKEN: return get_u32(a, &m->token);
	case EV_FAMILY:
		r = get_u16(a, &v16);
		m->saddr.family = m->daddr.family = v16;
		return r;
	case EV_LOC_ID: return get_u8(a, &m->loc_id);
	case EV_REM_ID: return get_u8(a, &m->rem_id);
	case EV_SADDR4: return get_bytes(a, &m->saddr.addr.v4, 4);
	case EV_SADDR6: return get_bytes(a, &m->saddr.addr.v6, 16);
	case EV_DADDR4: return get_bytes(a, &m->daddr.addr.v4, 4);
	case EV_DADDR6: return get_bytes(a, &m->daddr.addr.v6, 16);
	case EV_SPORT:
		r = get_u16(a, &v16);
		m->saddr.port = ntohs(v16);	/* network order in events */
		return r;
	case EV_DPORT:
		r = get_u16(a, &v16);
		m->daddr.port = ntohs(v16);
		return r;
	case EV_BACKUP: {
		uint8_t b = 0;

		r = get_u8(a, &b);
		m->backup = b != 0;
		return r;
	}
	case EV_ERROR: return get_u8(a, &m->ev_error);
	case EV_IF_IDX: return get_u32(a, (uint32_t *)&m->ev_ifindex);
	case EV_FLAGS:
		r = get_u16(a, &v16);
		m->server_side |= (v16 & EV_FLAG_SERVER_SIDE) != 0;
		return r;
	case EV_SERVER_SIDE: {
		uint8_t b = 0;

		r = get_u8(a, &b);
		m->server_side |= b != 0;
		return r;
	}
	}
	return 0;
}

static int parse_groups(const struct attr *nest, struct braid_mptcp_pm_msg *m)
{
	const uint8_t *p = nest->p, *end = nest->p + nest->len;
	struct attr g;
	int r;

	while ((r = next_attr(&p, end, &g)) > 0) {
		const uint8_t *q = g.p, *qend = g.p + g.len;
		bool ours = false;
		uint32_t id = 0;
		struct attr a;

		while ((r = next_attr(&q, qend, &a)) > 0) {
			if (a.type == CTRL_ATTR_MCAST_GRP_NAME)
				ours = a.len >= sizeof(MPTCP_PM_EV_GRP_NAME) &&
				       !memcmp(a.p, MPTCP_PM_EV_GRP_NAME, sizeof(MPTCP_PM_EV_GRP_NAME));
			else if (a.type == CTRL_ATTR_MCAST_GRP_ID && get_u32(&a, &id))
				return -EPROTO;
		}
		if (r)
			return r;
		if (ours)
			m->event_group = id;
	}
	return r;
}

static int parse_ctrl_attr(const struct attr *a, struct braid_mptcp_pm_msg *m)
{
	if (a->type == CTRL_ATTR_FAMILY_ID)
		return get_u16(a, &m->family_id);
	if (a->type == CTRL_ATTR_MCAST_GROUPS)
		return parse_groups(a, m);
	return 0;
}

int braid_mptcp_pm_parse(const void *buf, size_t len, size_t *off, enum braid_mptcp_pm_kind kind,
			 struct braid_mptcp_pm_msg *m)
{
	const uint8_t *base = buf;
	struct nlmsghdr h;
	struct genlmsghdr g;
	const uint8_t *p, *end;
	struct attr a;
	size_t left;
	int r;

	memset(m, 0, sizeof(*m));
	if (*off >= len)
		return -ENOENT;
	left = len - *off;
	if (left < sizeof(h))
		return -EPROTO;
	memcpy(&h, base + *off, sizeof(h));
	if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > left)
		return -EPROTO;
	p = base + *off + sizeof(h);
	end = base + *off + h.nlmsg_len;
	*off += NLMSG_ALIGN((size_t)h.nlmsg_len) < left ? NLMSG_ALIGN((size_t)h.nlmsg_len) : left;
	m->type = h.nlmsg_type;
	m->seq = h.nlmsg_seq;
	if (h.nlmsg_type == NLMSG_ERROR) {
		int32_t e;

		if ((size_t)(end - p) < sizeof(e))
			return -EPROTO;
		memcpy(&e, p, sizeof(e));
		if (e > 0 || e < -4095)
			return -EPROTO;
		m->error = e;
		return 0;
	}
	if (h.nlmsg_type == NLMSG_DONE) {
		m->done = true;
		return 0;
	}
	if (h.nlmsg_type < NLMSG_MIN_TYPE)
		return 0;	/* NOOP, OVERRUN: nothing in them */
	if ((size_t)(end - p) < GENL_HDRLEN)
		return -EPROTO;
	memcpy(&g, p, sizeof(g));
	m->cmd = g.cmd;
	p += GENL_HDRLEN;
	while ((r = next_attr(&p, end, &a)) > 0) {
		if (kind == BRAID_MPTCP_PM_REPLY)
			r = parse_reply_attr(&a, m);
		else if (kind == BRAID_MPTCP_PM_EVENT)
			r = parse_event_attr(&a, m);
		else
			r = parse_ctrl_attr(&a, m);
		if (r)
			return r;
	}
	return r;
}

/* ---- requests ---- */

static struct nlmsghdr *put_req(char *buf, uint16_t type, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/*
 * Send nlh and read the answers until its ACK, error or DONE; each data
 * message goes to each(m, arg) when set. kind says how to read them.
 */
static int talk(struct braid_mptcp_pm *pm, struct nlmsghdr *nlh, enum braid_mptcp_pm_kind kind,
		void (*each)(const struct braid_mptcp_pm_msg *m, void *arg), void *arg)
{
	static char buf[32768];	/* one request at a time, one thread (the loop) */
	struct braid_mptcp_pm_msg m;
	uint32_t seq = ++pm->seq;
	ssize_t n;

	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(pm->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (int rounds = 0; rounds < 4096; rounds++) {
		size_t off = 0;
		int r;

		n = mnl_socket_recvfrom(pm->sock, buf, sizeof(buf));
		if (n < 0)
			return errno == EINTR ? -EINTR : -errno;
		while ((r = braid_mptcp_pm_parse(buf, (size_t)n, &off, kind, &m)) == 0) {
			if (m.seq != seq)
				continue;	/* an answer to an earlier request that gave up */
			if (m.type == NLMSG_ERROR)
				return m.error;
			if (m.done)
				return 0;
			if (m.type >= NLMSG_MIN_TYPE && each)
				each(&m, arg);
		}
		if (r != -ENOENT)
			return r;
	}
	return -ETIMEDOUT;
}

static void got_family(const struct braid_mptcp_pm_msg *m, void *arg)
{
	struct braid_mptcp_pm *pm = arg;

	if (m->family_id)
		pm->family = m->family_id;
	if (m->event_group)
		pm->event_group = m->event_group;
}

int braid_mptcp_pm_open(struct braid_mptcp_pm **out)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct braid_mptcp_pm *pm = calloc(1, sizeof(*pm));
	struct nlmsghdr *nlh;
	int r;

	if (!pm)
		return -ENOMEM;
	pm->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!pm->sock) {
		r = -errno;
		goto err_free;
	}
	if (mnl_socket_bind(pm->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto err_close;
	}
	pm->portid = mnl_socket_get_portid(pm->sock);
	pm->seq = (uint32_t)time(NULL);
	nlh = put_req(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MPTCP_PM_NAME);
	r = talk(pm, nlh, BRAID_MPTCP_PM_CTRL, got_family, pm);
	if (!r && !pm->family)
		r = -ENOENT;
	if (r)
		goto err_close;
	*out = pm;
	return 0;
err_close:
	mnl_socket_close(pm->sock);
err_free:
	free(pm);
	return r;
}

int braid_mptcp_pm_events_open(const struct braid_mptcp_pm *pm)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	int fd, g = (int)pm->event_group, r;

	if (!pm->event_group)
		return -ENOENT;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &g, sizeof(g))) {
		r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

int braid_mptcp_pm_events_read(int fd, void (*cb)(const struct braid_mptcp_pm_msg *m, void *arg),
			       void *arg)
{
	uint8_t buf[8192];
	int bad = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		size_t off = 0;
		struct braid_mptcp_pm_msg m;
		int r;

		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? bad : -errno;
		while ((r = braid_mptcp_pm_parse(buf, (size_t)n, &off, BRAID_MPTCP_PM_EVENT, &m)) == 0)
			cb(&m, arg);
		if (r == -EPROTO)
			bad++;
	}
}

void braid_mptcp_pm_close(struct braid_mptcp_pm *pm)
{
	if (!pm)
		return;
	mnl_socket_close(pm->sock);
	free(pm);
}

static void put_addr_as(struct nlmsghdr *nlh, uint16_t type, const struct braid_mptcp_endp *e)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type | NLA_F_NESTED);

	if (e->family) {
		mnl_attr_put_u16(nlh, MPTCP_PM_ADDR_ATTR_FAMILY, (uint16_t)e->family);
		if (e->family == AF_INET)
			mnl_attr_put(nlh, MPTCP_PM_ADDR_ATTR_ADDR4, 4, &e->addr.v4);
		else
			mnl_attr_put(nlh, MPTCP_PM_ADDR_ATTR_ADDR6, 16, &e->addr.v6);
	}
	if (e->id)
		mnl_attr_put_u8(nlh, MPTCP_PM_ADDR_ATTR_ID, e->id);
	if (e->port)
		mnl_attr_put_u16(nlh, MPTCP_PM_ADDR_ATTR_PORT, e->port);
	if (e->flags)
		mnl_attr_put_u32(nlh, MPTCP_PM_ADDR_ATTR_FLAGS, e->flags);
	if (e->ifindex)
		mnl_attr_put_u32(nlh, MPTCP_PM_ADDR_ATTR_IF_IDX, (uint32_t)e->ifindex);
	mnl_attr_nest_end(nlh, nest);
}

static void put_addr(struct nlmsghdr *nlh, const struct braid_mptcp_endp *e)
{
	put_addr_as(nlh, MPTCP_PM_ATTR_ADDR, e);
}

int braid_mptcp_pm_announce(struct braid_mptcp_pm *pm, uint32_t token, const struct braid_mptcp_endp *e)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_ANNOUNCE, MPTCP_PM_VER);
	struct braid_mptcp_endp a = *e;

	if (!e->id || !e->family)
		return -EINVAL;
	a.flags |= BRAID_MPTCP_F_SIGNAL;	/* the kernel wants it on an announce */
	mnl_attr_put_u32(nlh, MPTCP_PM_ATTR_TOKEN, token);
	put_addr(nlh, &a);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

static int subflow_cmd(struct braid_mptcp_pm *pm, uint8_t cmd, uint32_t token,
		       const struct braid_mptcp_endp *local, const struct braid_mptcp_endp *remote)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, cmd, MPTCP_PM_VER);

	if (!local->family || local->family != remote->family || !remote->port)
		return -EINVAL;
	mnl_attr_put_u32(nlh, MPTCP_PM_ATTR_TOKEN, token);
	put_addr(nlh, local);
	put_addr_as(nlh, MPTCP_PM_ATTR_ADDR_REMOTE, remote);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

int braid_mptcp_pm_subflow_create(struct braid_mptcp_pm *pm, uint32_t token,
				  const struct braid_mptcp_endp *local,
				  const struct braid_mptcp_endp *remote)
{
	if (!local->id)
		return -EINVAL;
	return subflow_cmd(pm, MPTCP_PM_CMD_SUBFLOW_CREATE, token, local, remote);
}

int braid_mptcp_pm_subflow_destroy(struct braid_mptcp_pm *pm, uint32_t token,
				   const struct braid_mptcp_endp *local,
				   const struct braid_mptcp_endp *remote)
{
	struct braid_mptcp_endp l = *local;

	l.id = 0;	/* by addresses and ports */
	l.flags = 0;
	l.ifindex = 0;
	if (!l.port)
		return -EINVAL;
	return subflow_cmd(pm, MPTCP_PM_CMD_SUBFLOW_DESTROY, token, &l, remote);
}

int braid_mptcp_pm_add(struct braid_mptcp_pm *pm, const struct braid_mptcp_endp *e)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_ADD_ADDR, MPTCP_PM_VER);

	put_addr(nlh, e);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

int braid_mptcp_pm_del(struct braid_mptcp_pm *pm, uint8_t id)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_DEL_ADDR, MPTCP_PM_VER);
	struct braid_mptcp_endp e = { .id = id };

	if (!id)
		return -EINVAL;
	put_addr(nlh, &e);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

int braid_mptcp_pm_set_flags(struct braid_mptcp_pm *pm, uint8_t id, uint32_t flags)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_SET_FLAGS, MPTCP_PM_VER);
	struct braid_mptcp_endp e = { .id = id, .flags = flags };

	if (!id)
		return -EINVAL;
	put_addr(nlh, &e);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

int braid_mptcp_pm_set_prio(struct braid_mptcp_pm *pm, uint32_t token,
			    const struct braid_mptcp_endp *local,
			    const struct braid_mptcp_endp *remote, bool backup)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct braid_mptcp_endp l = *local, r = *remote;

	if (!token || !l.family || l.family != r.family || !l.port || !r.port)
		return -EINVAL;
	l.id = 0;	/* the subflow is found by its addresses and ports */
	l.ifindex = 0;
	l.flags = backup ? BRAID_MPTCP_F_BACKUP : 0;
	r.id = 0;
	r.flags = 0;
	r.ifindex = 0;
	nlh = put_req(buf, pm->family, MPTCP_PM_CMD_SET_FLAGS, MPTCP_PM_VER);
	mnl_attr_put_u32(nlh, MPTCP_PM_ATTR_TOKEN, token);
	put_addr(nlh, &l);
	put_addr_as(nlh, MPTCP_PM_ATTR_ADDR_REMOTE, &r);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

struct dump_ctx {
	struct braid_mptcp_endp *out;
	int max, n;
};

static void got_endp(const struct braid_mptcp_pm_msg *m, void *arg)
{
	struct dump_ctx *d = arg;

	if (!m->has_endp)
		return;
	if (d->n < d->max)
		d->out[d->n] = m->endp;
	d->n++;
}

int braid_mptcp_pm_dump(struct braid_mptcp_pm *pm, struct braid_mptcp_endp *out, int max)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_GET_ADDR, MPTCP_PM_VER);
	struct dump_ctx d = { out, max, 0 };
	int r;

	nlh->nlmsg_flags |= NLM_F_DUMP;
	r = talk(pm, nlh, BRAID_MPTCP_PM_REPLY, got_endp, &d);
	return r ? r : d.n;
}

int braid_mptcp_pm_set_limits(struct braid_mptcp_pm *pm, uint32_t subflows, uint32_t rcv_add_addrs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_SET_LIMITS, MPTCP_PM_VER);

	mnl_attr_put_u32(nlh, MPTCP_PM_ATTR_RCV_ADD_ADDRS, rcv_add_addrs);
	mnl_attr_put_u32(nlh, MPTCP_PM_ATTR_SUBFLOWS, subflows);
	return talk(pm, nlh, BRAID_MPTCP_PM_REPLY, NULL, NULL);
}

static void got_limits(const struct braid_mptcp_pm_msg *m, void *arg)
{
	uint32_t *l = arg;

	if (m->has_limits) {
		l[0] = m->subflows;
		l[1] = m->rcv_add_addrs;
	}
}

int braid_mptcp_pm_get_limits(struct braid_mptcp_pm *pm, uint32_t *subflows, uint32_t *rcv_add_addrs)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = put_req(buf, pm->family, MPTCP_PM_CMD_GET_LIMITS, MPTCP_PM_VER);
	uint32_t l[2] = { 0, 0 };
	int r = talk(pm, nlh, BRAID_MPTCP_PM_REPLY, got_limits, l);

	*subflows = l[0];
	*rcv_add_addrs = l[1];
	return r;
}

const char *braid_mptcp_endp_str(const struct braid_mptcp_endp *e, char *b, size_t n)
{
	char a[INET6_ADDRSTRLEN] = "?";
	int k;

	if (e->family == AF_INET || e->family == AF_INET6)
		inet_ntop(e->family, &e->addr, a, sizeof(a));
	k = snprintf(b, n, "%s", a);
	if (e->port && k >= 0 && (size_t)k < n)
		k += snprintf(b + k, n - (size_t)k, " port %u", e->port);
	if (e->ifindex && k >= 0 && (size_t)k < n)
		snprintf(b + k, n - (size_t)k, " dev #%d", e->ifindex);
	return b;
}
