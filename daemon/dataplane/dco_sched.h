/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_sched.h - the `dco-scheduler FILE [STEP ...]` path scheduler (dco_sched.c, docs/bpf-sched.md):
 * braidd loads the eBPF object at start (as root), configures its chain from the steps, attaches its
 * entry to the session's braid_dco device (PROG_ATTACH) and publishes each path's state into the
 * object's braid_sched_paths map: up (its probes are answered, dco_live.h), the probes' rtt and a
 * weight. The object stays open for the daemon's life, so the chain needs no pinning.
 */
#ifndef BRAID_DP_DCO_SCHED_H
#define BRAID_DP_DCO_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "config/options.h"

/* Load o->dco_sched_file with its steps (a no-op without one). 0, or -errno logged with the reason. */
int braid_dco_sched_load(const struct braid_options *o);
/* The loaded entry program's fd, -1 when none is loaded. */
int braid_dco_sched_prog_fd(void);
/* The entry's name and the object's file, for the log ("" when none). */
const char *braid_dco_sched_desc(void);
/* Path id's state for the program (no-op without a loaded object). 0 or -errno. */
int braid_dco_sched_publish(unsigned int id, uint32_t weight, uint32_t rtt_us, bool up);
void braid_dco_sched_unload(void);

#endif /* BRAID_DP_DCO_SCHED_H */
