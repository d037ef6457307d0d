/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mptcp_prio.h - each MPTCP subflow's backup flags as the daemon knows them
 * (mptcp_prio.c), for the status: what this side asked (SET_FLAGS: MP_PRIO
 * sent by braidd) and what the peer asked (the path manager's events:
 * sub-established and sub-priority carry the subflow's backup attribute).
 * Subflows are keyed by the connection's token and their local and remote
 * addresses and ports; a closed subflow or connection is forgotten. The
 * table is the process's (bounded, oldest entry reused when full) and
 * locked: the status may be read from another thread than the events.
 */
#ifndef BRAID_MPTCP_PRIO_H
#define BRAID_MPTCP_PRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "os/mptcp_pm.h"

#define BRAID_MPTCP_PRIO_MAX 256	/* subflows remembered */

/* A path manager event (sub-established / sub-priority / sub-closed / closed); others ignored. */
void braid_mptcp_prio_event(const struct braid_mptcp_pm_msg *m);
/* This side asked the subflow (l, r: addresses and ports) of token to be backup or not. */
void braid_mptcp_prio_set(uint32_t token, const struct braid_mptcp_endp *l,
			  const struct braid_mptcp_endp *r, bool backup);
/*
 * What is known of the subflow l -> r (addresses and ports): *loc this
 * side's request, *rem the peer's (each 1 backup, 0 not, -1 unknown).
 * 0, or -ENOENT (nothing known: both -1).
 */
int braid_mptcp_prio_get(const struct braid_mptcp_endp *l, const struct braid_mptcp_endp *r,
			 int *loc, int *rem);
/* Forget everything (path management stopped). */
void braid_mptcp_prio_clear(void);

#endif /* BRAID_MPTCP_PRIO_H */
