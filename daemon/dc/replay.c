// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - packet-id replay window (OpenVPN --replay-window semantics).
 */
#include "replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int braid_replay_init(struct braid_replay *r, uint32_t window, uint32_t time_window)
{
	uint32_t nbits = 64;

	memset(r, 0, sizeof(*r));
	if (window == 0 || window > BRAID_REPLAY_MAX_WINDOW || time_window > BRAID_REPLAY_MAX_TIME)
		return -EINVAL;
	while (nbits < window)
		nbits <<= 1;
	r->bits = calloc(nbits / 64, sizeof(uint64_t));
	if (!r->bits)
		return -ENOMEM;
	if (time_window) {
		r->nticks_cap = time_window + 2;
		r->ticks = calloc(r->nticks_cap, sizeof(*r->ticks));
		if (!r->ticks) {
			free(r->bits);
			r->bits = NULL;
			return -ENOMEM;
		}
	}
	r->nbits = nbits;
	r->window = window;
	r->time_window = time_window;
	return 0;
}

void braid_replay_free(struct braid_replay *r)
{
	free(r->bits);
	free(r->ticks);
	memset(r, 0, sizeof(*r));
}

static void restart_sequence(struct braid_replay *r, uint32_t pkt_time)
{
	memset(r->bits, 0, r->nbits / 8);
	r->highest = 0;
	r->tick_head = 0;
	r->nticks = 0;
	r->expired_below = 0;
	r->pkt_time = pkt_time;
}

void braid_replay_reset(struct braid_replay *r)
{
	restart_sequence(r, 0);
	r->last_now = 0;
	r->max_backtrack = 0;
}

static int64_t clamp_now(struct braid_replay *r, int64_t now)
{
	if (now < r->last_now)
		now = r->last_now;
	r->last_now = now;
	return now;
}

/* Retire per-second ticks older than the time window into expired_below. */
static void age(struct braid_replay *r, int64_t now)
{
	if (!r->time_window)
		return;
	while (r->nticks) {
		const struct braid_replay_tick *t = &r->ticks[r->tick_head];

		if (t->sec + (int64_t)r->time_window >= now)
			break;
		r->expired_below = t->highest;
		r->tick_head = (r->tick_head + 1) % r->nticks_cap;
		r->nticks--;
	}
}

static void record_tick(struct braid_replay *r, int64_t now)
{
	struct braid_replay_tick *last;

	if (!r->time_window)
		return;
	if (r->nticks) {
		last = &r->ticks[(r->tick_head + r->nticks - 1) % r->nticks_cap];
		if (last->sec == now) {
			last->highest = r->highest;
			return;
		}
	}
	if (r->nticks == r->nticks_cap) {
		/* Cannot happen after age(): ticks span at most time_window + 1 seconds. */
		r->tick_head = (r->tick_head + 1) % r->nticks_cap;
		r->nticks--;
	}
	last = &r->ticks[(r->tick_head + r->nticks) % r->nticks_cap];
	last->sec = now;
	last->highest = r->highest;
	r->nticks++;
}

static inline bool bit_test(const struct braid_replay *r, uint32_t id)
{
	uint32_t b = id & (r->nbits - 1);

	return r->bits[b / 64] >> (b % 64) & 1;
}

static inline void bit_set(struct braid_replay *r, uint32_t id)
{
	uint32_t b = id & (r->nbits - 1);

	r->bits[b / 64] |= (uint64_t)1 << (b % 64);
}

/* Clear the bits of ids (from, to], to - from < nbits. */
static void bits_clear_range(struct braid_replay *r, uint32_t from, uint32_t to)
{
	uint32_t id = from + 1;
	uint32_t left = to - from;

	while (left) {
		uint32_t b = id & (r->nbits - 1);

		if (b % 64 == 0 && left >= 64) {
			r->bits[b / 64] = 0;
			id += 64;
			left -= 64;
		} else {
			r->bits[b / 64] &= ~((uint64_t)1 << (b % 64));
			id++;
			left--;
		}
	}
}

enum braid_replay_result braid_replay_check(struct braid_replay *r, uint32_t pkt_time,
					    uint32_t id, int64_t now)
{
	uint32_t diff;

	now = clamp_now(r, now);
	if (id == 0)
		return BRAID_REPLAY_ZERO_ID;
	if (pkt_time < r->pkt_time)
		return BRAID_REPLAY_TIME_BACKTRACK;
	if (pkt_time > r->pkt_time || id > r->highest)
		return BRAID_REPLAY_OK;
	age(r, now);
	diff = r->highest - id;
	if (diff >= r->window)
		return BRAID_REPLAY_TOO_OLD;
	if (bit_test(r, id))
		return BRAID_REPLAY_DUPLICATE;
	if (id <= r->expired_below)
		return BRAID_REPLAY_EXPIRED;
	return BRAID_REPLAY_OK;
}

void braid_replay_commit(struct braid_replay *r, uint32_t pkt_time, uint32_t id, int64_t now)
{
	now = clamp_now(r, now);
	if (pkt_time > r->pkt_time)
		restart_sequence(r, pkt_time);
	age(r, now);
	if (id > r->highest) {
		if (id - r->highest >= r->nbits)
			memset(r->bits, 0, r->nbits / 8);
		else
			bits_clear_range(r, r->highest, id);
		r->highest = id;
		record_tick(r, now);
	} else if (r->highest - id > r->max_backtrack) {
		r->max_backtrack = r->highest - id;
	}
	bit_set(r, id);
}

enum braid_replay_result braid_replay_accept(struct braid_replay *r, uint32_t pkt_time,
					     uint32_t id, int64_t now)
{
	enum braid_replay_result res = braid_replay_check(r, pkt_time, id, now);

	if (res == BRAID_REPLAY_OK)
		braid_replay_commit(r, pkt_time, id, now);
	return res;
}

const char *braid_replay_result_str(enum braid_replay_result res)
{
	switch (res) {
	case BRAID_REPLAY_OK:
		return "ok";
	case BRAID_REPLAY_ZERO_ID:
		return "packet-id 0";
	case BRAID_REPLAY_DUPLICATE:
		return "duplicate";
	case BRAID_REPLAY_TOO_OLD:
		return "outside replay window";
	case BRAID_REPLAY_EXPIRED:
		return "older than replay time window";
	case BRAID_REPLAY_TIME_BACKTRACK:
		return "time backtrack";
	}
	return "?";
}
