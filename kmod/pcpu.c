// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU counter sets (pcpu.h): allocation, and the sum a netlink reader reports.
 */
#include <linux/cpumask.h>
#include <linux/string.h>

#include "pcpu.h"

/**
 * braid_ctrs_alloc() - allocate a zeroed counter set, one copy per possible CPU
 * @gfp: allocation flags
 *
 * Return: the set (free_percpu() frees it), or NULL
 */
struct braid_ctrs __percpu *braid_ctrs_alloc(gfp_t gfp)
{
	struct braid_ctrs __percpu *c = alloc_percpu_gfp(struct braid_ctrs, gfp);
	int cpu;

	if (!c)
		return NULL;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(c, cpu)->syncp);
	return c;
}

/**
 * braid_ctrs_sum() - the counters of a set summed over every CPU
 * @c: the set
 * @out: the sums, @n of them
 * @n: how many counters to read (at most BRAID_CTRS_MAX)
 *
 * Each CPU's copy is read consistently; copies of different CPUs are read one after another, so
 * a pair (events, sum) may be a packet apart while traffic flows and is exact when it has stopped.
 */
void braid_ctrs_sum(const struct braid_ctrs __percpu *c, u64 *out, unsigned int n)
{
	u64 v[BRAID_CTRS_MAX];
	unsigned int start, i;
	int cpu;

	n = min_t(unsigned int, n, BRAID_CTRS_MAX);
	memset(out, 0, n * sizeof(*out));
	for_each_possible_cpu(cpu) {
		const struct braid_ctrs *s = per_cpu_ptr(c, cpu);

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < n; i++)
				v[i] = u64_stats_read(&s->v[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < n; i++)
			out[i] += v[i];
	}
}
