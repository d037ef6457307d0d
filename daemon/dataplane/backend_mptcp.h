/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend_mptcp.h - the MPTCP transport behind the data-plane seam
 * (backend_mptcp.c): the session's data channel as in the single-path
 * backend (sealed and opened in user space, OpenVPN's TCP framing by the
 * role), over one stream socket that is kernel MPTCP; its paths are the
 * connection's subflows, read from the kernel (os/mptcp.h telemetry), so
 * status, the management interface and braidctl show them as paths.
 */
#ifndef BRAID_BACKEND_MPTCP_H
#define BRAID_BACKEND_MPTCP_H

#include <stdbool.h>

#include "dataplane/backend.h"

/* cfg->shared_fd is the connected stream socket (MPTCP, or TCP after a fallback). */
extern const struct braid_dp_ops braid_dp_mptcp_ops;

/* Whether dp is an MPTCP-transport handle (then its paths are subflows). */
static inline bool braid_dp_is_mptcp(const struct braid_dp *dp)
{
	return dp && dp->ops == &braid_dp_mptcp_ops;
}

#endif /* BRAID_BACKEND_MPTCP_H */
