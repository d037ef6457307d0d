// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_cluster.c - the gateway's side of many gateways behind one address
 * (gw_cluster.h).
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

void braid_gw_cluster_stop(struct braid_gateway *g)
{
	braid_cluster_stop(g->cluster);
	g->cluster = NULL;
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

/* Entries other gateways held come back to the pool: they may be free now. */
static void return_foreign(struct braid_gateway *g)
{
	for (size_t i = 0; i < g->n_foreign; i++)
		braid_pool_release(g->pool, g->foreign[i]);
	g->n_foreign = 0;
}

int braid_gw_pool_take(struct braid_gateway *g, const char *cn, uint32_t *handle)
{
	bool retried = false;

	if (!g->cluster)
		return braid_pool_acquire(g->pool, cn, handle);
	for (;;) {
		char a[INET6_ADDRSTRLEN];
		uint32_t h;
		int r = braid_pool_acquire(g->pool, cn, &h);

		if (r == -ENOSPC && !retried && g->n_foreign) {
			return_foreign(g);
			retried = true;
			continue;
		}
		if (r)
			return r;
		addr_text(g, h, a, sizeof(a));
		r = braid_cluster_claim(g->cluster, a);
		if (!r) {
			*handle = h;
			return 0;
		}
		if (r != -EEXIST) {
			braid_pool_release(g->pool, h);
			return r;
		}
		if (g->n_foreign == g->cap_foreign) {
			size_t nc = g->cap_foreign ? 2 * g->cap_foreign : 16;
			uint32_t *n = realloc(g->foreign, nc * sizeof(*n));

			if (!n) {
				braid_pool_release(g->pool, h);
				return -ENOMEM;
			}
			g->foreign = n;
			g->cap_foreign = nc;
		}
		g->foreign[g->n_foreign++] = h;	/* held aside: the pool offers the next */
	}
}

void braid_gw_pool_give(struct braid_gateway *g, uint32_t handle)
{
	if (g->cluster) {
		char a[INET6_ADDRSTRLEN];

		addr_text(g, handle, a, sizeof(a));
		braid_cluster_release(g->cluster, a);
	}
	braid_pool_release(g->pool, handle);
}

void braid_gw_cluster_log(const struct braid_gateway *g)
{
	struct braid_cluster_stats st;

	if (!g->cluster)
		return;
	braid_cluster_get_stats(g->cluster, &st);
	braid_info("cluster stats: gateway id %u, keepalives %llu, keepalive failed %llu, claims %llu, "
		   "claims taken elsewhere %llu, claims failed %llu, releases %llu, set aside %zu, "
		   "revoked refused %llu, ccd entries read %llu, reads failed %llu",
		   braid_cluster_gw_id(g->cluster), st.keepalives, st.keepalive_fail, st.claims,
		   st.claim_taken, st.claim_fail, st.releases, g->n_foreign, st.revoked, st.ccd_read,
		   st.read_fail);
}

int braid_gw_cluster_client(struct gw_client *c, const char **why)
{
	struct braid_gateway *g = c->g;
	const char *sn = c->ctl ? braid_ctls_peer_serial(c->ctl) : NULL;
	char err[512] = "";
	char *text;
	bool found;
	int r;

	if (!g->cluster)
		return 0;
	if (sn && sn[0]) {
		r = braid_cluster_revoked(g->cluster, sn);
		if (r == 1) {
			*why = "certificate revoked (cluster-etcd)";
			return -EACCES;
		}
		if (r) {
			*why = "the revocation store (cluster-etcd) is not reachable";
			return r;
		}
	}
	if (!c->cn[0] || !braid_ccd_name_ok(c->cn))
		return 0;
	text = malloc(BRAID_CLUSTER_CCD_MAX);
	if (!text) {
		*why = "out of memory";
		return -ENOMEM;
	}
	r = braid_cluster_ccd(g->cluster, c->cn, text, BRAID_CLUSTER_CCD_MAX, &found);
	if (r) {
		*why = r == -EMSGSIZE ? "its client-config-dir entry in etcd is too large" :
		       "the client-config-dir store (cluster-etcd) is not reachable";
	} else if (found) {
		braid_ccd_free(&c->ccd);
		r = braid_ccd_parse(&c->ccd, "etcd ccd entry", text, err, sizeof(err));
		if (r) {
			braid_err("%s/%s: %s", braid_gw_cname(c), c->real, err);
			*why = "its client-config-dir entry in etcd is invalid";
		} else {
			c->ccd.found = true;
			braid_info("%s/%s: client-config-dir entry read from etcd", braid_gw_cname(c),
				   c->real);
		}
	}
	free(text);
	return r;
}
