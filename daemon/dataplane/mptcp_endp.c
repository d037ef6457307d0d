// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_endp.c - MPTCP endpoints for the configured paths, following the
 * host's links and addresses (mptcp_endp.h).
 */
#include "dataplane/mptcp_endp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mp/mp.h"
#include "mp/mp_wnames.h"
#include "os/linkmon.h"
#include "os/mptcp.h"
#include "os/mptcp_bpf.h"
#include "os/mptcp_pm.h"
#include "util/log.h"

#define MAX_ENDP 64		/* endpoints read back from a dump */
#define LIMIT_MAX 8		/* the kernel's MPTCP_PM_ADDR_MAX */
#define DEBOUNCE_S 0.05

struct epath {
	const struct braid_opt_mp_path *p;
	bool have;			/* an endpoint is in place for it */
	bool ours;			/* created by us (deleted on stop) */
	uint8_t id;
	struct braid_mptcp_endp e;	/* what is in place */
};

struct braid_mptcp_endps {
	struct ev_loop *loop;
	struct braid_mptcp_pm *pm;
	bool server;
	uint16_t signal_port;
	int nl_fd;
	ev_io nl_r;
	ev_timer debounce;
	int n;
	struct epath path[BRAID_OPT_MAX_MP_PATHS];
	bool limits_set;
	uint32_t old_subflows, old_accept, set_subflows, set_accept;
	struct braid_mptcp_bpf *bpf;	/* the subflow actors; NULL: not loaded */
	int ev_fd;			/* path manager events; -1 none */
	ev_io ev_r;
	uint64_t ev_bad;		/* malformed event buffers skipped */
	uint32_t weight[BRAID_OPT_MAX_MP_PATHS];	/* mp-scheduler ratio, by path */
};

static bool same_addr(const struct braid_mptcp_endp *a, const struct braid_mptcp_endp *b)
{
	if (a->family != b->family)
		return false;
	return !memcmp(&a->addr, &b->addr, a->family == AF_INET ? 4 : 16);
}

/* Where path p's endpoint belongs now: 1 and *e (addr, ifindex), 0 nowhere (down, no address). */
static int resolve(const struct braid_opt_mp_path *p, struct braid_mptcp_endp *e)
{
	struct braid_linkmon_where w;
	union braid_sockaddr a;
	int r;

	memset(e, 0, sizeof(*e));
	memset(&w, 0, sizeof(w));
	if (p->kind == BRAID_MP_LOCAL_IF) {
		r = braid_linkmon_if_where(p->local, AF_INET, &w);
		if (r == 0)
			r = braid_linkmon_if_where(p->local, AF_INET6, &w);
	} else {
		memset(&a, 0, sizeof(a));
		if (inet_pton(AF_INET, p->local, &a.in.sin_addr) == 1)
			a.sa.sa_family = AF_INET;
		else if (inet_pton(AF_INET6, p->local, &a.in6.sin6_addr) == 1)
			a.sa.sa_family = AF_INET6;
		else
			return 0;
		r = braid_linkmon_addr_where(&a, &w);
	}
	if (r <= 0 || !w.up)
		return 0;
	e->family = w.addr.sa.sa_family;
	if (e->family == AF_INET)
		e->addr.v4 = w.addr.in.sin_addr;
	else
		e->addr.v6 = w.addr.in6.sin6_addr;
	e->ifindex = w.ifindex;
	return 1;
}

/* The endpoint in the kernel's table with e's address: 1 and *found, 0 none, -errno. */
static int lookup(struct braid_mptcp_endps *m, const struct braid_mptcp_endp *e,
		  struct braid_mptcp_endp *found)
{
	struct braid_mptcp_endp t[MAX_ENDP];
	int n = braid_mptcp_pm_dump(m->pm, t, MAX_ENDP);

	if (n < 0)
		return n;
	for (int i = 0; i < n && i < MAX_ENDP; i++)
		if (same_addr(&t[i], e)) {
			*found = t[i];
			return 1;
		}
	return 0;
}

/* Publish path i's address, weight and cap to the subflow actors. */
static void actors_set(struct braid_mptcp_endps *m, int i)
{
	struct epath *ep = &m->path[i];
	char b[96];
	int r;

	if (!m->bpf || i >= BRAID_MPTCP_BPF_SLOTS)
		return;
	r = braid_mptcp_bpf_set_path(m->bpf, &ep->e, (uint32_t)i, m->weight[i],
				     (uint32_t)(ep->p->cap_bps / 8 > UINT32_MAX ? UINT32_MAX
									   : ep->p->cap_bps / 8));
	if (r)
		braid_warn("MPTCP: path %s: cannot publish %s to the subflow actors: %s",
			   ep->p->local, braid_mptcp_endp_str(&ep->e, b, sizeof(b)), strerror(-r));
	else
		braid_info("MPTCP: path %s: subflows from %s get mark 0x%x, weight %u, cap %llu bit/s",
			   ep->p->local, braid_mptcp_endp_str(&ep->e, b, sizeof(b)),
			   BRAID_MPTCP_MARK_BASE + (unsigned int)i + 1, m->weight[i],
			   (unsigned long long)ep->p->cap_bps);
}

static void drop(struct braid_mptcp_endps *m, struct epath *ep, const char *why)
{
	char b[96];
	int r;

	if (!ep->have)
		return;
	braid_mptcp_bpf_del_path(m->bpf, &ep->e);
	if (ep->ours) {
		r = braid_mptcp_pm_del(m->pm, ep->id);
		if (r && r != -ENOENT && r != -EINVAL)
			braid_warn("MPTCP: cannot delete endpoint %u (%s): %s", ep->id,
				   braid_mptcp_endp_str(&ep->e, b, sizeof(b)), strerror(-r));
		else
			braid_info("MPTCP: endpoint %u %s of path %s removed (%s)", ep->id,
				   braid_mptcp_endp_str(&ep->e, b, sizeof(b)), ep->p->local, why);
	}
	ep->have = ep->ours = false;
	ep->id = 0;
}

static void place(struct braid_mptcp_endps *m, struct epath *ep, const struct braid_mptcp_endp *want)
{
	struct braid_mptcp_endp e = *want, found;
	char b[96];
	int r;

	e.flags = (m->server ? BRAID_MPTCP_F_SIGNAL : BRAID_MPTCP_F_SUBFLOW) |
		  (ep->p->backup ? BRAID_MPTCP_F_BACKUP : 0);
	e.port = m->signal_port;
	r = lookup(m, &e, &found);
	if (r == 1) {	/* not ours: someone configured it; use it as it is */
		ep->have = true;
		ep->ours = false;
		ep->id = found.id;
		ep->e = found;
		braid_info("MPTCP: path %s: endpoint %u %s exists already (flags 0x%x): used, not "
			   "changed", ep->p->local, found.id, braid_mptcp_endp_str(&found, b, sizeof(b)),
			   found.flags);
		actors_set(m, (int)(ep - m->path));
		return;
	}
	r = braid_mptcp_pm_add(m->pm, &e);
	if (!r)
		r = lookup(m, &e, &found) == 1 ? 0 : -ENOENT;
	if (r) {
		braid_warn("MPTCP: path %s: cannot add endpoint %s: %s", ep->p->local,
			   braid_mptcp_endp_str(&e, b, sizeof(b)), strerror(-r));
		return;
	}
	ep->have = ep->ours = true;
	ep->id = found.id;
	ep->e = found;
	braid_info("MPTCP: path %s: endpoint %u %s %s%s added", ep->p->local, found.id,
		   braid_mptcp_endp_str(&found, b, sizeof(b)), m->server ? "signal" : "subflow",
		   ep->p->backup ? " backup" : "");
	actors_set(m, (int)(ep - m->path));
}

/* Bring every path's endpoint in line with where its interface / address is now. */
static void sync_all(struct braid_mptcp_endps *m)
{
	for (int i = 0; i < m->n; i++) {
		struct epath *ep = &m->path[i];
		struct braid_mptcp_endp want;
		int r = resolve(ep->p, &want);

		if (!r) {
			drop(m, ep, "interface down or address gone");
			continue;
		}
		if (ep->have && same_addr(&ep->e, &want) && ep->e.ifindex == want.ifindex)
			continue;
		drop(m, ep, "address changed");
		place(m, ep, &want);
	}
}

static void debounce_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	sync_all(w->data);
}

static void nl_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_mptcp_endps *m = w->data;

	(void)revents;
	if (braid_linkmon_drain(m->nl_fd) <= 0)
		return;
	ev_timer_stop(loop, &m->debounce);
	ev_timer_set(&m->debounce, DEBOUNCE_S, 0.);
	ev_timer_start(loop, &m->debounce);
}

static void limits(struct braid_mptcp_endps *m)
{
	uint32_t sf, acc, want = (uint32_t)(m->n < LIMIT_MAX ? m->n : LIMIT_MAX);
	int r = braid_mptcp_pm_get_limits(m->pm, &sf, &acc);

	if (r) {
		braid_warn("MPTCP: cannot read the path manager's limits: %s", strerror(-r));
		return;
	}
	if (sf >= want && acc >= want)
		return;
	m->old_subflows = sf;
	m->old_accept = acc;
	m->set_subflows = sf > want ? sf : want;
	m->set_accept = acc > want ? acc : want;
	r = braid_mptcp_pm_set_limits(m->pm, m->set_subflows, m->set_accept);
	if (r) {
		braid_warn("MPTCP: cannot set the limits (subflows %u, add_addr_accepted %u): %s",
			   m->set_subflows, m->set_accept, strerror(-r));
		return;
	}
	m->limits_set = true;
	braid_info("MPTCP: limits subflows %u -> %u, add_addr_accepted %u -> %u", sf,
		   m->set_subflows, acc, m->set_accept);
}

/* A subflow event of the path manager: logged with the path it belongs to (by local address). */
static void pm_event(const struct braid_mptcp_pm_msg *ev, void *arg)
{
	struct braid_mptcp_endps *m = arg;
	const char *what, *path = NULL;
	char s[96], d[96];

	switch (ev->cmd) {
	case BRAID_MPTCP_EV_SUB_ESTABLISHED: what = "established"; break;
	case BRAID_MPTCP_EV_SUB_CLOSED: what = "closed"; break;
	case BRAID_MPTCP_EV_SUB_PRIORITY: what = "priority changed"; break;
	default: return;
	}
	/* the path's current or last address (a subflow closes after its endpoint went) */
	for (int i = 0; i < m->n; i++)
		if (m->path[i].e.family && same_addr(&m->path[i].e, &ev->saddr))
			path = m->path[i].p->local;
	braid_mptcp_endp_str(&ev->saddr, s, sizeof(s));
	braid_mptcp_endp_str(&ev->daddr, d, sizeof(d));
	if (!path) {
		braid_dbg("MPTCP: subflow %s -> %s %s (token %08x, not a configured path)", s, d, what,
			  ev->token);
		return;
	}
	braid_info("MPTCP: path %s: subflow %s -> %s %s (token %08x%s%s)", path, s, d, what, ev->token,
		   ev->backup ? ", backup" : "", ev->cmd == BRAID_MPTCP_EV_SUB_CLOSED && ev->ev_error ?
		   ", error" : "");
}

static void pm_ev_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_mptcp_endps *m = w->data;
	int r = braid_mptcp_pm_events_read(m->ev_fd, pm_event, m);

	(void)loop, (void)revents;
	if (r > 0) {
		m->ev_bad += (uint64_t)r;
		if (m->ev_bad == (uint64_t)r || m->ev_bad % 100 == 0)
			braid_warn("MPTCP: %llu malformed path manager event buffers skipped",
				   (unsigned long long)m->ev_bad);
	}
}

/* The paths' split weights from `mp-scheduler ratio A:B...` (by mp-path order) or `ratio NAME=W...`. */
static void weights(struct braid_mptcp_endps *m, const struct braid_options *o)
{
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	struct braid_mp_wnames wn;
	enum braid_mp_sched s;
	unsigned int n = 0;

	if (strncmp(o->mp_sched, "ratio ", 6))
		return;
	if (strchr(o->mp_sched, '=')) {
		if (braid_mp_wnames_parse(o->mp_sched, &wn) != 1)
			return;
		for (int i = 0; i < m->n; i++) {
			uint32_t w = braid_mp_wnames_get(&wn, m->path[i].p->local);

			m->weight[i] = w == BRAID_MP_WEIGHT_NONE ? 0 : w;
		}
		return;
	}
	if (braid_mp_sched_parse(o->mp_sched, &s, ratio, &n) || s != BRAID_MP_SCHED_RATIO)
		return;
	for (int i = 0; i < m->n && (unsigned int)i < n; i++)
		m->weight[i] = ratio[i];
}

/* Load the subflow actors (marks, split, caps), or say why not: the kernel's scheduler alone. */
static void actors_start(struct braid_mptcp_endps *m)
{
	const char *why = "";
	int r = braid_mptcp_bpf_start(&m->bpf, &why);

	if (r)
		braid_warn("MPTCP: eBPF subflow actors not loaded (%s: %s): no subflow marks, split "
			   "ratio or caps; the kernel's scheduler alone spreads the data", why,
			   strerror(-r));
	else
		braid_info("MPTCP: eBPF subflow actors attached to this process's cgroup");
}

int braid_mptcp_endps_start(struct braid_mptcp_endps **out, struct ev_loop *loop,
			    const struct braid_options *o, bool server, uint16_t signal_port)
{
	struct braid_mptcp_endps *m;
	int r;

	*out = NULL;
	if (!o->mptcp_paths || !o->n_mp_paths)
		return 0;
	if (o->mptcp == BRAID_OPT_MPTCP_AUTO && braid_mptcp_sysctl_enabled() != 1)
		return 0;	/* plain TCP: said where the socket is opened */
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->loop = loop;
	m->server = server;
	m->signal_port = server ? signal_port : 0;
	m->nl_fd = m->ev_fd = -1;
	r = braid_mptcp_pm_open(&m->pm);
	if (r) {
		braid_warn("MPTCP: no path management (the kernel's mptcp_pm netlink family: %s): "
			   "the mp-path lines are not applied", strerror(-r));
		free(m);
		return 0;
	}
	for (unsigned int i = 0; i < o->n_mp_paths && i < BRAID_OPT_MAX_MP_PATHS; i++)
		m->path[m->n++].p = &o->mp_paths[i];
	weights(m, o);
	actors_start(m);
	m->ev_fd = braid_mptcp_pm_events_open(m->pm);
	if (m->ev_fd < 0) {
		braid_warn("MPTCP: subflow events not followed: %s", strerror(-m->ev_fd));
		m->ev_fd = -1;
	} else {
		ev_io_init(&m->ev_r, pm_ev_cb, m->ev_fd, EV_READ);
		m->ev_r.data = m;
		ev_io_start(loop, &m->ev_r);
	}
	limits(m);
	r = braid_linkmon_open(&m->nl_fd);
	if (r)
		braid_warn("MPTCP: link and address changes are not followed: %s", strerror(-r));
	ev_timer_init(&m->debounce, debounce_cb, DEBOUNCE_S, 0.);
	m->debounce.data = m;
	if (m->nl_fd >= 0) {
		ev_io_init(&m->nl_r, nl_cb, m->nl_fd, EV_READ);
		m->nl_r.data = m;
		ev_io_start(loop, &m->nl_r);
	}
	sync_all(m);
	*out = m;
	return 0;
}

void braid_mptcp_endps_stop(struct braid_mptcp_endps *m)
{
	uint32_t sf, acc;

	if (!m)
		return;
	if (m->nl_fd >= 0) {
		ev_io_stop(m->loop, &m->nl_r);
		close(m->nl_fd);
	}
	ev_timer_stop(m->loop, &m->debounce);
	if (m->ev_fd >= 0) {
		ev_io_stop(m->loop, &m->ev_r);
		close(m->ev_fd);
	}
	for (int i = 0; i < m->n; i++)
		drop(m, &m->path[i], "exit");
	/* restore the limits unless someone changed them since */
	if (m->limits_set && !braid_mptcp_pm_get_limits(m->pm, &sf, &acc) &&
	    sf == m->set_subflows && acc == m->set_accept &&
	    !braid_mptcp_pm_set_limits(m->pm, m->old_subflows, m->old_accept))
		braid_info("MPTCP: limits restored (subflows %u, add_addr_accepted %u)",
			   m->old_subflows, m->old_accept);
	if (m->bpf)
		braid_info("MPTCP: eBPF subflow actors detached (subflows throttled to their share %llu "
			   "times)", (unsigned long long)braid_mptcp_bpf_throttles(m->bpf));
	braid_mptcp_bpf_stop(m->bpf);
	braid_mptcp_pm_close(m->pm);
	free(m);
}
