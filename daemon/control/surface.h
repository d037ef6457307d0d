/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * surface.h - the control surface: what a running braidd lets an operator
 * see and steer, the same for its three roles (static-key tunnel, TLS
 * client, gateway) and for every front end (the control socket today,
 * the management interface next).
 *
 *   status            the role's JSON object (one line)
 *   paths [CLIENT]    the path table as JSON (a gateway: of one client)
 *   clients           a gateway's clients as JSON
 *   kill CLIENT       a gateway removes a client (by CN or client ID)
 *   set [client CLIENT] scheduler SCHED | path PATH ACTION
 *
 * A role fills a struct braid_control_ops; an operation a role does not
 * have is NULL and answered "not ... here" by the front end. The helpers
 * below do the engine side of `set`, the same for every role.
 */
#ifndef BRAID_SURFACE_H
#define BRAID_SURFACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "control/ctlproto.h"
#include "dataplane/backend.h"

struct braid_control_ops {
	/* write the status JSON object (one line) to f */
	void (*status)(void *user, FILE *f);
	/* the remaining ones: 0, or -errno with a reason in err */
	int (*set_sched)(void *user, const char *spec, char *err, size_t errlen);
	int (*set_path)(void *user, const char *path, enum braid_ctl_path_op op, uint64_t cap_bps,
			char *err, size_t errlen);
	const char *version;	/* daemon version string, e.g. "0.1.0" */
	void *user;

	/* optional (NULL: the role has no such thing) */
	/* one JSON line {"paths":[...]}; client: a gateway's client (CN or ID), or NULL */
	int (*paths)(void *user, const char *client, FILE *f, char *err, size_t errlen);
	/* one JSON line {"clients":[...]} (gateway) */
	int (*clients)(void *user, FILE *f, char *err, size_t errlen);
	/* remove the clients named (CN: every one with it; ID: that one); *n gets how many */
	int (*kill)(void *user, const char *client, unsigned *n, char *err, size_t errlen);
	/* set on a gateway client's session: exactly one client must match */
	int (*client_set_sched)(void *user, const char *client, const char *spec, char *err,
				size_t errlen);
	int (*client_set_path)(void *user, const char *client, const char *path,
			       enum braid_ctl_path_op op, uint64_t cap_bps, char *err,
			       size_t errlen);
};

/*
 * `set scheduler` / `set path` on a session's data path through the ops of
 * dataplane/backend.h (dp may be NULL: "not in multipath mode"). PATH is a
 * path index, a local address or an interface name (every matching path). 0 or -errno with the reason in err;
 * the change is logged with prefix (e.g. "control" or "control: client x").
 */
int braid_surface_set_sched(struct braid_dp *dp, const char *prefix, const char *spec,
			    char *err, size_t errlen);
int braid_surface_set_path(struct braid_dp *dp, const char *prefix, const char *path,
			   enum braid_ctl_path_op op, uint64_t cap_bps, char *err, size_t errlen);

#endif /* BRAID_SURFACE_H */
