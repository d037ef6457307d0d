// SPDX-License-Identifier: GPL-2.0-only
/*
 * The braid_dco generic netlink family (kmod/braid_dco.yaml): the operation table
 * (admin-only, strict per-operation policies), pre_doit/post_doit holding the named device for the
 * request, STATS_GET, the rejection count and the peer-del and path notifications.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "compat.h"
#include "cost.h"
#include "counters.h"
#include "device.h"
#include "netlink.h"
#include "nl_key.h"
#include "nl_path.h"
#include "nl_peer.h"
#include "nl_policy.h"
#include "nl_prog.h"
#include "nl_send.h"
#include "path.h"

#define BRAID_NL_NEED_DEV 0x01

static int braid_nl_pre_doit(const struct braid_genl_op *ops, struct sk_buff *skb,
			     struct genl_info *info)
{
	struct net_device *dev;

	info->user_ptr[0] = NULL;
	if (!(ops->internal_flags & BRAID_NL_NEED_DEV))
		return 0;
	if (GENL_REQ_ATTR_CHECK(info, BRAID_DCO_A_IFINDEX))
		return braid_nl_done(info, -EINVAL);
	dev = dev_get_by_index(genl_info_net(info), nla_get_u32(info->attrs[BRAID_DCO_A_IFINDEX]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BRAID_DCO_A_IFINDEX],
				    "no such interface");
		return braid_nl_done(info, -ENODEV);
	}
	if (!braid_dev_is_ours(dev)) {
		dev_put(dev);
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[BRAID_DCO_A_IFINDEX],
				    "the interface is not a braid_dco device");
		return braid_nl_done(info, -EINVAL);
	}
	info->user_ptr[0] = netdev_priv(dev);
	return 0;
}

static void braid_nl_post_doit(const struct braid_genl_op *ops, struct sk_buff *skb,
			       struct genl_info *info)
{
	struct braid_dev *bdev = info->user_ptr[0];

	if (bdev)
		dev_put(bdev->dev);
}

/**
 * braid_nl_done() - the exit of every request handler: count and log a rejection
 * @info: the request
 * @err: 0 or -errno
 *
 * Return: @err
 */
int braid_nl_done(struct genl_info *info, int err)
{
	if (err < 0) {
		braid_rejected_inc();
		net_dbg_ratelimited("braid_dco: request %u rejected: %d (%s)\n", info->genlhdr->cmd,
				    err,
				    info->extack && info->extack->_msg ? info->extack->_msg : "-");
	}
	return err;
}

/**
 * braid_nl_parse_nest() - parse a required nested attribute of a request
 * @info: the request
 * @attr: the top-level attribute (BRAID_DCO_A_PEER, ...)
 * @maxtype: the nest's highest attribute
 * @policy: the nest's policy (already validated by the family; parsed again here)
 *
 * Return: a kmalloc'ed table of @maxtype + 1 entries (kfree it), or NULL (absent: extack set, or no
 * memory)
 */
struct nlattr **braid_nl_parse_nest(struct genl_info *info, int attr, int maxtype,
				    const struct nla_policy *policy)
{
	struct nlattr **tb;

	if (GENL_REQ_ATTR_CHECK(info, attr))
		return NULL;
	tb = kcalloc(maxtype + 1, sizeof(*tb), GFP_KERNEL);
	if (!tb)
		return NULL;
	if (nla_parse_nested(tb, maxtype, info->attrs[attr], policy, info->extack)) {
		kfree(tb);
		return NULL;
	}
	return tb;
}

/**
 * braid_nl_put_u64s() - put counters as u64 attributes
 * @msg: the message
 * @attrs: the attribute type of each counter
 * @v: the counters
 * @n: how many
 * @pad: the padding attribute type of the enclosing set
 *
 * Return: 0 or -EMSGSIZE
 */
int braid_nl_put_u64s(struct sk_buff *msg, const int *attrs, const u64 *v, unsigned int n,
		      int pad)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (nla_put_u64_64bit(msg, attrs[i], v[i], pad))
			return -EMSGSIZE;
	return 0;
}

/* the cost counters (cost.h) and their switch, as STATS_GET's cost nest */
static int braid_nl_put_cost(struct sk_buff *msg)
{
	static const int attrs[BRAID_COST_NR] = {
		[BRAID_COST_ENC_N] = BRAID_DCO_A_COST_ENCRYPT_PACKETS,
		[BRAID_COST_ENC_NS] = BRAID_DCO_A_COST_ENCRYPT_NS,
		[BRAID_COST_DEC_N] = BRAID_DCO_A_COST_DECRYPT_PACKETS,
		[BRAID_COST_DEC_NS] = BRAID_DCO_A_COST_DECRYPT_NS,
		[BRAID_COST_SCHED_N] = BRAID_DCO_A_COST_SCHED_PACKETS,
		[BRAID_COST_SCHED_NS] = BRAID_DCO_A_COST_SCHED_NS,
	};
	struct nlattr *nest = nla_nest_start(msg, BRAID_DCO_A_COST);
	u64 v[BRAID_COST_NR];

	if (!nest)
		return -EMSGSIZE;
	braid_ctrs_sum(braid_cost, v, BRAID_COST_NR);
	if (nla_put_u8(msg, BRAID_DCO_A_COST_ENABLED, braid_cost_enabled()) ||
	    braid_nl_put_u64s(msg, attrs, v, BRAID_COST_NR, BRAID_DCO_A_COST_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int braid_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	static const int attrs[BRAID_OBJ_NR][2] = {
		[BRAID_OBJ_DEV] = { BRAID_DCO_A_STATS_DEVS_CREATED,
			BRAID_DCO_A_STATS_DEVS_DESTROYED },
		[BRAID_OBJ_PEER] = { BRAID_DCO_A_STATS_PEERS_CREATED,
			BRAID_DCO_A_STATS_PEERS_DESTROYED },
		[BRAID_OBJ_PATH] = { BRAID_DCO_A_STATS_PATHS_CREATED,
			BRAID_DCO_A_STATS_PATHS_DESTROYED },
		[BRAID_OBJ_KEY] = { BRAID_DCO_A_STATS_KEYS_CREATED,
			BRAID_DCO_A_STATS_KEYS_DESTROYED },
	};
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;
	int i;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return braid_nl_done(info, -ENOMEM);
	hdr = genlmsg_put_reply(msg, info, &braid_nl_family, 0, BRAID_DCO_CMD_STATS_GET);
	if (!hdr)
		goto err_size;
	nest = nla_nest_start(msg, BRAID_DCO_A_STATS);
	if (!nest)
		goto err_size;
	for (i = 0; i < BRAID_OBJ_NR; i++)
		if (nla_put_u64_64bit(msg, attrs[i][0], braid_obj_count(i, false),
				      BRAID_DCO_A_STATS_PAD) ||
		    nla_put_u64_64bit(msg, attrs[i][1], braid_obj_count(i, true),
				      BRAID_DCO_A_STATS_PAD))
			goto err_size;
	if (nla_put_u64_64bit(msg, BRAID_DCO_A_STATS_REJECTED, braid_rejected_count(),
			      BRAID_DCO_A_STATS_PAD))
		goto err_size;
	nla_nest_end(msg, nest);
	if (braid_nl_put_cost(msg))
		goto err_size;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_size:
	nlmsg_free(msg);
	return braid_nl_done(info, -EMSGSIZE);
}

/*
 * a notification to the "peers" group: the message with the device's ifindex and the nest @attr
 * opened (*msg, *hdr set); NULL (nothing to free) when it cannot be built
 */
static struct nlattr *braid_nl_ntf_start(struct braid_dev *bdev, u8 cmd, int attr, gfp_t gfp,
					 struct sk_buff **msg, void **hdr)
{
	struct nlattr *nest;

	*msg = genlmsg_new(NLMSG_DEFAULT_SIZE, gfp);
	if (!*msg)
		return NULL;
	*hdr = genlmsg_put(*msg, 0, 0, &braid_nl_family, 0, cmd);
	if (*hdr && !nla_put_u32(*msg, BRAID_DCO_A_IFINDEX, bdev->dev->ifindex)) {
		nest = nla_nest_start(*msg, attr);
		if (nest)
			return nest;
	}
	nlmsg_free(*msg);
	return NULL;
}

/* close the nest and the message of braid_nl_ntf_start() and send it to the group */
static void braid_nl_ntf_send(struct braid_dev *bdev, struct sk_buff *msg, void *hdr,
			      struct nlattr *nest, gfp_t gfp)
{
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&braid_nl_family, dev_net(bdev->dev), msg, 0, 0, gfp);
}

/**
 * braid_nl_peer_del_notify() - tell the "peers" group a peer is gone
 * @bdev: the peer's device
 * @peer_id: the peer id
 * @reason: why
 */
void braid_nl_peer_del_notify(struct braid_dev *bdev, u32 peer_id, enum braid_dco_del_reason reason)
{
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	nest = braid_nl_ntf_start(bdev, BRAID_DCO_CMD_PEER_DEL_NTF, BRAID_DCO_A_PEER, GFP_KERNEL,
				  &msg, &hdr);
	if (!nest)
		return;
	if (nla_put_u32(msg, BRAID_DCO_A_PEER_ID, peer_id) ||
	    nla_put_u32(msg, BRAID_DCO_A_PEER_DEL_REASON, reason)) {
		nlmsg_free(msg);
		return;
	}
	braid_nl_ntf_send(bdev, msg, hdr, nest, GFP_KERNEL);
}

/**
 * braid_nl_path_notify() - tell the "peers" group about a path event
 * @bdev: the path's device
 * @peer_id: the peer the path belongs to
 * @path: the path (its id, remote endpoint and state after the event)
 * @event: what happened
 * @err: for tx-error, the failed send's -errno (sent as a positive number); else 0
 * @gfp: GFP_KERNEL from a request, GFP_ATOMIC from the transmit path
 *
 * Context: any; with GFP_ATOMIC, also softirq and under rcu_read_lock().
 */
void braid_nl_path_notify(struct braid_dev *bdev, u32 peer_id, const struct braid_path *path,
			  enum braid_dco_path_event event, int err, gfp_t gfp)
{
	union braid_sockaddr remote;
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	nest = braid_nl_ntf_start(bdev, BRAID_DCO_CMD_PATH_NTF, BRAID_DCO_A_PATH, gfp, &msg, &hdr);
	if (!nest)
		return;
	braid_path_remote(path, &remote);
	if (nla_put_u32(msg, BRAID_DCO_A_PATH_PEER_ID, peer_id) ||
	    nla_put_u32(msg, BRAID_DCO_A_PATH_ID, path->id) ||
	    nla_put_u32(msg, BRAID_DCO_A_PATH_EVENT, event) ||
	    braid_nl_put_addr(msg, &remote, BRAID_DCO_A_PATH_REMOTE_IPV4,
			      BRAID_DCO_A_PATH_REMOTE_IPV6, BRAID_DCO_A_PATH_REMOTE_PORT) ||
	    nla_put_u8(msg, BRAID_DCO_A_PATH_DOWN, READ_ONCE(path->down)) ||
	    nla_put_u8(msg, BRAID_DCO_A_PATH_BACKUP, READ_ONCE(path->backup)) ||
	    nla_put_u8(msg, BRAID_DCO_A_PATH_TX_FAILING, atomic_read(&path->tx_failing)) ||
	    (event == BRAID_DCO_PATH_EVENT_TX_ERROR &&
	     nla_put_u32(msg, BRAID_DCO_A_PATH_ERROR, -err))) {
		nlmsg_free(msg);
		return;
	}
	braid_nl_ntf_send(bdev, msg, hdr, nest, gfp);
}

#define BRAID_DOIT(_cmd, _fn, _policy) {					\
	.cmd = (_cmd), .doit = (_fn), .policy = (_policy),			\
	.maxattr = BRAID_DCO_A_MAX, .flags = GENL_ADMIN_PERM,			\
	.internal_flags = BRAID_NL_NEED_DEV,					\
}

static const struct genl_ops braid_nl_ops[] = {
	BRAID_DOIT(BRAID_DCO_CMD_PEER_NEW, braid_nl_peer_new, braid_peer_new_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PEER_DEL, braid_nl_peer_del, braid_peer_del_policy),
	{
		.cmd = BRAID_DCO_CMD_PEER_GET,
		.doit = braid_nl_peer_get,
		.dumpit = braid_nl_peer_dump,
		.policy = braid_peer_get_policy,
		.maxattr = BRAID_DCO_A_MAX,
		.flags = GENL_ADMIN_PERM,
		.internal_flags = BRAID_NL_NEED_DEV,
	},
	BRAID_DOIT(BRAID_DCO_CMD_KEY_NEW, braid_nl_key_new, braid_key_new_policy),
	BRAID_DOIT(BRAID_DCO_CMD_KEY_SWAP, braid_nl_key_swap, braid_key_swap_policy),
	BRAID_DOIT(BRAID_DCO_CMD_KEY_DEL, braid_nl_key_del, braid_key_del_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PATH_ADD, braid_nl_path_add, braid_path_add_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PATH_DEL, braid_nl_path_del, braid_path_del_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PATH_SET, braid_nl_path_set, braid_path_set_policy),
	{
		.cmd = BRAID_DCO_CMD_STATS_GET,
		.doit = braid_nl_stats_get,
		.policy = braid_stats_get_policy,
		.maxattr = BRAID_DCO_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	BRAID_DOIT(BRAID_DCO_CMD_PROG_ATTACH, braid_nl_prog_attach, braid_prog_attach_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PROG_DETACH, braid_nl_prog_detach, braid_prog_detach_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PROG_GET, braid_nl_prog_get, braid_prog_get_policy),
	BRAID_DOIT(BRAID_DCO_CMD_PACKET_SEND, braid_nl_packet_send, braid_packet_send_policy),
};

static const struct genl_multicast_group braid_nl_mcgrps[] = {
	{ .name = BRAID_DCO_MCGRP_PEERS },
};

struct genl_family braid_nl_family __ro_after_init = {
	.name = BRAID_DCO_FAMILY_NAME,
	.version = BRAID_DCO_FAMILY_VERSION,
	.maxattr = BRAID_DCO_A_MAX,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.resv_start_op = BRAID_DCO_CMD_MAX + 1,
	.pre_doit = braid_nl_pre_doit,
	.post_doit = braid_nl_post_doit,
	.ops = braid_nl_ops,
	.n_ops = ARRAY_SIZE(braid_nl_ops),
	.mcgrps = braid_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(braid_nl_mcgrps),
};

/**
 * braid_nl_register() - register the generic netlink family
 *
 * Return: 0 or -errno from genl_register_family()
 */
int braid_nl_register(void)
{
	return genl_register_family(&braid_nl_family);
}

/**
 * braid_nl_unregister() - unregister the generic netlink family
 */
void braid_nl_unregister(void)
{
	genl_unregister_family(&braid_nl_family);
}
