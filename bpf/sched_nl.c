// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_nl.c - braid_dco's scheduler operations over generic netlink (kmod/braid_dco.yaml): family
 * resolution, one request, its reply or error with the extack message. Every length read from the
 * kernel's reply is bounded by the bytes received.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "../kmod/uapi/linux/braid_dco.h"
#include "sched_nl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

struct nl_req {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	unsigned char buf[256];
};

static void put_attr(struct nl_req *r, uint16_t type, const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* the attribute @type among the attributes in [p, p + len), or NULL */
static const struct nlattr *find_attr(const void *p, size_t len, uint16_t type)
{
	const struct nlattr *a = p;

	size_t step;

	while (len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len) {
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		step = NLA_ALIGN((size_t)a->nla_len);
		if (step >= len)
			break;
		len -= step;
		a = (const struct nlattr *)((const char *)a + step);
	}
	return NULL;
}

/**
 * sched_nl_parse_reply() - one received buffer, checked against the request's sequence number
 * Return: 1 (answers another request: read on), 0 (a reply: its length in *replen; or an ack:
 * *replen 0), -errno (the kernel's refusal, its extack message copied to @err; or -EBADMSG)
 */
int sched_nl_parse_reply(const void *buf, size_t n, uint32_t seq, size_t *replen, char *err,
			 unsigned int errlen)
{
	const struct nlmsghdr *nh = buf;
	const struct nlmsgerr *e;
	const struct nlattr *msg;
	size_t off;

	*replen = 0;
	if (n < sizeof(*nh) || nh->nlmsg_len < sizeof(*nh) || nh->nlmsg_len > n)
		return -EBADMSG;
	if (nh->nlmsg_seq != seq)
		return 1;
	if (nh->nlmsg_type != NLMSG_ERROR) {
		*replen = nh->nlmsg_len;
		return 0;
	}
	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EBADMSG;
	e = NLMSG_DATA(nh);
	if (e->error > 0 || e->error < -4095)
		return -EBADMSG;
	if (e->error && err && errlen && (nh->nlmsg_flags & NLM_F_ACK_TLVS)) {
		off = NLMSG_LENGTH(sizeof(*e));
		if (!(nh->nlmsg_flags & NLM_F_CAPPED)) {
			if (e->msg.nlmsg_len < sizeof(e->msg) || e->msg.nlmsg_len > nh->nlmsg_len)
				return e->error;
			off += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
		}
		msg = off < nh->nlmsg_len ? find_attr((const char *)nh + off, nh->nlmsg_len - off,
						      NLMSGERR_ATTR_MSG) : NULL;
		if (msg)
			snprintf(err, errlen, "%.*s", (int)strnlen((const char *)msg + NLA_HDRLEN,
								     msg->nla_len - NLA_HDRLEN),
				 (const char *)msg + NLA_HDRLEN);
	}
	return e->error;
}

/* send @r, receive the reply into @rep (cap bytes); 0 with the reply's length in *replen, or -errno */
static int transact(int fd, struct nl_req *r, void *rep, size_t cap, size_t *replen, char *err,
		    unsigned int errlen)
{
	static uint32_t seq;
	ssize_t n;
	int rc;

	r->nh.nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	r->nh.nlmsg_seq = ++seq;
	if (send(fd, r, r->nh.nlmsg_len, 0) < 0)
		return -errno;
	do {	/* skip what answers an earlier request (the family lookup's ack) */
		n = recv(fd, rep, cap, 0);
		if (n < 0)
			return -errno;
		rc = sched_nl_parse_reply(rep, (size_t)n, seq, replen, err, errlen);
	} while (rc == 1);
	return rc;
}

/* an open genetlink socket and the braid_dco family id; fd < 0: -errno */
static int open_family(int *family)
{
	union {
		struct nlmsghdr nh;
		unsigned char b[4096];
	} rep;
	struct nl_req r = { .nh = { .nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN), .nlmsg_type = GENL_ID_CTRL },
			    .gh = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 } };
	const struct nlattr *id;
	int fd, one = 1, err;
	size_t len;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, BRAID_DCO_FAMILY_NAME, sizeof(BRAID_DCO_FAMILY_NAME));
	err = transact(fd, &r, &rep, sizeof(rep), &len, NULL, 0);
	if (err || len < NLMSG_LENGTH(GENL_HDRLEN)) {
		close(fd);
		return err ? err : -ENOENT;
	}
	id = find_attr(rep.b + NLMSG_LENGTH(GENL_HDRLEN), len - NLMSG_LENGTH(GENL_HDRLEN),
		       CTRL_ATTR_FAMILY_ID);
	if (!id || id->nla_len < NLA_HDRLEN + 2) {
		close(fd);
		return -ENOENT;
	}
	memcpy(family, (const char *)id + NLA_HDRLEN, 2);
	*family &= 0xffff;
	return fd;
}

static int request(uint8_t cmd, unsigned int ifindex, int prog_fd, void *rep, size_t cap,
		   size_t *len, char *err, unsigned int errlen)
{
	struct nl_req r = { .nh = { .nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) },
			    .gh = { .cmd = cmd, .version = BRAID_DCO_FAMILY_VERSION } };
	uint32_t v = ifindex;
	int family, fd, rc;

	fd = open_family(&family);
	if (fd < 0) {
		snprintf(err, errlen, "generic netlink family %s not found (is braid_dco loaded?)",
			 BRAID_DCO_FAMILY_NAME);
		return fd;
	}
	r.nh.nlmsg_type = (uint16_t)family;
	put_attr(&r, BRAID_DCO_A_IFINDEX, &v, sizeof(v));
	if (prog_fd >= 0) {
		struct nlattr *nest = (struct nlattr *)((char *)&r + NLMSG_ALIGN(r.nh.nlmsg_len));
		uint32_t start = r.nh.nlmsg_len;

		put_attr(&r, BRAID_DCO_A_SCHED | NLA_F_NESTED, NULL, 0);
		v = (uint32_t)prog_fd;
		put_attr(&r, BRAID_DCO_A_SCHED_PROG_FD, &v, sizeof(v));
		nest->nla_len = (uint16_t)(r.nh.nlmsg_len - start);
	}
	rc = transact(fd, &r, rep, cap, len, err, errlen);
	close(fd);
	return rc;
}

/**
 * sched_nl_attach() - PROG_ATTACH @prog_fd to the device @ifindex
 * Return: 0 or -errno, with the extack message in @err
 */
int sched_nl_attach(unsigned int ifindex, int prog_fd, char *err, unsigned int errlen)
{
	unsigned char rep[4096];
	size_t len;

	return request(BRAID_DCO_CMD_PROG_ATTACH, ifindex, prog_fd, rep, sizeof(rep), &len, err,
		       errlen);
}

/**
 * sched_nl_detach() - PROG_DETACH on the device @ifindex
 * Return: 0 or -errno, with the extack message in @err
 */
int sched_nl_detach(unsigned int ifindex, char *err, unsigned int errlen)
{
	unsigned char rep[4096];
	size_t len;

	return request(BRAID_DCO_CMD_PROG_DETACH, ifindex, -1, rep, sizeof(rep), &len, err, errlen);
}

static uint64_t get_u64(const void *attrs, size_t len, uint16_t type)
{
	const struct nlattr *a = find_attr(attrs, len, type);
	uint64_t v = 0;

	if (a && a->nla_len >= NLA_HDRLEN + 8)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 8);
	else if (a && a->nla_len >= NLA_HDRLEN + 4)
		memcpy(&v, (const char *)a + NLA_HDRLEN, 4);
	return v;
}

/**
 * sched_nl_parse_get() - a PROG_GET reply (@len bytes from its netlink header) into @out
 * Return: 0 or -EBADMSG
 */
int sched_nl_parse_get(const void *rep, size_t len, struct sched_nl_info *out)
{
	size_t off = NLMSG_LENGTH(GENL_HDRLEN), in_len;
	const struct nlattr *nest;
	const void *in;

	memset(out, 0, sizeof(*out));
	if (len < off)
		return -EBADMSG;
	nest = find_attr((const char *)rep + off, len - off, BRAID_DCO_A_SCHED);
	if (!nest)
		return -EBADMSG;
	in = (const char *)nest + NLA_HDRLEN;
	in_len = nest->nla_len - NLA_HDRLEN;
	out->prog_id = (uint32_t)get_u64(in, in_len, BRAID_DCO_A_SCHED_PROG_ID);
	out->runs = get_u64(in, in_len, BRAID_DCO_A_SCHED_RUNS);
	out->fallbacks = get_u64(in, in_len, BRAID_DCO_A_SCHED_FALLBACKS);
	out->copies = get_u64(in, in_len, BRAID_DCO_A_SCHED_COPIES);
	return 0;
}

/**
 * sched_nl_get() - PROG_GET on the device @ifindex
 * Return: 0 (*out filled) or -errno, with the extack message in @err
 */
int sched_nl_get(unsigned int ifindex, struct sched_nl_info *out, char *err, unsigned int errlen)
{
	union {
		struct nlmsghdr nh;
		unsigned char b[4096];
	} rep;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = request(BRAID_DCO_CMD_PROG_GET, ifindex, -1, &rep, sizeof(rep), &len, err, errlen);
	return rc ? rc : sched_nl_parse_get(rep.b, len, out);
}
