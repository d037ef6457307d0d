/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-packet path choice of a device: an attached BPF program (BPF_PROG_TYPE_SCHED_CLS, run
 * on the inner packet; its return value names the path) or the built-in round robin, with the
 * per-device counters of program runs, fallbacks to the built-in choice and redundant copies.
 */
#ifndef _BRAID_DCO_SCHED_H_
#define _BRAID_DCO_SCHED_H_

#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct bpf_prog;
struct braid_dev;
struct braid_path;
struct braid_peer;
struct sk_buff;

/* a program's result: bits 0-7 the path id, bits 8-15 one plus the id of a copy's path (0: none) */
#define BRAID_SCHED_PATH_MASK 0xff
#define BRAID_SCHED_COPY_SHIFT 8

/**
 * struct braid_sched - the scheduler state of a device
 * @prog: the attached program or NULL (built-in round robin); written under the device's lock
 *        with rcu_replace_pointer(), read under RCU by transmit
 * @runs: packets the program ran on
 * @fallbacks: runs whose result named no usable path (negative, out of range or an empty path
 *             id): those packets went the built-in way
 * @copies: redundant copies sent on the path a program named in bits 8-15
 */
struct braid_sched {
	struct bpf_prog __rcu *prog;
	atomic64_t runs;
	atomic64_t fallbacks;
	atomic64_t copies;
};

struct braid_path *braid_sched_pick(struct braid_dev *bdev, struct braid_peer *peer,
				    struct sk_buff *skb, struct braid_path **copy);
struct braid_path *braid_sched_builtin(struct braid_peer *peer);
int braid_sched_attach(struct braid_dev *bdev, struct bpf_prog *prog);
int braid_sched_detach(struct braid_dev *bdev);
void braid_sched_release(struct braid_dev *bdev);
u32 braid_sched_prog_id(struct braid_dev *bdev);

#endif /* _BRAID_DCO_SCHED_H_ */
