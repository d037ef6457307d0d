/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The contract between braid_dco's path scheduler programs (sched.bpf.c, or an operator's own) and
 * the userspace that configures them (braid-sched-attach, braidd): the chain table, the per-path
 * table the daemon publishes, and the return value the module reads. Included by BPF C and by C.
 */
#ifndef BRAID_BPF_SCHED_H
#define BRAID_BPF_SCHED_H

#define BRAID_SCHED_STEPS 16 /* steps of a chain: prog array slots and chain table entries */
#define BRAID_SCHED_PATHS 8 /* path ids 0..7, as the module's paths-max */
#define BRAID_SCHED_END 0xffffffffu /* "no further step": the chain ends with the default (-1) */
#define BRAID_SCHED_DEFAULT (-1) /* a result naming no path: the module's round robin */
#define BRAID_SCHED_COPY_SHIFT 8 /* result bits 8-15: 1 + the path id of a redundant copy */
#define BRAID_SCHED_CB_STEP 0 /* __sk_buff cb[] slot holding the running step */

/*
 * One step of a chain (map braid_sched_chain, key = step number; the program running the step is
 * braid_sched_progs[step]). A selector goes to @next when its match holds and to @miss otherwise;
 * an actor returns a path, or goes to @next when it cannot choose (no usable path).
 */
struct braid_sched_step {
	__u32 next;
	__u32 miss;
	__u32 saddr, smask; /* sel_tuple: inner IPv4 source/destination, network order; mask 0: any */
	__u32 daddr, dmask;
	__u16 sport, dport; /* sel_tuple: host order, 0: any (TCP and UDP) */
	__u8 proto; /* sel_tuple: IP protocol, 0: any */
	__u8 dscp; /* sel_dscp: the DSCP (0..63) that matches */
	__u16 len_min; /* sel_len: inner IP length, inclusive bounds */
	__u16 len_max;
	__u16 pad;
	__u32 mark, mark_mask; /* sel_mark: (skb->mark & mark_mask) == mark */
	__u32 paths; /* actors: bit mask of the path ids to choose among (0: all) */
	__u32 backup; /* act_backup: mask of backup paths; act_redundant: the copy's path id */
};

#define BRAID_SCHED_PATH_UP 1u

/* one path as the daemon publishes it (map braid_sched_paths, key = path id) */
struct braid_sched_path {
	__u32 weight; /* act_weighted: share, 0 = never */
	__u32 rtt_us; /* act_lowrtt: smoothed RTT, 0 = unknown */
	__u32 flags; /* BRAID_SCHED_PATH_UP: the path carries traffic (probes answered) */
	__u32 pad;
};

#endif /* BRAID_BPF_SCHED_H */
