// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_endp.c - MPTCP endpoints for the configured paths, following the
 * host's links and addresses (mptcp_endp.h).
 */
#include "dataplane/mptcp_endp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mp/mp.h"
#include "mp/mp_wnames.h"
#include "dataplane/mptcp_prio.h"
#include "dataplane/mptcp_upm.h"
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
	/* the path's subflows as the path manager's events tell (the status shows it) */
	struct braid_mptcp_endp sub_l, sub_r;	/* the last subflow's addresses and ports */
	int sub_state;			/* BRAID_MPTCP_PATH_* */
	bool sub_backup;
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
	struct braid_mptcp_upm *upm;	/* the userspace path manager's control; NULL: kernel PM */
	int old_pm_type;		/* net.mptcp.pm_type before we set it; -1: not set */
};

/* The process's path management (one per braidd), for the status (braid_mptcp_endps_paths). */
static struct braid_mptcp_endps *current;

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
	if (m->upm) {
		braid_info("MPTCP: path %s: gone (%s)", ep->p->local, why);
		braid_mptcp_upm_path(m->upm, (int)(ep - m->path), ep->p->local, NULL, ep->p->backup);
	}
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
	if (m->upm) {	/* no endpoints: the daemon opens / announces per connection */
		ep->have = true;
		ep->ours = false;
		ep->id = 0;
		ep->e = *want;
		braid_info("MPTCP: path %s: at %s (userspace path manager)", ep->p->local,
			   braid_mptcp_endp_str(want, b, sizeof(b)));
		actors_set(m, (int)(ep - m->path));
		braid_mptcp_upm_path(m->upm, (int)(ep - m->path), ep->p->local, want, ep->p->backup);
		return;
	}
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

	braid_mptcp_upm_event(m->upm, ev);
	braid_mptcp_prio_event(ev);
	switch (ev->cmd) {
	case BRAID_MPTCP_EV_SUB_ESTABLISHED: what = "established"; break;
	case BRAID_MPTCP_EV_SUB_CLOSED: what = "closed"; break;
	case BRAID_MPTCP_EV_SUB_PRIORITY: what = "priority changed"; break;
	default: return;
	}
	/* the path's current or last address (a subflow closes after its endpoint went) */
	for (int i = 0; i < m->n; i++) {
		struct epath *ep = &m->path[i];

		if (!ep->e.family || !same_addr(&ep->e, &ev->saddr))
			continue;
		path = ep->p->local;
		/* a close of an older subflow of the path does not hide a newer one */
		if (ev->cmd == BRAID_MPTCP_EV_SUB_CLOSED && ep->sub_state == BRAID_MPTCP_PATH_UP &&
		    ep->sub_l.port != ev->saddr.port)
			continue;
		ep->sub_state = ev->cmd == BRAID_MPTCP_EV_SUB_CLOSED ? BRAID_MPTCP_PATH_CLOSED
								       : BRAID_MPTCP_PATH_UP;
		ep->sub_backup = ev->backup;
		ep->sub_l = ev->saddr;
		ep->sub_r = ev->daddr;
	}
	braid_mptcp_endp_str(&ev->saddr, s, sizeof(s));
	braid_mptcp_endp_str(&ev->daddr, d, sizeof(d));
	if (!path && !m->n && ev->cmd == BRAID_MPTCP_EV_SUB_PRIORITY) {
		/* events only (a gateway without mp-path): a peer's MP_PRIO is rare and worth a line */
		braid_info("MPTCP: subflow %s -> %s priority changed (token %08x%s)", s, d, ev->token,
			   ev->backup ? ", backup" : "");
		return;
	}
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

#define PM_TYPE "/proc/sys/net/mptcp/pm_type"

/* net.mptcp.pm_type of this namespace: 0 kernel, 1 userspace, -errno. */
static int pm_type_get(void)
{
	FILE *f = fopen(PM_TYPE, "r");
	int v = -1, r;

	if (!f)
		return -errno;
	r = fscanf(f, "%d", &v);
	fclose(f);
	return r == 1 && v >= 0 ? v : -EPROTO;
}

static int pm_type_set(int v)
{
	FILE *f = fopen(PM_TYPE, "w");
	int r;

	if (!f)
		return -errno;
	r = fprintf(f, "%d\n", v) < 0 ? -EIO : 0;
	if (fclose(f) && !r)
		r = -errno;
	return r;
}

/*
 * Which path manager drives the connections: `mptcp-pm` (the namespace's
 * net.mptcp.pm_type set to match, restored on stop) or, without it, the
 * namespace's choice. true: userspace.
 */
static bool pm_choose(struct braid_mptcp_endps *m, const struct braid_options *o)
{
	int cur = pm_type_get(), want = o->mptcp_pm == 2 ? 1 : o->mptcp_pm == 1 ? 0 : -1;
	int r;

	if (cur < 0) {
		if (want == 1)
			braid_warn("MPTCP: mptcp-pm userspace: %s unreadable (%s): the kernel path "
				   "manager stays", PM_TYPE, strerror(-cur));
		return false;
	}
	if (want < 0 || want == cur)
		return cur == 1;
	r = pm_type_set(want);
	if (r) {
		braid_warn("MPTCP: mptcp-pm %s: cannot set net.mptcp.pm_type=%d (%s): the %s path "
			   "manager of this namespace stays", want ? "userspace" : "kernel", want,
			   strerror(-r), cur == 1 ? "userspace" : "kernel");
		return cur == 1;
	}
	m->old_pm_type = cur;
	braid_info("MPTCP: mptcp-pm %s: net.mptcp.pm_type %d -> %d in this namespace",
		   want ? "userspace" : "kernel", cur, want);
	return want == 1;
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

/*
 * A gateway without mp-path lines: only the path manager's events (its
 * clients' MP_PRIO and subflows in the status, mptcp_prio.h); no endpoints,
 * limits, pm_type, actors. Problems logged, *out left NULL. 0 or -ENOMEM.
 */
static int events_only(struct braid_mptcp_endps **out, struct ev_loop *loop)
{
	struct braid_mptcp_endps *m = calloc(1, sizeof(*m));
	int r;

	if (!m)
		return -ENOMEM;
	m->loop = loop;
	m->server = true;
	m->nl_fd = -1;
	m->old_pm_type = -1;
	ev_timer_init(&m->debounce, debounce_cb, DEBOUNCE_S, 0.);
	m->debounce.data = m;
	r = braid_mptcp_pm_open(&m->pm);
	if (!r) {
		m->ev_fd = braid_mptcp_pm_events_open(m->pm);
		r = m->ev_fd < 0 ? m->ev_fd : 0;
	}
	if (r) {
		braid_warn("MPTCP: the clients' subflow events are not followed (the kernel's "
			   "mptcp_pm netlink family: %s): their backup flags are not in the status",
			   strerror(-r));
		braid_mptcp_pm_close(m->pm);
		free(m);
		return 0;
	}
	ev_io_init(&m->ev_r, pm_ev_cb, m->ev_fd, EV_READ);
	m->ev_r.data = m;
	ev_io_start(loop, &m->ev_r);
	braid_info("MPTCP: following the path manager's events (no mp-path lines: no endpoints)");
	current = m;
	*out = m;
	return 0;
}

int braid_mptcp_endps_start(struct braid_mptcp_endps **out, struct ev_loop *loop,
			    const struct braid_options *o, bool server, uint16_t signal_port)
{
	struct braid_mptcp_endps *m;
	int r;

	*out = NULL;
	if (!o->mptcp_paths || (!o->n_mp_paths && !server))
		return 0;
	if (o->mptcp == BRAID_OPT_MPTCP_AUTO && braid_mptcp_sysctl_enabled() != 1)
		return 0;	/* plain TCP: said where the socket is opened */
	if (!o->n_mp_paths)
		return events_only(out, loop);
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->loop = loop;
	m->server = server;
	m->signal_port = server ? signal_port : 0;
	m->nl_fd = m->ev_fd = -1;
	m->old_pm_type = -1;
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
	if (pm_choose(m, o)) {
		r = braid_mptcp_upm_new(&m->upm, m->pm, server, m->signal_port);
		if (r)
			braid_warn("MPTCP: userspace path manager: %s", strerror(-r));
		else
			braid_info("MPTCP: userspace path manager (net.mptcp.pm_type=1): braidd %s "
				   "each connection's paths", server ? "announces" : "opens");
		if (m->ev_fd < 0)
			braid_warn("MPTCP: userspace path manager without its events: no subflows "
				   "will be opened");
	} else {
		limits(m);
	}
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
	current = m;
	*out = m;
	return 0;
}

int braid_mptcp_endps_own(struct braid_mptcp_endps *m, int fd)
{
	return m ? braid_mptcp_upm_own(m->upm, fd) : 0;
}

int braid_mptcp_endps_paths(struct braid_mptcp_path_state *out, int max)
{
	struct braid_mptcp_endps *m = current;
	int n = 0;

	if (m && m->server)
		return 0;	/* a gateway's paths serve many sessions: telemetry rows only */

	for (int i = 0; m && i < m->n && n < max; i++) {
		const struct epath *ep = &m->path[i];
		struct braid_mptcp_path_state *s = &out[n++];

		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", ep->p->local);
		s->have = ep->have;
		s->addr = ep->e;
		s->state = ep->sub_state;
		s->backup = ep->sub_backup || ep->p->backup;
		s->sub_local = ep->sub_l;
		s->sub_remote = ep->sub_r;
	}
	return n;
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
	braid_mptcp_upm_free(m->upm);
	braid_mptcp_prio_clear();
	/* give the namespace its path manager back unless someone changed it since */
	if (m->old_pm_type >= 0 && pm_type_get() == (m->old_pm_type ? 0 : 1) &&
	    !pm_type_set(m->old_pm_type))
		braid_info("MPTCP: net.mptcp.pm_type restored to %d", m->old_pm_type);
	if (current == m)
		current = NULL;
	braid_mptcp_pm_close(m->pm);
	free(m);
}
