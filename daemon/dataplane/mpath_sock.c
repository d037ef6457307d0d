// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_sock.c - the sockets and paths of the multipath data plane: the
 * path sockets (slots filled and bound by mpath_bind.c; PMTU
 * discovery, timestamps, UDP GSO/GRO) or the caller's shared socket, the configured
 * paths, the engine path table (add, find, remove, evict) and the send
 * batch (sendmmsg / UDP GSO) with its per-path counters.
 */
#include "dataplane/mpath_sock.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "util/log.h"
#include "dataplane/mpath_stats.h"
#include "dataplane/mpath_weight.h"

/*
 * Path MTU discovery on a path socket: probe = DF set, and the kernel's
 * cached path MTU (learned from ICMP) does not refuse our MTU probes; the
 * engine finds each path's MTU itself. Off (no DF, fragments allowed) only
 * around a datagram that fits no path (tx.oversize).
 */
int mpath_set_pmtudisc(int fd, int family, bool probe)
{
	int v4 = probe ? IP_PMTUDISC_PROBE : IP_PMTUDISC_DONT;
	int v6 = probe ? IPV6_PMTUDISC_PROBE : IPV6_PMTUDISC_DONT;
	int r = 0;

	if (family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6, sizeof(v6)) < 0)
		r = -errno;
	/* also the IPv4 side of a dual-stack socket (v4-mapped peers) */
	if (setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof(v4)) < 0 && family == AF_INET)
		r = -errno;
	return r;
}

/* ---- paths ---- */

const char *mpath_ep_str(const struct braid_mpath *m, int i, char *buf, size_t len)
{
	char a[80], b[80];

	const struct msock *s = &m->sock[m->ep[i].sock];

	snprintf(buf, len, "%s%d (%s%s%s -> %s)", m->name, i, s->ifname, s->ifname[0] ? " " : "",
		 s->fd >= 0 || !s->ifname[0] ? braid_sockaddr_str(&s->local, a, sizeof(a)) : "no address",
		 braid_sockaddr_str(&m->ep[i].peer, b, sizeof(b)));
	return buf;
}

int mpath_ep_add(struct braid_mpath *m, int sock, const union braid_sockaddr *peer, bool learned,
		 uint64_t now)
{
	const struct msock *s = &m->sock[sock];
	char d[200];
	int i;

	i = braid_mp_path_add(m->mp, now, ++m->next_key,
			      (s->backup ? BRAID_MP_PATH_F_BACKUP : 0) |
			      (learned ? BRAID_MP_PATH_F_LEARNED : 0), s->cap_bps);
	if (i < 0)
		return i;
	memset(&m->ep[i], 0, sizeof(m->ep[i]));
	m->ep[i].used = true;
	m->ep[i].sock = sock;
	m->ep[i].peer = *peer;
	m->ep[i].learned = learned;
	m->ep[i].configured = !learned;
	mpath_stats_adopt(m, i, now);
	mpath_weight_apply(m, i);	/* ratio weight by name, whatever index it got */
	m->ep[i].disabled = s->disabled;
	if (s->up == 0 || s->disabled)
		braid_mp_path_link_event(m->mp, now, i, 0);
	braid_info("multipath: path %s %s%s", mpath_ep_str(m, i, d, sizeof(d)),
		   learned ? "learned from an authenticated packet, validating" :
		   s->fd < 0 ? "added, down until its address is there" : "added, validating",
		   s->backup ? " (backup)" : "");
	return i;
}

void mpath_ep_del(struct braid_mpath *m, int i, uint64_t now, const char *why)
{
	char d[200];

	braid_info("multipath: path %s removed: %s", mpath_ep_str(m, i, d, sizeof(d)), why);
	mpath_stats_retire(m, i);	/* its totals, for a successor */
	braid_mp_path_del(m->mp, now, i);
	m->ep[i].used = false;
	m->st.paths_removed++;
}

int mpath_ep_find(const struct braid_mpath *m, int sock, const union braid_sockaddr *from)
{
	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used && m->ep[i].sock == sock && braid_sockaddr_equal(&m->ep[i].peer, from))
			return i;
	return -ENOENT;
}

/* A learned path that has been failed longest, to make room; -1 if none. */
int mpath_ep_victim(const struct braid_mpath *m)
{
	uint64_t best = UINT64_MAX;
	int v = -1;

	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used && m->ep[i].learned && m->ep[i].failed_since_us &&
		    m->ep[i].failed_since_us < best) {
			best = m->ep[i].failed_since_us;
			v = i;
		}
	return v;
}

/* Options of a freshly bound path socket: timestamps, PMTU probing, UDP GSO/GRO. */
void mpath_sock_setup(struct braid_mpath *m, struct msock *s)
{
	char a[80];
	int one = 1, r;

	(void)m;
	braid_info("multipath: UDP%s socket bound to %s%s%s%s", s->local.sa.sa_family == AF_INET ? "v4" : "v6",
		   braid_sockaddr_str(&s->local, a, sizeof(a)), s->devbound ? " on " : "",
		   s->devbound ? s->ifname : "", s->backup ? " (backup)" : "");
	/* kernel arrival times: the engine's delivery-rate and one-way
	 * delay samples must not see how late this process ran */
	if (setsockopt(s->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) < 0)
		braid_dbg("multipath: SO_TIMESTAMPNS: %s (arrival times from the clock)", strerror(errno));
	r = mpath_set_pmtudisc(s->fd, s->local.sa.sa_family, true);
	if (r)
		braid_warn("multipath: IP(V6)_MTU_DISCOVER probe on %s: %s (MTU probes may be "
			   "fragmented or refused by the kernel's PMTU cache)",
			   braid_sockaddr_str(&s->local, a, sizeof(a)), strerror(-r));
	s->gso = braid_sock_gso_ok(s->fd);
	s->gro = braid_sock_set_gro(s->fd) == 0;
	braid_dbg("multipath: UDP GSO %s, GRO %s on %s", s->gso ? "on" : "off", s->gro ? "on" : "off",
		  braid_sockaddr_str(&s->local, a, sizeof(a)));
}

/* ---- the send batch ---- */

/* Send the batch; per-datagram results go to the path counters. */
void mpath_tx_flush(struct braid_mpath *m)
{
	struct braid_txbatch *b = &m->txb;
	unsigned int n = braid_txb_flush(b);

	for (unsigned int i = 0; i < n; i++) {
		struct ep *e = &m->ep[m->txb_path[i]];

		if (b->res[i]) {
			e->tx_errors++;
			m->tst->link_tx_errors++;
			if (ev_now(m->loop) - m->last_err_log >= 1.0) {
				char d[200];

				m->last_err_log = ev_now(m->loop);
				braid_dbg("multipath: send on path %s: %s",
					  mpath_ep_str(m, m->txb_path[i], d, sizeof(d)), strerror(-b->res[i]));
			}
			continue;
		}
		e->tx_pkts++;
		e->tx_bytes += b->e[i].len;
		m->tst->link_tx_pkts++;
		m->tst->link_tx_bytes += b->e[i].len;
		m->sent_any = true;
	}
	b->n = 0;
	m->txctl_n = 0;
}

/* Queue one datagram for the batch: pkt must stay valid until mpath_tx_flush(). */
void mpath_send_on(struct braid_mpath *m, int path, const uint8_t *pkt, size_t len)
{
	struct ep *e;
	struct msock *s;

	if (path < 0 || path >= MAX_EPS || !m->ep[path].used)
		return;
	e = &m->ep[path];
	s = &m->sock[e->sock];
	if (s->fd < 0) {	/* its address is gone: the engine sees the loss */
		e->tx_errors++;
		return;
	}
	if (m->txb.n >= BRAID_TXB_MAX)
		mpath_tx_flush(m);
	m->txb_path[m->txb.n] = path;
	braid_txb_add(&m->txb, s->fd, &s->gso, &e->peer, pkt, len);
	braid_txb_set_src(&m->txb, &e->local);	/* family 0 (not shared): as routing picks */
}

/* ---- sockets ---- */

/* A free socket slot (auto slots are given back), or -ENOSPC. */
int mpath_sock_slot(struct braid_mpath *m)
{
	for (int i = 0; i < m->n_sock; i++)
		if (!m->sock[i].in_use)
			return i;
	return m->n_sock < MAX_SOCKS ? m->n_sock++ : -ENOSPC;
}

/* A socket of the caller's as the only path socket (braid_mpath_new_shared). */
int mpath_shared_sock(struct braid_mpath *m, int fd)
{
	struct msock *s = &m->sock[0];
	socklen_t gl = sizeof(s->local);

	memset(s, 0, sizeof(*s));
	s->m = m;
	s->fd = fd;
	s->in_use = true;
	s->shared = true;
	s->wildcard = true;	/* no link monitoring: the caller's address */
	s->up = -1;
	if (getsockname(fd, &s->local.sa, &gl) < 0)
		return -errno;
	s->gso = braid_sock_gso_ok(fd);
	m->n_sock = 1;
	return 0;
}
