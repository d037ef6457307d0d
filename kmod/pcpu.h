/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU event counters: each CPU adds to its own copy (no cache line shared between CPUs is
 * written per packet, as WireGuard's and ovpn's counters), a reader sums the copies. Every counter
 * pair is an event count and a sum (bytes of a packet, nanoseconds of an operation), so one call
 * updates both.
 */
#ifndef _BRAID_DCO_PCPU_H_
#define _BRAID_DCO_PCPU_H_

#include <linux/gfp.h>
#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>

/* counters a set holds at most (the peer's six, the path's seven, the cost's six) */
#define BRAID_CTRS_MAX 7

/**
 * struct braid_ctrs - one CPU's copy of a set of counters
 * @v: the counters, indexed by the owner's enum
 * @syncp: makes a 64-bit read consistent on 32-bit machines
 */
struct braid_ctrs {
	u64_stats_t v[BRAID_CTRS_MAX];
	struct u64_stats_sync syncp;
};

struct braid_ctrs __percpu *braid_ctrs_alloc(gfp_t gfp);
void braid_ctrs_sum(const struct braid_ctrs __percpu *c, u64 *out, unsigned int n);

/**
 * braid_ctrs_count() - count one event and add a value to its sum on this CPU
 * @c: the counters
 * @events: index of the event count (incremented)
 * @sum: index of the sum (@val added), or -1 for none
 * @val: bytes, nanoseconds
 *
 * Context: BH or preemption disabled (transmit, receive, or under local_bh_disable()), so that
 * no other writer runs on this CPU's copy meanwhile.
 */
static inline void braid_ctrs_count(struct braid_ctrs __percpu *c, unsigned int events, int sum,
				    u64 val)
{
	struct braid_ctrs *s = this_cpu_ptr(c);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->v[events]);
	if (sum >= 0)
		u64_stats_add(&s->v[sum], val);
	u64_stats_update_end(&s->syncp);
}

/**
 * braid_ctrs_count2() - count one event and add to two sums on this CPU in one update
 * @c: the counters
 * @events: index of the event count (incremented)
 * @sum1: index of the first sum (@val1 added)
 * @val1: bytes
 * @sum2: index of the second sum (@val2 added)
 * @val2: nanoseconds
 *
 * Context: as braid_ctrs_count().
 */
static inline void braid_ctrs_count2(struct braid_ctrs __percpu *c, unsigned int events,
				     unsigned int sum1, u64 val1, unsigned int sum2, u64 val2)
{
	struct braid_ctrs *s = this_cpu_ptr(c);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->v[events]);
	u64_stats_add(&s->v[sum1], val1);
	u64_stats_add(&s->v[sum2], val2);
	u64_stats_update_end(&s->syncp);
}

#endif /* _BRAID_DCO_PCPU_H_ */
