/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_probe.h - probes and the per-path MTU search (mp_probe.c), called by
 * the timers and the transmit side. braid_mp_ctl_sent is declared in mp.h.
 */
#ifndef BRAID_MP_PROBE_H
#define BRAID_MP_PROBE_H

#include <stdint.h>

#include "mp_int.h"

/* Send a PROBE on path i now (with a pending PATH_STATUS repeat). */
void mp_probe_send(struct braid_mp *mp, int i, uint64_t now);
/* The MTU probe timeout of path p (us). */
uint64_t mp_probe_pmtu_pto(const struct mp_path *p);
/* Path i's MTU search: send a due probe, handle a timeout. */
void mp_probe_pmtu_timers(struct braid_mp *mp, int i, uint64_t now);
/* A confirmation probe is out and the path answers small probes: the
 * silence of big packets is being checked, not a cut. Bounded by the time
 * the confirmations take. */
int mp_probe_pmtu_holds(const struct braid_mp *mp, const struct mp_path *p, uint64_t now);
/* Idle time after which path p restarts from its initial pacing (us). */
uint64_t mp_probe_restart_idle(const struct mp_path *p);
/* Time between probes on path p now (us). */
uint64_t mp_probe_interval(const struct braid_mp *mp, const struct mp_path *p, uint64_t now);

#endif /* BRAID_MP_PROBE_H */
