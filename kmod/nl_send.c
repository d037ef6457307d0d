// SPDX-License-Identifier: GPL-2.0-only
/*
 * PACKET_SEND: userspace's control payloads (OpenVPN ping and OCC, Braid's multipath control
 * messages) sealed by the module with the peer's primary key and sent on a named path. Userspace
 * must not seal with a key the module holds: both would count packet ids from 1 and reuse nonces.
 * The reply carries the packet id the payload took.
 */
#include <linux/slab.h>

#include "device.h"
#include "io.h"
#include "netlink.h"
#include "nl_policy.h"
#include "nl_send.h"
#include "peer.h"

static int braid_nl_send_reply(struct genl_info *info, u32 pktid)
{
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &braid_nl_family, 0, BRAID_DCO_CMD_PACKET_SEND);
	if (!hdr)
		goto err;
	if (nla_put_u32(msg, BRAID_DCO_A_IFINDEX, braid_nl_dev(info)->dev->ifindex))
		goto err;
	nest = nla_nest_start(msg, BRAID_DCO_A_SEND);
	if (!nest || nla_put_u32(msg, BRAID_DCO_A_SEND_PACKET_ID, pktid))
		goto err;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/**
 * braid_nl_packet_send() - PACKET_SEND: seal a control payload and send it on one path of a peer
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 (the reply sent) or -errno (extack says why): -ENOENT no such peer or path, -ENOKEY
 * no primary key, -EINVAL an empty payload or an IP packet, else the route's or send's error
 */
int braid_nl_packet_send(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *nest = info->attrs[BRAID_DCO_A_SEND];
	struct braid_dev *bdev = braid_nl_dev(info);
	struct braid_peer *peer;
	struct nlattr **tb;
	const u8 *data;
	int err = -EINVAL;
	u32 pktid = 0;
	int len;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_SEND, BRAID_DCO_A_SEND_MAX,
				 braid_send_nl_policy);
	if (!tb)
		return braid_nl_done(info, -EINVAL);
	if (NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_SEND_PEER_ID) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_SEND_PATH_ID) ||
	    NL_REQ_ATTR_CHECK(info->extack, nest, tb, BRAID_DCO_A_SEND_PAYLOAD))
		goto out;
	data = nla_data(tb[BRAID_DCO_A_SEND_PAYLOAD]);
	len = nla_len(tb[BRAID_DCO_A_SEND_PAYLOAD]);
	if (len < 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_SEND_PAYLOAD], "an empty payload");
		goto out;
	}
	if (braid_is_ip(data[0])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_SEND_PAYLOAD],
				    "an IP packet: write it to the device");
		goto out;
	}
	peer = braid_peer_lookup(bdev, nla_get_u32(tb[BRAID_DCO_A_SEND_PEER_ID]));
	if (!peer) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_SEND_PEER_ID],
				    "no peer with this id");
		err = -ENOENT;
		goto out;
	}
	err = braid_send_ctl(peer, nla_get_u32(tb[BRAID_DCO_A_SEND_PATH_ID]), data, len, &pktid);
	braid_peer_put(peer);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_SEND_PATH_ID],
				    "the peer has no path with this id");
	else if (err == -ENOKEY)
		NL_SET_ERR_MSG(info->extack, "the peer has no primary key");
	else if (err)
		NL_SET_ERR_MSG(info->extack, "the send failed");
	if (!err)
		err = braid_nl_send_reply(info, pktid);
out:
	kfree(tb);
	return braid_nl_done(info, err);
}
