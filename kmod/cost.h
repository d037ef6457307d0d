/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * In-module cost counters: per-CPU sums of ktime_get_ns() deltas and counts of the per-packet
 * operations (encrypt, decrypt, the path schedule), module-wide, switched on and off at run time
 * with the module parameter cost_stats (/sys/module/braid_dco/parameters/cost_stats). Off, each
 * measuring point costs one static branch (a no-op instruction). STATS_GET reports them (the
 * "cost" nest of kmod/braid_dco.yaml).
 */
#ifndef _BRAID_DCO_COST_H_
#define _BRAID_DCO_COST_H_

#include <linux/jump_label.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#include "pcpu.h"

/**
 * enum braid_cost_ctr - the counters of the cost set (struct braid_ctrs indices)
 * @BRAID_COST_ENC_N: packets sealed
 * @BRAID_COST_ENC_NS: nanoseconds spent sealing them
 * @BRAID_COST_DEC_N: packets opened (authenticated)
 * @BRAID_COST_DEC_NS: nanoseconds spent opening them
 * @BRAID_COST_SCHED_N: path choices (a BPF program run or the built-in round robin)
 * @BRAID_COST_SCHED_NS: nanoseconds spent choosing
 * @BRAID_COST_NR: number of counters
 */
enum braid_cost_ctr {
	BRAID_COST_ENC_N,
	BRAID_COST_ENC_NS,
	BRAID_COST_DEC_N,
	BRAID_COST_DEC_NS,
	BRAID_COST_SCHED_N,
	BRAID_COST_SCHED_NS,
	BRAID_COST_NR,
};

DECLARE_STATIC_KEY_FALSE(braid_cost_key);
extern struct braid_ctrs __percpu *braid_cost;

int braid_cost_init(void);
void braid_cost_exit(void);
bool braid_cost_enabled(void);

/**
 * braid_cost_start() - the start time of a measured operation
 *
 * Return: ktime_get_ns() when cost counting is on, else 0 (one static branch)
 */
static __always_inline u64 braid_cost_start(void)
{
	if (static_branch_unlikely(&braid_cost_key))
		return ktime_get_ns();
	return 0;
}

/**
 * braid_cost_end() - count one operation and the time since @t0 on this CPU
 * @events: BRAID_COST_ENC_N, BRAID_COST_DEC_N or BRAID_COST_SCHED_N (its sum is the next index)
 * @t0: what braid_cost_start() returned (0: counting was off when the operation started)
 *
 * Context: BH or preemption disabled (transmit, receive).
 */
static __always_inline void braid_cost_end(enum braid_cost_ctr events, u64 t0)
{
	if (static_branch_unlikely(&braid_cost_key) && t0)
		braid_ctrs_count(braid_cost, events, events + 1, ktime_get_ns() - t0);
}

#endif /* _BRAID_DCO_COST_H_ */
