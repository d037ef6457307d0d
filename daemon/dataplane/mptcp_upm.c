// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_upm.c - per-connection subflows and announcements through the
 * userspace path manager (mptcp_upm.h).
 */
#include "dataplane/mptcp_upm.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "os/sock.h"
#include "util/log.h"

#define MAX_CONNS 256			/* a gateway's connections followed at once */
#define MAX_OWN 4			/* a client's sockets not matched to a connection yet */

struct upath {
	bool have;
	bool backup;
	const char *name;
	struct braid_mptcp_endp e;
};

struct usf {
	bool up;			/* established (event) */
	bool asked;			/* created or announced by us, no answer yet / announced */
	struct braid_mptcp_endp l, r;	/* its addresses and ports (from the event) */
};

struct conn {
	bool used, owned, established, server;
	uint32_t token;
	struct braid_mptcp_endp local, remote;	/* the initial subflow's, with ports */
	struct usf sf[BRAID_MPTCP_UPM_PATHS];
};

struct own {
	bool used;
	struct braid_mptcp_endp local, remote;
};

struct braid_mptcp_upm {
	struct braid_mptcp_pm *pm;
	bool server;
	uint16_t signal_port;
	struct upath path[BRAID_MPTCP_UPM_PATHS];
	struct own own[MAX_OWN];
	struct conn conn[MAX_CONNS];
	uint64_t full;			/* connections not followed: the table was full */
};

static bool same_addr(const struct braid_mptcp_endp *a, const struct braid_mptcp_endp *b)
{
	if (a->family != b->family || !a->family)
		return false;
	return !memcmp(&a->addr, &b->addr, a->family == AF_INET ? 4 : 16);
}

static bool same_ap(const struct braid_mptcp_endp *a, const struct braid_mptcp_endp *b)
{
	return same_addr(a, b) && a->port == b->port;
}

int braid_mptcp_upm_new(struct braid_mptcp_upm **out, struct braid_mptcp_pm *pm, bool server,
			uint16_t signal_port)
{
	struct braid_mptcp_upm *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->pm = pm;
	u->server = server;
	u->signal_port = signal_port;
	*out = u;
	return 0;
}

void braid_mptcp_upm_free(struct braid_mptcp_upm *u)
{
	free(u);
}

/* Client: a subflow from path i to the connection's remote address. */
static void create(struct braid_mptcp_upm *u, struct conn *c, int i)
{
	struct upath *p = &u->path[i];
	struct braid_mptcp_endp l = p->e;
	char a[96], b[96];
	int r;

	l.id = (uint8_t)(i + 1);
	l.port = 0;
	l.flags = p->backup ? BRAID_MPTCP_F_BACKUP : 0;
	r = braid_mptcp_pm_subflow_create(u->pm, c->token, &l, &c->remote);
	c->sf[i].asked = true;	/* once per appearance of the path (no retry loop) */
	braid_mptcp_endp_str(&l, a, sizeof(a));
	braid_mptcp_endp_str(&c->remote, b, sizeof(b));
	if (r)
		braid_warn("MPTCP: path %s: cannot create a subflow %s -> %s (token %08x): %s", p->name,
			   a, b, c->token, strerror(-r));
	else
		braid_info("MPTCP: path %s: subflow %s -> %s created (userspace path manager, token "
			   "%08x%s)", p->name, a, b, c->token, p->backup ? ", backup" : "");
}

/* Gateway: announce path i's address on the connection. */
static void announce(struct braid_mptcp_upm *u, struct conn *c, int i)
{
	struct upath *p = &u->path[i];
	struct braid_mptcp_endp e = p->e;
	char a[96];
	int r;

	e.id = (uint8_t)(i + 1);
	e.port = u->signal_port;
	e.flags = BRAID_MPTCP_F_SIGNAL | (p->backup ? BRAID_MPTCP_F_BACKUP : 0);
	e.ifindex = 0;
	r = braid_mptcp_pm_announce(u->pm, c->token, &e);
	c->sf[i].asked = true;
	braid_mptcp_endp_str(&e, a, sizeof(a));
	if (r)
		braid_warn("MPTCP: path %s: cannot announce %s (token %08x): %s", p->name, a, c->token,
			   strerror(-r));
	else
		braid_info("MPTCP: path %s: %s announced (userspace path manager, token %08x)", p->name,
			   a, c->token);
}

/* What connection c still lacks, for every path in place. */
static void act(struct braid_mptcp_upm *u, struct conn *c)
{
	if (!c->owned || !c->established)
		return;
	for (int i = 0; i < BRAID_MPTCP_UPM_PATHS; i++) {
		struct upath *p = &u->path[i];

		if (!p->have || c->sf[i].up || c->sf[i].asked)
			continue;
		if (same_addr(&p->e, &c->local))
			continue;	/* the initial subflow is this path's */
		if (u->server)
			announce(u, c, i);
		else
			create(u, c, i);
	}
}

void braid_mptcp_upm_path(struct braid_mptcp_upm *u, int i, const char *name,
			  const struct braid_mptcp_endp *e, bool backup)
{
	struct upath *p;
	char a[96], b[96];

	if (!u || i < 0 || i >= BRAID_MPTCP_UPM_PATHS)
		return;
	p = &u->path[i];
	p->name = name;
	p->backup = backup;
	if (e) {
		p->have = true;
		p->e = *e;
		for (int k = 0; k < MAX_CONNS; k++)
			if (u->conn[k].used)
				act(u, &u->conn[k]);
		return;
	}
	p->have = false;
	for (int k = 0; k < MAX_CONNS; k++) {
		struct conn *c = &u->conn[k];
		struct usf *s = &c->sf[i];
		int r;

		if (!c->used || !c->owned)
			continue;
		if (s->up && !u->server) {
			r = braid_mptcp_pm_subflow_destroy(u->pm, c->token, &s->l, &s->r);
			braid_mptcp_endp_str(&s->l, a, sizeof(a));
			braid_mptcp_endp_str(&s->r, b, sizeof(b));
			if (r && r != -ENOENT && r != -EINVAL)
				braid_warn("MPTCP: path %s: cannot close subflow %s -> %s: %s", name, a,
					   b, strerror(-r));
			else
				braid_info("MPTCP: path %s: subflow %s -> %s closed (interface down or "
					   "address gone; token %08x)", name, a, b, c->token);
		}
		s->asked = false;	/* created again when the path comes back */
	}
}

static struct conn *find(struct braid_mptcp_upm *u, uint32_t token)
{
	for (int k = 0; k < MAX_CONNS; k++)
		if (u->conn[k].used && u->conn[k].token == token)
			return &u->conn[k];
	return NULL;
}

static void match_own(struct braid_mptcp_upm *u, struct conn *c)
{
	if (c->owned)
		return;
	if (u->server) {
		c->owned = c->server;
		return;
	}
	for (int k = 0; k < MAX_OWN; k++)
		if (u->own[k].used && same_ap(&u->own[k].local, &c->local) &&
		    same_ap(&u->own[k].remote, &c->remote)) {
			c->owned = true;
			u->own[k].used = false;
			braid_dbg("MPTCP: connection token %08x is ours", c->token);
		}
}

static void to_endp(const union braid_sockaddr *s, struct braid_mptcp_endp *e)
{
	memset(e, 0, sizeof(*e));
	e->family = s->sa.sa_family;
	if (e->family == AF_INET) {
		e->addr.v4 = s->in.sin_addr;
		e->port = ntohs(s->in.sin_port);
	} else {
		e->addr.v6 = s->in6.sin6_addr;
		e->port = ntohs(s->in6.sin6_port);
	}
}

int braid_mptcp_upm_own(struct braid_mptcp_upm *u, int fd)
{
	union braid_sockaddr l, r;
	socklen_t ll = sizeof(l), rl = sizeof(r);
	struct own *o = NULL;

	if (!u)
		return 0;
	if (getsockname(fd, &l.sa, &ll) || getpeername(fd, &r.sa, &rl))
		return -errno;
	for (int k = 0; k < MAX_OWN && !o; k++)
		if (!u->own[k].used)
			o = &u->own[k];
	if (!o)
		o = &u->own[0];	/* the oldest is a socket long gone */
	o->used = true;
	to_endp(&l, &o->local);
	to_endp(&r, &o->remote);
	for (int k = 0; k < MAX_CONNS; k++)
		if (u->conn[k].used) {
			match_own(u, &u->conn[k]);
			act(u, &u->conn[k]);
		}
	return 0;
}

static void conn_event(struct braid_mptcp_upm *u, const struct braid_mptcp_pm_msg *m)
{
	struct conn *c = find(u, m->token);

	if (m->cmd == BRAID_MPTCP_EV_CLOSED) {
		if (c)
			memset(c, 0, sizeof(*c));
		return;
	}
	if (!c) {
		for (int k = 0; k < MAX_CONNS && !c; k++)
			if (!u->conn[k].used)
				c = &u->conn[k];
		if (!c) {
			if (u->full++ % 100 == 0)
				braid_warn("MPTCP: %llu connections not followed (more than %d)",
					   (unsigned long long)u->full, MAX_CONNS);
			return;
		}
		c->used = true;
		c->token = m->token;
	}
	c->local = m->saddr;
	c->remote = m->daddr;
	c->server |= m->server_side;
	if (m->cmd == BRAID_MPTCP_EV_ESTABLISHED)
		c->established = true;
	match_own(u, c);
	act(u, c);
}

void braid_mptcp_upm_event(struct braid_mptcp_upm *u, const struct braid_mptcp_pm_msg *m)
{
	struct conn *c;

	if (!u)
		return;
	if (m->cmd == BRAID_MPTCP_EV_CREATED || m->cmd == BRAID_MPTCP_EV_ESTABLISHED ||
	    m->cmd == BRAID_MPTCP_EV_CLOSED) {
		conn_event(u, m);
		return;
	}
	if (m->cmd != BRAID_MPTCP_EV_SUB_ESTABLISHED && m->cmd != BRAID_MPTCP_EV_SUB_CLOSED)
		return;
	c = find(u, m->token);
	if (!c)
		return;
	for (int i = 0; i < BRAID_MPTCP_UPM_PATHS; i++) {
		struct usf *s = &c->sf[i];

		if (!u->path[i].have && !s->up)
			continue;
		/* a client's subflow leaves from the path's address; a gateway's arrives at it */
		if (!same_addr(&u->path[i].e, &m->saddr) && !(s->up && same_ap(&s->l, &m->saddr)))
			continue;
		if (m->cmd == BRAID_MPTCP_EV_SUB_ESTABLISHED) {
			s->up = true;
			s->l = m->saddr;
			s->r = m->daddr;
		} else if (same_ap(&s->l, &m->saddr) || !s->up) {
			s->up = false;
		}
	}
}
