// SPDX-License-Identifier: GPL-2.0-only
/*
 * PEER_NEW, PEER_DEL and PEER_GET: create and remove peers, and report a peer (or every
 * peer of a device, as a dump) with its tunnel addresses, key ids (never key material), paths and
 * counters.
 */
#include <linux/slab.h>
#include <net/sock.h>

#include "compat.h"
#include "counters.h"
#include "device.h"
#include "key.h"
#include "netlink.h"
#include "nl_peer.h"
#include "nl_policy.h"
#include "path.h"
#include "peer.h"

/**
 * braid_nl_peer_new() - PEER_NEW: add a peer to the device
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno (extack says why)
 */
int braid_nl_peer_new(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_peer *peer;
	struct nlattr **tb;
	int err;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_PEER, BRAID_DCO_A_PEER_MAX,
				 braid_peer_new_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	err = -EINVAL;
	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[BRAID_DCO_A_PEER], tb, BRAID_DCO_A_PEER_ID))
		goto out;
	peer = braid_peer_new(bdev, nla_get_u32(tb[BRAID_DCO_A_PEER_ID]));
	if (IS_ERR(peer)) {
		err = PTR_ERR(peer);
		goto out;
	}
	if (tb[BRAID_DCO_A_PEER_VPN_IPV4]) {
		peer->has_vpn4 = true;
		nla_memcpy(&peer->vpn4, tb[BRAID_DCO_A_PEER_VPN_IPV4], sizeof(peer->vpn4));
	}
	if (tb[BRAID_DCO_A_PEER_VPN_IPV6]) {
		peer->has_vpn6 = true;
		nla_memcpy(&peer->vpn6, tb[BRAID_DCO_A_PEER_VPN_IPV6], sizeof(peer->vpn6));
	}
	mutex_lock(&bdev->lock);
	err = braid_peer_add(bdev, peer, info->extack);
	mutex_unlock(&bdev->lock);
	if (err)
		braid_peer_put(peer);
out:
	kfree(tb);
	return braid_nl_done(info, err);
}

static struct braid_peer *braid_nl_peer_from(struct genl_info *info, struct nlattr **tb)
{
	struct braid_peer *peer;

	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[BRAID_DCO_A_PEER], tb, BRAID_DCO_A_PEER_ID))
		return NULL;
	peer = braid_peer_lookup(braid_nl_dev(info), nla_get_u32(tb[BRAID_DCO_A_PEER_ID]));
	if (!peer)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_PEER_ID], "no peer with this id");
	return peer;
}

/**
 * braid_nl_peer_del() - PEER_DEL: remove a peer (its paths and keys with it)
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno (extack says why)
 */
int braid_nl_peer_del(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_peer *peer;
	struct nlattr **tb;
	int err = -ENOENT;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_PEER, BRAID_DCO_A_PEER_MAX,
				 braid_peer_id_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	peer = braid_nl_peer_from(info, tb);
	if (peer) {
		mutex_lock(&bdev->lock);
		braid_peer_remove(peer, BRAID_DCO_DEL_REASON_USERSPACE);
		mutex_unlock(&bdev->lock);
		braid_peer_put(peer);
		err = 0;
	}
	kfree(tb);
	return braid_nl_done(info, err);
}

/**
 * braid_nl_put_addr() - put an endpoint as address (v4 or v6) and port attributes
 * @msg: the message
 * @sa: the endpoint (AF_UNSPEC: nothing is put)
 * @a4: the attribute of an IPv4 address
 * @a6: the attribute of an IPv6 address
 * @port: the attribute of the port (host byte order)
 *
 * Return: 0, or nonzero when the message is full
 */
int braid_nl_put_addr(struct sk_buff *msg, const union braid_sockaddr *sa, int a4, int a6, int port)
{
	if (sa->sa.sa_family == AF_INET)
		return nla_put_in_addr(msg, a4, sa->in4.sin_addr.s_addr) ||
		       nla_put_u16(msg, port, ntohs(sa->in4.sin_port));
	if (sa->sa.sa_family == AF_INET6)
		return nla_put_in6_addr(msg, a6, &sa->in6.sin6_addr) ||
		       nla_put_u16(msg, port, ntohs(sa->in6.sin6_port));
	return 0;
}

static int braid_nl_put_path(struct sk_buff *msg, const struct braid_path *path)
{
	static const int attrs[BRAID_PATH_NR] = {
		[BRAID_PATH_RX_PACKETS] = BRAID_DCO_A_PATH_RX_PACKETS,
		[BRAID_PATH_RX_BYTES] = BRAID_DCO_A_PATH_RX_BYTES,
		[BRAID_PATH_TX_PACKETS] = BRAID_DCO_A_PATH_TX_PACKETS,
		[BRAID_PATH_TX_BYTES] = BRAID_DCO_A_PATH_TX_BYTES,
		[BRAID_PATH_RX_SPAN_PACKETS] = BRAID_DCO_A_PATH_RX_SPAN_PACKETS,
		[BRAID_PATH_RX_SPAN_BYTES] = BRAID_DCO_A_PATH_RX_SPAN_BYTES,
		[BRAID_PATH_RX_SPAN_NS] = BRAID_DCO_A_PATH_RX_SPAN_NS,
	};
	struct nlattr *nest = nla_nest_start(msg, BRAID_DCO_A_PEER_PATH);
	union braid_sockaddr remote;
	u64 v[BRAID_PATH_NR];

	if (!nest)
		return -EMSGSIZE;
	braid_ctrs_sum(path->stats, v, BRAID_PATH_NR);
	braid_path_remote(path, &remote);
	if (nla_put_u32(msg, BRAID_DCO_A_PATH_ID, path->id) ||
	    braid_nl_put_addr(msg, &remote, BRAID_DCO_A_PATH_REMOTE_IPV4,
			      BRAID_DCO_A_PATH_REMOTE_IPV6, BRAID_DCO_A_PATH_REMOTE_PORT) ||
	    braid_nl_put_addr(msg, &path->local, BRAID_DCO_A_PATH_LOCAL_IPV4,
			      BRAID_DCO_A_PATH_LOCAL_IPV6, BRAID_DCO_A_PATH_LOCAL_PORT) ||
	    braid_nl_put_u64s(msg, attrs, v, BRAID_PATH_NR, BRAID_DCO_A_PATH_PAD) ||
	    nla_put_u32(msg, BRAID_DCO_A_PATH_RX_LAST_PKTID, READ_ONCE(path->rx_last_pktid)) ||
	    nla_put_u8(msg, BRAID_DCO_A_PATH_DOWN, READ_ONCE(path->down)) ||
	    nla_put_u8(msg, BRAID_DCO_A_PATH_BACKUP, READ_ONCE(path->backup)) ||
	    nla_put_u8(msg, BRAID_DCO_A_PATH_TX_FAILING, atomic_read(&path->tx_failing))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* called under rcu_read_lock() */
static int braid_nl_put_peer(struct sk_buff *msg, const struct braid_peer *peer)
{
	static const int attrs[BRAID_PEER_NR] = {
		[BRAID_PEER_VPN_RX_PACKETS] = BRAID_DCO_A_PEER_VPN_RX_PACKETS,
		[BRAID_PEER_VPN_RX_BYTES] = BRAID_DCO_A_PEER_VPN_RX_BYTES,
		[BRAID_PEER_VPN_TX_PACKETS] = BRAID_DCO_A_PEER_VPN_TX_PACKETS,
		[BRAID_PEER_VPN_TX_BYTES] = BRAID_DCO_A_PEER_VPN_TX_BYTES,
		[BRAID_PEER_CTL_TX_PACKETS] = BRAID_DCO_A_PEER_CTL_TX_PACKETS,
		[BRAID_PEER_CTL_RX_PACKETS] = BRAID_DCO_A_PEER_CTL_RX_PACKETS,
	};
	u64 v[BRAID_PEER_NR];
	const struct braid_path *path;
	const struct braid_key *key;
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, BRAID_DCO_A_PEER);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, BRAID_DCO_A_PEER_ID, peer->id) ||
	    (peer->has_vpn4 && nla_put_in_addr(msg, BRAID_DCO_A_PEER_VPN_IPV4, peer->vpn4)) ||
	    (peer->has_vpn6 && nla_put_in6_addr(msg, BRAID_DCO_A_PEER_VPN_IPV6, &peer->vpn6)))
		goto err;
	key = rcu_dereference(peer->keys[BRAID_DCO_KEY_SLOT_PRIMARY]);
	if (key && nla_put_u32(msg, BRAID_DCO_A_PEER_PRIMARY_KEY_ID, key->key_id))
		goto err;
	key = rcu_dereference(peer->keys[BRAID_DCO_KEY_SLOT_SECONDARY]);
	if (key && nla_put_u32(msg, BRAID_DCO_A_PEER_SECONDARY_KEY_ID, key->key_id))
		goto err;
	braid_ctrs_sum(peer->stats, v, BRAID_PEER_NR);
	if (braid_nl_put_u64s(msg, attrs, v, BRAID_PEER_NR, BRAID_DCO_A_PEER_PAD))
		goto err;
	for (i = 0; i < BRAID_DCO_PATHS_MAX; i++) {
		path = rcu_dereference(peer->paths[i]);
		if (path && braid_nl_put_path(msg, path))
			goto err;
	}
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int braid_nl_fill_peer(struct sk_buff *msg, const struct braid_peer *peer, u32 portid,
			      u32 seq,
			      int flags)
{
	void *hdr = genlmsg_put(msg, portid, seq, &braid_nl_family, flags, BRAID_DCO_CMD_PEER_GET);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, BRAID_DCO_A_IFINDEX, peer->bdev->dev->ifindex) ||
	    braid_nl_put_peer(msg, peer)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/**
 * braid_nl_peer_get() - PEER_GET (do): report one peer
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno (extack says why)
 */
int braid_nl_peer_get(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_peer *peer;
	struct sk_buff *msg;
	struct nlattr **tb;
	int err;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_PEER, BRAID_DCO_A_PEER_MAX,
				 braid_peer_id_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	peer = braid_nl_peer_from(info, tb);
	kfree(tb);
	if (!peer)
		return braid_nl_done(info, -ENOENT);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	rcu_read_lock();
	err = braid_nl_fill_peer(msg, peer, info->snd_portid, info->snd_seq, 0);
	rcu_read_unlock();
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	braid_peer_put(peer);
	return braid_nl_done(info, err);
}

/**
 * braid_nl_peer_dump() - PEER_GET (dump): every peer of the device named by BRAID_DCO_A_IFINDEX
 * @skb: the reply being filled
 * @cb: dump state; args[0] is the hash bucket, args[1] the number of peers of it already sent
 *
 * Return: the reply length (more to come), 0 (done) or -errno
 */
int braid_nl_peer_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *dinfo = genl_dumpit_info(cb);
	struct nlattr *ifattr = braid_dumpit_attrs(dinfo)[BRAID_DCO_A_IFINDEX];
	struct braid_peer *peer;
	struct net_device *dev;
	struct braid_dev *bdev;
	int bkt, skip, n, err = 0;

	if (!ifattr) {
		NL_SET_ERR_MSG(cb->extack, "ifindex: required");
		braid_rejected_inc();
		return -EINVAL;
	}
	dev = dev_get_by_index(sock_net(cb->skb->sk), nla_get_u32(ifattr));
	if (!dev || !braid_dev_is_ours(dev)) {
		NL_SET_ERR_MSG_ATTR(cb->extack, ifattr, "not a braid_dco device");
		dev_put(dev);	/* NULL-safe */
		braid_rejected_inc();
		return -ENODEV;
	}
	bdev = netdev_priv(dev);
	rcu_read_lock();
	for (bkt = cb->args[0]; bkt < HASH_SIZE(bdev->peers); bkt++, cb->args[1] = 0) {
		skip = cb->args[1];
		n = 0;
		hlist_for_each_entry_rcu(peer, &bdev->peers[bkt], hnode) {
			if (n++ < skip)
				continue;
			err = braid_nl_fill_peer(skb, peer, NETLINK_CB(cb->skb).portid,
						 cb->nlh->nlmsg_seq, NLM_F_MULTI);
			if (err)
				goto stop;
			cb->args[1] = n;
		}
	}
stop:
	rcu_read_unlock();
	cb->args[0] = bkt;
	dev_put(dev);
	return err ? skb->len : 0;
}
