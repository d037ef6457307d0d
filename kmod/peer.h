/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A braid_dco peer: its id, tunnel addresses, up to BRAID_DCO_PATHS_MAX paths and two key slots.
 *
 * Lifetime (as WireGuard's): a peer is reference counted (kref). The device's hash table holds one
 * reference; lookups take another with kref_get_unless_zero() under RCU. Removal is two-phase:
 * under the device lock the peer is unhashed and marked dead and its paths and keys are released
 * (each freed after an RCU grace period); the table's reference is then dropped, and the last put
 * frees the peer after a further grace period. Holders of a reference: netlink requests (for their
 * duration) and, later, the data path (per packet, under RCU).
 */
#ifndef _BRAID_DCO_PEER_H_
#define _BRAID_DCO_PEER_H_

#include <linux/atomic.h>
#include <linux/in6.h>
#include <linux/kref.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "uapi/linux/braid_dco.h"
#include "pcpu.h"

/**
 * enum braid_peer_ctr - a peer's per-CPU counters (struct braid_ctrs indices)
 * @BRAID_PEER_VPN_RX_PACKETS: inner packets received
 * @BRAID_PEER_VPN_RX_BYTES: inner bytes received
 * @BRAID_PEER_VPN_TX_PACKETS: inner packets sent
 * @BRAID_PEER_VPN_TX_BYTES: inner bytes sent
 * @BRAID_PEER_CTL_TX_PACKETS: control payloads sealed and sent for userspace (PACKET_SEND)
 * @BRAID_PEER_CTL_RX_PACKETS: authenticated non-IP payloads handed up to userspace
 * @BRAID_PEER_NR: number of counters
 */
enum braid_peer_ctr {
	BRAID_PEER_VPN_RX_PACKETS,
	BRAID_PEER_VPN_RX_BYTES,
	BRAID_PEER_VPN_TX_PACKETS,
	BRAID_PEER_VPN_TX_BYTES,
	BRAID_PEER_CTL_TX_PACKETS,
	BRAID_PEER_CTL_RX_PACKETS,
	BRAID_PEER_NR,
};

struct braid_dev;
struct braid_path;
struct braid_key;

/**
 * struct braid_peer - one remote end of a tunnel
 * @bdev: the device the peer belongs to (outlives the peer: dellink removes all peers)
 * @id: the peer id carried in P_DATA_V2 (24 bits)
 * @hnode: entry in the device's peer table (RCU)
 * @refcount: references (the table's, netlink requests', packets in flight)
 * @rcu: frees the peer after a grace period
 * @dead: unhashed; set under the device lock
 * @has_vpn4: @vpn4 is set
 * @has_vpn6: @vpn6 is set
 * @vpn4: the peer's IPv4 address inside the tunnel
 * @vpn6: the peer's IPv6 address inside the tunnel
 * @paths: the peer's paths by path id; written under the device lock, read under RCU
 * @keys: key slots, [BRAID_DCO_KEY_SLOT_PRIMARY] and [BRAID_DCO_KEY_SLOT_SECONDARY]; as @paths
 * @path_rr: the built-in scheduler's round-robin position
 * @stats: per-CPU counters, indexed by enum braid_peer_ctr
 */
struct braid_peer {
	struct braid_dev *bdev;
	u32 id;
	struct hlist_node hnode;
	struct kref refcount;
	struct rcu_head rcu;
	bool dead;
	bool has_vpn4;
	bool has_vpn6;
	__be32 vpn4;
	struct in6_addr vpn6;
	struct braid_path __rcu *paths[BRAID_DCO_PATHS_MAX];
	struct braid_key __rcu *keys[2];
	atomic_t path_rr;
	struct braid_ctrs __percpu *stats;
};

struct braid_peer *braid_peer_new(struct braid_dev *bdev, u32 id);
int braid_peer_add(struct braid_dev *bdev, struct braid_peer *peer, struct netlink_ext_ack *extack);
struct braid_peer *braid_peer_lookup(struct braid_dev *bdev, u32 id);
void braid_peer_put(struct braid_peer *peer);
void braid_peer_remove(struct braid_peer *peer, enum braid_dco_del_reason reason);
void braid_peers_remove_all(struct braid_dev *bdev, enum braid_dco_del_reason reason);

#endif /* _BRAID_DCO_PEER_H_ */
