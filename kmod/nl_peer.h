/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink handlers of PEER_NEW, PEER_DEL and PEER_GET (do and dump).
 */
#ifndef _BRAID_DCO_NL_PEER_H_
#define _BRAID_DCO_NL_PEER_H_

#include <net/genetlink.h>

int braid_nl_peer_new(struct sk_buff *skb, struct genl_info *info);
int braid_nl_peer_del(struct sk_buff *skb, struct genl_info *info);
int braid_nl_peer_get(struct sk_buff *skb, struct genl_info *info);
int braid_nl_peer_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _BRAID_DCO_NL_PEER_H_ */
