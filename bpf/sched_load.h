/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched_load.h - load a braid_dco path scheduler object and configure its chain (sched_load.c), for
 * braid-sched-attach and for braidd's `dco-scheduler` (docs/bpf-sched.md). A step is written
 * PROG[:key=val,...]; keys: next miss proto dscp sport dport lmin lmax src dst (A.B.C.D/N) mark mask
 * paths (ids, '+'-separated) backup.
 */
#ifndef BRAID_BPF_SCHED_LOAD_H
#define BRAID_BPF_SCHED_LOAD_H

#include <linux/types.h>
#include <stddef.h>

#include "braid_sched.h"

struct bpf_object;

/* "PROG:key=val,..." -> the program's name (in name, cap bytes) and the step; 0 or -EINVAL */
int braid_sched_step_parse(const char *arg, char *name, size_t cap, struct braid_sched_step *st);

/*
 * braid_sched_load() - open and load the object at path, then make steps[0..n) the chain (step i runs
 * the program its name gives, configured by its keys; the object needs braid_sched_progs and
 * braid_sched_chain for n > 0). On success *out holds the loaded object (bpf_object__close() frees
 * it; the chain lives while it is open or its maps are pinned) and *entry_fd the program entry's fd.
 * Returns 0 or -errno with the reason in err.
 */
int braid_sched_load(const char *path, const char *entry, char *const *steps, int n,
		     struct bpf_object **out, int *entry_fd, char *err, size_t errlen);

/* the fd of the object's braid_sched_paths map (struct braid_sched_path by path id), or -ENOENT */
int braid_sched_paths_fd(struct bpf_object *obj);

#endif /* BRAID_BPF_SCHED_LOAD_H */
