/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mptcp_upm.h - the userspace path manager's per-connection control
 * (mptcp_upm.c), for `mptcp-pm userspace` / net.mptcp.pm_type=1: the
 * daemon, not the kernel, decides each connection's subflows. It follows
 * the connections from the path manager's events (created, established,
 * closed: by token) and, for each connection it owns:
 *   - client: one subflow per configured path (MPTCP_PM_CMD_SUBFLOW_CREATE
 *     from the path's address, id = path index + 1, to the connection's
 *     remote address and port), except the path the initial subflow already
 *     uses; a path whose interface goes away gets its subflow destroyed
 *     (SUBFLOW_DESTROY), and re-created when the interface comes back;
 *   - gateway: every configured path's address announced (ANNOUNCE, signal)
 *     to the client, except the one the connection came in on.
 * A client owns the connection whose addresses are those of its socket
 * (braid_mptcp_upm_own); a gateway owns every server-side connection.
 */
#ifndef BRAID_MPTCP_UPM_H
#define BRAID_MPTCP_UPM_H

#include <stdbool.h>
#include <stdint.h>

#include "os/mptcp_pm.h"

#define BRAID_MPTCP_UPM_PATHS 16

struct braid_mptcp_upm;

/* pm stays the caller's. 0 or -ENOMEM. */
int braid_mptcp_upm_new(struct braid_mptcp_upm **out, struct braid_mptcp_pm *pm, bool server,
			uint16_t signal_port);
void braid_mptcp_upm_free(struct braid_mptcp_upm *u);
/*
 * Path i (< BRAID_MPTCP_UPM_PATHS, name for the log) is now at e (an
 * address, ifindex; backup), or gone (e NULL): subflows created, announced
 * or destroyed on every owned connection.
 */
void braid_mptcp_upm_path(struct braid_mptcp_upm *u, int i, const char *name,
			  const struct braid_mptcp_endp *e, bool backup);
/* A client's connection: the addresses and ports of its socket fd. 0 or -errno. */
int braid_mptcp_upm_own(struct braid_mptcp_upm *u, int fd);
/* A path manager event (m->cmd MPTCP_EVENT_*). */
void braid_mptcp_upm_event(struct braid_mptcp_upm *u, const struct braid_mptcp_pm_msg *m);

#endif /* BRAID_MPTCP_UPM_H */
