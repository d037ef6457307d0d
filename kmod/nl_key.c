// SPDX-License-Identifier: GPL-2.0-only
/*
 * KEY_NEW, KEY_SWAP and KEY_DEL: install a key slot of a peer (replacing what the slot held),
 * exchange the primary and secondary slots (rekeying without a gap), remove a slot. Key material is
 * never logged nor reported back.
 */
#include <linux/slab.h>

#include "device.h"
#include "key.h"
#include "netlink.h"
#include "nl_key.h"
#include "nl_policy.h"
#include "peer.h"

static int braid_nl_key_dir(struct genl_info *info, struct nlattr *nest, struct braid_key_dir *dir)
{
	struct nlattr *tb[BRAID_DCO_A_KEYDIR_MAX + 1];
	int err;

	err = nla_parse_nested(tb, BRAID_DCO_A_KEYDIR_MAX, nest, braid_keydir_nl_policy,
			       info->extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYDIR_CIPHER_KEY) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYDIR_NONCE_TAIL))
		return -EINVAL;
	dir->key = nla_data(tb[BRAID_DCO_A_KEYDIR_CIPHER_KEY]);
	dir->key_len = nla_len(tb[BRAID_DCO_A_KEYDIR_CIPHER_KEY]);
	dir->nonce_tail = nla_data(tb[BRAID_DCO_A_KEYDIR_NONCE_TAIL]);
	return 0;
}

static struct braid_peer *braid_nl_key_peer(struct genl_info *info, struct nlattr **tb)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_KEYCONF];
	struct braid_peer *peer;

	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_PEER_ID))
		return ERR_PTR(-EINVAL);
	peer = braid_peer_lookup(braid_nl_dev(info), nla_get_u32(tb[BRAID_DCO_A_KEYCONF_PEER_ID]));
	if (!peer) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_KEYCONF_PEER_ID],
				    "no peer with this id");
		return ERR_PTR(-ENOENT);
	}
	return peer;
}

/**
 * braid_nl_key_new() - KEY_NEW: install a key slot of a peer
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno (extack says why)
 */
int braid_nl_key_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_KEYCONF];
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_key_dir enc, dec;
	struct braid_peer *peer;
	struct braid_key *key;
	struct nlattr **tb;
	u32 slot;
	int err;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_KEYCONF, BRAID_DCO_A_KEYCONF_MAX,
				 braid_keyconf_new_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	err = -EINVAL;
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_SLOT) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_KEY_ID) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_CIPHER_ALG) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_ENCRYPT_DIR) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_DECRYPT_DIR))
		goto out;
	err = braid_nl_key_dir(info, tb[BRAID_DCO_A_KEYCONF_ENCRYPT_DIR], &enc);
	if (!err)
		err = braid_nl_key_dir(info, tb[BRAID_DCO_A_KEYCONF_DECRYPT_DIR], &dec);
	if (err)
		goto out;
	peer = braid_nl_key_peer(info, tb);
	if (IS_ERR(peer)) {
		err = PTR_ERR(peer);
		goto out;
	}
	key = braid_key_new(nla_get_u32(tb[BRAID_DCO_A_KEYCONF_CIPHER_ALG]),
			    nla_get_u32(tb[BRAID_DCO_A_KEYCONF_KEY_ID]), &enc, &dec, info->extack);
	if (IS_ERR(key)) {
		err = PTR_ERR(key);
		goto out_peer;
	}
	slot = nla_get_u32(tb[BRAID_DCO_A_KEYCONF_SLOT]);
	mutex_lock(&bdev->lock);
	if (peer->dead) {
		mutex_unlock(&bdev->lock);
		braid_key_release(key);
		NL_SET_ERR_MSG(info->extack, "the peer is being removed");
		err = -ENOENT;
		goto out_peer;
	}
	key = rcu_replace_pointer(peer->keys[slot], key, lockdep_is_held(&bdev->lock));
	mutex_unlock(&bdev->lock);
	braid_key_release(key);
	err = 0;
out_peer:
	braid_peer_put(peer);
out:
	kfree(tb);
	return braid_nl_done(info, err);
}

/**
 * braid_nl_key_swap() - KEY_SWAP: the secondary slot becomes the primary and the other way round
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno; -ENOKEY when the secondary slot is empty
 */
int braid_nl_key_swap(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_key *primary, *secondary;
	struct braid_peer *peer;
	struct nlattr **tb;
	int err = 0;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_KEYCONF, BRAID_DCO_A_KEYCONF_MAX,
				 braid_keyconf_swap_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	peer = braid_nl_key_peer(info, tb);
	kfree(tb);
	if (IS_ERR(peer))
		return braid_nl_done(info, PTR_ERR(peer));
	mutex_lock(&bdev->lock);
	primary = rcu_dereference_protected(peer->keys[BRAID_DCO_KEY_SLOT_PRIMARY],
					    lockdep_is_held(&bdev->lock));
	secondary = rcu_dereference_protected(peer->keys[BRAID_DCO_KEY_SLOT_SECONDARY],
					      lockdep_is_held(&bdev->lock));
	if (!secondary) {
		NL_SET_ERR_MSG(info->extack, "no secondary key to swap in");
		err = -ENOKEY;
	} else {
		rcu_assign_pointer(peer->keys[BRAID_DCO_KEY_SLOT_PRIMARY], secondary);
		rcu_assign_pointer(peer->keys[BRAID_DCO_KEY_SLOT_SECONDARY], primary);
	}
	mutex_unlock(&bdev->lock);
	braid_peer_put(peer);
	return braid_nl_done(info, err);
}

/**
 * braid_nl_key_del() - KEY_DEL: empty one key slot of a peer
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno; -ENOKEY when the slot is already empty
 */
int braid_nl_key_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_KEYCONF];
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_peer *peer;
	struct braid_key *key;
	struct nlattr **tb;
	int err = -EINVAL;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_KEYCONF, BRAID_DCO_A_KEYCONF_MAX,
				 braid_keyconf_del_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_KEYCONF_SLOT))
		goto out;
	peer = braid_nl_key_peer(info, tb);
	if (IS_ERR(peer)) {
		err = PTR_ERR(peer);
		goto out;
	}
	mutex_lock(&bdev->lock);
	key = rcu_replace_pointer(peer->keys[nla_get_u32(tb[BRAID_DCO_A_KEYCONF_SLOT])], NULL,
				  lockdep_is_held(&bdev->lock));
	mutex_unlock(&bdev->lock);
	err = 0;
	if (!key) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_KEYCONF_SLOT],
				    "the key slot is empty");
		err = -ENOKEY;
	}
	braid_key_release(key);
	braid_peer_put(peer);
out:
	kfree(tb);
	return braid_nl_done(info, err);
}
