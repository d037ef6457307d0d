// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_bind.c - where each path socket is bound and which way its packets
 * go: the configured paths (one socket slot per mp-path LOCAL, or the
 * wildcard/`local` socket without mp-path lines, paired with its remotes).
 * An mp-path LOCAL is a numeric address, an interface name or `auto`;
 * os/linkmon says where each is now. A path whose address is missing waits
 * for it (its paths are down); an address that changes (DHCP renew, LTE
 * reconnect) or moves to another interface gets a new socket and the
 * engine re-validates the slot's paths (PATH_CHALLENGE) while the other
 * paths carry the session. `mp-path auto` adds a slot for every interface
 * with a route to the peer and drops it when the interface goes away (a
 * link down or an address change keeps it: down, then re-bound and
 * re-validated like a named interface).
 *
 * Routing (docs/braidd.md "Paths by interface"): a socket with configured
 * peers (it sends first: a client's paths) is bound to its interface with
 * SO_BINDTODEVICE, so its packets leave there whatever the routing rules,
 * through that interface's own route (next hop) to the peer. Each path's
 * route is checked with RTM_GETROUTE (fib match: source, interface); a path
 * whose packets would leave elsewhere, or that has no route through its
 * interface (the kernel would guess the peer is on-link), is logged and
 * flagged in status (route_ok false).
 */
#include "dataplane/mpath_bind.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fnmatch.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os/linkmon.h"
#include "os/nlroute.h"
#include "util/log.h"
#include "dataplane/mpath_engine.h"
#include "dataplane/mpath_rx.h"
#include "dataplane/mpath_sock.h"

#define NO_DEVBIND_ENV "BRAID_TEST_NO_DEVBIND"

void mpath_bind_io(struct braid_mpath *m, struct msock *s, bool on)
{
	if (!m->io_on || s->shared || s->fd < 0)
		return;
	if (!on) {
		ev_io_stop(m->loop, &s->r);
		return;
	}
	ev_io_init(&s->r, mpath_sock_read_cb, s->fd, EV_READ);
	s->r.data = s;
	ev_io_start(m->loop, &s->r);
}

static bool same_addr(const union braid_sockaddr *a, const union braid_sockaddr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET)
		return a->in.sin_addr.s_addr == b->in.sin_addr.s_addr;
	return !memcmp(&a->in6.sin6_addr, &b->in6.sin6_addr, sizeof(a->in6.sin6_addr));
}

/*
 * Where the slot's address is now: 1 (in *w), 0 missing, -errno. An
 * interface keeps its bound address while it has it (several addresses,
 * or a renew that adds the new one before the old one goes: no churn).
 */
static int where_now(const struct msock *s, struct braid_linkmon_where *w)
{
	int r;

	if (s->kind == BRAID_MP_LOCAL_ADDR)
		return braid_linkmon_addr_where(&s->local, w);
	if (s->fd >= 0) {
		r = braid_linkmon_addr_where(&s->local, w);
		if (r == 1 && !strcmp(w->ifname, s->ifname))
			return 1;
	}
	return braid_linkmon_if_where(s->ifname, s->family, w);
}

/* A new socket on w for slot s (not installed). 0 or -errno. */
static int open_on(struct braid_mpath *m, struct msock *s, const struct braid_linkmon_where *w,
		   int *fd, union braid_sockaddr *bound, bool *devbound)
{
	union braid_sockaddr ba = w->addr;
	socklen_t gl = sizeof(*bound);
	int r;

	if (ba.sa.sa_family == AF_INET)
		ba.in.sin_port = htons(s->port);
	else
		ba.in6.sin6_port = htons(s->port);
	r = braid_sock_open_udp(ba.sa.sa_family, NULL, m->o->family == AF_INET6, fd);
	if (r)
		return r;
	*devbound = false;
	/* test only (docs/braidd.md "Test knobs"): neither option, as under a seccomp filter that
	 * refuses both or a kernel without them: the packets follow the routing table */
	if (s->sends_first && w->ifindex > 0 && getenv(NO_DEVBIND_ENV) && !strcmp(getenv(NO_DEVBIND_ENV), "1")) {
		braid_warn("multipath: %s=1: socket on %s not bound to its interface (test only)",
			   NO_DEVBIND_ENV, w->ifname);
	} else if (s->sends_first && w->ifindex > 0) {
		/* before bind: unprivileged since Linux 5.7 on a socket not yet bound to a device */
		if (!setsockopt(*fd, SOL_SOCKET, SO_BINDTODEVICE, w->ifname, (socklen_t)strlen(w->ifname) + 1)) {
			*devbound = true;
		} else {
			/* sends only, but unprivileged on every kernel: the output interface of an
			 * unconnected socket's route lookups (IPv4 wants it in network byte order) */
			int e = errno, r6 = w->ifindex;
			uint32_t r4 = htonl((uint32_t)w->ifindex);

			*devbound = ba.sa.sa_family == AF_INET
				    ? !setsockopt(*fd, IPPROTO_IP, IP_UNICAST_IF, &r4, sizeof(r4))
				    : !setsockopt(*fd, IPPROTO_IPV6, IPV6_UNICAST_IF, &r6, sizeof(r6));
			braid_warn("multipath: SO_BINDTODEVICE %s: %s: %s (see docs/braidd.md "
				   "\"Privileges\")", w->ifname, strerror(e),
				   *devbound ? "IP(V6)_UNICAST_IF instead (sends only)"
					     : "the path's packets follow the routing table");
		}
	}
	if (bind(*fd, &ba.sa, braid_sockaddr_len(&ba)) < 0 || getsockname(*fd, &bound->sa, &gl) < 0) {
		r = -errno;
		close(*fd);
		*fd = -1;
		return r;
	}
	return 0;
}

/* Install a new socket in the slot (the old one, if any, is closed). */
static void install(struct braid_mpath *m, struct msock *s, int fd, const union braid_sockaddr *bound,
		    bool devbound, const struct braid_linkmon_where *w)
{
	if (m->txb.n)	/* the batch may name the old socket */
		mpath_tx_flush(m);
	if (s->fd >= 0) {
		mpath_bind_io(m, s, false);
		close(s->fd);
	}
	s->fd = fd;
	s->local = *bound;
	s->devbound = devbound;
	s->ifindex = w->ifindex;
	snprintf(s->ifname, sizeof(s->ifname), "%s", w->ifname);
	mpath_sock_setup(m, s);
	mpath_bind_io(m, s, true);
}

static const char *what(const struct msock *s, char *buf, size_t len)
{
	if (s->kind == BRAID_MP_LOCAL_ADDR) {
		char a[80];

		snprintf(buf, len, "local address %s", braid_sockaddr_str(&s->local, a, sizeof(a)));
	} else
		snprintf(buf, len, "an IPv%c address on %s", s->family == AF_INET6 ? '6' : '4', s->ifname);
	return buf;
}

int mpath_bind_first(struct braid_mpath *m, struct msock *s)
{
	struct braid_linkmon_where w;
	union braid_sockaddr bound;
	bool devbound;
	char a[96];
	int fd, r;

	r = where_now(s, &w);
	if (r == 1) {
		r = open_on(m, s, &w, &fd, &bound, &devbound);
		if (!r) {
			install(m, s, fd, &bound, devbound, &w);
			return 1;
		}
		if (r != -EADDRNOTAVAIL) {
			braid_err("cannot open UDP socket on %s: %s", braid_sockaddr_str(&w.addr, a, sizeof(a)),
				  strerror(-r));
			return r;
		}
	} else if (r < 0) {
		braid_err("multipath: cannot list the interfaces: %s", strerror(-r));
		return r;
	}
	braid_info("multipath: waiting for %s (the path starts down)", what(s, a, sizeof(a)));
	s->up = 0;
	m->bind_retry = true;
	return 0;
}

/* Follow one slot's address: re-bind on a change, then link events for its paths. */
static void follow(struct braid_mpath *m, int si, uint64_t now, bool log_all)
{
	struct msock *s = &m->sock[si];
	struct braid_linkmon_where w;
	bool rebound = false;
	char a[96], b[96];
	int r, up;

	r = where_now(s, &w);
	if (r < 0)
		return;
	if (r == 1 && (s->fd < 0 || !same_addr(&s->local, &w.addr) ||
		       (s->sends_first && w.ifindex != s->ifindex))) {
		union braid_sockaddr bound;
		bool devbound, had = s->fd >= 0;
		int fd, e;

		braid_sockaddr_str(&s->local, a, sizeof(a));
		e = open_on(m, s, &w, &fd, &bound, &devbound);
		if (e) {
			/* retried at each change and housekeeping: logged when the error changes */
			if (e != s->bind_err) {
				union braid_sockaddr ba = w.addr;

				if (ba.sa.sa_family == AF_INET)
					ba.in.sin_port = htons(s->port);
				else
					ba.in6.sin6_port = htons(s->port);
				braid_warn("multipath: cannot bind a socket to %s: %s (trying again)",
					   braid_sockaddr_str(&ba, b, sizeof(b)), strerror(-e));
			}
			s->bind_err = e;
			s->bind_failures++;
			m->bind_retry = true;
			r = 0;
		} else {
			s->bind_err = 0;
			install(m, s, fd, &bound, devbound, &w);
			if (had) {
				s->rebinds++;
				braid_info("multipath: %s%saddress %s -> %s: socket re-bound, its paths "
					   "re-validated", s->ifname, s->ifname[0] ? ": " : "", a,
					   braid_sockaddr_str(&s->local, b, sizeof(b)));
			}
			rebound = true;
		}
	}
	if (r == 0 && m->nl_fd < 0)
		m->bind_retry = true;	/* no rtnetlink events: look again at housekeeping */
	up = r == 1 && w.up;
	if (up == s->up && !rebound)
		return;
	if (up != s->up && (s->up >= 0 || (log_all && !up)))
		braid_info("multipath: %s is %s", what(s, a, sizeof(a)),
			   up ? (s->up == 0 ? "up again" : "up") : "down (link down or address gone)");
	if (s->up >= 0)
		m->st.link_events++;
	for (int i = 0; i < MAX_EPS && m->mp; i++) {
		if (!m->ep[i].used || m->ep[i].sock != si)
			continue;
		if (rebound && up && s->up == 1)
			braid_mp_path_link_event(m->mp, now, i, 0);	/* old address: re-validate */
		braid_mp_path_link_event(m->mp, now, i, up && !m->ep[i].disabled);
		m->ep[i].route[0] = 0;
	}
	s->up = up;
}

/* ---- the configured paths ---- */

/* The slot of a wildcard socket (`local` or none): opened now, as in single-path mode. */
static int open_wild(struct braid_mpath *m, const char *local, int family, uint16_t port)
{
	union braid_sockaddr ba;
	struct msock *s;
	char err[300], a[80];
	int r, i;

	r = braid_sock_resolve(local, port, family, true, &ba, err, sizeof(err));
	if (r) {
		braid_err("mp-path: %s", err);
		return r;
	}
	i = mpath_sock_slot(m);
	if (i < 0)
		return i;
	s = &m->sock[i];
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->in_use = true;
	s->local = ba;
	s->wildcard = local == NULL;
	s->family = ba.sa.sa_family;
	s->up = -1;
	s->fd = -1;
	r = braid_sock_open_udp(ba.sa.sa_family, &ba, m->o->family == AF_INET6, &s->fd);
	if (r) {
		braid_err("cannot open UDP socket on %s: %s", braid_sockaddr_str(&ba, a, sizeof(a)),
			  strerror(-r));
		s->in_use = false;
		return r;
	}
	s->cfg_local = local;
	mpath_sock_setup(m, s);
	return i;
}

/*
 * The slot of an mp-path LOCAL (numeric address or interface name): bound
 * now if its address is there, else later (mpath_bind.c follows it).
 */
static int open_path(struct braid_mpath *m, const struct braid_opt_mp_path *p, int family,
		     uint16_t port)
{
	struct msock *s;
	int i;

	for (i = 0; i < m->n_sock; i++)
		if (m->sock[i].in_use && m->sock[i].cfg_local && !strcmp(p->local, m->sock[i].cfg_local))
			return i;
	i = mpath_sock_slot(m);
	if (i < 0)
		return i;
	s = &m->sock[i];
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->in_use = true;
	s->fd = -1;
	s->up = -1;
	s->kind = p->kind;
	s->cfg_local = p->local;
	s->backup = p->backup;
	s->cap_bps = p->cap_bps;
	s->port = port;
	s->family = family;
	s->sends_first = p->remote || m->o->n_remotes;
	if (p->kind == BRAID_MP_LOCAL_ADDR) {
		char err[300];
		int r = braid_sock_resolve(p->local, port, AF_UNSPEC, true, &s->local, err, sizeof(err));

		if (r) {
			braid_err("mp-path: %s", err);
			return r;
		}
		s->family = s->local.sa.sa_family;
	} else {
		snprintf(s->ifname, sizeof(s->ifname), "%s", p->local);
		s->local.sa.sa_family = (sa_family_t)family;
	}
	{
		int r = mpath_bind_first(m, s);

		return r < 0 ? r : i;
	}
}

static int add_cfgpath(struct braid_mpath *m, int sock, const char *host, uint16_t port)
{
	union braid_sockaddr peer;
	int fam = m->sock[sock].family;
	char err[300];
	int r;

	if (m->n_cfgp >= MAX_EPS) {
		braid_err("multipath: more than %d paths configured", MAX_EPS);
		return -ENOSPC;
	}
	r = braid_sock_resolve(host, port, m->sock[sock].wildcard && fam == AF_INET6 ? AF_UNSPEC : fam,
			       false, &peer, err, sizeof(err));
	if (!r)
		r = braid_sockaddr_to_family(&peer, fam);
	if (r) {
		braid_err("mp-path: remote %s: %s", host, r == -EAFNOSUPPORT ?
			  "not of the local address's family" : err);
		return r ? r : -EINVAL;
	}
	m->cfgp[m->n_cfgp].sock = sock;
	m->cfgp[m->n_cfgp].peer = peer;
	m->n_cfgp++;
	return 0;
}

/* The family of an interface path: its first remote's (as resolved), else `proto`'s, else IPv4. */
static int if_family(const struct braid_mpath *m, const struct braid_opt_mp_path *p)
{
	const struct braid_options *o = m->o;
	const char *host = p->remote ? p->remote : o->n_remotes ? o->remotes[0].host : NULL;
	union braid_sockaddr a;
	char err[300];

	if (o->family != AF_UNSPEC)
		return o->family;
	if (host && !braid_sock_resolve(host, 1, AF_UNSPEC, false, &a, err, sizeof(err)))
		return a.sa.sa_family;
	return AF_INET;
}

/* The remotes of an mp-path line: its own, or every `remote`. */
static int path_remotes(struct braid_mpath *m, const struct braid_opt_mp_path *p, int s)
{
	const struct braid_options *o = m->o;
	int r;

	if (p->remote)
		return add_cfgpath(m, s, p->remote, p->port ? p->port : o->rport);
	for (unsigned int k = 0; k < o->n_remotes; k++) {
		r = add_cfgpath(m, s, o->remotes[k].host,
				o->remotes[k].port ? o->remotes[k].port : o->rport);
		if (r)
			return r;
	}
	return 0;
}

int mpath_setup_paths(struct braid_mpath *m)
{
	const struct braid_options *o = m->o;
	uint16_t port = o->nobind ? 0 : o->lport;
	int r, s;

	m->auto_line = -1;
	if (!o->n_mp_paths) {
		int fam = o->family == AF_UNSPEC ? (o->local && strchr(o->local, '.') ? AF_INET : AF_INET6)
						 : o->family;

		s = open_wild(m, o->local, fam, port);
		if (s < 0)
			return s;
		for (unsigned int k = 0; k < o->n_remotes; k++) {
			r = add_cfgpath(m, s, o->remotes[k].host,
					o->remotes[k].port ? o->remotes[k].port : o->rport);
			if (r)
				return r;
		}
		return 0;
	}
	for (unsigned int i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &o->mp_paths[i];

		if (p->kind == BRAID_MP_LOCAL_AUTO) {
			m->auto_line = (int)i;
			r = mpath_auto_setup(m, p, if_family(m, p));
			if (r)
				return r;
			continue;
		}
		s = open_path(m, p, p->kind == BRAID_MP_LOCAL_IF ? if_family(m, p) : AF_UNSPEC, port);
		if (s < 0)
			return s;
		r = path_remotes(m, p, s);
		if (r)
			return r;
	}
	return 0;
}

/* ---- the route of a path ---- */

static void check_route(struct braid_mpath *m, int i)
{
	struct ep *e = &m->ep[i];
	const struct msock *s = &m->sock[e->sock];
	struct braid_nl_route_info ri;
	const void *dst, *src;
	char t[sizeof(e->route)], nh[64] = "", dev[IF_NAMESIZE] = "?", d[200];
	bool bad = false;
	int r;

	if (s->fd < 0 || s->wildcard || s->shared || e->peer.sa.sa_family != s->family)
		return;
	if (s->up == 0) {	/* address gone, link down: its routes went with it; checked when back */
		e->route[0] = 0;
		e->route_bad = false;
		return;
	}
	dst = s->family == AF_INET ? (const void *)&e->peer.in.sin_addr : (const void *)&e->peer.in6.sin6_addr;
	src = s->family == AF_INET ? (const void *)&s->local.in.sin_addr : (const void *)&s->local.in6.sin6_addr;
	r = braid_nl_route_get(s->family, dst, src, s->devbound ? s->ifindex : 0, &ri);
	if (r && s->devbound) {
		snprintf(t, sizeof(t), "no route via %s (%s)", s->ifname, strerror(-r));
		bad = true;
	} else if (r) {
		snprintf(t, sizeof(t), "no route (%s)", strerror(-r));
		bad = s->sends_first;
	} else {
		if (ri.oif > 0)
			if_indextoname((unsigned int)ri.oif, dev);
		if (ri.has_gw)
			inet_ntop(s->family, ri.gw, nh, sizeof(nh));
		if (s->sends_first && s->ifindex && ri.oif && ri.oif != s->ifindex) {
			snprintf(t, sizeof(t), "leaves via %s, not %s", dev, s->ifname);
			bad = true;
		} else {
			snprintf(t, sizeof(t), "%s%s%s", dev, nh[0] ? " via " : "", nh);
		}
	}
	if (!strcmp(t, e->route) && bad == e->route_bad)
		return;
	snprintf(e->route, sizeof(e->route), "%s", t);
	e->route_bad = bad;
	if (bad) {
		/* once per change of the route (not per scan): a route that stays wrong is not repeated */
		m->sock[e->sock].route_warnings++;
		braid_warn("multipath: path %s: %s: its packets do not take the path's interface",
			   mpath_ep_str(m, i, d, sizeof(d)), t);
	}
	else
		braid_info("multipath: path %s: route %s%s", mpath_ep_str(m, i, d, sizeof(d)), t,
			   s->devbound ? " (socket bound to the device)" : "");
}

/* ---- mp-path auto ---- */

int mpath_auto_setup(struct braid_mpath *m, const struct braid_opt_mp_path *p, int family)
{
	const struct braid_options *o = m->o;
	char err[300];
	int r;

	m->auto_family = family;
	for (unsigned int k = 0; k < (p->remote ? 1u : o->n_remotes); k++) {
		const char *host = p->remote ? p->remote : o->remotes[k].host;
		uint16_t port = p->remote ? (p->port ? p->port : o->rport)
					  : (o->remotes[k].port ? o->remotes[k].port : o->rport);

		if (m->n_auto_peer >= BRAID_OPT_MAX_MP_PATHS)
			break;
		r = braid_sock_resolve(host, port, family, false, &m->auto_peer[m->n_auto_peer], err,
				       sizeof(err));
		if (r) {
			braid_err("mp-path auto: remote %s: %s", host, err);
			return r;
		}
		m->n_auto_peer++;
	}
	braid_info("multipath: mp-path auto: IPv%c interfaces with a route to the peer%s",
		   family == AF_INET6 ? '6' : '4', m->n_auto_peer ? "" : " (no remote: every interface)");
	return 0;
}

static bool auto_wanted(const struct braid_mpath *m, const char *name)
{
	const struct braid_options *o = m->o;
	bool in = o->n_mp_auto_incl == 0;

	for (unsigned int i = 0; i < o->n_mp_auto_incl && !in; i++)
		in = !fnmatch(o->mp_auto_incl[i], name, 0);
	for (unsigned int i = 0; i < o->n_mp_auto_excl && in; i++)
		in = fnmatch(o->mp_auto_excl[i], name, 0) != 0;
	for (int i = 0; i < m->n_sock && in; i++)	/* named by its own mp-path line */
		in = !(m->sock[i].in_use && m->sock[i].kind == BRAID_MP_LOCAL_IF &&
		       !strcmp(m->sock[i].ifname, name));
	return in;
}

/* The interface has an address and a route of its own to a peer (not the kernel's on-link guess). */
static bool auto_usable(const struct braid_mpath *m, const char *name)
{
	struct braid_linkmon_where w;
	struct braid_nl_route_info ri;

	if (braid_linkmon_if_where(name, m->auto_family, &w) != 1 || !w.up)
		return false;
	if (!m->n_auto_peer)
		return true;
	for (int k = 0; k < m->n_auto_peer; k++) {
		const union braid_sockaddr *p = &m->auto_peer[k];
		const void *dst = p->sa.sa_family == AF_INET ? (const void *)&p->in.sin_addr
							     : (const void *)&p->in6.sin6_addr;

		if (!braid_nl_route_get(p->sa.sa_family, dst, NULL, w.ifindex, &ri) &&
		    (ri.oif == w.ifindex || !ri.oif))
			return true;
	}
	return false;
}

/* Remove socket si's paths and configured pairs, close it and free its slot. */
static void sock_drop(struct braid_mpath *m, int si, uint64_t now, const char *why)
{
	struct msock *s = &m->sock[si];
	int k = 0;

	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used && m->ep[i].sock == si && m->mp)
			mpath_ep_del(m, i, now, why);
	for (int i = 0; i < m->n_cfgp; i++)
		if (m->cfgp[i].sock != si)
			m->cfgp[k++] = m->cfgp[i];
	m->n_cfgp = k;
	if (m->txb.n)
		mpath_tx_flush(m);
	if (s->fd >= 0) {
		mpath_bind_io(m, s, false);
		close(s->fd);
	}
	s->fd = -1;
	s->in_use = false;
	free(s->own_local);
	s->own_local = NULL;
	s->cfg_local = NULL;
}

static void auto_drop(struct braid_mpath *m, int si, uint64_t now, const char *why)
{
	braid_info("multipath: mp-path auto: interface %s dropped: %s", m->sock[si].ifname, why);
	sock_drop(m, si, now, why);
}

static void auto_add(struct braid_mpath *m, const char *name, uint64_t now)
{
	const struct braid_options *o = m->o;
	struct msock *s;
	int si = mpath_sock_slot(m);

	if (si < 0) {
		braid_warn("multipath: mp-path auto: no room for interface %s (max %d sockets)", name,
			   MAX_SOCKS);
		return;
	}
	s = &m->sock[si];
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->in_use = true;
	s->fd = -1;
	s->up = -1;
	s->kind = BRAID_MP_LOCAL_AUTO;
	s->family = m->auto_family;
	s->port = o->nobind ? 0 : o->lport;
	s->sends_first = m->n_auto_peer > 0;
	snprintf(s->ifname, sizeof(s->ifname), "%.*s", IF_NAMESIZE - 1, name);
	for (unsigned int i = 0; i < o->n_mp_attrs; i++)	/* mp-backup / mp-cap by interface name */
		if (!strcmp(o->mp_attrs[i].local, name)) {
			s->backup |= o->mp_attrs[i].backup;
			if (o->mp_attrs[i].cap_bps)
				s->cap_bps = o->mp_attrs[i].cap_bps;
		}
	if (mpath_bind_first(m, s) != 1) {
		s->in_use = false;
		return;
	}
	{
		char cap[48] = "";

		if (s->cap_bps)
			snprintf(cap, sizeof(cap), " (cap %.3g Mbit/s)", s->cap_bps / 1e6);
		braid_info("multipath: mp-path auto: using interface %s%s%s", name,
			   s->backup ? " (backup)" : "", cap);
	}
	for (int k = 0; k < m->n_auto_peer && m->n_cfgp < MAX_EPS; k++) {
		m->cfgp[m->n_cfgp].sock = si;
		m->cfgp[m->n_cfgp].peer = m->auto_peer[k];
		m->n_cfgp++;
		if (m->mp)
			mpath_ep_add(m, si, &m->auto_peer[k], false, now);
	}
}

static void auto_scan(struct braid_mpath *m, uint64_t now)
{
	char names[2 * MAX_SOCKS][IF_NAMESIZE];
	int n = braid_linkmon_auto_ifs(names, 2 * MAX_SOCKS);

	if (n < 0)
		return;
	for (int si = 0; si < m->n_sock; si++) {
		struct msock *s = &m->sock[si];
		bool listed = false;

		if (!s->in_use || s->kind != BRAID_MP_LOCAL_AUTO)
			continue;
		for (int k = 0; k < n && !listed; k++)
			listed = !strcmp(names[k], s->ifname);
		/* listed but without address or route for now (a DHCP renew), or not listed
		 * because its link is down (a flap, a suspend): kept, down or flagged by
		 * follow() and the route check, its paths re-validated when it is back (no
		 * PATH_CLOSE, no new engine path); dropped only when the interface is gone */
		if (!listed && !if_nametoindex(s->ifname))
			auto_drop(m, si, now, "interface gone");
	}
	for (int k = 0; k < n; k++) {
		bool have = false;

		for (int si = 0; si < m->n_sock && !have; si++)
			have = m->sock[si].in_use && m->sock[si].kind == BRAID_MP_LOCAL_AUTO &&
			       !strcmp(m->sock[si].ifname, names[k]);
		if (!have && auto_wanted(m, names[k]) && auto_usable(m, names[k]))
			auto_add(m, names[k], now);
	}
}

void mpath_bind_scan(struct braid_mpath *m, bool log_all)
{
	uint64_t now = mnow(m);

	m->bind_retry = false;
	if (m->auto_line >= 0)
		auto_scan(m, now);
	for (int si = 0; si < m->n_sock; si++)
		if (m->sock[si].in_use && !m->sock[si].wildcard && !m->sock[si].shared)
			follow(m, si, now, log_all);
	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used)
			check_route(m, i);
}

void mpath_bind_check_routes(struct braid_mpath *m)
{
	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used && !m->ep[i].route[0])
			check_route(m, i);
}

/* ---- mp-path lines at run time (`braid path-add` / `braid path-remove`) ---- */

static int cfg_sock(const struct braid_mpath *m, const char *local)
{
	for (int i = 0; i < m->n_sock; i++)
		if (m->sock[i].in_use && m->sock[i].cfg_local && m->sock[i].kind != BRAID_MP_LOCAL_AUTO &&
		    !strcmp(m->sock[i].cfg_local, local))
			return i;
	return -ENOENT;
}

int mpath_bind_cfg_add(struct braid_mpath *m, const struct braid_opt_mp_path *p, char *err,
		       size_t errlen)
{
	struct braid_opt_mp_path q = *p;
	uint64_t now = now_us();
	int n0 = m->n_cfgp, si, r;

	if (m->shared) {
		snprintf(err, errlen, "a gateway learns its clients' paths");
		return -EOPNOTSUPP;
	}
	if (p->kind == BRAID_MP_LOCAL_AUTO) {
		snprintf(err, errlen, "mp-path auto cannot be added at run time (put it in the config)");
		return -EOPNOTSUPP;
	}
	if (p->remote && (m->o->client || m->o->opt_tls_client)) {
		snprintf(err, errlen, "a TLS client's paths go to the server it connected to: give only "
			 "the local address");
		return -EINVAL;
	}
	if (cfg_sock(m, p->local) >= 0) {
		snprintf(err, errlen, "mp-path %s is there already (braid path-remove it first)", p->local);
		return -EEXIST;
	}
	q.local = strdup(p->local);
	if (!q.local)
		return -ENOMEM;
	si = open_path(m, &q, q.kind == BRAID_MP_LOCAL_IF ? if_family(m, &q) : AF_UNSPEC,
		       m->o->nobind ? 0 : m->o->lport);
	if (si < 0) {
		free(q.local);
		snprintf(err, errlen, "cannot open its socket: %s", strerror(-si));
		return si;
	}
	m->sock[si].own_local = q.local;
	r = path_remotes(m, &q, si);
	if (!r && m->n_cfgp == n0)
		r = -EDESTADDRREQ;
	if (r) {
		snprintf(err, errlen, "%s", r == -EDESTADDRREQ ? "no remote to send to" :
			 r == -ENOSPC ? "no room for another path" : "its remote does not resolve (see the log)");
		sock_drop(m, si, now, "refused");
		return r;
	}
	braid_info("multipath: mp-path %s%s%s added by the operator", q.local, q.remote ? " " : "",
		   q.remote ? q.remote : "");
	for (int k = n0; k < m->n_cfgp && m->mp; k++)
		mpath_ep_add(m, si, &m->cfgp[k].peer, false, now);
	mpath_bind_check_routes(m);
	mpath_pump(m);
	return 0;
}

int mpath_bind_cfg_remove(struct braid_mpath *m, const char *local, char *err, size_t errlen)
{
	int si = cfg_sock(m, local), others = 0;

	if (m->shared) {
		snprintf(err, errlen, "a gateway learns its clients' paths");
		return -EOPNOTSUPP;
	}
	if (si < 0) {
		snprintf(err, errlen, "no mp-path %s", local);
		return -ENOENT;
	}
	for (int i = 0; i < m->n_cfgp; i++)
		others += m->cfgp[i].sock != si;
	if (!others) {
		snprintf(err, errlen, "it has the session's last paths");
		return -EBUSY;
	}
	braid_info("multipath: mp-path %s removed by the operator", local);
	sock_drop(m, si, now_us(), "removed by the operator");
	mpath_pump(m);
	return 0;
}
