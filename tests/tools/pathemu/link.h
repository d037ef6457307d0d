/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * link.h - the emulated link as pure functions of time: loss (uniform, Gilbert-Elliott), tail-drop queue,
 * serialisation at a rate, delay and normal jitter, optionally clamped monotonic. No I/O: the caller feeds
 * arrival times and asks what is due, which makes the model unit-testable.
 */
#ifndef PATHEMU_LINK_H
#define PATHEMU_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "ge.h"
#include "params.h"
#include "prng.h"

/* Bytes added to each packet's IP length for serialisation: the Ethernet header, as tbf counts it on a veth. */
#define PE_L2_OVERHEAD 14u

enum link_state { LINK_UP, LINK_DOWN, LINK_BLACKHOLE };

enum link_fate { LINK_QUEUED, LINK_DROP_LOSS, LINK_DROP_QUEUE, LINK_DROP_DOWN };

struct link_pkt {
	uint64_t due_ns;
	uint64_t seq;   /* arrival order; breaks ties so equal due times leave in arrival order */
	uint32_t id;    /* NFQUEUE packet id */
	uint32_t len;   /* IP length */
};

struct link_stats {
	uint64_t received, sent, dropped_loss, dropped_queue, dropped_down, bytes_sent;
	uint64_t loss_bursts;  /* runs of consecutive loss drops (among packets that met the loss models) */
};

struct link {
	struct pe_params par;
	enum link_state state;
	struct link_stats st;
	/* held packets: min-heap on (due_ns, seq) */
	struct link_pkt *heap;
	size_t n, cap;
	/* serialisation backlog: finish times of packets still being serialised (FIFO ring) */
	uint64_t *txq;
	size_t txq_head, txq_n, txq_cap;
	uint64_t last_tx_ns;   /* when the last accepted packet finishes serialisation */
	uint64_t last_due_ns;  /* for the monotonic clamp */
	uint64_t seq;
	int last_lost;         /* previous loss-model decision, for loss_bursts */
	struct prng loss_rng, jit_rng;
	struct ge ge;
};

int link_init(struct link *l, const struct pe_params *par);
void link_free(struct link *l);
/* Replace parameters (affects packets arriving afterwards). A changed GE setting restarts the chain in Gap. */
void link_set_params(struct link *l, const struct pe_params *par);
void link_set_state(struct link *l, enum link_state s);
const char *link_state_name(enum link_state s);

/* A packet of IP length len with NFQUEUE id arrives at now_ns: returns its fate. */
enum link_fate link_arrive(struct link *l, uint64_t now_ns, uint32_t id, uint32_t len);
/* Earliest due time of the held packets: 0, or -ENOENT when none is held. */
int link_next_due(const struct link *l, uint64_t *due_ns);
/* Pop into out[] (at most max) every packet due by now_ns + window_ns, earliest first; counts them as sent. */
size_t link_release(struct link *l, uint64_t now_ns, uint64_t window_ns, struct link_pkt *out, size_t max);
/* Drop everything held (counted as dropped_down) and clear the serialisation backlog; returns how many. */
size_t link_flush(struct link *l);
static inline size_t link_queued(const struct link *l) { return l->n; }

/* JSON object with counters, state and parameters (one line). Returns like snprintf. */
int link_stats_json(const struct link *l, char *buf, size_t len);

#endif
