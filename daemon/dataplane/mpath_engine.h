/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_engine.h - the engine of the multipath data plane on the loop
 * (mpath_engine.c), internal to the mpath files.
 */
#ifndef BRAID_MPATH_ENGINE_H
#define BRAID_MPATH_ENGINE_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/mpath_int.h"

/* The engine packet-id of a data-channel (key_id, packet-id). */
uint64_t mpath_engine_pid(struct braid_mpath *m, unsigned kid, uint32_t pid);
/* A new engine with the scheduler in use and the configured paths. 0 or -errno (logged). */
int mpath_engine_create(struct braid_mpath *m);
/*
 * A new engine on the same data channel (the session restarted, or the peer
 * did: a static-key peer's new packet-id sequence): the old one's queues,
 * reorder buffer and learned paths go; configured paths stay. 0 or -errno.
 */
int mpath_engine_renew(struct braid_mpath *m);
/* The engine timer. */
void mpath_engine_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* Run the engine: everything due goes out, everything ready goes to the TUN, timer re-armed. */
void mpath_pump(struct braid_mpath *m);
/* Queue one plaintext payload in buffer b (at b->d + ov, b->len). Consumes b. 0 or -errno. */
int mpath_enqueue(struct braid_mpath *m, struct tbuf *b, unsigned int meta);

#endif /* BRAID_MPATH_ENGINE_H */
