/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_reorder.h - receive-side reorder buffer keyed by data-channel packet-id.
 *
 * Packets are held by packet-id in a preallocated window and released in
 * order. A gap is given up once the oldest held packet has waited for the
 * deadline the caller passes in, or when more than max_pkts are held.
 * A history bitmap behind the window delivers late packets (a gap that was
 * given up and arrives after all, e.g. a failover re-send) exactly once and
 * drops duplicates. Packet-ids used by control messages are marked as
 * fillers so they never open a gap. No allocation after init.
 */
#ifndef BRAID_MP_REORDER_H
#define BRAID_MP_REORDER_H

#include <stdint.h>

struct mp_ro_slot {
	void *ref;
	uint64_t pid;
	uint64_t arr_us;
	uint32_t len;
	uint8_t state;
};

struct mp_ro_out {
	void *ref;
	uint64_t pid;
	uint64_t arr_us;
	uint32_t len;
};

struct mp_ro_fifo {
	uint64_t pid;
	uint64_t arr_us;
};

struct mp_ro_stats {
	uint64_t delivered, in_order, late, dups, too_old;
	uint64_t gaps_deadline, gaps_bound;	/* packet-ids given up */
	uint32_t held, max_held;		/* current / max held packets */
	uint64_t max_hold_us;			/* longest a packet was held */
};

struct mp_reorder {
	uint32_t win;		/* window in packet-ids, power of two */
	uint32_t max_pkts;	/* bound on held packets */
	uint32_t hist;		/* history bits, power of two */
	int started;
	uint64_t next;		/* next packet-id to release */
	uint64_t hi;		/* highest packet-id seen + 1 */
	struct mp_ro_slot *slot;
	struct mp_ro_fifo *fifo;	/* held packets in arrival order */
	uint32_t fifo_head, fifo_n;
	struct mp_ro_out *ready;	/* released, waiting for poll */
	uint32_t ready_cap, ready_head, ready_n;
	uint64_t *bits;		/* 1 = delivered, for pids in [next-hist, next) */
	struct mp_ro_stats st;
};

int mp_reorder_init(struct mp_reorder *r, uint32_t win, uint32_t max_pkts);
/* Calls drop(ref) for every packet still held or ready. */
void mp_reorder_fini(struct mp_reorder *r, void (*drop)(void *ctx, void *ref), void *ctx);
/* 0 = taken (released later by mp_reorder_pop), -EALREADY = duplicate or
 * too old, -ENOBUFS = the caller does not poll; in both cases the caller
 * keeps the ref. */
int mp_reorder_insert(struct mp_reorder *r, uint64_t now, uint64_t pid, void *ref, uint32_t len);
/* Deliver at once, out of order (latency classes); the packet-id still
 * counts as arrived (no gap, later copies are duplicates). Same returns. */
int mp_reorder_insert_now(struct mp_reorder *r, uint64_t now, uint64_t pid, void *ref,
			  uint32_t len);
/* 1 if pid has not arrived: a gap held open or given up (for NACKs);
 * 0 if it arrived or is too old / too new to know. */
int mp_reorder_missing(const struct mp_reorder *r, uint64_t pid);
/* Mark a packet-id consumed by a control message. */
void mp_reorder_filler(struct mp_reorder *r, uint64_t now, uint64_t pid);
/* Give up gaps whose oldest waiting packet is older than deadline_us. */
void mp_reorder_expire(struct mp_reorder *r, uint64_t now, uint64_t deadline_us);
/* Time at which mp_reorder_expire will release something, or UINT64_MAX. */
uint64_t mp_reorder_next_expiry(struct mp_reorder *r, uint64_t deadline_us);
/* 1 and *out filled, or 0 when nothing is ready. */
int mp_reorder_pop(struct mp_reorder *r, uint64_t now, struct mp_ro_out *out);

#endif /* BRAID_MP_REORDER_H */
