// SPDX-License-Identifier: GPL-2.0-only
/*
 * The braid_dco net device and its rtnetlink link ops: creation with a mode (p2p or multi-peer),
 * the netdev ops, and teardown (dellink removes every peer before the device is unregistered).
 */
#include <linux/if_arp.h>
#include <linux/netdevice.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/rtnetlink.h>

#include "uapi/linux/braid_dco.h"
#include "compat.h"
#include "counters.h"
#include "device.h"
#include "io.h"
#include "peer.h"

/*
 * IPv6 + UDP + P_DATA_V2 header and packet id + GCM tag: the default MTU leaves room on a
 * 1500-byte path
 */
#define BRAID_DEFAULT_MTU (1500 - 40 - 8 - 8 - 16)

static int braid_dev_init(struct net_device *dev)
{
	int err = braid_dev_tstats_alloc(dev);

	if (err)
		return err;
	err = braid_sched_init(netdev_priv(dev));
	if (err) {
		braid_dev_tstats_free(dev);
		return err;
	}
	braid_obj_created(BRAID_OBJ_DEV);
	netdev_dbg(dev, "device created\n");
	return 0;
}

static void braid_dev_uninit(struct net_device *dev)
{
	braid_dev_tstats_free(dev);
	netdev_dbg(dev, "device destroyed\n");
	braid_obj_destroyed(BRAID_OBJ_DEV);
}

/* the last reference is gone (netdev_run_todo, before free_netdev): no request can read the
 * scheduler's counters any more
 */
static void braid_dev_destruct(struct net_device *dev)
{
	braid_sched_release(netdev_priv(dev));
}

static int braid_dev_open(struct net_device *dev)
{
	netif_tx_start_all_queues(dev);
	return 0;
}

static int braid_dev_stop(struct net_device *dev)
{
	netif_tx_stop_all_queues(dev);
	return 0;
}

static const struct net_device_ops braid_netdev_ops = {
	.ndo_init = braid_dev_init,
	.ndo_uninit = braid_dev_uninit,
	.ndo_open = braid_dev_open,
	.ndo_stop = braid_dev_stop,
	.ndo_start_xmit = braid_dev_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
};

static void braid_dev_setup(struct net_device *dev)
{
	dev->netdev_ops = &braid_netdev_ops;
	dev->type = ARPHRD_NONE;
	dev->flags = IFF_POINTOPOINT | IFF_NOARP;
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->mtu = BRAID_DEFAULT_MTU;
	dev->min_mtu = IPV6_MIN_MTU;
	dev->max_mtu = IP_MAX_MTU - 40 - 8 - 8 - 16;
	braid_dev_set_lockless(dev);
	braid_dev_tstats_type(dev);
	dev->needs_free_netdev = true;
	dev->priv_destructor = braid_dev_destruct;
}

static const struct nla_policy braid_link_policy[IFLA_BRAID_DCO_MAX + 1] = {
	[IFLA_BRAID_DCO_MODE] = NLA_POLICY_MAX(NLA_U8, BRAID_DCO_MODE_MP),
};

static int braid_newlink(struct net *src_net, struct net_device *dev, struct nlattr *tb[],
			 struct nlattr *data[], struct netlink_ext_ack *extack)
{
	struct braid_dev *bdev = netdev_priv(dev);

	bdev->dev = dev;
	bdev->mode = BRAID_DCO_MODE_P2P;
	if (data && data[IFLA_BRAID_DCO_MODE])
		bdev->mode = nla_get_u8(data[IFLA_BRAID_DCO_MODE]);
	mutex_init(&bdev->lock);
	hash_init(bdev->peers);
	return register_netdevice(dev);
}

static void braid_dellink(struct net_device *dev, struct list_head *head)
{
	struct braid_dev *bdev = netdev_priv(dev);

	mutex_lock(&bdev->lock);
	bdev->dead = true;
	braid_peers_remove_all(bdev, BRAID_DCO_DEL_REASON_TEARDOWN);
	mutex_unlock(&bdev->lock);
	unregister_netdevice_queue(dev, head);
}

struct rtnl_link_ops braid_link_ops __read_mostly = {
	.kind = BRAID_DCO_LINK_KIND,
	.priv_size = sizeof(struct braid_dev),
	.setup = braid_dev_setup,
	.maxtype = IFLA_BRAID_DCO_MAX,
	.policy = braid_link_policy,
	.newlink = braid_newlink,
	.dellink = braid_dellink,
};
