// SPDX-License-Identifier: GPL-2.0-only
/*
 * backend_mptcp.c - the MPTCP transport's data-plane backend
 * (backend_mptcp.h): data through the single-path backend, paths from the
 * kernel's per-subflow telemetry (MPTCP_FULL_INFO, or MPTCP_TCPINFO +
 * MPTCP_SUBFLOW_ADDRS), with per-interval rates and shares computed here,
 * and a "failed" row for each configured path whose subflow the path
 * manager's events say is closed or whose interface is down (mptcp_endp.h).
 */
#include "dataplane/backend_mptcp.h"

#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dataplane/backend_sp.h"
#include "dataplane/mptcp_endp.h"
#include "dataplane/mptcp_prio.h"
#include <arpa/inet.h>
#include "os/linkmon.h"
#include "os/mptcp.h"
#include "os/mptcp_pm.h"

/* The last sample of a subflow (for the interval rates). */
struct sf_prev {
	bool used;
	uint32_t id;
	union braid_sockaddr local;
	uint64_t tx, rx;		/* bytes at the interval's start */
	uint64_t iv_tx_bps, iv_rx_bps;
	uint32_t iv_share_pm;
};

struct mptcp_dp {
	struct braid_dp dp;		/* first: the handle the role holds */
	struct braid_dp *sp;		/* the data channel over the stream */
	int fd;
	double iv_start;		/* monotonic seconds; 0 = none yet */
	double iv_len;
	struct sf_prev prev[BRAID_MPTCP_MAX_SUBFLOWS];
};

static struct mptcp_dp *M(const struct braid_dp *dp)
{
	return (struct mptcp_dp *)(uintptr_t)dp;	/* dp is the first member */
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int m_open(struct braid_dp **out, const struct braid_dp_config *cfg,
		  const struct braid_dp_role *role)
{
	struct mptcp_dp *m;
	int r;

	if (cfg->shared_fd < 0)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	r = braid_dp_open(&braid_dp_sp_ops, &m->sp, cfg, role);
	if (r) {
		free(m);
		return r;
	}
	m->dp.ops = &braid_dp_mptcp_ops;
	m->fd = cfg->shared_fd;
	*out = &m->dp;
	return 0;
}

static void m_close(struct braid_dp *dp)
{
	braid_dp_close(M(dp)->sp);
	free(M(dp));
}

static int m_send(struct braid_dp *dp, const uint8_t *p, size_t len)
{
	return braid_dp_send(M(dp)->sp, p, len);
}

static int m_seal(struct braid_dp *dp, const uint8_t *pt, size_t len, uint8_t *out, size_t cap,
		  size_t *out_len)
{
	return braid_dp_seal(M(dp)->sp, pt, len, out, cap, out_len);
}

static void m_input(struct braid_dp *dp, const uint8_t *pkt, size_t len,
		    const union braid_sockaddr *from)
{
	braid_dp_input(M(dp)->sp, pkt, len, from);
}

static void m_stats(const struct braid_dp *dp, struct braid_tunnel_stats *st)
{
	braid_dp_stats(M(dp)->sp, st);
}

static bool has_peer(const struct braid_dp *dp)
{
	(void)dp;
	return true;
}

static int outer_hdr(const struct braid_dp *dp)
{
	union braid_sockaddr a;
	socklen_t l = sizeof(a);

	if (!getpeername(M(dp)->fd, &a.sa, &l) && a.sa.sa_family == AF_INET)
		return 20;
	return 40;
}

static struct sf_prev *prev_of(struct mptcp_dp *m, const struct braid_mptcp_subflow *s)
{
	struct sf_prev *free_slot = NULL;

	for (int i = 0; i < BRAID_MPTCP_MAX_SUBFLOWS; i++) {
		struct sf_prev *p = &m->prev[i];

		if (p->used && p->id == s->id && braid_sockaddr_equal(&p->local, &s->local))
			return p;
		if (!p->used && !free_slot)
			free_slot = p;
	}
	return free_slot;
}

/* Roll the interval over when a second has passed: rates and shares per subflow. */
static void interval(struct mptcp_dp *m, const struct braid_mptcp_conn *c)
{
	double now = mono(), dt = now - m->iv_start;
	uint64_t d_tx[BRAID_MPTCP_MAX_SUBFLOWS] = { 0 }, d_rx[BRAID_MPTCP_MAX_SUBFLOWS] = { 0 };
	uint64_t sum = 0;
	bool seen[BRAID_MPTCP_MAX_SUBFLOWS] = { false };

	if (m->iv_start && dt < 1.0)
		return;
	for (int i = 0; i < c->n; i++) {
		struct sf_prev *p = prev_of(m, &c->sf[i]);
		int k;

		if (!p)
			continue;
		k = (int)(p - m->prev);
		seen[k] = true;
		if (p->used && m->iv_start) {	/* counters only grow; a reused slot counts from here */
			d_tx[k] = c->sf[i].bytes_acked >= p->tx ? c->sf[i].bytes_acked - p->tx : 0;
			d_rx[k] = c->sf[i].bytes_received >= p->rx ? c->sf[i].bytes_received - p->rx : 0;
			sum += d_tx[k] + d_rx[k];
		}
		p->used = true;
		p->id = c->sf[i].id;
		p->local = c->sf[i].local;
		p->tx = c->sf[i].bytes_acked;
		p->rx = c->sf[i].bytes_received;
	}
	for (int k = 0; k < BRAID_MPTCP_MAX_SUBFLOWS; k++) {
		struct sf_prev *p = &m->prev[k];

		if (!seen[k]) {
			memset(p, 0, sizeof(*p));	/* the subflow is gone */
			continue;
		}
		p->iv_tx_bps = m->iv_start ? (uint64_t)(d_tx[k] * 8 / dt) : 0;
		p->iv_rx_bps = m->iv_start ? (uint64_t)(d_rx[k] * 8 / dt) : 0;
		p->iv_share_pm = sum ? (uint32_t)((d_tx[k] + d_rx[k]) * 1000 / sum) : 0;
	}
	m->iv_len = m->iv_start ? dt : 0;
	m->iv_start = now;
}

static void from_sa(const union braid_sockaddr *a, struct braid_mptcp_endp *e)
{
	memset(e, 0, sizeof(*e));
	e->family = a->sa.sa_family;
	if (e->family == AF_INET) {
		e->addr.v4 = a->in.sin_addr;
		e->port = ntohs(a->in.sin_port);
	} else if (e->family == AF_INET6) {
		e->addr.v6 = a->in6.sin6_addr;
		e->port = ntohs(a->in6.sin6_port);
	} else {
		e->family = 0;
	}
}

/*
 * Subflow s is a backup: MP_PRIO sent by us (path set) or received from the
 * peer (event), else the telemetry's flag or its path's mp-backup.
 */
static bool sf_backup(const struct braid_mptcp_subflow *s)
{
	struct braid_mptcp_path_state st[BRAID_OPT_MAX_MP_PATHS];
	struct braid_mptcp_endp l, r;
	int loc = -1, rem = -1, k;

	from_sa(&s->local, &l);
	from_sa(&s->remote, &r);
	braid_mptcp_prio_get(&l, &r, &loc, &rem);
	if (loc == 1 || rem == 1)
		return true;
	if (loc == 0)
		return rem == 1;	/* our own nobackup overrides the configured backup */
	if (s->backup)
		return true;
	k = braid_mptcp_endps_paths(st, BRAID_OPT_MAX_MP_PATHS);
	for (int i = 0; i < k; i++)
		if (st[i].addr.family == l.family && st[i].backup &&
		    !memcmp(&st[i].addr.addr, &l.addr, l.family == AF_INET ? 4 : 16))
			return true;
	return false;
}

static void fill(struct braid_mpath_path_info *o, const struct braid_mptcp_subflow *s,
		 const struct sf_prev *p, double iv_len, int index)
{
	struct braid_linkmon_where w;
	bool backup = sf_backup(s);

	memset(o, 0, sizeof(*o));
	o->index = index;
	braid_sockaddr_str(&s->local, o->local, sizeof(o->local));
	braid_sockaddr_str(&s->remote, o->remote, sizeof(o->remote));
	if (braid_linkmon_addr_where(&s->local, &w) == 1)
		snprintf(o->dev, sizeof(o->dev), "%s", w.ifname);
	o->route_ok = true;
	if (s->state != TCP_ESTABLISHED)
		o->mp.state = BRAID_MP_PATH_FAILED;
	else
		o->mp.state = backup ? BRAID_MP_PATH_STANDBY : BRAID_MP_PATH_ACTIVE;
	o->mp.flags = backup ? BRAID_MP_PATH_F_BACKUP : 0;
	o->mp.srtt_us = s->rtt_us;
	o->mp.rttvar_us = s->rttvar_us;
	o->mp.bw_bps = s->delivery_rate * 8;
	o->mp.rate_bps = s->pacing_rate * 8;
	o->mp.tx_pkts = s->segs_out;
	o->mp.rx_pkts = s->segs_in;
	o->mp.tx_bytes = s->bytes_acked;
	o->mp.rx_bytes = s->bytes_received;
	o->mp.resent_pkts = s->total_retrans;
	o->mp.slot = o->mp.peer_slot = -1;
	o->wire_tx_pkts = s->segs_out;
	o->wire_tx_bytes = s->bytes_acked;
	o->wire_rx_pkts = s->segs_in;
	o->wire_rx_bytes = s->bytes_received;
	o->rtt_fresh = s->state == TCP_ESTABLISHED;
	o->last_rx_ms = -1;
	o->iv_loss_pm = -1;
	if (p) {
		o->iv_s = iv_len;
		o->iv_tx_bps = p->iv_tx_bps;
		o->iv_rx_bps = p->iv_rx_bps;
		o->iv_share_pm = p->iv_share_pm;
		o->mp.share_pm = p->iv_share_pm;
	}
}

static void to_sa(const struct braid_mptcp_endp *e, union braid_sockaddr *a)
{
	memset(a, 0, sizeof(*a));
	a->sa.sa_family = (sa_family_t)e->family;
	if (e->family == AF_INET) {
		a->in.sin_addr = e->addr.v4;
		a->in.sin_port = htons(e->port);
	} else {
		a->in6.sin6_addr = e->addr.v6;
		a->in6.sin6_port = htons(e->port);
	}
}

static bool live(const struct braid_mptcp_conn *c, const struct braid_mptcp_endp *e)
{
	union braid_sockaddr a;

	if (!e->family)
		return false;
	for (int i = 0; i < c->n; i++) {
		a = c->sf[i].local;
		if (a.sa.sa_family != e->family)
			continue;
		if (e->family == AF_INET ? a.in.sin_addr.s_addr == e->addr.v4.s_addr
					 : !memcmp(&a.in6.sin6_addr, &e->addr.v6, 16))
			return true;
	}
	return false;
}

/* The configured paths without a live subflow, closed or down: "failed" rows from n on. */
static int down_rows(const struct braid_mptcp_conn *c, struct braid_mpath_path_info *out, int n,
		     int max)
{
	struct braid_mptcp_path_state st[BRAID_OPT_MAX_MP_PATHS];
	int k = braid_mptcp_endps_paths(st, BRAID_OPT_MAX_MP_PATHS);
	union braid_sockaddr a;

	for (int i = 0; i < k && n < max; i++) {
		struct braid_mpath_path_info *o = &out[n];

		if (st[i].state != BRAID_MPTCP_PATH_CLOSED && st[i].have)
			continue;
		if (live(c, &st[i].addr) || live(c, &st[i].sub_local))
			continue;
		memset(o, 0, sizeof(*o));
		o->index = n++;
		if (st[i].sub_local.family) {
			to_sa(&st[i].sub_local, &a);
			braid_sockaddr_str(&a, o->local, sizeof(o->local));
			to_sa(&st[i].sub_remote, &a);
			braid_sockaddr_str(&a, o->remote, sizeof(o->remote));
		} else {
			snprintf(o->local, sizeof(o->local), "%.63s", st[i].name);
			snprintf(o->remote, sizeof(o->remote), "-");
		}
		snprintf(o->dev, sizeof(o->dev), "%.15s", st[i].name);
		o->mp.state = BRAID_MP_PATH_FAILED;
		o->mp.flags = st[i].backup ? BRAID_MP_PATH_F_BACKUP : 0;
		o->mp.slot = o->mp.peer_slot = -1;
		o->last_rx_ms = -1;
		o->iv_loss_pm = -1;
	}
	return n;
}

static int m_paths(const struct braid_dp *dp, struct braid_mpath_path_info *out, int max)
{
	struct mptcp_dp *m = M(dp);
	struct braid_mptcp_conn c;
	int n;

	if (braid_mptcp_telemetry(m->fd, &c))
		return 0;
	interval(m, &c);
	n = c.n < max ? c.n : max;
	for (int i = 0; i < n; i++)
		fill(&out[i], &c.sf[i], prev_of(m, &c.sf[i]), m->iv_len, i);
	return down_rows(&c, out, n, max);
}

/* This side's flag on every live subflow of c from local address e (the status shows it). */
static void mark_from(const struct braid_mptcp_conn *c, const struct braid_mptcp_endp *e, bool backup)
{
	struct braid_mptcp_endp l, r;

	for (int i = 0; i < c->n; i++) {
		from_sa(&c->sf[i].local, &l);
		from_sa(&c->sf[i].remote, &r);
		if (l.family == e->family &&
		    !memcmp(&l.addr, &e->addr, e->family == AF_INET ? 4 : 16))
			braid_mptcp_prio_set(c->token, &l, &r, backup);
	}
}

/*
 * Backup / active for subflow index path: MP_PRIO through the path manager's
 * SET_FLAGS. In-kernel path manager: on the endpoint of the subflow's local
 * address (every subflow from that address follows). No endpoint there (the
 * userspace path manager): on this one subflow, by the connection's token
 * and the subflow's addresses and ports. A rate cap at run time is not
 * supported here (mp-cap at start: the eBPF actors). 0 or -errno (-ENOENT:
 * no such subflow; -EINVAL: the kernel refused, e.g. no endpoint and not a
 * userspace-PM connection).
 */
static int m_path_set(struct braid_dp *dp, int path, unsigned int flags, uint64_t cap_bps)
{
	bool backup = (flags & BRAID_MP_PATH_F_BACKUP) != 0;
	struct braid_mptcp_endp t[16], want, rem;
	struct braid_mptcp_pm *pm;
	struct braid_mptcp_conn c;
	int n, r = -ENOENT;

	if (cap_bps)
		return -EOPNOTSUPP;
	if (braid_mptcp_telemetry(M(dp)->fd, &c) || path < 0 || path >= c.n)
		return -ENOENT;
	from_sa(&c.sf[path].local, &want);
	from_sa(&c.sf[path].remote, &rem);
	if (!want.family)
		return -ENOENT;
	r = braid_mptcp_pm_open(&pm);
	if (r)
		return r;
	n = braid_mptcp_pm_dump(pm, t, 16);
	r = n < 0 ? n : -ENOENT;
	for (int i = 0; i < n && i < 16; i++) {
		if (t[i].family != want.family ||
		    memcmp(&t[i].addr, &want.addr, want.family == AF_INET ? 4 : 16))
			continue;
		r = braid_mptcp_pm_set_flags(pm, t[i].id, backup ? BRAID_MPTCP_F_BACKUP : 0);
		if (!r)
			mark_from(&c, &want, backup);
		break;
	}
	if (r == -ENOENT && c.mptcp && c.token) {
		r = braid_mptcp_pm_set_prio(pm, c.token, &want, &rem, backup);
		if (!r)
			braid_mptcp_prio_set(c.token, &want, &rem, backup);
	}
	braid_mptcp_pm_close(pm);
	return r;
}

static const char *m_sched_name(const struct braid_dp *dp)
{
	int r = braid_mptcp_active(M(dp)->fd);

	return r == 1 ? "mptcp" : "tcp (mptcp fallback)";
}

const struct braid_dp_ops braid_dp_mptcp_ops = {
	.name = "mptcp",
	.open = m_open,
	.close = m_close,
	.has_peer = has_peer,
	.outer_hdr = outer_hdr,
	.send = m_send,
	.seal = m_seal,
	.input = m_input,
	.stats = m_stats,
	.paths = m_paths,
	.sched_name = m_sched_name,
	.path_set = m_path_set,
};
