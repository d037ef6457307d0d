/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-packet path choice of a device: an attached BPF program (BPF_PROG_TYPE_SCHED_CLS, run
 * on the inner packet; its return value names the path) or the built-in round robin, with the
 * per-device per-CPU counters of program runs, fallbacks to the built-in choice, redundant copies
 * and packets re-sent on another path after a failed send.
 */
#ifndef _BRAID_DCO_SCHED_H_
#define _BRAID_DCO_SCHED_H_

#include <linux/rcupdate.h>
#include <linux/types.h>

#include "pcpu.h"

struct bpf_prog;
struct braid_dev;
struct braid_path;
struct braid_peer;
struct sk_buff;

/* a program's result: bits 0-7 the path id, bits 8-15 one plus the id of a copy's path (0: none) */
#define BRAID_SCHED_PATH_MASK 0xff
#define BRAID_SCHED_COPY_SHIFT 8

/**
 * enum braid_sched_ctr - the scheduler's per-CPU counters (struct braid_ctrs indices)
 * @BRAID_SCHED_RUNS: packets the program ran on
 * @BRAID_SCHED_FALLBACKS: runs whose result named no usable path (negative, out of range or an
 *                         empty path id): those packets went the built-in way
 * @BRAID_SCHED_COPIES: redundant copies sent on the path a program named in bits 8-15
 * @BRAID_SCHED_REROUTES: packets whose send on the chosen path failed, sent on another path
 * @BRAID_SCHED_NR: number of counters
 */
enum braid_sched_ctr {
	BRAID_SCHED_RUNS,
	BRAID_SCHED_FALLBACKS,
	BRAID_SCHED_COPIES,
	BRAID_SCHED_REROUTES,
	BRAID_SCHED_NR,
};

/**
 * struct braid_sched - the scheduler state of a device
 * @prog: the attached program or NULL (built-in round robin); written under the device's lock
 *        with rcu_replace_pointer(), read under RCU by transmit
 * @stats: per-CPU counters, indexed by enum braid_sched_ctr (each CPU writes its own copy: no
 *         cache line shared between CPUs is written per packet)
 */
struct braid_sched {
	struct bpf_prog __rcu *prog;
	struct braid_ctrs __percpu *stats;
};

/**
 * braid_sched_count() - count one scheduler event on this CPU
 * @bdev_sched: the device's scheduler state
 * @ctr: which counter
 */
static inline void braid_sched_count(struct braid_sched *bdev_sched, enum braid_sched_ctr ctr)
{
	braid_ctrs_count(bdev_sched->stats, ctr, -1, 0);
}

struct braid_path *braid_sched_pick(struct braid_dev *bdev, struct braid_peer *peer,
				    struct sk_buff *skb, struct braid_path **copy);
struct braid_path *braid_sched_builtin(struct braid_peer *peer);
int braid_sched_init(struct braid_dev *bdev);
int braid_sched_attach(struct braid_dev *bdev, struct bpf_prog *prog);
int braid_sched_detach(struct braid_dev *bdev);
void braid_sched_release(struct braid_dev *bdev);
u32 braid_sched_prog_id(struct braid_dev *bdev);

#endif /* _BRAID_DCO_SCHED_H_ */
