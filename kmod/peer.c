// SPDX-License-Identifier: GPL-2.0-only
/*
 * Peer objects: creation, the device's peer table (RCU hash by id), lookup with a reference,
 * and two-phase removal (see peer.h for the lifetime rules).
 */
#include <linux/lockdep.h>
#include <linux/slab.h>

#include "counters.h"
#include "device.h"
#include "key.h"
#include "netlink.h"
#include "path.h"
#include "peer.h"

/**
 * braid_peer_new() - allocate a peer (not yet in the device's table)
 * @bdev: the device
 * @id: the peer id
 *
 * Return: the peer with one reference, or ERR_PTR(-ENOMEM)
 */
struct braid_peer *braid_peer_new(struct braid_dev *bdev, u32 id)
{
	struct braid_peer *peer = kzalloc(sizeof(*peer), GFP_KERNEL);

	if (!peer)
		return ERR_PTR(-ENOMEM);
	peer->stats = braid_ctrs_alloc(GFP_KERNEL);
	if (!peer->stats) {
		kfree(peer);
		return ERR_PTR(-ENOMEM);
	}
	peer->bdev = bdev;
	peer->id = id;
	kref_init(&peer->refcount);
	braid_obj_created(BRAID_OBJ_PEER);
	netdev_dbg(bdev->dev, "peer %u created\n", id);
	return peer;
}

static void braid_peer_free_rcu(struct rcu_head *head)
{
	struct braid_peer *peer = container_of(head, struct braid_peer, rcu);

	braid_obj_destroyed(BRAID_OBJ_PEER);
	free_percpu(peer->stats);
	kfree(peer);
}

static void braid_peer_release(struct kref *kref)
{
	struct braid_peer *peer = container_of(kref, struct braid_peer, refcount);

	pr_debug("peer %u destroyed\n", peer->id);
	call_rcu(&peer->rcu, braid_peer_free_rcu);
}

/**
 * braid_peer_put() - drop a reference; the last one frees the peer after an RCU grace period
 * @peer: the peer (may be NULL)
 */
void braid_peer_put(struct braid_peer *peer)
{
	if (peer)
		kref_put(&peer->refcount, braid_peer_release);
}

static struct braid_peer *braid_peer_find_locked(struct braid_dev *bdev, u32 id)
{
	struct braid_peer *peer;

	hash_for_each_possible_rcu(bdev->peers, peer, hnode, id, lockdep_is_held(&bdev->lock))
		if (peer->id == id)
			return peer;
	return NULL;
}

/**
 * braid_peer_add() - insert a new peer into its device's table; the table takes over the caller's
 * reference
 * @bdev: the device (its lock held)
 * @peer: a peer from braid_peer_new()
 * @extack: where a refusal is explained
 *
 * Return: 0, -EEXIST (the id is taken or a p2p device has its peer) or -ENODEV (the device is going
 * away)
 */
int braid_peer_add(struct braid_dev *bdev, struct braid_peer *peer, struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&bdev->lock);
	if (bdev->dead) {
		NL_SET_ERR_MSG(extack, "the device is being removed");
		return -ENODEV;
	}
	if (bdev->mode == BRAID_DCO_MODE_P2P && bdev->npeers) {
		NL_SET_ERR_MSG(extack, "a point-to-point device has only one peer");
		return -EEXIST;
	}
	if (braid_peer_find_locked(bdev, peer->id)) {
		NL_SET_ERR_MSG(extack, "a peer with this id exists");
		return -EEXIST;
	}
	hash_add_rcu(bdev->peers, &peer->hnode, peer->id);
	bdev->npeers++;
	return 0;
}

/**
 * braid_peer_lookup() - find a peer by id and take a reference
 * @bdev: the device
 * @id: the peer id
 *
 * Context: any; takes rcu_read_lock() itself.
 * Return: the peer (release with braid_peer_put()) or NULL
 */
struct braid_peer *braid_peer_lookup(struct braid_dev *bdev, u32 id)
{
	struct braid_peer *peer, *found = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(bdev->peers, peer, hnode, id) {
		if (peer->id == id && kref_get_unless_zero(&peer->refcount)) {
			found = peer;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/**
 * braid_peer_remove() - unhash a peer, release its paths and keys, notify userspace, drop the
 * table's reference
 * @peer: the peer (still in the table)
 * @reason: why, for the peer-del notification
 *
 * Context: the device lock held. Readers under RCU may still see the peer until a grace period
 * ends; they hold their own reference.
 */
void braid_peer_remove(struct braid_peer *peer, enum braid_dco_del_reason reason)
{
	struct braid_dev *bdev = peer->bdev;
	int i;

	lockdep_assert_held(&bdev->lock);
	if (peer->dead)
		return;
	peer->dead = true;
	hash_del_rcu(&peer->hnode);
	bdev->npeers--;
	for (i = 0; i < BRAID_DCO_PATHS_MAX; i++)
		braid_path_release(rcu_replace_pointer(peer->paths[i], NULL,
						       lockdep_is_held(&bdev->lock)));
	for (i = 0; i < ARRAY_SIZE(peer->keys); i++)
		braid_key_release(rcu_replace_pointer(peer->keys[i], NULL,
						      lockdep_is_held(&bdev->lock)));
	braid_nl_peer_del_notify(bdev, peer->id, reason);
	braid_peer_put(peer);
}

/**
 * braid_peers_remove_all() - remove every peer of a device
 * @bdev: the device (its lock held)
 * @reason: why, for the notifications
 */
void braid_peers_remove_all(struct braid_dev *bdev, enum braid_dco_del_reason reason)
{
	struct braid_peer *peer;
	struct hlist_node *tmp;
	int bkt;

	lockdep_assert_held(&bdev->lock);
	hash_for_each_safe(bdev->peers, bkt, tmp, peer, hnode)
		braid_peer_remove(peer, reason);
}
