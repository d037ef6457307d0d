// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_aqm.c - CoDel control law (RFC 8289 §5), one state per send queue.
 */
#include "mp_aqm.h"

static uint64_t isqrt(uint64_t v)
{
	uint64_t x = v, y = (x + 1) / 2;

	if (v < 2)
		return v;
	while (y < x) {
		x = y;
		y = (x + v / x) / 2;
	}
	return x;
}

/* t + interval / sqrt(count), in integer microseconds (scaled by 1024). */
static uint64_t control_law(uint64_t t, uint32_t interval_us, uint32_t count)
{
	uint64_t root = isqrt((uint64_t)count << 20);	/* sqrt(count) * 1024 */

	return t + ((uint64_t)interval_us << 10) / (root ? root : 1);
}

int mp_codel_judge(struct mp_codel *c, uint64_t now, uint64_t sojourn_us, uint64_t backlog,
		   uint32_t target_us, uint32_t interval_us, uint32_t mtu)
{
	int ok = 0;
	uint32_t delta;

	if (sojourn_us < target_us || backlog <= mtu) {
		c->first_above = 0;
	} else if (!c->first_above) {
		c->first_above = now + interval_us;
	} else if (now >= c->first_above) {
		ok = 1;
	}
	if (c->dropping) {
		if (!ok) {
			c->dropping = 0;
			return 0;
		}
		if (now >= c->drop_next) {
			c->count++;
			c->drop_next = control_law(c->drop_next, interval_us, c->count);
			return 1;
		}
		return 0;
	}
	if (!ok)
		return 0;
	c->dropping = 1;
	delta = c->count - c->lastcount;
	if (delta > 1 && now - c->drop_next < 16ULL * interval_us)
		c->count = delta;
	else
		c->count = 1;
	c->drop_next = control_law(now, interval_us, c->count);
	c->lastcount = c->count;
	return 1;
}
