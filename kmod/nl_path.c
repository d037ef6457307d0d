// SPDX-License-Identifier: GPL-2.0-only
/*
 * PATH_ADD, PATH_DEL and PATH_SET: attach a UDP socket (passed by fd) and a remote endpoint to a
 * peer under a path id, detach it again, and mark it down/up or backup (the built-in scheduler's
 * choice, sched.c). Each one that succeeds is notified to the "peers" group (PATH_NTF).
 */
#include <linux/slab.h>

#include "device.h"
#include "netlink.h"
#include "nl_path.h"
#include "nl_policy.h"
#include "path.h"
#include "peer.h"

/*
 * The endpoint from ADDR4/ADDR6 + PORT; neither address: AF_UNSPEC.
 * Return: 0 or -EINVAL (extack set)
 */
static int braid_nl_endpoint(struct genl_info *info, struct nlattr **tb, int a4, int a6, int port,
			     bool required, union braid_sockaddr *sa)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_PATH];

	memset(sa, 0, sizeof(*sa));
	if (tb[a4] && tb[a6]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[a6], "IPv4 or IPv6, not both");
		return -EINVAL;
	}
	if (!tb[a4] && !tb[a6]) {
		if (required) {
			NL_SET_ERR_MSG_ATTR(info->extack, nest,
					    "remote-ipv4 or remote-ipv6: required");
			return -EINVAL;
		}
		if (tb[port]) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[port], "a port without an address");
			return -EINVAL;
		}
		return 0;
	}
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, port))
		return -EINVAL;
	if (tb[a4]) {
		sa->in4.sin_family = AF_INET;
		sa->in4.sin_addr.s_addr = nla_get_in_addr(tb[a4]);
		sa->in4.sin_port = htons(nla_get_u16(tb[port]));
	} else {
		sa->in6.sin6_family = AF_INET6;
		sa->in6.sin6_addr = nla_get_in6_addr(tb[a6]);
		sa->in6.sin6_port = htons(nla_get_u16(tb[port]));
	}
	return 0;
}

/**
 * braid_nl_path_add() - PATH_ADD: give a peer a path
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno (extack says why); -EEXIST when the path id is in use
 */
int braid_nl_path_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_PATH];
	struct braid_dev *bdev = braid_nl_dev(info);
	union braid_sockaddr remote, local;
	struct braid_path *path;
	struct braid_peer *peer;
	struct nlattr **tb;
	u32 id;
	int err = -EINVAL;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_PATH, BRAID_DCO_A_PATH_MAX,
				 braid_path_add_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_PATH_PEER_ID) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_PATH_ID) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_PATH_SOCKET))
		goto out;
	err = braid_nl_endpoint(info, tb, BRAID_DCO_A_PATH_REMOTE_IPV4,
				BRAID_DCO_A_PATH_REMOTE_IPV6,
				BRAID_DCO_A_PATH_REMOTE_PORT, true, &remote);
	if (!err)
		err = braid_nl_endpoint(info, tb, BRAID_DCO_A_PATH_LOCAL_IPV4,
					BRAID_DCO_A_PATH_LOCAL_IPV6,
					BRAID_DCO_A_PATH_LOCAL_PORT, false, &local);
	if (err)
		goto out;
	if (local.sa.sa_family != AF_UNSPEC && local.sa.sa_family != remote.sa.sa_family) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "local and remote addresses of different families");
		err = -EINVAL;
		goto out;
	}
	peer = braid_peer_lookup(bdev, nla_get_u32(tb[BRAID_DCO_A_PATH_PEER_ID]));
	if (!peer) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_PATH_PEER_ID],
				    "no peer with this id");
		err = -ENOENT;
		goto out;
	}
	id = nla_get_u32(tb[BRAID_DCO_A_PATH_ID]);
	path = braid_path_new(bdev, id, nla_get_u32(tb[BRAID_DCO_A_PATH_SOCKET]), &remote, &local,
			      info->extack);
	if (IS_ERR(path)) {
		err = PTR_ERR(path);
		goto out_peer;
	}
	mutex_lock(&bdev->lock);
	err = 0;
	if (peer->dead) {
		NL_SET_ERR_MSG(info->extack, "the peer is being removed");
		err = -ENOENT;
	} else if (rcu_access_pointer(peer->paths[id])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_PATH_ID],
				    "the peer has a path with this id");
		err = -EEXIST;
	} else {
		rcu_assign_pointer(peer->paths[id], path);
		braid_nl_path_notify(bdev, peer->id, path, BRAID_DCO_PATH_EVENT_ADDED, 0,
				     GFP_KERNEL);
	}
	mutex_unlock(&bdev->lock);
	if (err)
		braid_path_release(path);
out_peer:
	braid_peer_put(peer);
out:
	kfree(tb);
	return braid_nl_done(info, err);
}

/*
 * The path nest of PATH_DEL and PATH_SET (peer-id and id required) parsed with @policy, and its
 * peer (a reference the caller puts). Return: the attributes (the caller frees them) or NULL with
 * *err set and extack saying why (-EINVAL, -ENOMEM, -ENOENT no such peer)
 */
static struct nlattr **braid_nl_path_peer(struct genl_info *info, const struct nla_policy *policy,
					  struct braid_peer **peer, int *err)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_PATH];
	struct nlattr **tb;

	*err = -EINVAL;
	tb = braid_nl_parse_nest(info, BRAID_DCO_A_PATH, BRAID_DCO_A_PATH_MAX, policy);
	if (!tb)
		return NULL;
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_PATH_PEER_ID) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_PATH_ID))
		goto err;
	*peer = braid_peer_lookup(braid_nl_dev(info), nla_get_u32(tb[BRAID_DCO_A_PATH_PEER_ID]));
	if (*peer)
		return tb;
	NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_PATH_PEER_ID], "no peer with this id");
	*err = -ENOENT;
err:
	kfree(tb);
	return NULL;
}

/**
 * braid_nl_path_del() - PATH_DEL: remove a path of a peer
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno; -ENOENT when the peer has no such path
 */
int braid_nl_path_del(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_path *path;
	struct braid_peer *peer;
	struct nlattr **tb;
	int err;

	tb = braid_nl_path_peer(info, braid_path_del_nl_policy, &peer, &err);
	if (!tb)
		return braid_nl_done(info, err);
	mutex_lock(&bdev->lock);
	path = rcu_replace_pointer(peer->paths[nla_get_u32(tb[BRAID_DCO_A_PATH_ID])], NULL,
				   lockdep_is_held(&bdev->lock));
	if (path)
		braid_nl_path_notify(bdev, peer->id, path, BRAID_DCO_PATH_EVENT_DELETED, 0,
				     GFP_KERNEL);
	mutex_unlock(&bdev->lock);
	err = 0;
	if (!path) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_PATH_ID],
				    "the peer has no path with this id");
		err = -ENOENT;
	}
	braid_path_release(path);
	braid_peer_put(peer);
	kfree(tb);
	return braid_nl_done(info, err);
}

/**
 * braid_nl_path_set() - PATH_SET: mark a path down or up, backup or not
 * @skb: the request
 * @info: its attributes
 *
 * The built-in round robin reads the flags per packet (sched.c): a path marked down carries no
 * more data from the next packet on; PACKET_SEND still sends on it.
 *
 * Return: 0 or -errno (extack says why); -ENOENT no such peer or path, -EINVAL nothing to set
 */
int braid_nl_path_set(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_path *path;
	struct braid_peer *peer;
	struct nlattr **tb;
	int err;

	tb = braid_nl_path_peer(info, braid_path_set_nl_policy, &peer, &err);
	if (!tb)
		return braid_nl_done(info, err);
	err = -EINVAL;
	if (!tb[BRAID_DCO_A_PATH_DOWN] && !tb[BRAID_DCO_A_PATH_BACKUP]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BRAID_DCO_A_PATH],
				    "down or backup: nothing to set");
		goto out;
	}
	mutex_lock(&bdev->lock);
	path = rcu_dereference_protected(peer->paths[nla_get_u32(tb[BRAID_DCO_A_PATH_ID])],
					 lockdep_is_held(&bdev->lock));
	if (path) {
		if (tb[BRAID_DCO_A_PATH_DOWN])
			WRITE_ONCE(path->down, nla_get_u8(tb[BRAID_DCO_A_PATH_DOWN]));
		if (tb[BRAID_DCO_A_PATH_BACKUP])
			WRITE_ONCE(path->backup, nla_get_u8(tb[BRAID_DCO_A_PATH_BACKUP]));
		netdev_dbg(bdev->dev, "peer %u path %u: %s%s\n", peer->id, path->id,
			   path->down ? "down" : "up", path->backup ? ", backup" : "");
		braid_nl_path_notify(bdev, peer->id, path, BRAID_DCO_PATH_EVENT_SET, 0, GFP_KERNEL);
		err = 0;
	}
	mutex_unlock(&bdev->lock);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_PATH_ID],
				    "the peer has no path with this id");
		err = -ENOENT;
	}
out:
	braid_peer_put(peer);
	kfree(tb);
	return braid_nl_done(info, err);
}
