// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctlops.c - the control surface of the static-key tunnel (see ctlops.h).
 */
#include "control/ctlops.h"

#include <errno.h>
#include <string.h>

#include "control/status.h"

static void op_status(void *user, FILE *f)
{
	struct braid_ctlops *c = user;

	braid_status_json(f, c->st, c->dp, c->up && *c->up);
}

static int op_paths(void *user, const char *client, FILE *f, char *err, size_t errlen)
{
	struct braid_ctlops *c = user;

	if (client) {
		snprintf(err, errlen, "paths: no clients here (not a gateway)");
		return -EOPNOTSUPP;
	}
	fputs("{\"paths\":", f);
	braid_status_paths_json(f, c->dp);
	fputs("}\n", f);
	return 0;
}

static int op_set_sched(void *user, const char *spec, char *err, size_t errlen)
{
	struct braid_ctlops *c = user;

	return braid_surface_set_sched(c->dp, "control", spec, err, errlen);
}

static int op_set_path(void *user, const char *path, enum braid_ctl_path_op op, uint64_t cap,
		       char *err, size_t errlen)
{
	struct braid_ctlops *c = user;

	return braid_surface_set_path(c->dp, "control", path, op, cap, err, errlen);
}

void braid_ctlops_init(struct braid_control_ops *ops, struct braid_ctlops *ctx,
		       const char *version)
{
	memset(ops, 0, sizeof(*ops));
	ops->status = op_status;
	ops->paths = op_paths;
	ops->set_sched = op_set_sched;
	ops->set_path = op_set_path;
	ops->version = version;
	ops->user = ctx;
}
