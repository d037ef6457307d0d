/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend_kmod.h - the kernel data-plane backend (backend_kmod.c): a
 * session's data channel in the braid_dco module, behind the seam of
 * backend.h. cfg->dco_ifindex names the device (dco_dev.h), cfg->dco_peer_id
 * the server's peer id; with cfg->shared_fd the role's socket is the one path
 * (connected to cfg->dco_remote, read by the role, the module's hand-ups
 * given to input()), without it one socket per `mp-path` of cfg->o.
 */
#ifndef BRAID_DP_BACKEND_KMOD_H
#define BRAID_DP_BACKEND_KMOD_H

#include "dataplane/backend.h"
#include "dataplane/dco_nl.h"

extern const struct braid_dp_ops braid_dp_kmod_ops;

/* What userspace did for the kernel's data path (status lines). */
struct braid_dp_kmod_ctl {
	uint64_t challenges, probes, mtu_probes;	/* the peer's multipath messages answered */
	uint64_t mp_other;		/* other multipath messages (counted, no answer) */
	uint64_t up_bad;		/* opcode-31 datagrams that did not parse */
	uint64_t nl_errors;		/* PACKET_SEND / PEER_GET refused */
	int primary_key_id, secondary_key_id;	/* the kernel's slots, -1 empty */
	uint64_t ctl_tx, ctl_rx;	/* the module's control payload counters */
	struct braid_dco_cost cost;	/* STATS_GET (module-wide; present false: not available) */
};

/* dp is a kernel backend's handle. */
bool braid_dp_is_kmod(const struct braid_dp *dp);
/* PEER_GET now (the poll does it each second): 0 or -errno. */
int braid_dp_kmod_refresh(struct braid_dp *dp);
void braid_dp_kmod_ctl_stats(const struct braid_dp *dp, struct braid_dp_kmod_ctl *out);

#endif /* BRAID_DP_BACKEND_KMOD_H */
