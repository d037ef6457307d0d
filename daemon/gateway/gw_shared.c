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

void braid_gw_workers_json(const struct braid_gateway *g, FILE *f)
{
	struct gw_workers *k = g->wk;

	if (!k)
		return;
	braid_gw_lock_all(g);
	fputs("\"workers\":[", f);
	for (unsigned i = 0; i < k->n; i++) {
		const struct braid_gateway *x = k->w[i].g;
		struct braid_gw_rp_count rc = { 0, 0 };

		if (!x)
			continue;
		braid_gw_reuseport_count(k->rp, i, &rc);
		fprintf(f, "%s{\"worker\":%u,\"clients\":%lu,\"sessions_created\":%llu,"
			"\"link_rx_pkts\":%llu,\"link_tx_pkts\":%llu,\"tun_read_pkts\":%llu,"
			"\"tun_write_pkts\":%llu,\"steered_by_pid\":%llu,\"steered_by_hash\":%llu,"
			"\"handed_over\":%llu,\"received\":%llu,\"handover_dropped\":%llu,"
			"\"link_handed_over\":%llu,\"link_taken\":%llu}",
			i ? "," : "", i, x->st.clients, (unsigned long long)x->st.sessions_created,
			(unsigned long long)x->st.link_rx_pkts, (unsigned long long)x->st.link_tx_pkts,
			(unsigned long long)x->st.tun_read_pkts, (unsigned long long)x->st.tun_write_pkts,
			(unsigned long long)rc.by_pid, (unsigned long long)rc.by_hash,
			(unsigned long long)x->st.xq_handed, (unsigned long long)x->st.xq_received,
			(unsigned long long)x->st.xq_dropped, (unsigned long long)x->st.xq_link_handed,
			(unsigned long long)x->st.xq_link_taken);
	}
	fputs("],", f);
	braid_gw_unlock_all(g);
}

void braid_gw_workers_log(const struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	if (!k)
		return;
	braid_gw_lock_all(g);
	for (unsigned i = 0; i < k->n; i++) {
		const struct braid_gateway *x = k->w[i].g;
		struct braid_gw_rp_count rc = { 0, 0 };

		if (!x)
			continue;
		braid_gw_reuseport_count(k->rp, i, &rc);
		braid_info("worker %u: sessions %lu, link rx %llu tx %llu, tun rx %llu tx %llu, "
			   "steered by peer-id %llu by hash %llu, handed over %llu received %llu "
			   "dropped %llu, datagrams handed over %llu taken %llu", i, x->st.clients, (unsigned long long)x->st.link_rx_pkts,
			   (unsigned long long)x->st.link_tx_pkts, (unsigned long long)x->st.tun_read_pkts,
			   (unsigned long long)x->st.tun_write_pkts, (unsigned long long)rc.by_pid,
			   (unsigned long long)rc.by_hash, (unsigned long long)x->st.xq_handed,
			   (unsigned long long)x->st.xq_received, (unsigned long long)x->st.xq_dropped,
			   (unsigned long long)x->st.xq_link_handed, (unsigned long long)x->st.xq_link_taken);
	}
	braid_gw_unlock_all(g);
}
