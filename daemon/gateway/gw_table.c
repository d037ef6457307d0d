// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_table.c - the gateway's client table (gw_table.h): a client's creation
 * (peer-id slot, address strings, timers), removal (peer-id, routes, pool
 * entry, multipath engine released at once; client-disconnect started) and
 * freeing at the next reap, and the UDP clients' source-address hash.
 */
#include "gateway/gw_table.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway/gateway_mp.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_mgmt_ev.h"
#include "gateway/gw_script.h"
#include "gateway/gw_shared.h"
#include "dataplane/backend.h"
#include "util/keyed_hash.h"
#include "util/log.h"

/* "a.b.c.d:port" / "[v6]:port" (v4-mapped shown as IPv4), as OpenVPN's status file prints peers. */
void braid_gw_addr_strings(struct gw_client *c)
{
	const union braid_sockaddr *a = &c->addr;
	uint16_t port = 0;

	c->ip[0] = 0;
	if (a->sa.sa_family == AF_INET) {
		inet_ntop(AF_INET, &a->in.sin_addr, c->ip, sizeof(c->ip));
		port = ntohs(a->in.sin_port);
	} else if (a->sa.sa_family == AF_INET6) {
		if (IN6_IS_ADDR_V4MAPPED(&a->in6.sin6_addr))
			inet_ntop(AF_INET, &a->in6.sin6_addr.s6_addr[12], c->ip, sizeof(c->ip));
		else
			inet_ntop(AF_INET6, &a->in6.sin6_addr, c->ip, sizeof(c->ip));
		port = ntohs(a->in6.sin6_port);
	}
	snprintf(c->port, sizeof(c->port), "%u", port);
	/* 2.6's mroute_addr_print: "1.2.3.4:port", "[2001:db8::2]:port" */
	snprintf(c->real, sizeof(c->real), strchr(c->ip, ':') ? "[%s]:%u" : "%s:%u", c->ip, port);
}

/* The bytes the cookie HMAC covers: the sockaddr with every padding byte zero. */
size_t braid_gw_cookie_addr(const union braid_sockaddr *a, union braid_sockaddr *out)
{
	memset(out, 0, sizeof(*out));
	out->sa.sa_family = a->sa.sa_family;
	if (a->sa.sa_family == AF_INET) {
		out->in.sin_port = a->in.sin_port;
		out->in.sin_addr = a->in.sin_addr;
		return sizeof(struct sockaddr_in);
	}
	out->in6.sin6_port = a->in6.sin6_port;
	out->in6.sin6_addr = a->in6.sin6_addr;
	return sizeof(struct sockaddr_in6);
}

/* Bucket of an address: SipHash with a random key (source addresses are the attacker's choice). */
static size_t addr_bucket(const struct braid_gateway *g, const union braid_sockaddr *a)
{
	union braid_sockaddr n;
	size_t len = braid_gw_cookie_addr(a, &n);

	return braid_keyed_bucket(&n, len, g->hkey, g->n_buckets);
}

void braid_gw_addr_insert(struct braid_gateway *g, struct gw_client *c)
{
	size_t b = addr_bucket(g, &c->addr);

	c->hnext = g->by_addr[b];
	g->by_addr[b] = c;
	braid_gw_addr_share(g, c, true);	/* `workers N`: the other workers' float check */
}

void braid_gw_addr_remove(struct braid_gateway *g, struct gw_client *c)
{
	struct gw_client **p = &g->by_addr[addr_bucket(g, &c->addr)];

	braid_gw_addr_share(g, c, false);
	for (; *p; p = &(*p)->hnext)
		if (*p == c) {
			*p = c->hnext;
			c->hnext = NULL;
			return;
		}
}

struct gw_client *braid_gw_by_addr(struct braid_gateway *g, const union braid_sockaddr *a)
{
	for (struct gw_client *c = g->by_addr[addr_bucket(g, a)]; c; c = c->hnext)
		if (braid_sockaddr_equal(&c->addr, a))
			return c;
	return NULL;
}

unsigned long braid_gw_n_clients(const struct braid_gateway *g)
{
	return g->wk ? atomic_load_explicit(&g->wk->clients, memory_order_relaxed) : g->st.clients;
}

/*
 * One of the max-clients places, for all workers together (the peer-id table has max-clients
 * slots per worker, so a worker is never full while the gateway is not).
 */
static bool take_slot(struct braid_gateway *g)
{
	if (!g->wk)
		return g->st.clients < g->client_limit;
	if (atomic_fetch_add(&g->wk->clients, 1) < g->client_limit)
		return true;
	atomic_fetch_sub(&g->wk->clients, 1);
	return false;
}

static void give_slot(struct braid_gateway *g)
{
	if (g->wk)
		atomic_fetch_sub(&g->wk->clients, 1);
}

int braid_gw_client_new(struct braid_gateway *g, const union braid_sockaddr *from, int tcp_fd,
			const struct gw_client_cbs *cb, struct gw_client **out)
{
	struct gw_client *c;
	uint32_t pid;

	if (!take_slot(g)) {
		g->st.max_clients_refused++;
		return -ENOSPC;
	}
	/* worker w hands out the peer-ids it owns: pid % N == w (docs/scaling.md "Workers") */
	for (pid = g->widx; pid < g->max_clients; pid += braid_gw_nw(g))
		if (!g->by_pid[pid])
			break;
	if (pid >= g->max_clients) {
		give_slot(g);
		g->st.max_clients_refused++;
		return -ENOSPC;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		give_slot(g);
		return -ENOMEM;
	}
	c->g = g;
	c->pid = pid;
	c->cid = g->wk ? atomic_fetch_add(&g->wk->next_cid, 1) : g->next_cid++;
	c->addr = *from;
	if (g->o->multihome)	/* answer from the address it came to */
		c->local = g->rx_local;
	c->fd = tcp_fd;
	c->tcp = tcp_fd >= 0;
	c->st = C_HANDSHAKE;
	c->reauth_key = -1;
	c->created_ms = c->last_rx_ms = c->last_tx_ms = braid_gw_now_ms();
	c->since = c->last_ref = time(NULL);
	braid_gw_addr_strings(c);
	ev_timer_init(&c->ctl_t, cb->ctl, 0, 0);
	c->ctl_t.data = c;
	if (c->tcp) {
		int r = braid_tcpframe_init(&c->rx, BRAID_TCPFRAME_MAX_PKT);

		if (r) {
			free(c);
			give_slot(g);
			return r;
		}
		ev_io_init(&c->io_r, cb->tcp_read, tcp_fd, EV_READ);
		ev_io_init(&c->io_w, cb->tcp_write, tcp_fd, EV_WRITE);
		c->io_r.data = c->io_w.data = c;
		ev_io_start(g->loop, &c->io_r);
	}
	g->by_pid[pid] = c;
	if (!c->tcp)
		braid_gw_addr_insert(g, c);
	g->st.clients++;
	g->st.sessions_created++;
	*out = c;
	return 0;
}

/* Release everything other clients could need (peer-id, routes, address) now; free later. */
void braid_gw_client_kill(struct gw_client *c, const char *why)
{
	struct braid_gateway *g = c->g;

	if (c->dead)
		return;
	braid_info("%s/%s: client removed (peer-id %u): %s", braid_gw_cname(c), c->real,
		   braid_gw_wire_pid(c), why);
	c->dead = true;
	ev_timer_stop(g->loop, &c->ctl_t);
	/*
	 * The multipath engine is freed with the client (client_free), not here: a kill can come
	 * from inside the engine's own pump (its deliver hook hands on an OCC EXIT), which goes on
	 * using the engine after the hook returns. Until the reap its hooks ignore a dead client.
	 */
	if (c->tcp) {
		ev_io_stop(g->loop, &c->io_r);
		ev_io_stop(g->loop, &c->io_w);
	}
	if (c->as.pid) {
		braid_authscript_cancel(&c->as);
		if (g->scripts)
			g->scripts--;
	}
	if (c->cc_file[0]) {
		unlink(c->cc_file);
		c->cc_file[0] = 0;
	}
	braid_gw_cluster_cancel(c);	/* a request of its connect still under way */
	if (c->was_active)
		braid_gw_mgmt_disconnect(c);
	if (c->was_active && g->o->client_disconnect)
		braid_gw_start_disconnect_script(c);
	braid_gw_rt_wr(g);
	braid_vroute_del_owner(braid_gw_routes(g), c->pid);
	braid_gw_rt_unlock(g);
	if (c->has_pool)
		braid_gw_pool_give(g, c->pool_h);
	c->has_pool = false;
	g->by_pid[c->pid] = NULL;
	if (!c->tcp)
		braid_gw_addr_remove(g, c);
	g->st.clients--;
	give_slot(g);
	g->st.clients_removed++;
	g->st.gone_rx_bytes += c->rx_bytes;	/* load-stats counts them on, as stock's totals */
	g->st.gone_tx_bytes += c->tx_bytes;
	c->next_dead = g->dead;
	g->dead = c;
}

static void client_free(struct gw_client *c)
{
	/* the held data packets (gw_data.c's braid_gw_release_held without delivering) */
	for (unsigned i = 0; i < c->n_held; i++) {
		free(c->held[i].p);
		c->held[i].p = NULL;
	}
	c->n_held = 0;
	free(c->held);
	c->held = NULL;
	braid_ctls_free(c->ctl);
	braid_gw_mp_stop(c);
	braid_dp_close(c->sp);	/* before the data channel it uses */
	braid_dc_free(c->dc);
	braid_gw_push_out_free(&c->push);
	braid_ccd_free(&c->ccd);
	free(c->mgmt_config);
	if (c->tcp && c->fd >= 0)
		close(c->fd);
	braid_tcpframe_free(&c->rx);
	free(c->wbuf);
	sodium_memzero(c, sizeof(*c));
	free(c);
}

void braid_gw_reap(struct braid_gateway *g)
{
	while (g->dead) {
		struct gw_client *c = g->dead;

		g->dead = c->next_dead;
		client_free(c);
	}
}

