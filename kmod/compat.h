/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs between the kernels braid_dco builds for: Debian 12's 6.1 (the VM tests boot it)
 * and the newest Debian 12 offers, 6.12 from bookworm-security (kmod.build_newer builds against
 * its headers). Where a symbol tells the difference it is tested (#ifdef); the rest by version
 * (sparse, which kmod.sparse runs, does not know __has_include). checkpatch's LINUX_VERSION_CODE
 * and CONSTANT_COMPARISON warnings on those tests are this file's documented exceptions
 * (docs/kmod.md "checkpatch"): an out-of-tree module builds for more than one kernel.
 */
#ifndef BRAID_DCO_COMPAT_H
#define BRAID_DCO_COMPAT_H

#include <linux/netdevice.h>
#include <linux/version.h>
#include <net/genetlink.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>	/* 6.12: moved out of asm/ */
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.2 split each genetlink op into a do and a dump part: pre_doit/post_doit take the split op,
 * and a dump's parsed attributes live in the dump info's genl_info.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define braid_genl_op genl_split_ops
#define braid_dumpit_attrs(dinfo) ((dinfo)->info.attrs)
#else
#define braid_genl_op genl_ops
#define braid_dumpit_attrs(dinfo) ((dinfo)->attrs)
#endif

/**
 * braid_dev_set_lockless() - mark a device lockless on transmit and bound to its network namespace
 * @dev: the device being set up
 *
 * 6.12 made both device flags plain fields: NETIF_F_LLTX is dev->lltx, NETIF_F_NETNS_LOCAL is
 * dev->netns_immutable (as the 6.12 stable series names it).
 */
static inline void braid_dev_set_lockless(struct net_device *dev)
{
#ifdef NETIF_F_LLTX
	dev->features |= NETIF_F_LLTX;
#else
	dev->lltx = true;
#endif
#ifdef NETIF_F_NETNS_LOCAL
	dev->features |= NETIF_F_NETNS_LOCAL;
#else
	dev->netns_immutable = true;
#endif
}

/*
 * The device's per-CPU packet counters (struct pcpu_sw_netstats, read by dev_get_tstats64):
 * iptunnel_xmit() adds every packet sent with the device as skb->dev to them, and the receive
 * path adds what it hands up. Until 6.6 the driver allocates them (ndo_init) and frees them
 * (ndo_uninit); since 6.7 the core does, for a device whose pcpu_stat_type says TSTATS (and
 * 6.12 warns when a tunnel transmits on a device without).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
static inline void braid_dev_tstats_type(struct net_device *dev)
{
	dev->pcpu_stat_type = NETDEV_PCPU_STAT_TSTATS;
}

static inline int braid_dev_tstats_alloc(struct net_device *dev)
{
	return 0;
}

static inline void braid_dev_tstats_free(struct net_device *dev)
{
}
#else
static inline void braid_dev_tstats_type(struct net_device *dev)
{
}

static inline int braid_dev_tstats_alloc(struct net_device *dev)
{
	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	return dev->tstats ? 0 : -ENOMEM;
}

static inline void braid_dev_tstats_free(struct net_device *dev)
{
	free_percpu(dev->tstats);
	dev->tstats = NULL;
}
#endif

#endif /* BRAID_DCO_COMPAT_H */
