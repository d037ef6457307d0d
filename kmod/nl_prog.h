/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink handlers of PROG_ATTACH, PROG_DETACH and PROG_GET (the path scheduler program).
 */
#ifndef _BRAID_DCO_NL_PROG_H_
#define _BRAID_DCO_NL_PROG_H_

#include <net/genetlink.h>

int braid_nl_prog_attach(struct sk_buff *skb, struct genl_info *info);
int braid_nl_prog_detach(struct sk_buff *skb, struct genl_info *info);
int braid_nl_prog_get(struct sk_buff *skb, struct genl_info *info);

#endif /* _BRAID_DCO_NL_PROG_H_ */
