// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_cluster.c - the gateway's side of many gateways behind one address
 * (gw_cluster.h). With worker threads each worker has its own cluster handle
 * (braid_cluster_attach: its requests on its own loop); the pool and the
 * entries set aside are worker 0's, under the pool lock like every pool use.
 */
#include "gateway/gw_cluster.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "ctl/session.h"
#include "gateway/ccd.h"
#include "gateway/pool.h"
#include "gateway/gw_shared.h"
#include "util/log.h"

static void lost_cb(void *arg)
{
	struct braid_gateway *g = arg;

	g->cluster_lost = true;
	g->exit_req = true;
	ev_break(g->loop, EVBREAK_ALL);
}

int braid_gw_cluster_start(struct braid_gateway *g)
{
	int r;

	if (!g->o->cluster_etcd)
		return 0;
	r = braid_cluster_start(&g->cluster, g->loop, g->o, lost_cb, g);
	if (r)
		return r;
	g->pid_base = braid_cluster_pid_base(g->cluster);
	return 0;
}

int braid_gw_cluster_attach(struct braid_gateway *x, const struct braid_gateway *g)
{
	x->cluster = NULL;
	return g->cluster ? braid_cluster_attach(g->cluster, x->loop, &x->cluster) : 0;
}

void braid_gw_cluster_stop(struct braid_gateway *g)
{
	for (uint32_t i = g->widx; g->cluster && i < g->max_clients; i += braid_gw_nw(g))
		if (g->by_pid[i])
			braid_gw_cluster_cancel(g->by_pid[i]);
	braid_cluster_stop(g->cluster);	/* with a reload's lookup under way */
	g->cluster = NULL;
	g->rv_op = NULL;
	free(g->foreign);
	g->foreign = NULL;
	g->n_foreign = 0;
}

static void addr_text(const struct braid_gateway *g, uint32_t h, char *buf, size_t cap)
{
	uint32_t a, m;
	struct in6_addr a6;
	uint8_t p;

	buf[0] = 0;
	if (g->has_v4 && !braid_pool_addr4(g->pool, h, &a, &m)) {
		struct in_addr x = { htonl(a) };

		inet_ntop(AF_INET, &x, buf, (socklen_t)cap);
	} else if (!braid_pool_addr6(g->pool, h, &a6, &p)) {
		inet_ntop(AF_INET6, &a6, buf, (socklen_t)cap);
	}
}

/* The worker whose pool and set-aside list every worker uses (under the pool lock). */
static struct braid_gateway *pool_home(struct braid_gateway *g)
{
	return g->wk ? g->wk->w[0].g : g;
}

/* Entries other gateways held come back to the pool: they may be free now. Pool lock held. */
static void return_foreign(struct braid_gateway *g)
{
	g = pool_home(g);
	for (size_t i = 0; i < g->n_foreign; i++)
		braid_pool_release(g->pool, g->foreign[i]);
	g->n_foreign = 0;
}

/* Keep entry h aside (another gateway holds it): the pool offers the next. Pool lock held. */
static int set_aside(struct braid_gateway *g, uint32_t h)
{
	g = pool_home(g);
	if (g->n_foreign == g->cap_foreign) {
		size_t nc = g->cap_foreign ? 2 * g->cap_foreign : 16;
		uint32_t *n = realloc(g->foreign, nc * sizeof(*n));

		if (!n)
			return -ENOMEM;
		g->foreign = n;
		g->cap_foreign = nc;
	}
	g->foreign[g->n_foreign++] = h;
	return 0;
}

static void claimed(void *arg, int r);

static void pool_put(struct braid_gateway *g, uint32_t h)
{
	braid_gw_pool_lock(g);
	braid_pool_release(g->pool, h);
	braid_gw_pool_unlock(g);
}

/* Acquire the next entry and start its claim. 0 (under way), -ENOSPC, -errno. */
static int claim_next(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	char a[INET6_ADDRSTRLEN];
	int r;

	braid_gw_pool_lock(g);
	for (;;) {
		r = braid_pool_acquire(g->pool, c->cn, &c->claim_h);
		if (r == -ENOSPC && !c->claim_retried && pool_home(g)->n_foreign) {
			return_foreign(g);
			c->claim_retried = true;
			continue;
		}
		break;
	}
	braid_gw_pool_unlock(g);
	if (r)
		return r;
	addr_text(g, c->claim_h, a, sizeof(a));
	r = braid_cluster_claim(g->cluster, a, claimed, c, &c->cop);
	if (r)
		pool_put(g, c->claim_h);
	c->claiming = !r;
	return r;
}

static void cont(struct gw_client *c, int r, const char *why)
{
	braid_gw_cluster_k k = c->cluster_cont;

	c->cluster_cont = NULL;
	k(c, r, why);
}

static void claimed(void *arg, int r)
{
	struct gw_client *c = arg;
	struct braid_gateway *g = c->g;

	c->cop = NULL;
	c->claiming = false;
	if (!r) {
		c->pool_h = c->claim_h;
		c->has_pool = true;
		cont(c, 0, NULL);
		return;
	}
	if (r == -EEXIST) {
		braid_gw_pool_lock(g);
		r = set_aside(g, c->claim_h);
		if (r)
			braid_pool_release(g->pool, c->claim_h);
		braid_gw_pool_unlock(g);
		r = r ?: claim_next(c);
		if (!r)
			return;
	} else {
		pool_put(g, c->claim_h);
	}
	cont(c, r, r == -ENOSPC ? "no free address in the ifconfig-pool" :
		   "the address pool's store (cluster-etcd) is not reachable");
}

int braid_gw_pool_take(struct gw_client *c, braid_gw_cluster_k k)
{
	struct braid_gateway *g = c->g;
	int r;

	if (!g->cluster) {
		braid_gw_pool_lock(g);
		r = braid_pool_acquire(g->pool, c->cn, &c->pool_h);
		braid_gw_pool_unlock(g);
		c->has_pool = !r;
		return r;
	}
	c->claim_retried = false;
	r = claim_next(c);
	if (r)
		return r;
	c->cluster_cont = k;
	return -EINPROGRESS;
}

void braid_gw_pool_give(struct braid_gateway *g, uint32_t handle)
{
	if (g->cluster) {
		char a[INET6_ADDRSTRLEN];

		addr_text(g, handle, a, sizeof(a));
		braid_cluster_release(g->cluster, a);
	}
	pool_put(g, handle);
}

void braid_gw_cluster_log(const struct braid_gateway *g)
{
	struct braid_cluster_stats st = { 0 };
	size_t aside;

	if (!g->cluster)
		return;
	braid_gw_lock_all(g);	/* every worker's handle counts its own requests */
	for (unsigned i = 0; i < braid_gw_nw(g); i++) {
		const struct braid_gateway *x = g->wk ? g->wk->w[i].g : g;

		if (x && x->cluster)
			braid_cluster_add_stats(x->cluster, &st);
	}
	braid_gw_unlock_all(g);
	if (g->wk)	/* worker 0's list, kept under the pool lock */
		pthread_mutex_lock(&g->wk->pool_lk);
	aside = g->n_foreign;
	if (g->wk)
		pthread_mutex_unlock(&g->wk->pool_lk);
	braid_info("cluster stats: gateway id %u, keepalives %llu, keepalive failed %llu, claims %llu, "
		   "claims taken elsewhere %llu, claims failed %llu, releases %llu, set aside %zu, "
		   "revoked refused %llu, ccd entries read %llu, reads failed %llu",
		   braid_cluster_gw_id(g->cluster), st.keepalives, st.keepalive_fail, st.claims,
		   st.claim_taken, st.claim_fail, st.releases, aside, st.revoked, st.ccd_read,
		   st.read_fail);
}

static void looked_up(void *arg, int r, const struct braid_cluster_entries *e)
{
	struct gw_client *c = arg;
	char err[512] = "";
	const char *why = NULL;

	c->cop = NULL;
	if (r) {
		cont(c, r, r == -EMSGSIZE ? "its client-config-dir entry in etcd is too large" :
			   "the revocation and client-config-dir store (cluster-etcd) is not reachable");
		return;
	}
	if (e->revoked) {
		cont(c, -EACCES, "certificate revoked (cluster-etcd)");
		return;
	}
	if (e->ccd) {
		braid_ccd_free(&c->ccd);
		r = braid_ccd_parse(&c->ccd, "etcd ccd entry", e->ccd, err, sizeof(err));
		if (r) {
			braid_err("%s/%s: %s", braid_gw_cname(c), c->real, err);
			why = "its client-config-dir entry in etcd is invalid";
		} else {
			c->ccd.found = true;
			braid_info("%s/%s: client-config-dir entry read from etcd", braid_gw_cname(c),
				   c->real);
		}
	}
	cont(c, r, why);
}

int braid_gw_cluster_client(struct gw_client *c, braid_gw_cluster_k k, const char **why)
{
	struct braid_gateway *g = c->g;
	const char *sn = c->ctl ? braid_ctls_peer_serial(c->ctl) : NULL;
	const char *cn = c->cn[0] && braid_ccd_name_ok(c->cn) ? c->cn : NULL;
	int r;

	if (!g->cluster)
		return 0;
	r = braid_cluster_lookup(g->cluster, sn, cn, looked_up, c, &c->cop);
	if (r == -ENODATA)
		return 0;
	if (r) {
		*why = "the revocation and client-config-dir store (cluster-etcd) is not reachable";
		return r;
	}
	c->cluster_cont = k;
	return -EINPROGRESS;
}

void braid_gw_cluster_cancel(struct gw_client *c)
{
	if (!c->cop)
		return;
	braid_cluster_op_cancel(c->cop);
	c->cop = NULL;
	c->cluster_cont = NULL;
	if (c->claiming)	/* acquired, its claim not answered: back to the pool */
		pool_put(c->g, c->claim_h);
	c->claiming = false;
}
