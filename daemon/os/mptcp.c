// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp.c - kernel MPTCP stream sockets and their per-subflow telemetry
 * (mptcp.h).
 */
#include "os/mptcp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mptcp.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_MPTCP
#define SOL_MPTCP 284
#endif
#ifndef TCP_IS_MPTCP
#define TCP_IS_MPTCP 43
#endif

/* Newer than Debian 12's <linux/mptcp.h> (Linux 6.5+, include/uapi/linux/mptcp.h). */
#ifndef MPTCP_FULL_INFO
#define MPTCP_FULL_INFO 4

struct mptcp_subflow_info {
	__u32 id;
	struct mptcp_subflow_addrs addrs;
};

struct mptcp_full_info {
	__u32 size_tcpinfo_kernel;	/* set by the kernel */
	__u32 size_tcpinfo_user;
	__u32 size_sfinfo_kernel;	/* set by the kernel */
	__u32 size_sfinfo_user;
	__u32 num_subflows;		/* set by the kernel: the real count */
	__u32 size_arrays_user;		/* entries room in both arrays */
	__aligned_u64 subflow_info;
	__aligned_u64 tcp_info;
	struct mptcp_info mptcp_info;
};
#endif

_Static_assert(offsetof(struct mptcp_full_info, mptcp_info) == 40,
	       "the kernel's MIN_FULL_INFO_OPTLEN_SIZE");

#define MPTCP_SYSCTL "/proc/sys/net/mptcp/enabled"

const char *braid_mptcp_mode_name(int mode)
{
	switch (mode) {
	case BRAID_MPTCP_ON: return "on";
	case BRAID_MPTCP_AUTO: return "auto";
	default: return "off";
	}
}

int braid_mptcp_sysctl_enabled(void)
{
	char b[16] = "";
	ssize_t n;
	int fd = open(MPTCP_SYSCTL, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	return b[0] == '1';
}

void braid_mptcp_stream_opts(int fd, int sndbuf, int rcvbuf)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (sndbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (rcvbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
}

/* socket() errors that mean "no MPTCP here", not "no socket at all". */
static bool refused(int e)
{
	return e == EPROTONOSUPPORT || e == ENOPROTOOPT || e == EINVAL || e == EAFNOSUPPORT ||
	       e == EPROTOTYPE;
}

int braid_mptcp_socket(int family, int mode, int sndbuf, int rcvbuf, int *fd, bool *is_mptcp,
		       int *why)
{
	int s = -1;

	*why = 0;
	*is_mptcp = false;
	if (mode == BRAID_MPTCP_AUTO && braid_mptcp_sysctl_enabled() != 1) {
		int e = braid_mptcp_sysctl_enabled();

		*why = e < 0 ? -e : ENOPROTOOPT;
		mode = BRAID_MPTCP_OFF;
	}
	if (mode != BRAID_MPTCP_OFF) {
		s = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_MPTCP);
		if (s >= 0) {
			*is_mptcp = true;
		} else {
			if (!refused(errno))
				return -errno;
			*why = errno;
		}
	}
	if (s < 0) {
		s = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (s < 0)
			return -errno;
	}
	braid_mptcp_stream_opts(s, sndbuf, rcvbuf);
	*fd = s;
	return 0;
}

int braid_mptcp_active(int fd)
{
	struct mptcp_info mi;
	socklen_t l = sizeof(mi);
	int v = 0;

	/* an MPTCP socket answers MPTCP_INFO; after a fallback it passes the call to TCP */
	memset(&mi, 0, sizeof(mi));
	if (!getsockopt(fd, SOL_MPTCP, MPTCP_INFO, &mi, &l))
		return !(mi.mptcpi_flags & MPTCP_INFO_FLAG_FALLBACK);
	if (errno != EOPNOTSUPP && errno != ENOPROTOOPT)
		return -errno;
	l = sizeof(v);
	if (!getsockopt(fd, IPPROTO_TCP, TCP_IS_MPTCP, &v, &l))
		return v ? 1 : 0;
	return 0;
}

static void sf_from_tcpinfo(struct braid_mptcp_subflow *s, const struct tcp_info *t)
{
	s->state = t->tcpi_state;
	s->rtt_us = t->tcpi_rtt;
	s->rttvar_us = t->tcpi_rttvar;
	s->snd_cwnd = t->tcpi_snd_cwnd;
	s->total_retrans = t->tcpi_total_retrans;
	s->bytes_sent = t->tcpi_bytes_sent;
	s->bytes_acked = t->tcpi_bytes_acked;
	s->bytes_received = t->tcpi_bytes_received;
	s->segs_out = t->tcpi_segs_out;
	s->segs_in = t->tcpi_segs_in;
	s->pacing_rate = t->tcpi_pacing_rate;
	s->delivery_rate = t->tcpi_delivery_rate;
}

/* Copy a kernel sockaddr (family checked) into a; unknown families stay empty. */
static void sa_copy(union braid_sockaddr *a, const void *sa, size_t room)
{
	sa_family_t fam;

	memset(a, 0, sizeof(*a));
	memcpy(&fam, sa, sizeof(fam));
	if (fam == AF_INET && room >= sizeof(struct sockaddr_in))
		memcpy(&a->in, sa, sizeof(a->in));
	else if (fam == AF_INET6 && room >= sizeof(struct sockaddr_in6))
		memcpy(&a->in6, sa, sizeof(a->in6));
}

static int telemetry_full(int fd, struct braid_mptcp_conn *c)
{
	struct mptcp_subflow_info sfi[BRAID_MPTCP_MAX_SUBFLOWS];
	struct tcp_info ti[BRAID_MPTCP_MAX_SUBFLOWS];
	struct mptcp_full_info fi;
	socklen_t l = sizeof(fi);
	uint32_t n;

	memset(&fi, 0, sizeof(fi));
	memset(sfi, 0, sizeof(sfi));
	memset(ti, 0, sizeof(ti));
	fi.size_tcpinfo_user = sizeof(ti[0]);
	fi.size_sfinfo_user = sizeof(sfi[0]);
	fi.size_arrays_user = BRAID_MPTCP_MAX_SUBFLOWS;
	fi.subflow_info = (uint64_t)(uintptr_t)sfi;
	fi.tcp_info = (uint64_t)(uintptr_t)ti;
	if (getsockopt(fd, SOL_MPTCP, MPTCP_FULL_INFO, &fi, &l))
		return -errno;
	if (l < offsetof(struct mptcp_full_info, mptcp_info))
		return -EPROTO;
	c->full_info = true;
	c->token = fi.mptcp_info.mptcpi_token;
	c->subflows = fi.mptcp_info.mptcpi_subflows;
	c->subflows_max = fi.mptcp_info.mptcpi_subflows_max;
	c->add_addr_accepted = fi.mptcp_info.mptcpi_add_addr_accepted;
	c->add_addr_accepted_max = fi.mptcp_info.mptcpi_add_addr_accepted_max;
	/* the kernel filled at most size_arrays_user entries, whatever num_subflows says */
	n = fi.num_subflows < BRAID_MPTCP_MAX_SUBFLOWS ? fi.num_subflows : BRAID_MPTCP_MAX_SUBFLOWS;
	for (uint32_t i = 0; i < n; i++) {
		struct braid_mptcp_subflow *s = &c->sf[i];

		s->id = sfi[i].id;
		sa_copy(&s->local, &sfi[i].addrs.ss_local, sizeof(sfi[i].addrs.ss_local));
		sa_copy(&s->remote, &sfi[i].addrs.ss_remote, sizeof(sfi[i].addrs.ss_remote));
		sf_from_tcpinfo(s, &ti[i]);
	}
	c->n = (int)n;
	return 0;
}

/* Linux 5.16 .. 6.4: two calls; both walk the subflow list in the same order. */
static int telemetry_split(int fd, struct braid_mptcp_conn *c)
{
	struct {
		struct mptcp_subflow_data d;
		struct tcp_info ti[BRAID_MPTCP_MAX_SUBFLOWS];
	} t;
	struct {
		struct mptcp_subflow_data d;
		struct mptcp_subflow_addrs a[BRAID_MPTCP_MAX_SUBFLOWS];
	} a;
	struct mptcp_info mi;
	socklen_t l = sizeof(mi);
	uint32_t nt, na, n;

	memset(&mi, 0, sizeof(mi));
	if (!getsockopt(fd, SOL_MPTCP, MPTCP_INFO, &mi, &l)) {
		c->token = mi.mptcpi_token;
		c->subflows = mi.mptcpi_subflows;
		c->subflows_max = mi.mptcpi_subflows_max;
		c->add_addr_accepted = mi.mptcpi_add_addr_accepted;
		c->add_addr_accepted_max = mi.mptcpi_add_addr_accepted_max;
	}
	memset(&t, 0, sizeof(t));
	t.d.size_subflow_data = sizeof(t.d);
	t.d.size_user = sizeof(t.ti[0]);
	l = sizeof(t);
	if (getsockopt(fd, SOL_MPTCP, MPTCP_TCPINFO, &t, &l))
		return -errno;
	memset(&a, 0, sizeof(a));
	a.d.size_subflow_data = sizeof(a.d);
	a.d.size_user = sizeof(a.a[0]);
	l = sizeof(a);
	if (getsockopt(fd, SOL_MPTCP, MPTCP_SUBFLOW_ADDRS, &a, &l))
		return -errno;
	/* entries written: bounded by the room, and by the element size the kernel used */
	nt = t.d.num_subflows < BRAID_MPTCP_MAX_SUBFLOWS ? t.d.num_subflows : BRAID_MPTCP_MAX_SUBFLOWS;
	na = a.d.num_subflows < BRAID_MPTCP_MAX_SUBFLOWS ? a.d.num_subflows : BRAID_MPTCP_MAX_SUBFLOWS;
	if (t.d.size_user != sizeof(t.ti[0]) || a.d.size_user != sizeof(a.a[0]))
		return -EPROTO;	/* the kernel shrank size_user: its entries are packed tighter */
	n = nt < na ? nt : na;
	for (uint32_t i = 0; i < n; i++) {
		struct braid_mptcp_subflow *s = &c->sf[i];

		s->id = i + 1;
		sa_copy(&s->local, &a.a[i].ss_local, sizeof(a.a[i].ss_local));
		sa_copy(&s->remote, &a.a[i].ss_remote, sizeof(a.a[i].ss_remote));
		sf_from_tcpinfo(s, &t.ti[i]);
	}
	c->n = (int)n;
	return 0;
}

/* Plain TCP, or an MPTCP socket that fell back (it hands TCP_INFO to its one subflow). */
static int plain_tcp(int fd, struct braid_mptcp_conn *c)
{
	struct braid_mptcp_subflow *s = &c->sf[0];
	struct tcp_info ti;
	socklen_t l = sizeof(s->local);

	if (getsockname(fd, &s->local.sa, &l))
		return -errno;
	l = sizeof(s->remote);
	if (getpeername(fd, &s->remote.sa, &l))
		return -errno;
	memset(&ti, 0, sizeof(ti));
	l = sizeof(ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l))
		return -errno;
	s->id = 0;
	sf_from_tcpinfo(s, &ti);
	c->n = 1;
	return 0;
}

int braid_mptcp_telemetry(int fd, struct braid_mptcp_conn *c)
{
	int r;

	memset(c, 0, sizeof(*c));
	r = braid_mptcp_active(fd);
	if (r < 0)
		return r;
	if (!r)
		return plain_tcp(fd, c);
	c->mptcp = true;
	r = telemetry_full(fd, c);
	if (r == -EOPNOTSUPP || r == -ENOPROTOOPT || r == -EINVAL) {
		memset(c->sf, 0, sizeof(c->sf));
		c->full_info = false;
		r = telemetry_split(fd, c);
	}
	return r;
}
