// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_reload.c - the gateway's live reload (gw_reload.h). What it applies:
 *  - verb / mute-replay-warnings: at once (session/reload.c);
 *  - push lines, client-config-dir: taken over into the running options,
 *    which the gateway reads at every client's connect (a ccd file is read
 *    then too, so a new or changed file needs no reload at all, as stock);
 *  - mp-scheduler: new clients, and every connected multipath client's
 *    engine at once (a `braidctl set client ... scheduler` is overridden);
 *  - crl-verify: the file is read again at every reload (changed or not);
 *    new handshakes and renegotiations check against it, and every connected
 *    client whose certificate serial is now revoked is told to reconnect
 *    (RESTART) and dropped at once; its reconnect is refused by the CRL.
 *    Stock OpenVPN would keep it until its next renegotiation (reneg-sec).
 * A CRL that cannot be read leaves the old one in force (logged).
 *  - with cluster-etcd: every connected client's certificate serial is
 *    looked up under PREFIX revoked/ and a revoked one dropped the same way
 *    (new clients are checked at their connect: gw_cluster.c).
 */
#include "gateway/gw_reload.h"

#include <stdio.h>
#include <string.h>

#include "gateway/gw_client.h"	/* first: session.h before dc.h */
#include "cluster/cluster.h"
#include "ctl/tls_crl.h"
#include "gateway/gateway_mp.h"
#include "gateway/gw_table.h"
#include "gateway/gw_shared.h"
#include "session/reload.h"
#include "util/log.h"

/* Tell a client to reconnect (RESTART) and drop it. */
static void drop_revoked(struct gw_client *c, const char *why)
{
	if (c->st == C_ACTIVE && !braid_ctls_send_text(c->ctl, "RESTART"))
		braid_gw_ctl_run(c);
	braid_gw_client_kill(c, why);
}

/*
 * With cluster-etcd: every connected client's serial against PREFIX revoked/, one request at a time
 * from the loop of the worker that owns the client (its own cluster handle), so neither the reload
 * nor a worker waits for etcd; an unreachable store ends the walk and keeps everyone (logged).
 */
static void rv_next(struct braid_gateway *g, uint32_t from);

static void rv_done(void *arg, int r, const struct braid_cluster_entries *e)
{
	struct braid_gateway *g = arg;
	struct gw_client *c = g->by_pid[g->rv_idx];

	g->rv_op = NULL;
	if (r) {
		braid_warn("reload: the revocation store (cluster-etcd) is not reachable: connected "
			   "clients not checked");
		g->rv_kill = 0;
		return;
	}
	if (e->revoked && c && c->cid == g->rv_cid && !c->dead) {
		braid_warn("reload: client %s: certificate serial %s is revoked (cluster-etcd): "
			   "disconnecting", braid_gw_cname(c), braid_ctls_peer_serial(c->ctl));
		drop_revoked(c, "certificate revoked (cluster-etcd, reload)");
		g->rv_kill++;
	}
	rv_next(g, g->rv_idx + braid_gw_nw(g));
}

/* The lookup of the next of this worker's clients from index `from` (the walk ends after the last). */
static void rv_next(struct braid_gateway *g, uint32_t from)
{
	for (uint32_t i = from; i < g->max_clients; i += braid_gw_nw(g)) {
		struct gw_client *c = g->by_pid[i];
		const char *sn = c && !c->dead && c->ctl ? braid_ctls_peer_serial(c->ctl) : NULL;
		int r;

		if (!sn || !sn[0])
			continue;
		r = braid_cluster_lookup(g->cluster, sn, NULL, rv_done, g, &g->rv_op);
		if (r) {
			braid_warn("reload: the revocation store (cluster-etcd) is not reachable: "
				   "connected clients not checked (%s)", strerror(-r));
			break;
		}
		g->rv_idx = i;
		g->rv_cid = c->cid;
		return;
	}
	if (g->rv_kill)
		braid_info("reload: %u client(s) disconnected: certificate revoked (cluster-etcd)",
			   g->rv_kill);
	g->rv_kill = 0;
}

/* Worker 0, every worker held: each worker's walk starts (again) on its own loop. */
static void reload_revoked(struct braid_gateway *g)
{
	for (unsigned w = 0; g->cluster && w < braid_gw_nw(g); w++) {
		struct braid_gateway *x = g->wk ? g->wk->w[w].g : g;

		if (!x || !x->cluster)
			continue;
		braid_cluster_op_cancel(x->rv_op);	/* a walk from the reload before */
		x->rv_op = NULL;
		x->rv_kill = 0;
		ev_now_update(x->loop);	/* x's clock stood while it waited: the deadline from now */
		rv_next(x, x->widx);
	}
}

static void reload_crl(struct braid_gateway *g, const struct braid_reload_diff *d)
{
	const struct braid_opt_source *b = &g->o->blobs[BRAID_BLOB_CRL_VERIFY];
	char err[512];
	unsigned n_crl = 0, n_kill = 0;
	int r;

	if (!g->ssl || (!b->path && !b->inline_text && !(d->changed & BRAID_RELOAD_CRL)))
		return;
	r = braid_tls_crl_reload(g->ssl, b->inline_text ? NULL : b->path, b->inline_text, &n_crl,
				 err, sizeof(err));
	if (r) {
		braid_err("reload: %s; the CRL loaded before stays in force", err);
		return;
	}
	if (!n_crl) {
		braid_info("reload: no crl-verify: no CRL check");
		return;
	}
	braid_info("reload: crl-verify: %u CRL(s) read", n_crl);
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];
		const char *sn;

		if (!c || c->dead || !c->ctl)
			continue;
		sn = braid_ctls_peer_serial(c->ctl);
		if (!braid_tls_crl_revoked(g->ssl, sn))
			continue;
		braid_warn("reload: client %s: certificate serial %s is revoked (crl-verify): "
			   "disconnecting", braid_gw_cname(c), sn);
		drop_revoked(c, "certificate revoked (crl-verify, reload)");
		n_kill++;
	}
	if (n_kill)
		braid_info("reload: %u client(s) disconnected: certificate revoked", n_kill);
}

static void on_reload(void *user)
{
	struct braid_gateway *g = user;
	struct braid_reload_diff d;
	int r;

	braid_gw_lock_all(g);	/* the options, the CRL and every worker's clients change under them */
	r = braid_reload_begin(g->o, &d);
	if (!r) {
		if (d.changed & BRAID_RELOAD_PUSH)
			braid_info("reload: %u push line(s): sent to clients that connect from now on",
				   g->o->n_push);
		if (d.changed & BRAID_RELOAD_CCD)
			braid_info("reload: client-config-dir %s%s: read at each client's connect",
				   g->o->client_config_dir ? g->o->client_config_dir : "(none)",
				   g->o->ccd_exclusive ? " (ccd-exclusive)" : "");
		if (d.changed & BRAID_RELOAD_SCHED) {
			braid_info("reload: mp-scheduler %s: new clients and connected ones",
				   g->o->mp_sched);
			for (uint32_t i = 0; i < g->max_clients; i++) {
				struct gw_client *c = g->by_pid[i];
				char who[96];

				if (!c || c->dead || !braid_gw_mp_dp(c))
					continue;
				snprintf(who, sizeof(who), "client %s", braid_gw_cname(c));
				braid_reload_apply_dp(braid_gw_mp_dp(c), g->o, &d, who);
			}
		}
		reload_crl(g, &d);
		reload_revoked(g);
	}
	braid_gw_unlock_all(g);
	braid_reload_end(g->loop, r, &d);
}

void gw_reload_listen(struct braid_gateway *g)
{
	braid_reload_listen(g->loop, on_reload, g);
}

void gw_reload_unlisten(struct braid_gateway *g)
{
	braid_reload_unlisten(g->loop);
}
