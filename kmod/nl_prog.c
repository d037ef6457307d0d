// SPDX-License-Identifier: GPL-2.0-only
/*
 * PROG_ATTACH, PROG_DETACH and PROG_GET: a BPF_PROG_TYPE_SCHED_CLS program (by fd) as a device's
 * path scheduler (sched.c), taken with bpf_prog_get_type_dev() so that only that type is
 * accepted, and the scheduler counters.
 */
#include <linux/bpf.h>
#include <linux/slab.h>

#include "device.h"
#include "netlink.h"
#include "nl_policy.h"
#include "nl_prog.h"
#include "sched.h"

/**
 * braid_nl_prog_attach() - PROG_ATTACH: make a program the device's scheduler
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno (extack says why): -EBADF not an open fd, -EINVAL not a sched_cls program,
 * -ENODEV the device is being removed
 */
int braid_nl_prog_attach(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	struct bpf_prog *prog;
	struct nlattr **tb;
	int err;

	tb = braid_nl_parse_nest(info, BRAID_DCO_A_SCHED, BRAID_DCO_A_SCHED_MAX,
				 braid_sched_attach_nl_policy);
	if (!tb)
		return braid_nl_done(info, info->attrs[BRAID_DCO_A_SCHED] ? -ENOMEM : -EINVAL);
	err = -EINVAL;
	if (NL_REQ_ATTR_CHECK(info->extack, info->attrs[BRAID_DCO_A_SCHED], tb,
			      BRAID_DCO_A_SCHED_PROG_FD))
		goto out;
	prog = bpf_prog_get_type_dev(nla_get_u32(tb[BRAID_DCO_A_SCHED_PROG_FD]),
				     BPF_PROG_TYPE_SCHED_CLS, false);
	if (IS_ERR(prog)) {
		err = PTR_ERR(prog);
		if (err == -EBADF)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_SCHED_PROG_FD],
					    "prog-fd is not an open file descriptor");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, tb[BRAID_DCO_A_SCHED_PROG_FD],
					    "prog-fd is not a BPF program of type sched_cls");
		goto out;
	}
	mutex_lock(&bdev->lock);
	if (bdev->dead) {
		mutex_unlock(&bdev->lock);
		bpf_prog_put(prog);
		NL_SET_ERR_MSG(info->extack, "the device is being removed");
		err = -ENODEV;
		goto out;
	}
	err = braid_sched_attach(bdev, prog);
	mutex_unlock(&bdev->lock);
	netdev_dbg(bdev->dev, "scheduler program %u attached\n", prog->aux->id);
out:
	kfree(tb);
	return braid_nl_done(info, err);
}

/**
 * braid_nl_prog_detach() - PROG_DETACH: back to the built-in round robin
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -ENOENT when no program is attached (extack set)
 */
int braid_nl_prog_detach(struct sk_buff *skb, struct genl_info *info)
{
	struct braid_dev *bdev = braid_nl_dev(info);
	int err;

	mutex_lock(&bdev->lock);
	err = braid_sched_detach(bdev);
	mutex_unlock(&bdev->lock);
	if (err)
		NL_SET_ERR_MSG(info->extack, "no scheduler program is attached");
	return braid_nl_done(info, err);
}

/**
 * braid_nl_prog_get() - PROG_GET: the attached program's id and the scheduler counters
 * @skb: the request
 * @info: its attributes
 *
 * Return: 0 or -errno
 */
int braid_nl_prog_get(struct sk_buff *skb, struct genl_info *info)
{
	static const int attrs[BRAID_SCHED_NR] = {
		[BRAID_SCHED_RUNS] = BRAID_DCO_A_SCHED_RUNS,
		[BRAID_SCHED_FALLBACKS] = BRAID_DCO_A_SCHED_FALLBACKS,
		[BRAID_SCHED_COPIES] = BRAID_DCO_A_SCHED_COPIES,
		[BRAID_SCHED_REROUTES] = BRAID_DCO_A_SCHED_REROUTES,
	};
	struct braid_dev *bdev = braid_nl_dev(info);
	u64 v[BRAID_SCHED_NR];
	struct nlattr *nest;
	struct sk_buff *msg;
	u32 id;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return braid_nl_done(info, -ENOMEM);
	hdr = genlmsg_put_reply(msg, info, &braid_nl_family, 0, BRAID_DCO_CMD_PROG_GET);
	if (!hdr || nla_put_u32(msg, BRAID_DCO_A_IFINDEX, bdev->dev->ifindex))
		goto err_size;
	nest = nla_nest_start(msg, BRAID_DCO_A_SCHED);
	if (!nest)
		goto err_size;
	mutex_lock(&bdev->lock);
	id = braid_sched_prog_id(bdev);
	mutex_unlock(&bdev->lock);
	braid_ctrs_sum(bdev->sched.stats, v, BRAID_SCHED_NR);
	if ((id && nla_put_u32(msg, BRAID_DCO_A_SCHED_PROG_ID, id)) ||
	    braid_nl_put_u64s(msg, attrs, v, BRAID_SCHED_NR, BRAID_DCO_A_SCHED_PAD))
		goto err_size;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_size:
	nlmsg_free(msg);
	return braid_nl_done(info, -EMSGSIZE);
}
