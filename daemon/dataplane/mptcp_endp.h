/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mptcp_endp.h - the daemon's MPTCP path management (mptcp_endp.c): for
 * each `mp-path IFNAME|ADDRESS` of an MPTCP-transport configuration, an
 * endpoint of the kernel's in-kernel path manager (os/mptcp_pm.h) on the
 * interface's address: `subflow` on a client (it opens a subflow from
 * there), `signal` on a gateway (it announces the address to its clients),
 * `backup` from mp-backup. The limits (subflows, add_addr_accepted) are
 * raised to the number of paths when lower. Link and address changes
 * (rtnetlink, os/linkmon.h) move, remove and re-add the endpoints, so the
 * kernel adds and closes the subflows. On stop the endpoints this daemon
 * created are deleted (only those: one that existed before is left as it
 * is) and the limits it raised are restored.
 *
 * It also follows the path manager's events (subflows of the paths coming
 * and going, logged) and loads the eBPF subflow actors (os/mptcp_bpf.h):
 * per path a mark, the mp-cap pacing cap and the `mp-scheduler ratio`
 * weight; when they cannot be loaded a warning says so and the kernel's
 * scheduler alone decides.
 *
 * With the userspace path manager (`mptcp-pm userspace` or the namespace's
 * net.mptcp.pm_type=1) there are no endpoints and no limits: braidd opens
 * (client) or announces (gateway) each connection's paths itself
 * (mptcp_upm.h), following the same link and address changes.
 *
 * The path manager's rules are per network namespace: two braidd in one
 * namespace share them.
 */
#ifndef BRAID_MPTCP_ENDP_H
#define BRAID_MPTCP_ENDP_H

#include <ev.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/options.h"
#include "os/mptcp_pm.h"

struct braid_mptcp_endps;

/*
 * Start when o->mptcp_paths and o has mp-path lines (else *out = NULL and 0;
 * a gateway without mp-path lines: the path manager's events only, for its
 * clients' MP_PRIO in the status, nothing else changed in the namespace).
 * signal_port (a gateway whose listener is bound to one address): the
 * signal endpoints carry it, so the kernel listens there for the joins (a
 * listener on the wildcard address takes them itself: 0).
 * Problems with the path manager (no CAP_NET_ADMIN, no MPTCP) are logged
 * and leave *out NULL: the transport still works with whatever endpoints
 * the host has. 0 or -ENOMEM.
 */
int braid_mptcp_endps_start(struct braid_mptcp_endps **out, struct ev_loop *loop,
			    const struct braid_options *o, bool server, uint16_t signal_port);
/* Delete our endpoints, restore the limits, free (NULL is fine). */
void braid_mptcp_endps_stop(struct braid_mptcp_endps *e);
/* A client's connected MPTCP socket: its connection is ours (userspace path manager). 0 or -errno. */
int braid_mptcp_endps_own(struct braid_mptcp_endps *e, int fd);

/* A configured path's subflow as the path manager's events left it. */
#define BRAID_MPTCP_PATH_NONE 0		/* no event yet */
#define BRAID_MPTCP_PATH_UP 1		/* established (or priority changed) */
#define BRAID_MPTCP_PATH_CLOSED 2	/* its last subflow closed */

struct braid_mptcp_path_state {
	char name[64];			/* the mp-path line's interface or address */
	bool have;			/* the interface is up with an address */
	struct braid_mptcp_endp addr;	/* that address */
	int state;			/* BRAID_MPTCP_PATH_* */
	bool backup;
	struct braid_mptcp_endp sub_local, sub_remote;	/* the last subflow's */
};

/* The configured paths of this process's MPTCP path management: up to max, how many. */
int braid_mptcp_endps_paths(struct braid_mptcp_path_state *out, int max);

#endif /* BRAID_MPTCP_ENDP_H */
