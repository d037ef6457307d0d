// SPDX-License-Identifier: GPL-2.0-only
/* link.c - the link model: loss, tail-drop queue, serialisation, delay and jitter. */
#include "link.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRNG_STREAM_LOSS 1
#define PRNG_STREAM_JITTER 2
#define PRNG_STREAM(l, which) (((uint64_t)(l)->par.stream << 8) | (which))

static void reseed(struct link *l)
{
	/*
	 * separate streams: the drop pattern of a seed does not depend on the jitter setting, and the two
	 * directions of a path (two queues, same options) draw independent jitter and loss
	 */
	prng_seed(&l->loss_rng, l->par.seed, PRNG_STREAM(l, PRNG_STREAM_LOSS));
	prng_seed(&l->jit_rng, l->par.seed, PRNG_STREAM(l, PRNG_STREAM_JITTER));
	ge_init(&l->ge, &l->par.ge);
}

int link_init(struct link *l, const struct pe_params *par)
{
	memset(l, 0, sizeof(*l));
	l->par = *par;
	l->cap = 1024;
	l->heap = calloc(l->cap, sizeof(*l->heap));
	if (!l->heap)
		goto err;
	l->txq_cap = 1024;
	l->txq = calloc(l->txq_cap, sizeof(*l->txq));
	if (!l->txq)
		goto err_heap;
	l->state = LINK_UP;
	reseed(l);
	return 0;

err_heap:
	free(l->heap);
	l->heap = NULL;
err:
	return -ENOMEM;
}

void link_free(struct link *l)
{
	free(l->txq);
	free(l->heap);
	l->txq = NULL;
	l->heap = NULL;
}

void link_set_params(struct link *l, const struct pe_params *par)
{
	bool ge_changed = par->ge_on != l->par.ge_on || memcmp(&par->ge, &l->par.ge, sizeof(par->ge));

	l->par = *par;
	if (ge_changed)
		ge_init(&l->ge, &l->par.ge);
}

void link_set_state(struct link *l, enum link_state s)
{
	l->state = s;
}

const char *link_state_name(enum link_state s)
{
	switch (s) {
	case LINK_UP:
		return "up";
	case LINK_DOWN:
		return "down";
	case LINK_BLACKHOLE:
		return "blackhole";
	}
	return "?";
}

static bool pkt_before(const struct link_pkt *a, const struct link_pkt *b)
{
	return a->due_ns < b->due_ns || (a->due_ns == b->due_ns && a->seq < b->seq);
}

static int heap_push(struct link *l, const struct link_pkt *p)
{
	size_t i, parent;

	if (l->n == l->cap) {
		size_t ncap = l->cap * 2;
		struct link_pkt *nh = realloc(l->heap, ncap * sizeof(*nh));

		if (!nh)
			return -ENOMEM;
		l->heap = nh;
		l->cap = ncap;
	}
	for (i = l->n++; i > 0; i = parent) {
		parent = (i - 1) / 2;
		if (!pkt_before(p, &l->heap[parent]))
			break;
		l->heap[i] = l->heap[parent];
	}
	l->heap[i] = *p;
	return 0;
}

static void heap_pop(struct link *l, struct link_pkt *out)
{
	struct link_pkt last;
	size_t i = 0, c;

	*out = l->heap[0];
	last = l->heap[--l->n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= l->n)
			break;
		if (c + 1 < l->n && pkt_before(&l->heap[c + 1], &l->heap[c]))
			c++;
		if (!pkt_before(&l->heap[c], &last))
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	if (l->n)
		l->heap[i] = last;
}

static int txq_push(struct link *l, uint64_t fin)
{
	if (l->txq_n == l->txq_cap) {
		size_t ncap = l->txq_cap * 2, k;
		uint64_t *nq = malloc(ncap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		for (k = 0; k < l->txq_n; k++)
			nq[k] = l->txq[(l->txq_head + k) % l->txq_cap];
		free(l->txq);
		l->txq = nq;
		l->txq_cap = ncap;
		l->txq_head = 0;
	}
	l->txq[(l->txq_head + l->txq_n) % l->txq_cap] = fin;
	l->txq_n++;
	return 0;
}

static void txq_drain(struct link *l, uint64_t now)
{
	while (l->txq_n && l->txq[l->txq_head] <= now) {
		l->txq_head = (l->txq_head + 1) % l->txq_cap;
		l->txq_n--;
	}
}

/* Loss models in a fixed draw order (GE, then uniform) so a seed always gives the same pattern. */
static bool loss_decide(struct link *l)
{
	bool lost = false;

	if (l->par.ge_on)
		lost = ge_step(&l->ge, &l->loss_rng);
	if (l->par.loss_pct > 0 && prng_uniform(&l->loss_rng) < l->par.loss_pct / 100.0)
		lost = true;
	return lost;
}

enum link_fate link_arrive(struct link *l, uint64_t now, uint32_t id, uint32_t len)
{
	struct link_pkt p;
	uint64_t tx_ns = 0, backlog, start, fin;
	int64_t jit;
	bool lost;

	l->st.received++;
	if (l->state != LINK_UP) {
		l->st.dropped_down++;
		return LINK_DROP_DOWN;
	}
	lost = loss_decide(l);
	if (lost && !l->last_lost)
		l->st.loss_bursts++;
	l->last_lost = lost;
	if (lost) {
		l->st.dropped_loss++;
		return LINK_DROP_LOSS;
	}

	txq_drain(l, now);
	backlog = l->last_tx_ns > now ? l->last_tx_ns - now : 0;
	if (l->par.rate_mbit > 0) /* bits / (Mbit/s) = bits * 1000 / rate ns */
		tx_ns = (uint64_t)llround((double)(len + PE_L2_OVERHEAD) * 8.0 * 1000.0 / l->par.rate_mbit);
	if (l->n >= PE_MAX_HELD ||
	    (l->par.qpkts && l->txq_n >= l->par.qpkts) ||
	    (l->par.qms > 0 && backlog > 0 && (double)(backlog + tx_ns) > l->par.qms * 1e6)) {
		l->st.dropped_queue++;
		return LINK_DROP_QUEUE;
	}

	start = backlog ? l->last_tx_ns : now;
	fin = start + tx_ns;
	p.due_ns = fin + (uint64_t)llround(l->par.delay_ms * 1e6);
	if (l->par.jitter_ms > 0) {
		jit = llround(prng_normal(&l->jit_rng) * l->par.jitter_ms * 1e6);
		/* a packet never arrives before it has been sent */
		if (jit < 0 && (uint64_t)(-jit) > p.due_ns - fin)
			p.due_ns = fin;
		else
			p.due_ns = (uint64_t)((int64_t)p.due_ns + jit);
	}
	if (!l->par.reorder && p.due_ns < l->last_due_ns)
		p.due_ns = l->last_due_ns;
	p.seq = l->seq;
	p.id = id;
	p.len = len;
	if (tx_ns && txq_push(l, fin))
		goto nomem;
	if (heap_push(l, &p)) {
		if (tx_ns)
			l->txq_n--; /* take back the finish time just added */
		goto nomem;
	}
	l->seq++;
	l->last_tx_ns = fin;
	if (!l->par.reorder)
		l->last_due_ns = p.due_ns;
	return LINK_QUEUED;

nomem:
	l->st.dropped_queue++;
	return LINK_DROP_QUEUE;
}

int link_next_due(const struct link *l, uint64_t *due_ns)
{
	if (!l->n)
		return -ENOENT;
	*due_ns = l->heap[0].due_ns;
	return 0;
}

size_t link_release(struct link *l, uint64_t now, uint64_t window_ns, struct link_pkt *out, size_t max)
{
	size_t k = 0;

	while (k < max && l->n && l->heap[0].due_ns <= now + window_ns) {
		heap_pop(l, &out[k]);
		l->st.sent++;
		l->st.bytes_sent += out[k].len;
		k++;
	}
	return k;
}

size_t link_flush(struct link *l)
{
	size_t n = l->n;

	l->st.dropped_down += n;
	l->n = 0;
	l->txq_n = 0;
	l->txq_head = 0;
	l->last_tx_ns = 0;
	l->last_due_ns = 0;
	return n;
}

int link_stats_json(const struct link *l, char *buf, size_t len)
{
	int a, b;

	a = snprintf(buf, len,
		     "{\"received\":%" PRIu64 ",\"sent\":%" PRIu64 ",\"dropped_loss\":%" PRIu64
		     ",\"dropped_queue\":%" PRIu64 ",\"dropped_down\":%" PRIu64 ",\"queued\":%zu,\"bytes_sent\":%" PRIu64
		     ",\"loss_bursts\":%" PRIu64 ",\"state\":\"%s\",",
		     l->st.received, l->st.sent, l->st.dropped_loss, l->st.dropped_queue, l->st.dropped_down, l->n,
		     l->st.bytes_sent, l->st.loss_bursts, link_state_name(l->state));
	if (a < 0 || (size_t)a >= len)
		return a;
	b = params_json(&l->par, buf + a, len - (size_t)a);
	if (b < 0 || (size_t)(a + b) + 2 > len)
		return a + b + 1;
	buf[a + b] = '}';
	buf[a + b + 1] = '\0';
	return a + b + 1;
}
