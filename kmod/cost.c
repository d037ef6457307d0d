// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cost counters' storage and switch (cost.h): the module parameter cost_stats flips a static
 * key, so that with counting off transmit and receive pay a no-op instruction per measuring point.
 */
#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>

#include "cost.h"

DEFINE_STATIC_KEY_FALSE(braid_cost_key);
struct braid_ctrs __percpu *braid_cost;

/* kernel_param_lock serialises the writers (load time and sysfs) */
static int braid_cost_param_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err)
		return err;
	if (on)
		static_branch_enable(&braid_cost_key);
	else
		static_branch_disable(&braid_cost_key);
	pr_info("cost counters %s\n", on ? "on" : "off");
	return 0;
}

static int braid_cost_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%c\n", braid_cost_enabled() ? 'Y' : 'N');
}

static const struct kernel_param_ops braid_cost_param_ops = {
	.set = braid_cost_param_set,
	.get = braid_cost_param_get,
};

module_param_cb(cost_stats, &braid_cost_param_ops, NULL, 0644);
MODULE_PARM_DESC(cost_stats,
		 "count ns and packets of encrypt, decrypt and path schedule (STATS_GET cost)");

/**
 * braid_cost_enabled() - whether the cost counters count
 *
 * Return: true when cost_stats is on
 */
bool braid_cost_enabled(void)
{
	return static_key_enabled(&braid_cost_key);
}

/**
 * braid_cost_init() - allocate the cost counters (at module load, before any device exists)
 *
 * Return: 0 or -ENOMEM
 */
int braid_cost_init(void)
{
	braid_cost = braid_ctrs_alloc(GFP_KERNEL);
	return braid_cost ? 0 : -ENOMEM;
}

/**
 * braid_cost_exit() - free the cost counters (at unload, after every device is gone)
 */
void braid_cost_exit(void)
{
	free_percpu(braid_cost);
	braid_cost = NULL;
}
