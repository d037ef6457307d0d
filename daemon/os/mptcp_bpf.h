/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mptcp_bpf.h - braidd's MPTCP subflow actors (bpf/mptcp_sockops.bpf.c)
 * loaded through the libbpf skeleton and attached (a bpf_link) to braidd's
 * own cgroup v2; per path (its local address) the program's map gets a slot,
 * a split weight, a mark and a pacing cap (docs/braidd.md "MPTCP"). Detached
 * and freed on stop. Without the skeleton at build time, or when the kernel
 * refuses (no CAP_BPF / CAP_NET_ADMIN, no BTF, no cgroup v2), start returns
 * the -errno and the caller logs the fallback: the kernel's scheduler alone.
 */
#ifndef BRAID_MPTCP_BPF_H
#define BRAID_MPTCP_BPF_H

#include <stdint.h>

#include "os/mptcp_pm.h"

/* The SO_MARK of path slot i's subflows: BRAID_MPTCP_MARK_BASE + i + 1. */
#define BRAID_MPTCP_MARK_BASE 0xb7a10000u
#define BRAID_MPTCP_BPF_SLOTS 8

struct braid_mptcp_bpf;

/* Load, attach to this process's cgroup. 0 and *out, or -errno (*why: what failed). */
int braid_mptcp_bpf_start(struct braid_mptcp_bpf **out, const char **why);
/* Path slot (< BRAID_MPTCP_BPF_SLOTS) is at local address a (family, addr): its
 * split weight (0 none), pacing cap in bytes/s (0 none). 0 or -errno. */
int braid_mptcp_bpf_set_path(struct braid_mptcp_bpf *b, const struct braid_mptcp_endp *a,
			     uint32_t slot, uint32_t weight, uint32_t cap_Bps);
/* Forget the path at address a. */
void braid_mptcp_bpf_del_path(struct braid_mptcp_bpf *b, const struct braid_mptcp_endp *a);
/* Times a subflow was throttled for being ahead of its share (all connections). */
uint64_t braid_mptcp_bpf_throttles(struct braid_mptcp_bpf *b);
/* Detach and free (NULL is fine). */
void braid_mptcp_bpf_stop(struct braid_mptcp_bpf *b);

#endif /* BRAID_MPTCP_BPF_H */
