/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink handlers of PEER_NEW, PEER_DEL and PEER_GET (do and dump), and the endpoint attributes
 * they and the path notifications put.
 */
#ifndef _BRAID_DCO_NL_PEER_H_
#define _BRAID_DCO_NL_PEER_H_

#include <net/genetlink.h>

union braid_sockaddr;

int braid_nl_peer_new(struct sk_buff *skb, struct genl_info *info);
int braid_nl_peer_del(struct sk_buff *skb, struct genl_info *info);
int braid_nl_peer_get(struct sk_buff *skb, struct genl_info *info);
int braid_nl_peer_dump(struct sk_buff *skb, struct netlink_callback *cb);
int braid_nl_put_addr(struct sk_buff *msg, const union braid_sockaddr *sa, int a4, int a6,
		      int port);

#endif /* _BRAID_DCO_NL_PEER_H_ */
