// SPDX-License-Identifier: GPL-2.0-only
/*
 * Braid_dco module load and unload: the free workqueue, the rtnetlink link kind and the
 * generic netlink family; at unload every object is gone (rtnl_link_unregister removes the devices,
 * rcu_barrier() and the workqueue drain release the rest) and the created/destroyed balance is
 * logged.
 */
#include <linux/module.h>
#include <net/rtnetlink.h>

#include "uapi/linux/braid_dco.h"
#include "cost.h"
#include "counters.h"
#include "device.h"
#include "main.h"
#include "netlink.h"

struct workqueue_struct *braid_wq;

static int __init braid_init(void)
{
	int err;

	err = braid_cost_init();
	if (err)
		return err;
	err = -ENOMEM;
	braid_wq = alloc_workqueue("braid_dco", WQ_UNBOUND, 0);
	if (!braid_wq)
		goto err_cost;
	err = rtnl_link_register(&braid_link_ops);
	if (err)
		goto err_wq;
	err = braid_nl_register();
	if (err)
		goto err_link;
	pr_info("loaded (generic netlink family %s, link kind %s)\n", BRAID_DCO_FAMILY_NAME,
		BRAID_DCO_LINK_KIND);
	return 0;

err_link:
	rtnl_link_unregister(&braid_link_ops);
err_wq:
	destroy_workqueue(braid_wq);
err_cost:
	braid_cost_exit();
	return err;
}

static void __exit braid_exit(void)
{
	braid_nl_unregister();
	rtnl_link_unregister(&braid_link_ops);
	/* peers are freed by call_rcu, paths and keys by rcu_work: wait for both */
	rcu_barrier();
	destroy_workqueue(braid_wq);
	braid_cost_exit();
	braid_counters_report();
	pr_info("unloaded\n");
}

module_init(braid_init);
module_exit(braid_exit);
MODULE_DESCRIPTION("Braid multipath OpenVPN data channel offload");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RTNL_LINK(BRAID_DCO_LINK_KIND);
MODULE_ALIAS_GENL_FAMILY(BRAID_DCO_FAMILY_NAME);
