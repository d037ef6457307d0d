/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend_sp.h - the single-path userspace data-plane backend
 * (backend_sp.c): stock OpenVPN's data channel for one peer over the role's
 * own link (UDP socket or TCP stream), behind the ops of backend.h. The
 * role keeps its socket and hands sealed packets out through role->xmit;
 * the kernel module's single-path offload will sit beside it.
 */
#ifndef BRAID_BACKEND_SP_H
#define BRAID_BACKEND_SP_H

#include "dataplane/backend.h"

extern const struct braid_dp_ops braid_dp_sp_ops;

#endif /* BRAID_BACKEND_SP_H */
