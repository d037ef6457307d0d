/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The braid_dco virtual net device: one per tunnel, created through rtnetlink
 * (`ip link add NAME type braid_dco`), point-to-point (one peer) or multi-peer.
 */
#ifndef _BRAID_DCO_DEVICE_H_
#define _BRAID_DCO_DEVICE_H_

#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#include "sched.h"

#define BRAID_PEER_HASH_BITS 8

/**
 * struct braid_dev - private data of a braid_dco net device
 * @dev: the net device
 * @mode: BRAID_DCO_MODE_P2P (at most one peer) or BRAID_DCO_MODE_MP
 * @lock: serialises every configuration change (peers, paths, keys) of this device
 * @dead: set by dellink under @lock; no peer is added afterwards
 * @npeers: number of peers in @peers (under @lock)
 * @peers: peers by id; writers hold @lock, the data path reads under RCU
 * @sched: the path scheduler (an attached BPF program or the built-in round robin)
 */
struct braid_dev {
	struct net_device *dev;
	u8 mode;
	struct mutex lock; /* serialises configuration changes */
	bool dead;
	unsigned int npeers;
	DECLARE_HASHTABLE(peers, BRAID_PEER_HASH_BITS);
	struct braid_sched sched;
};

extern struct rtnl_link_ops braid_link_ops;

/**
 * braid_dev_is_ours() - whether @dev is a braid_dco device
 * @dev: any net device
 *
 * Return: true when @dev was created by this module's link ops
 */
static inline bool braid_dev_is_ours(const struct net_device *dev)
{
	return dev->rtnl_link_ops == &braid_link_ops;
}

#endif /* _BRAID_DCO_DEVICE_H_ */
