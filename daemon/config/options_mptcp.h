/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_mptcp.h - the MPTCP transport's directives (`mptcp`, `sndbuf`,
 * `rcvbuf`) and their checks (options_mptcp.c); internal to the options
 * parser.
 */
#ifndef BRAID_OPTIONS_MPTCP_H
#define BRAID_OPTIONS_MPTCP_H

#include <stddef.h>

#include "config/options_int.h"

int opt_mptcp(struct ctx *c, int argc, char **argv);
/* `mptcp-pm kernel|userspace`: which MPTCP path manager drives the connections (mptcp_endp.h). */
int opt_mptcp_pm(struct ctx *c, int argc, char **argv);
int opt_sockbuf(struct ctx *c, int argc, char **argv);

/*
 * With `mptcp on|auto` over TCP (tcp-client with every remote TCP, or
 * tcp-server) the mp-path lines name the MPTCP endpoints (an interface or a
 * local address, no remote, not `auto`); mp-backup is folded in, mp-cap is
 * refused (not applied to subflows yet). Sets o->mptcp_paths. Braid's UDP
 * multipath is then not negotiated (opt_finalize_mp_tls leaves it off).
 * `mptcp on` without any TCP transport is refused. 0 or -EINVAL (err).
 */
int opt_finalize_mptcp(struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_MPTCP_H */
