// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim.c - deterministic two-engine multipath simulator (see sim.h).
 */
#include <errno.h>
#include <stdio.h>
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

	free(ref);
	if ((unsigned int)why < 4)
		sd->rel[why]++;
}

static void sim_rx_release(void *user, void *ref)
{
	(void)user;
	free(ref);
}

static struct sim_ipkt *ipkt_dup(const struct sim_ipkt *ip)
{
	struct sim_ipkt *c = malloc(sizeof(*c));

	if (!c)
		abort();
	*c = *ip;
	return c;
}

int sim_init(struct sim *s, int npaths, const struct sim_link_cfg *fwd,
	     const struct sim_link_cfg *rev, const struct braid_mp_config *cfg)
{
	struct braid_mp_config c;
	int d, p, r;

	memset(s, 0, sizeof(*s));
	s->npaths = npaths;
	s->now = 1000000;	/* clocks need not start at 0 */
	s->direct_path = -1;
	s->is_data = calloc(SIM_MAX_PID, 1);
	if (!s->is_data)
		return -ENOMEM;
	for (d = 0; d < 2; d++) {
		for (p = 0; p < npaths; p++) {
			struct sim_link *l = &s->link[d][p];

			l->cfg = d == 0 ? fwd[p] : rev[p];
			if (!l->cfg.buf_bytes)
				l->cfg.buf_bytes = (uint32_t)(l->cfg.rate_bps *
					(l->cfg.buf_us ? l->cfg.buf_us : 100000) / 8000000);
			l->ring = calloc(RING, sizeof(*l->ring));
			if (!l->ring)
				return -ENOMEM;
			l->rng = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(d * 16 + p + 1);
			if (l->cfg.seed)
				l->rng ^= l->cfg.seed * 0xbf58476d1ce4e5b9ULL;
			if (!l->rng)
				l->rng = 1;
		}
		if (cfg)
			c = *cfg;
		else
			braid_mp_config_init(&c);
		c.tx_release = sim_tx_release;
		c.rx_release = sim_rx_release;
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
	free(s->tcp);
	free(s->ping_rtt);
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
	s->win_tcp_segs = 0;
	s->ping_n = 0;
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
	if (l->cfg.mtu && pk->len > l->cfg.mtu) {
		l->drop_mtu++;
		l->drop_mtu_data += !pk->is_ctl;
		goto drop;
	}
	if (l->cfg.loss_pm && xs(&l->rng) % 1000 < l->cfg.loss_pm) {
		l->drop_loss++;
		goto drop;
	}
	if (l->cfg.ge_p) {
		int lost = xs(&l->rng) % 1000000 <
			   (l->ge_bad ? l->cfg.ge_bad_loss : l->cfg.ge_good_loss);

		if (xs(&l->rng) % 1000000 < (l->ge_bad ? l->cfg.ge_r : l->cfg.ge_p))
			l->ge_bad = !l->ge_bad;
		if (lost) {
			l->drop_loss++;
			goto drop;
		}
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
	if (l->cfg.batch_us)
		pk->arr_us = (pk->arr_us + l->cfg.batch_us - 1) / l->cfg.batch_us * l->cfg.batch_us;
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
			braid_mp_ctl_sent(sd->mp, pk.pid);
		} else {
			pk.pid = tx.pid;
			pk.len = tx.len;
			pk.ip = *(const struct sim_ipkt *)tx.ref;
			if (tx.ce) {
				sd->ce_marks++;
				pk.ip.ce = 1;
			}
			s->link[d][tx.path].data_bytes += tx.len;
			if (in_win(s))
				s->link[d][tx.path].win_data_bytes += tx.len;
		}
		link_send(s, &s->link[d][tx.path], &pk);
		any = 1;
	}
	return any;
}

static void send_inner(struct sim *s, int d, const struct sim_ipkt *ip, uint32_t len,
		       unsigned int meta);

/* An inner packet leaves the tunnel (or the direct path) at side d. */
static void inner_rx(struct sim *s, int d, const struct sim_ipkt *ip, uint64_t pid)
{
	struct sim_ipkt out;
	uint32_t n;

	switch (ip->kind) {
	case SIM_K_LOAD:
		if (d != 1)
			break;
		if (pid < SIM_MAX_PID && s->is_data[pid] == 2) {
			s->dup_deliveries++;
			break;
		}
		if (pid < SIM_MAX_PID)
			s->is_data[pid] = 2;
		if (s->now - ip->ts > s->load_max_delay_us)
			s->load_max_delay_us = s->now - ip->ts;
		if (pid < s->last_delivered_pid)
			s->out_of_order++;
		s->last_delivered_pid = pid;
		s->delivered++;
		s->delivered_bytes += s->pkt_len;
		if (in_win(s))
			s->win_delivered_bytes += s->pkt_len;
		break;
	case SIM_K_SEG:
		if (d != 1 || !s->tcp)
			break;
		n = simtcp_on_seg(s->tcp, ip, &out);
		s->tcp_segs += n;
		if (in_win(s))
			s->win_tcp_segs += n;
		send_inner(s, 1, &out, 60, BRAID_MP_CLASS_ACK);
		break;
	case SIM_K_ACK:
		if (d == 0 && s->tcp)
			simtcp_on_ack(s->tcp, s->now, ip);
		break;
	case SIM_K_PING:
		if (d != 1)
			break;
		out = *ip;
		out.kind = SIM_K_PONG;
		send_inner(s, 1, &out, 84, BRAID_MP_CLASS_SMALL);
		break;
	case SIM_K_PONG:
		if (d == 0 && in_win(s) && s->ping_n < s->ping_cap)
			s->ping_rtt[s->ping_n++] = s->now - ip->ts;
		break;
	}
}

static void send_inner(struct sim *s, int d, const struct sim_ipkt *ip, uint32_t len,
		       unsigned int meta)
{
	struct sim_side *sd = &s->side[d];
	struct sim_ipkt *c;
	uint64_t pid;

	if (s->direct_path >= 0 && ip->kind != SIM_K_LOAD) {
		struct sim_pkt pk;

		memset(&pk, 0, sizeof(pk));
		pk.direct = 1;
		pk.len = len;
		pk.ip = *ip;
		link_send(s, &s->link[d][s->direct_path], &pk);
		return;
	}
	c = ipkt_dup(ip);
	pid = sd->next_pid++;
	if (braid_mp_enqueue(sd->mp, s->now, c, len, meta, pid)) {
		sd->next_pid--;		/* dropped at the tunnel entry; pid reused */
		free(c);
		if (ip->kind == SIM_K_SEG)
			s->tcp_entry_drops++;
		else if (ip->kind == SIM_K_PING || ip->kind == SIM_K_PONG)
			s->pings_lost_entry++;
		else if (ip->kind == SIM_K_LOAD)
			s->enq_fail++;
	}
}

static int deliver(struct sim *s, int d)
{
	struct braid_mp *mp = s->side[d].mp;
	struct braid_mp_rx rx;
	int any = 0;

	while (braid_mp_poll_rx(mp, s->now, &rx) == 1) {
		any = 1;
		if (d == 1 && rx.held_us > s->max_held_us)
			s->max_held_us = rx.held_us;
		inner_rx(s, d, rx.ref, rx.pid);
		free(rx.ref);
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
				} else if (pk.direct) {
					inner_rx(s, !d, &pk.ip, 0);
				} else {
					struct sim_ipkt *c = ipkt_dup(&pk.ip);

					unsigned int meta = BRAID_MP_CLASS_BULK;

					if (pk.ip.kind == SIM_K_ACK)
						meta = BRAID_MP_CLASS_ACK;
					else if (pk.ip.kind == SIM_K_LOAD)
						meta = s->load_rx_meta;
					else if (pk.ip.kind == SIM_K_PING || pk.ip.kind == SIM_K_PONG)
						meta = BRAID_MP_CLASS_SMALL;
					if (braid_mp_rx_data_meta(rmp, s->now, p, pk.pid, c, pk.len,
								  meta))
						free(c);
				}
				any = 1;
			}
		}
	}
	return any;
}

static int offer(struct sim *s)
{
	int any = 0;

	while (s->load_bps && s->load_next <= s->now && s->load_next < s->load_until) {
		struct sim_ipkt ip;
		uint64_t pid = s->side[0].next_pid;

		memset(&ip, 0, sizeof(ip));
		ip.kind = SIM_K_LOAD;
		ip.pid = pid;
		ip.ts = s->now;
		s->load_next += (uint64_t)s->pkt_len * 8000000 / s->load_bps;
		s->offered++;
		s->offered_bytes += s->pkt_len;
		if (in_win(s))
			s->win_offered_bytes += s->pkt_len;
		if (pid < SIM_MAX_PID)
			s->is_data[pid] = 1;
		send_inner(s, 0, &ip, s->pkt_len, s->meta);
		if (s->side[0].next_pid == pid && pid < SIM_MAX_PID)
			s->is_data[pid] = 0;
		any = 1;
	}
	while (s->ping_every && s->ping_next <= s->now && s->ping_next < s->ping_until) {
		struct sim_ipkt ip;

		memset(&ip, 0, sizeof(ip));
		ip.kind = SIM_K_PING;
		ip.seq = s->ping_seq++;
		ip.ts = s->now;
		s->ping_next += s->ping_every;
		send_inner(s, 0, &ip, 84, BRAID_MP_CLASS_SMALL);
		any = 1;
	}
	if (s->tcp) {
		struct sim_ipkt ip;

		simtcp_timer(s->tcp, s->now);
		while (simtcp_next(s->tcp, s->now, &ip)) {
			send_inner(s, 0, &ip, s->seg_len ? s->seg_len : s->pkt_len,
				   BRAID_MP_CLASS_BULK | (s->tcp->cfg.ect ? BRAID_MP_META_ECT : 0));
			any = 1;
		}
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
		if (s->ping_every && s->ping_next < s->ping_until && s->ping_next < next)
			next = s->ping_next;
		if (s->tcp && simtcp_deadline(s->tcp) < next)
			next = simtcp_deadline(s->tcp);
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

int sim_tcp_start(struct sim *s, const struct sim_tcp_cfg *cfg, int direct_path)
{
	if (!s->tcp) {
		s->tcp = malloc(sizeof(*s->tcp));
		if (!s->tcp)
			return -ENOMEM;
	}
	simtcp_init(s->tcp, cfg, s->now);
	s->direct_path = direct_path;
	s->tcp_start = s->now;
	if (!s->pkt_len)
		s->pkt_len = 1400;
	return 0;
}

int sim_ping_start(struct sim *s, uint64_t every, uint64_t until, uint32_t cap)
{
	free(s->ping_rtt);
	s->ping_rtt = calloc(cap, sizeof(*s->ping_rtt));
	if (!s->ping_rtt)
		return -ENOMEM;
	s->ping_cap = cap;
	s->ping_n = 0;
	s->ping_every = every;
	s->ping_next = s->now;
	s->ping_until = until;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t sim_ping_pct(struct sim *s, unsigned int p)
{
	uint32_t i;

	if (!s->ping_n)
		return 0;
	qsort(s->ping_rtt, s->ping_n, sizeof(*s->ping_rtt), cmp_u64);
	i = (uint32_t)((uint64_t)(s->ping_n - 1) * p / 100);
	return s->ping_rtt[i];
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
