/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_weight.h - ratio weights bound to path names in the multipath data
 * plane (mpath_weight.c), internal to the mpath files; the public setter
 * braid_mpath_set_weight() (mpath.h) is mpath_weight_set() and a pump.
 */
#ifndef BRAID_MPATH_WEIGHT_H
#define BRAID_MPATH_WEIGHT_H

#include "dataplane/mpath_int.h"

/*
 * Put the scheduler spec into effect on the current engine: the named form
 * ("ratio wlan0=3 lte0=1") keeps its table in m->wn and gives each path its
 * name's weight; any other spec clears the table and the paths' own
 * weights. 0 or -EINVAL (spec malformed) / the engine's error.
 */
int mpath_weight_sched(struct braid_mpath *m, const char *spec);
/* Engine path i was just added (or re-added after a restart): its name's weight. */
void mpath_weight_apply(struct braid_mpath *m, int i);
/* braid_mpath_set_weight() without the pump (mpath.h says what it does). */
int mpath_weight_set(struct braid_mpath *m, const char *path, uint32_t weight);
/* The name path i answers to for weights: interface, or its mp-path LOCAL. */
const char *mpath_weight_name(const struct braid_mpath *m, int i);

#endif /* BRAID_MPATH_WEIGHT_H */
