// SPDX-License-Identifier: GPL-2.0-only
/*
 * The created/destroyed balance of braid_dco's objects and the rejected-request count.
 * Every constructor calls braid_obj_created() once it cannot fail any more, every final release
 * calls braid_obj_destroyed(); at unload the module logs both columns so a leak shows as an
 * imbalance.
 */
#include <linux/kernel.h>
#include <linux/printk.h>

#include "counters.h"

static atomic64_t created[BRAID_OBJ_NR];
static atomic64_t destroyed[BRAID_OBJ_NR];
static atomic64_t rejected;

static const char *const obj_name[BRAID_OBJ_NR] = {
	[BRAID_OBJ_DEV] = "dev",
	[BRAID_OBJ_PEER] = "peer",
	[BRAID_OBJ_PATH] = "path",
	[BRAID_OBJ_KEY] = "key",
};

/**
 * braid_obj_created() - count one object of @kind as created
 * @kind: the object kind
 */
void braid_obj_created(enum braid_obj kind)
{
	atomic64_inc(&created[kind]);
}

/**
 * braid_obj_destroyed() - count one object of @kind as destroyed
 * @kind: the object kind
 */
void braid_obj_destroyed(enum braid_obj kind)
{
	atomic64_inc(&destroyed[kind]);
}

/**
 * braid_obj_count() - read one balance column
 * @kind: the object kind
 * @is_destroyed: false for the created column, true for the destroyed one
 *
 * Return: the number of objects of @kind created (or destroyed) since the module was loaded
 */
u64 braid_obj_count(enum braid_obj kind, bool is_destroyed)
{
	return atomic64_read(is_destroyed ? &destroyed[kind] : &created[kind]);
}

/**
 * braid_rejected_inc() - count one rejected netlink request
 */
void braid_rejected_inc(void)
{
	atomic64_inc(&rejected);
}

/**
 * braid_rejected_count() - the number of rejected netlink requests
 *
 * Return: the count since the module was loaded
 */
u64 braid_rejected_count(void)
{
	return atomic64_read(&rejected);
}

/**
 * braid_counters_balanced() - whether every created object has been destroyed
 *
 * Return: true when the two columns are equal for every kind
 */
bool braid_counters_balanced(void)
{
	int i;

	for (i = 0; i < BRAID_OBJ_NR; i++)
		if (atomic64_read(&created[i]) != atomic64_read(&destroyed[i]))
			return false;
	return true;
}

/**
 * braid_counters_report() - log the balance of every kind (one line, at unload)
 */
void braid_counters_report(void)
{
	int i;

	for (i = 0; i < BRAID_OBJ_NR; i++)
		pr_info("balance %s created=%lld destroyed=%lld\n", obj_name[i],
			(long long)atomic64_read(&created[i]),
			(long long)atomic64_read(&destroyed[i]));
	pr_info("balance %s, rejected requests=%lld\n",
		braid_counters_balanced() ? "ok" : "LEAK",
		(long long)atomic64_read(&rejected));
}
