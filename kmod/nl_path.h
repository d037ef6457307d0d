/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink handlers of PATH_ADD, PATH_DEL and PATH_SET.
 */
#ifndef _BRAID_DCO_NL_PATH_H_
#define _BRAID_DCO_NL_PATH_H_

#include <net/genetlink.h>

int braid_nl_path_add(struct sk_buff *skb, struct genl_info *info);
int braid_nl_path_del(struct sk_buff *skb, struct genl_info *info);
int braid_nl_path_set(struct sk_buff *skb, struct genl_info *info);

#endif /* _BRAID_DCO_NL_PATH_H_ */
