/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpsession.h - one multipath engine for one TLS session, as the TLS client
 * (client_mp.c) and the gateway per client (gateway_mp.c) hold it: the engine,
 * the stats it counts into, and the role's callbacks behind its hooks
 * (mpsession.c).
 */
#ifndef BRAID_MPSESSION_H
#define BRAID_MPSESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/mpath.h"
#include "dataplane/tunstats.h"

/* What the role does with the engine's events; user is the role's session. */
struct braid_mpsession_role {
	/* an authenticated payload that is not an engine message */
	void (*deliver)(void *user, uint8_t *payload, size_t len);
	/* rx: a packet authenticated; !rx: at least one datagram was sent */
	void (*activity)(void *user, bool rx);
	/* optional: a packet from `from` authenticated (before activity(rx)) */
	void (*rx_auth)(void *user, const union braid_sockaddr *from);
	void *user;
};

/* The first member of the role's holder struct. */
struct braid_mpsession {
	struct braid_tunnel_stats st;
	struct braid_mpath *m;
	struct braid_mpsession_role role;
};

/* Opens the engine into s->m, counting into s->st, with hooks h. 0 or -errno. */
typedef int (*braid_mpsession_open_fn)(struct braid_mpsession *s,
				       const struct braid_mpath_hooks *h);

/*
 * Allocate a zeroed holder of size bytes (>= sizeof(struct braid_mpsession),
 * beginning with one), set its role and open its engine with open: 0 and
 * *out, or -errno (-EINVAL for a size too small, -ENOMEM, open's error),
 * nothing left allocated.
 */
int braid_mpsession_start(void **out, size_t size, const struct braid_mpsession_role *role,
			  braid_mpsession_open_fn open);

/* Free s's engine and the holder s begins. NULL is fine. */
void braid_mpsession_free(struct braid_mpsession *s);

#endif
