/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_aqm.h - CoDel (RFC 8289) on the engine's own per-path send queues, so
 * inner TCP learns the tunnel's capacity (by a drop, or a CE mark on
 * ECN-capable packets) without a standing queue in the tunnel.
 */
#ifndef BRAID_MP_AQM_H
#define BRAID_MP_AQM_H

#include <stdint.h>

struct mp_codel {
	uint64_t first_above;
	uint64_t drop_next;
	uint32_t count, lastcount;
	int dropping;
};

/*
 * Called for every packet at dequeue with its sojourn time and the bytes
 * still queued behind it. Returns 1 if this packet is to be dropped (or
 * CE-marked), else 0.
 */
int mp_codel_judge(struct mp_codel *c, uint64_t now, uint64_t sojourn_us, uint64_t backlog,
		   uint32_t target_us, uint32_t interval_us, uint32_t mtu);

#endif /* BRAID_MP_AQM_H */
