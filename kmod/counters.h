/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Module-wide created/destroyed balance of every object braid_dco allocates, and the count of
 * rejected netlink requests. The VM tests read them through BRAID_DCO_CMD_STATS_GET and the unload
 * summary.
 */
#ifndef _BRAID_DCO_COUNTERS_H_
#define _BRAID_DCO_COUNTERS_H_

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * enum braid_obj - the kinds of objects whose lifetime is balanced
 * @BRAID_OBJ_DEV: a braid_dco net device
 * @BRAID_OBJ_PEER: a peer
 * @BRAID_OBJ_PATH: a path (a UDP socket reference plus its endpoints)
 * @BRAID_OBJ_KEY: a key slot (two AEAD transforms)
 * @BRAID_OBJ_NR: number of kinds
 */
enum braid_obj {
	BRAID_OBJ_DEV,
	BRAID_OBJ_PEER,
	BRAID_OBJ_PATH,
	BRAID_OBJ_KEY,
	BRAID_OBJ_NR,
};

void braid_obj_created(enum braid_obj kind);
void braid_obj_destroyed(enum braid_obj kind);
u64 braid_obj_count(enum braid_obj kind, bool destroyed);
void braid_rejected_inc(void);
u64 braid_rejected_count(void);
bool braid_counters_balanced(void);
void braid_counters_report(void);

#endif /* _BRAID_DCO_COUNTERS_H_ */
