/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_types.h - the types the multipath data plane shares with its users:
 * the hooks it calls, its per-path and global counters. Includes nothing of
 * the mpath family, so that mpath.h and mpath_int.h both build on it.
 */
#ifndef BRAID_MPATH_TYPES_H
#define BRAID_MPATH_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mp/mp.h"
#include "os/sock.h"

struct braid_mpath;

struct braid_mpath_hooks {
	/* an authenticated payload that is not an engine message, in packet-id order */
	void (*deliver)(void *user, uint8_t *payload, size_t len);
	/* a packet authenticated (its source address) */
	void (*rx_auth)(void *user, const union braid_sockaddr *from);
	/* at least one datagram was sent */
	void (*tx)(void *user);
	void *user;
};

/* Per path, for the status file and SIGUSR2. */
struct braid_mpath_path_info {
	int index;			/* engine path index */
	char local[80], remote[80];	/* printable addresses */
	bool learned;			/* from an authenticated packet (not configured) */
	bool disabled;			/* taken out of use by the operator (path_enable) */
	char dev[16];			/* the local interface ("" unknown) */
	char route[72];			/* the kernel's route for the path ("" unchecked) */
	bool route_ok;			/* false: its packets would not leave through dev */
	unsigned int rebinds;		/* its socket re-bound after address changes */
	unsigned int bind_failures;	/* re-binds that failed (retried) */
	unsigned int route_warnings;	/* times its socket's route was found not to take dev */
	struct braid_mp_path_stats mp;
	uint64_t wire_tx_pkts, wire_tx_bytes;	/* datagrams incl. control, as sent */
	uint64_t wire_rx_pkts, wire_rx_bytes;	/* authenticated datagrams */
	uint64_t tx_errors;
	/*
	 * The last completed interval (mpath_stats.c, BRAID_MPATH_IV_S long; all
	 * 0 / -1 before the first one ends). The totals above (mp.tx_bytes, ...,
	 * wire_*) keep counting across a restart of the engine and across a path
	 * re-learned from the same peer address or the peer's same slot.
	 */
	double iv_s;			/* its length, seconds (0: none yet) */
	uint64_t iv_tx_bps, iv_rx_bps;	/* wire bits per second sent / received */
	uint32_t iv_share_pm;		/* this path's part of the data bytes sent and received, per mille */
	int32_t iv_loss_pm;		/* data packets lost / sent, per mille; -1: none sent */
	bool rtt_fresh;			/* mp.srtt_us is current: the path answered within the
					 * interval and is not failed or probing */
	int64_t last_rx_ms;		/* since its last authenticated datagram; -1: none yet */
};

/* The interval of the per-path rates and shares, seconds (the housekeeping tick). */
#define BRAID_MPATH_IV_S 1.0

struct braid_mpath_stats {
	uint64_t paths_learned;		/* paths added from authenticated packets */
	uint64_t paths_removed;		/* learned paths timed out or evicted */
	uint64_t learn_refused;		/* path table full */
	uint64_t tx_nopath, tx_nobufs;	/* TUN packets dropped by the engine */
	uint64_t tx_pool_empty, rx_pool_empty;
	uint64_t tx_seal_errors;
	uint64_t link_events;
	uint64_t rx_dup_copies;		/* authentic packets whose id had arrived already, dropped
					 * by the replay window (redundant copies, re-sends) */
	struct braid_mp_stats mp;
};

#endif /* BRAID_MPATH_TYPES_H */
