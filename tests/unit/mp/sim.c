// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim.c - deterministic two-engine multipath simulator (see sim.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define RING 65536u

static uint64_t xs(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static int sim_random(void *user, uint8_t *buf, size_t len)
{
	struct sim_side *sd = user;
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(xs(&sd->rng) >> 32);
	return 0;
}

static void sim_tx_release(void *user, void *ref, enum braid_mp_release why)
{
	struct sim_side *sd = user;

	(void)ref;
	if ((unsigned int)why < 4)
		sd->rel[why]++;
}

int sim_init(struct sim *s, int npaths, const struct sim_link_cfg *fwd,
	     const struct sim_link_cfg *rev, const struct braid_mp_config *cfg)
{
	struct braid_mp_config c;
	int d, p, r;

	memset(s, 0, sizeof(*s));
	s->npaths = npaths;
	s->now = 1000000;	/* clocks need not start at 0 */
	s->is_data = calloc(SIM_MAX_PID, 1);
	if (!s->is_data)
		return -ENOMEM;
	for (d = 0; d < 2; d++) {
		for (p = 0; p < npaths; p++) {
			struct sim_link *l = &s->link[d][p];

			l->cfg = d == 0 ? fwd[p] : rev[p];
			if (!l->cfg.buf_bytes)
				l->cfg.buf_bytes = (uint32_t)(l->cfg.rate_bps / 80);
			l->ring = calloc(RING, sizeof(*l->ring));
			if (!l->ring)
				return -ENOMEM;
			l->rng = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(d * 16 + p + 1);
		}
		if (cfg)
			c = *cfg;
		else
			braid_mp_config_init(&c);
		c.tx_release = sim_tx_release;
		c.random = sim_random;
		c.user = &s->side[d];
		s->side[d].rng = 0x1234567ULL + (uint64_t)d * 0x777;
		s->side[d].next_pid = 1;
		r = braid_mp_new(&s->side[d].mp, &c);
		if (r)
			return r;
		for (p = 0; p < npaths; p++) {
			r = braid_mp_path_add(s->side[d].mp, s->now, (uint64_t)(100 + p), 0, 0);
			if (r != p)
				return r < 0 ? r : -EINVAL;
		}
	}
	return 0;
}

void sim_fini(struct sim *s)
{
	int d, p;

	for (d = 0; d < 2; d++) {
		braid_mp_free(s->side[d].mp);
		for (p = 0; p < s->npaths; p++) {
			struct sim_link *l = &s->link[d][p];

			while (l->n) {
				free(l->ring[l->head].ctl);
				l->head = (l->head + 1) % RING;
				l->n--;
			}
			free(l->ring);
		}
	}
	free(s->is_data);
}

void sim_set_load(struct sim *s, uint64_t bps, uint32_t len, uint64_t until)
{
	s->load_bps = bps;
	s->pkt_len = len;
	s->load_next = s->now;
	s->load_until = until;
}

void sim_window(struct sim *s, uint64_t start, uint64_t end)
{
	int p;

	s->win_start = start;
	s->win_end = end;
	s->win_offered_bytes = s->win_delivered_bytes = 0;
	for (p = 0; p < s->npaths; p++)
		s->link[0][p].win_data_bytes = 0;
}

static int in_win(const struct sim *s)
{
	return s->now >= s->win_start && s->now < s->win_end;
}

static void link_send(struct sim *s, struct sim_link *l, struct sim_pkt *pk)
{
	uint64_t backlog, start, now = s->now;

	l->pkts++;
	l->bytes += pk->len;
	if (l->down) {
		l->drop_down++;
		goto drop;
	}
	if (l->cfg.loss_pm && xs(&l->rng) % 1000 < l->cfg.loss_pm) {
		l->drop_loss++;
		goto drop;
	}
	backlog = l->busy_until > now ? (l->busy_until - now) * l->cfg.rate_bps / 8000000 : 0;
	if (backlog + pk->len > l->cfg.buf_bytes || l->n == RING) {
		l->drop_buf++;
		goto drop;
	}
	start = l->busy_until > now ? l->busy_until : now;
	l->busy_until = start + (uint64_t)pk->len * 8000000 / l->cfg.rate_bps;
	l->qdelay_sum += start - now;
	l->qdelay_n++;
	if (start - now > l->qdelay_max)
		l->qdelay_max = start - now;
	pk->arr_us = l->busy_until + l->cfg.delay_us +
		     (l->cfg.jitter_us ? xs(&l->rng) % l->cfg.jitter_us : 0);
	if (pk->arr_us < l->last_arr)
		pk->arr_us = l->last_arr;
	l->last_arr = pk->arr_us;
	l->ring[(l->head + l->n) % RING] = *pk;
	l->n++;
	return;
drop:
	free(pk->ctl);
}

static int drain_tx(struct sim *s, int d)
{
	struct sim_side *sd = &s->side[d];
	struct braid_mp_tx tx;
	int any = 0;

	while (braid_mp_poll_tx(sd->mp, s->now, &tx) == 1) {
		struct sim_pkt pk;

		memset(&pk, 0, sizeof(pk));
		if (tx.kind == BRAID_MP_TX_CONTROL) {
			pk.is_ctl = 1;
			pk.pid = sd->next_pid++;
			pk.len = tx.ctl_len;
			pk.ctl = malloc(tx.ctl_len);
			if (!pk.ctl)
				abort();
			memcpy(pk.ctl, tx.ctl, tx.ctl_len);
		} else {
			pk.pid = tx.pid;
			pk.len = tx.len;
			if (tx.ce)
				sd->ce_marks++;
			s->link[d][tx.path].data_bytes += tx.len;
			if (in_win(s))
				s->link[d][tx.path].win_data_bytes += tx.len;
		}
		link_send(s, &s->link[d][tx.path], &pk);
		any = 1;
	}
	return any;
}

static int deliver(struct sim *s, int d)
{
	struct braid_mp *mp = s->side[d].mp;
	struct braid_mp_rx rx;
	int any = 0;

	while (braid_mp_poll_rx(mp, s->now, &rx) == 1) {
		any = 1;
		if (d != 1)
			continue;
		if (rx.held_us > s->max_held_us)
			s->max_held_us = rx.held_us;
		if (rx.pid < SIM_MAX_PID && s->is_data[rx.pid] == 2) {
			s->dup_deliveries++;
			continue;
		}
		if (rx.pid < SIM_MAX_PID)
			s->is_data[rx.pid] = 2;
		if (rx.pid < s->last_delivered_pid)
			s->out_of_order++;
		s->last_delivered_pid = rx.pid;
		s->delivered++;
		s->delivered_bytes += rx.len;
		if (in_win(s))
			s->win_delivered_bytes += rx.len;
	}
	return any;
}

static int arrivals(struct sim *s)
{
	int d, p, any = 0;

	for (d = 0; d < 2; d++) {
		for (p = 0; p < s->npaths; p++) {
			struct sim_link *l = &s->link[d][p];
			struct braid_mp *rmp = s->side[!d].mp;

			while (l->n && l->ring[l->head].arr_us <= s->now) {
				struct sim_pkt pk = l->ring[l->head];

				l->head = (l->head + 1) % RING;
				l->n--;
				if (pk.is_ctl) {
					braid_mp_rx_control(rmp, s->now, p, pk.pid, pk.ctl, pk.len);
					free(pk.ctl);
				} else {
					braid_mp_rx_data(rmp, s->now, p, pk.pid,
							 (void *)(uintptr_t)pk.pid, pk.len);
				}
				any = 1;
			}
		}
	}
	return any;
}

static int offer(struct sim *s)
{
	struct sim_side *a = &s->side[0];
	int any = 0;

	while (s->load_bps && s->load_next <= s->now && s->load_next < s->load_until) {
		uint64_t pid = a->next_pid++;

		s->load_next += (uint64_t)s->pkt_len * 8000000 / s->load_bps;
		s->offered++;
		s->offered_bytes += s->pkt_len;
		if (in_win(s))
			s->win_offered_bytes += s->pkt_len;
		if (pid < SIM_MAX_PID)
			s->is_data[pid] = 1;
		if (braid_mp_enqueue(a->mp, s->now, (void *)(uintptr_t)pid, s->pkt_len, s->meta,
				     pid)) {
			s->enq_fail++;	/* dropped at the tunnel entry; pid reused */
			s->is_data[pid] = 0;
			a->next_pid--;
		}
		any = 1;
	}
	return any;
}

void sim_run(struct sim *s, uint64_t t)
{
	while (s->now < t) {
		uint64_t next = t, x;
		int d, p, progress;

		do {
			progress = offer(s);
			progress |= arrivals(s);
			for (d = 0; d < 2; d++) {
				progress |= drain_tx(s, d);
				progress |= deliver(s, d);
			}
		} while (progress);

		if (s->load_bps && s->load_next < s->load_until && s->load_next < next)
			next = s->load_next;
		for (d = 0; d < 2; d++) {
			x = braid_mp_next_deadline(s->side[d].mp, s->now);
			if (x < next)
				next = x;
			for (p = 0; p < s->npaths; p++) {
				struct sim_link *l = &s->link[d][p];

				if (l->n && l->ring[l->head].arr_us < next)
					next = l->ring[l->head].arr_us;
			}
		}
		if (next <= s->now) {
			s->spins++;
			next = s->now + 1;
		}
		s->now = next;
	}
}

enum braid_mp_path_state sim_state(const struct sim *s, int side, int p)
{
	struct braid_mp_path_stats st;

	if (braid_mp_path_stats(s->side[side].mp, p, &st))
		return (enum braid_mp_path_state)-1;
	return st.state;
}

int sim_run_until_state(struct sim *s, int side, int p, enum braid_mp_path_state st, uint64_t t)
{
	while (s->now < t) {
		if (sim_state(s, side, p) == st)
			return 1;
		sim_run(s, s->now + 1000 < t ? s->now + 1000 : t);
	}
	return sim_state(s, side, p) == st;
}

uint64_t sim_lost(const struct sim *s)
{
	return sim_lost_from(s, 1);
}

uint64_t sim_lost_from(const struct sim *s, uint64_t from)
{
	uint64_t pid, n = 0;

	for (pid = from; pid < s->side[0].next_pid && pid < SIM_MAX_PID; pid++)
		if (s->is_data[pid] == 1)
			n++;
	return n;
}
