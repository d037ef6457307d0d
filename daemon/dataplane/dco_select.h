/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_select.h - the `dco auto|on|off` choice of the data plane at start:
 * whether the kernel module kmod/braid_dco is loaded (its generic netlink
 * family resolves) and which backend braidd runs ("dco" or "userspace", the
 * status field `backend`). A fallback is said in one log line naming why.
 */
#ifndef BRAID_DCO_SELECT_H
#define BRAID_DCO_SELECT_H

#include "config/options.h"

/*
 * braid_dco_probe() - resolve the braid_dco generic netlink family: 0 (the
 * module is loaded), -ENOENT (it is not) or another -errno (netlink failed).
 */
int braid_dco_probe(void);

/*
 * braid_dco_select() - choose the backend for o->dco and log the choice:
 * 0 (the backend is chosen; braid_dco_backend() names it) or -errno when
 * `dco on` cannot be honoured (the error is logged; braidd must not start).
 */
int braid_dco_select(const struct braid_options *o);

/* What in o the kernel backend cannot carry (an option or role, for the log line), or NULL. */
const char *braid_dco_unsupported(const struct braid_options *o);

/* The backend braid_dco_select() chose: "dco" or "userspace" (before it: "userspace"). */
const char *braid_dco_backend(void);

#endif /* BRAID_DCO_SELECT_H */
