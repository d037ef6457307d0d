/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Module-wide state set up at load: the workqueue that frees paths and keys after an RCU grace
 * period (drained at unload before the balance is reported).
 */
#ifndef _BRAID_DCO_MAIN_H_
#define _BRAID_DCO_MAIN_H_

#include <linux/workqueue.h>

extern struct workqueue_struct *braid_wq;

#endif /* _BRAID_DCO_MAIN_H_ */
