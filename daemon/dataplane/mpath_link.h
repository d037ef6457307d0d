/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_link.h - link events and timers of the multipath data plane
 * (mpath_link.c), internal to the mpath files.
 */
#ifndef BRAID_MPATH_LINK_H
#define BRAID_MPATH_LINK_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/mpath_int.h"

/* Ask the link monitor about every bound local address; changes become engine link events. */
void mpath_link_scan(struct braid_mpath *m, bool log_all);
/* The rtnetlink socket is readable. */
void mpath_nl_cb(struct ev_loop *loop, ev_io *w, int revents);
/* The housekeeping timer (HOUSEKEEP_S). */
void mpath_housekeep_cb(struct ev_loop *loop, ev_timer *w, int revents);

#endif /* BRAID_MPATH_LINK_H */
