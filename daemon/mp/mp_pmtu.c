// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_pmtu.c - per-path PLPMTU search state machine (see mp_pmtu.h).
 */
#include <string.h>

#include "mp_pmtu.h"

void mp_pmtu_off(struct mp_pmtu *u)
{
	memset(u, 0, sizeof(*u));
	u->state = MP_PMTU_OFF;
	u->mtu = UINT32_MAX;
}

void mp_pmtu_start(struct mp_pmtu *u, uint64_t now, uint32_t base, uint32_t max, uint32_t step)
{
	uint64_t probes = u->probes, acks = u->acks, lost = u->lost;
	uint32_t bh = u->blackholes, searches = u->searches;

	(void)now;
	memset(u, 0, sizeof(*u));
	u->probes = probes;
	u->acks = acks;
	u->lost = lost;
	u->blackholes = bh;
	u->searches = searches + 1;
	u->base = base;
	u->max = max;
	u->step = step ? step : 1;
	u->mtu = base;
	u->low = base;
	u->low_ok = base >= max;
	u->hi = max + 1;
	u->state = base >= max ? MP_PMTU_DONE : MP_PMTU_SEARCH;
	u->raise_us = UINT64_MAX;
}

void mp_pmtu_stop(struct mp_pmtu *u)
{
	u->sent_us = 0;
	u->confirm = 0;
	u->tries = 0;
	if (u->state != MP_PMTU_OFF)
		u->state = MP_PMTU_DONE;
	u->raise_us = UINT64_MAX;	/* the next validation restarts it */
}

static int finished(const struct mp_pmtu *u)
{
	/* an assumed size that nothing above it confirmed is probed itself */
	return (u->mtu >= u->max || u->hi <= u->mtu + u->step) && (u->low_ok || u->mtu > u->low);
}

static void check_done(struct mp_pmtu *u, uint64_t now, uint64_t raise_us)
{
	if (u->state == MP_PMTU_SEARCH && !u->confirm && finished(u)) {
		u->state = MP_PMTU_DONE;
		u->raise_us = now + raise_us;
	}
}

static uint32_t next_size(const struct mp_pmtu *u)
{
	uint32_t s;

	if (u->hi > u->max)
		return u->max;	/* the common case: the whole way passes */
	if (u->hi <= u->mtu + u->step)
		return u->low;	/* nothing above low passed: does low? */
	s = u->mtu + (u->hi - u->mtu) / 2;
	return s > u->mtu ? s : u->mtu + 1;
}

uint32_t mp_pmtu_due(struct mp_pmtu *u, uint64_t now)
{
	if (u->state == MP_PMTU_OFF || u->sent_us)
		return 0;
	if (u->confirm)
		return u->mtu;
	if (u->state == MP_PMTU_DONE) {
		if (now < u->raise_us)
			return 0;
		/* raise timer: the path may carry more now */
		u->state = MP_PMTU_SEARCH;
		u->hi = u->max + 1;
		u->tries = 0;
		u->searches++;
		if (finished(u)) {
			u->state = MP_PMTU_DONE;
			u->raise_us = UINT64_MAX;
			return 0;
		}
	}
	return next_size(u);
}

void mp_pmtu_sent(struct mp_pmtu *u, uint64_t now, uint32_t seq, uint32_t size)
{
	u->seq = seq;
	u->size = size;
	u->sent_us = now ? now : 1;
	u->probes++;
}

int mp_pmtu_ack(struct mp_pmtu *u, uint64_t now, uint32_t seq, uint32_t size, uint64_t raise_us)
{
	int grew = 0;

	if (u->state == MP_PMTU_OFF)
		return 0;
	if (u->sent_us && seq == u->seq && size == u->size) {
		u->sent_us = 0;
		u->tries = 0;
		u->acks++;
		if (size >= u->low)
			u->low_ok = 1;
		if (u->confirm) {
			/* the path still carries mtu: the losses were something else */
			u->confirm = 0;
			u->hold_until = now + MP_PMTU_BH_HOLD_US;
			check_done(u, now, raise_us);
			return 0;
		}
		if (size > u->mtu) {
			u->mtu = size;
			grew = 1;
		}
	} else if (size > u->mtu && size <= u->max && !u->confirm && seq <= u->seq &&
		   u->seq - seq < 64) {
		/* a late answer to a recent probe already counted lost: still
		 * proof. If its size had been judged too big, that was wrong
		 * (a slow host, not the path): the bound above is unknown again. */
		u->acks++;
		u->mtu = size;
		if (size >= u->low)
			u->low_ok = 1;
		if (size >= u->hi) {
			u->hi = u->max + 1;
			if (u->state == MP_PMTU_DONE) {
				u->state = MP_PMTU_SEARCH;
				u->tries = 0;
			}
		}
		grew = 1;
	}
	check_done(u, now, raise_us);
	return grew;
}

int mp_pmtu_timeout(struct mp_pmtu *u, uint64_t now, uint64_t pto, uint64_t raise_us)
{
	if (u->state == MP_PMTU_OFF || !u->sent_us || now < u->sent_us + pto)
		return 0;
	u->sent_us = 0;
	u->lost++;
	u->tries++;
	if (u->confirm) {
		if (u->tries < MP_PMTU_CONFIRM_TRIES)
			return 0;	/* due() sends the confirmation again */
		/* black hole: small packets pass, mtu-sized ones do not */
		u->blackholes++;
		u->confirm = 0;
		u->tries = 0;
		u->hi = u->mtu;
		u->low = u->mtu > u->base ? u->base : MP_PMTU_FLOOR;
		u->low_ok = 0;
		u->mtu = u->low;
		u->state = MP_PMTU_SEARCH;
		check_done(u, now, raise_us);
		return 1;
	}
	if (u->tries >= MP_PMTU_TRIES) {
		u->hi = u->size;	/* too big */
		u->tries = 0;
		if (u->size == u->low && u->mtu == u->low && !u->low_ok) {
			/* not even the assumed size passes */
			if (u->low > MP_PMTU_FLOOR) {
				u->low = MP_PMTU_FLOOR;
				u->mtu = MP_PMTU_FLOOR;
				check_done(u, now, raise_us);
				return 1;
			}
			u->low_ok = 1;	/* nothing smaller is tried */
		}
		check_done(u, now, raise_us);
	}
	return 0;
}

int mp_pmtu_suspect(struct mp_pmtu *u, uint64_t now)
{
	if (u->state == MP_PMTU_OFF || u->confirm || u->mtu <= u->low || now < u->hold_until)
		return 0;
	u->sent_us = 0;		/* a search probe in flight: its late ack still counts */
	u->tries = 0;
	u->confirm = 1;
	u->confirm_us = now;
	return 1;
}

uint64_t mp_pmtu_next(const struct mp_pmtu *u, uint64_t pto)
{
	if (u->state == MP_PMTU_OFF)
		return UINT64_MAX;
	if (u->sent_us)
		return u->sent_us + pto;
	if (u->confirm || u->state == MP_PMTU_SEARCH)
		return 0;
	return u->raise_us;
}
