/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink handlers of KEY_NEW, KEY_SWAP and KEY_DEL.
 */
#ifndef _BRAID_DCO_NL_KEY_H_
#define _BRAID_DCO_NL_KEY_H_

#include <net/genetlink.h>

int braid_nl_key_new(struct sk_buff *skb, struct genl_info *info);
int braid_nl_key_swap(struct sk_buff *skb, struct genl_info *info);
int braid_nl_key_del(struct sk_buff *skb, struct genl_info *info);

#endif /* _BRAID_DCO_NL_KEY_H_ */
