/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Netlink handler of PACKET_SEND: a control payload of userspace sealed with the data key.
 */
#ifndef _BRAID_DCO_NL_SEND_H_
#define _BRAID_DCO_NL_SEND_H_

#include <net/genetlink.h>

int braid_nl_packet_send(struct sk_buff *skb, struct genl_info *info);

#endif /* _BRAID_DCO_NL_SEND_H_ */
