// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_shared.c - what the gateway's workers share (gw_shared.h): worker 0's
 * hold on the other workers, the hand-over of messages between them, and the
 * sums that make them one gateway in the status, management and SIGUSR2.
 */
#include "gateway/gw_shared.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

void braid_gw_lock_all(const struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	if (!k || k->all_depth++)
		return;
	for (unsigned i = 1; i < k->n; i++)
		if (k->w[i].started)
			pthread_mutex_lock(&k->w[i].lk);
}

void braid_gw_unlock_all(const struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	if (!k || --k->all_depth)
		return;
	for (unsigned i = 1; i < k->n; i++) {
		if (!k->w[i].started)
			continue;
		pthread_mutex_unlock(&k->w[i].lk);
		ev_async_send(k->w[i].g->loop, &k->w[i].wake);
	}
}

void braid_gw_hold_iteration(const struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	if (!k || k->held_iter)
		return;
	braid_gw_lock_all(g);
	k->held_iter = true;
}

void braid_gw_hold_release(const struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	if (!k || !k->held_iter)
		return;
	k->held_iter = false;
	braid_gw_unlock_all(g);
}

int braid_gw_xq_send(struct braid_gateway *g, unsigned to, uint8_t type, const void *p, size_t len)
{
	struct gw_workers *k = g->wk;
	struct braid_gw_xq *q;
	uint8_t *m = g->xbuf;
	int r;

	if (!k || !m || to >= k->n || to == g->widx || len + 1 > BUF_SIZE)
		return -EINVAL;
	q = &k->q[g->widx * k->n + to];
	m[0] = type;
	memcpy(m + 1, p, len);
	r = braid_gw_xq_push(q, m, len + 1);
	if (!r)
		r = braid_gw_xq_kick(q);
	if (r)
		g->st.xq_dropped++;
	else if (type == GW_XQ_INNER)
		g->st.xq_handed++;
	return r;
}

bool braid_gw_link_handover(struct braid_gateway *g, const uint8_t *pkt, size_t len,
			    const union braid_sockaddr *from)
{
	struct gw_workers *k = g->wk;
	uint8_t *m = g->xbuf;
	size_t n = 1 + sizeof(*from) + len;
	bool any = false;

	if (!k || !m || !g->xq_link_budget || n > BUF_SIZE)
		return false;
	g->xq_link_budget--;
	m[0] = GW_XQ_LINK;
	memcpy(m + 1, from, sizeof(*from));
	memcpy(m + 1 + sizeof(*from), pkt, len);
	for (unsigned to = 0; to < k->n; to++) {
		struct braid_gw_xq *q = &k->q[g->widx * k->n + to];

		if (to == g->widx)
			continue;
		if (braid_gw_xq_push(q, m, n) || braid_gw_xq_kick(q)) {
			g->st.xq_dropped++;
			continue;
		}
		any = true;
	}
	if (any)
		g->st.xq_link_handed++;
	return any;
}

/* ---------------------------------------------------------------------------------------- */
/* one gateway to the outside */

void braid_gw_workers_sum(const struct braid_gateway *g, struct braid_gateway_stats *st, uint64_t *rj)
{
	struct gw_workers *k = g->wk;

	*st = g->st;
	memcpy(rj, g->rej.count, sizeof(g->rej.count));
	if (!k)
		return;
	braid_gw_lock_all(g);
	for (unsigned i = 1; i < k->n; i++) {
		const struct braid_gateway *x = k->w[i].g;
		const uint64_t *a = (const uint64_t *)&x->st;
		uint64_t *s = (uint64_t *)st;

		if (!x)
			continue;
		/* every field but the last (clients, unsigned long) is a uint64_t */
		for (size_t f = 0; f < offsetof(struct braid_gateway_stats, clients) / sizeof(uint64_t); f++)
			s[f] += a[f];
		st->clients += x->st.clients;
		for (size_t r = 0; r < BRAID_REJ__COUNT; r++)
			rj[r] += x->rej.count[r];
	}
	braid_gw_unlock_all(g);
}

/* One worker's row of the status JSON and the SIGUSR2 lines. */
struct wk_row {
	unsigned i;
	unsigned long clients;
	unsigned long long created, link_rx, link_tx, tun_rx, tun_tx, by_pid, by_hash, handed, received,
		dropped, link_handed, link_taken;
};

/* Every worker's row to emit(), the other workers held meanwhile. */
static void each_worker(const struct braid_gateway *g, void (*emit)(const struct wk_row *, void *),
			void *arg)
{
	struct gw_workers *k = g->wk;

	braid_gw_lock_all(g);
	for (unsigned i = 0; i < k->n; i++) {
		const struct braid_gateway *x = k->w[i].g;
		struct braid_gw_rp_count rc = { 0, 0 };

		if (!x)
			continue;
		braid_gw_reuseport_count(k->rp, i, &rc);
		emit(&(struct wk_row){ i, x->st.clients, x->st.sessions_created, x->st.link_rx_pkts,
				       x->st.link_tx_pkts, x->st.tun_read_pkts, x->st.tun_write_pkts,
				       rc.by_pid, rc.by_hash, x->st.xq_handed, x->st.xq_received,
				       x->st.xq_dropped, x->st.xq_link_handed, x->st.xq_link_taken }, arg);
	}
	braid_gw_unlock_all(g);
}

static void json_row(const struct wk_row *w, void *arg)
{
	fprintf(arg, "%s{\"worker\":%u,\"clients\":%lu,\"sessions_created\":%llu,"
		"\"link_rx_pkts\":%llu,\"link_tx_pkts\":%llu,\"tun_read_pkts\":%llu,"
		"\"tun_write_pkts\":%llu,\"steered_by_pid\":%llu,\"steered_by_hash\":%llu,"
		"\"handed_over\":%llu,\"received\":%llu,\"handover_dropped\":%llu,"
		"\"link_handed_over\":%llu,\"link_taken\":%llu}",
		w->i ? "," : "", w->i, w->clients, w->created, w->link_rx, w->link_tx, w->tun_rx, w->tun_tx,
		w->by_pid, w->by_hash, w->handed, w->received, w->dropped, w->link_handed, w->link_taken);
}

void braid_gw_workers_json(const struct braid_gateway *g, FILE *f)
{
	if (!g->wk)
		return;
	fputs("\"workers\":[", f);
	each_worker(g, json_row, f);
	fputs("],", f);
}

static void log_row(const struct wk_row *w, void *arg)
{
	(void)arg;
	braid_info("worker %u: sessions %lu, link rx %llu tx %llu, tun rx %llu tx %llu, steered by peer-id "
		   "%llu by hash %llu, handed over %llu received %llu dropped %llu, datagrams handed over "
		   "%llu taken %llu", w->i, w->clients, w->link_rx, w->link_tx, w->tun_rx, w->tun_tx,
		   w->by_pid, w->by_hash, w->handed, w->received, w->dropped, w->link_handed,
		   w->link_taken);
}

void braid_gw_workers_log(const struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;
	size_t n, nb, chained;

	if (!k)
		return;
	each_worker(g, log_row, NULL);
	pthread_mutex_lock(&k->addr_lk);
	n = k->addrs.n;
	nb = k->addrs.n_buckets;
	chained = braid_gw_addrset_chained(&k->addrs);
	pthread_mutex_unlock(&k->addr_lk);
	braid_info("workers: client addresses %zu (hash of %zu buckets, %zu sharing a bucket)", n, nb,
		   chained);
}

/* ---------------------------------------------------------------------------------------- */
/* limits that hold for the gateway, not for each worker */

/* The windows: worker 0's, locked with workers. */
static struct braid_gateway *cf_lock(struct braid_gateway *g)
{
	if (!g->wk)
		return g;
	pthread_mutex_lock(&g->wk->cf_lk);
	return g->wk->w[0].g;
}

static void cf_unlock(struct braid_gateway *g)
{
	if (g->wk)
		pthread_mutex_unlock(&g->wk->cf_lk);
}

bool braid_gw_cfi_allow(struct braid_gateway *g)
{
	struct braid_gateway *w = cf_lock(g);
	int64_t now = braid_gw_now_ms();
	bool ok = false, log = false;

	if (now - w->cfi_start_ms >= (int64_t)g->o->cfi_sec * 1000) {
		w->cfi_start_ms = now;
		w->cfi_count = 0;
		w->cfi_logged = false;
	}
	if (w->cfi_count < g->o->cfi_n) {
		w->cfi_count++;
		ok = true;
	} else if (!w->cfi_logged) {
		w->cfi_logged = true;
		log = true;
	}
	cf_unlock(g);
	if (!ok)
		g->st.connect_freq_refused++;
	if (log)
		braid_warn("connect-freq-initial: %d initial replies in %d s reached: new handshakes "
			   "get no answer until the window ends", g->o->cfi_n, g->o->cfi_sec);
	return ok;
}

bool braid_gw_cf_take(struct braid_gateway *g)
{
	struct braid_gateway *w = cf_lock(g);
	int64_t now = braid_gw_now_ms();
	bool ok = false;

	if (now - w->cf_start_ms >= (int64_t)g->o->connect_freq_sec * 1000) {
		w->cf_start_ms = now;
		w->cf_count = 0;
	}
	if (w->cf_count < g->o->connect_freq_n) {
		w->cf_count++;
		ok = true;
	}
	cf_unlock(g);
	if (!ok)
		g->st.connect_freq_refused++;
	return ok;
}

void braid_gw_cf_give(struct braid_gateway *g)
{
	struct braid_gateway *w = cf_lock(g);

	if (w->cf_count > 0)
		w->cf_count--;
	cf_unlock(g);
}

void braid_gw_sock_all(struct braid_gateway *g, bool on)
{
	struct gw_workers *k = g->wk;

	if (!k) {
		if (on)
			ev_io_start(g->loop, &g->sock_r);
		else
			ev_io_stop(g->loop, &g->sock_r);
		return;
	}
	braid_gw_lock_all(g);	/* the others' loops: changed while they wait, woken at the unlock */
	for (unsigned i = 0; i < k->n; i++) {
		struct braid_gateway *x = k->w[i].g;

		if (!x)
			continue;
		if (on)
			ev_io_start(x->loop, &x->sock_r);
		else
			ev_io_stop(x->loop, &x->sock_r);
	}
	braid_gw_unlock_all(g);
}

void braid_gw_share_mg(struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	if (!k)
		return;
	braid_gw_lock_all(g);
	for (unsigned i = 1; i < k->n; i++)
		if (k->w[i].g)
			k->w[i].g->mg = g->mg;
	braid_gw_unlock_all(g);
}

void braid_gw_addr_share(struct braid_gateway *g, const struct gw_client *c, bool add)
{
	struct gw_workers *k = g->wk;
	int r = 0;

	if (!k)
		return;
	pthread_mutex_lock(&k->addr_lk);
	if (add)
		r = braid_gw_addrset_add(&k->addrs, &c->addr, c, g);
	else
		braid_gw_addrset_del(&k->addrs, &c->addr, c);
	pthread_mutex_unlock(&k->addr_lk);
	if (r)	/* its floats are not checked against the other workers' clients */
		braid_warn("%s: not in the workers' address list: %s", braid_gw_cname(c), strerror(-r));
}

bool braid_gw_addr_elsewhere(struct braid_gateway *g, const union braid_sockaddr *a)
{
	struct gw_workers *k = g->wk;
	bool found;

	if (!k)
		return false;
	pthread_mutex_lock(&k->addr_lk);
	found = braid_gw_addrset_other(&k->addrs, a, g);
	pthread_mutex_unlock(&k->addr_lk);
	return found;
}
