/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The braid_dco generic netlink family: registration, the device lookup every request
 * starts with, the rejection accounting, and the peer and path notifications to the "peers"
 * multicast group.
 */
#ifndef _BRAID_DCO_NETLINK_H_
#define _BRAID_DCO_NETLINK_H_

#include <net/genetlink.h>

#include "uapi/linux/braid_dco.h"

struct braid_dev;
struct braid_path;

int braid_nl_register(void);
void braid_nl_unregister(void);
int braid_nl_done(struct genl_info *info, int err);
struct nlattr **braid_nl_parse_nest(struct genl_info *info, int attr, int maxtype,
				    const struct nla_policy *policy);
int braid_nl_put_u64s(struct sk_buff *msg, const int *attrs, const u64 *v, unsigned int n,
		      int pad);
void braid_nl_peer_del_notify(struct braid_dev *bdev, u32 peer_id,
			      enum braid_dco_del_reason reason);
void braid_nl_path_notify(struct braid_dev *bdev, u32 peer_id, const struct braid_path *path,
			  enum braid_dco_path_event event, int err, gfp_t gfp);

extern struct genl_family braid_nl_family;

/**
 * braid_nl_dev() - the device a request names (looked up and held by the family's pre_doit)
 * @info: the request
 *
 * Return: the device's private data
 */
static inline struct braid_dev *braid_nl_dev(struct genl_info *info)
{
	return info->user_ptr[0];
}

#endif /* _BRAID_DCO_NETLINK_H_ */
