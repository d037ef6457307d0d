/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend_user.h - today's data-plane backend (backend_user.c): the
 * userspace multipath engine behind the ops of backend.h. A role picks a
 * backend by its ops table; the kernel module's will sit beside this one.
 */
#ifndef BRAID_BACKEND_USER_H
#define BRAID_BACKEND_USER_H

#include "dataplane/backend.h"

extern const struct braid_dp_ops braid_dp_user_ops;

#endif /* BRAID_BACKEND_USER_H */
