/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_dev.h - the braid_dco device in place of a TUN (dco_dev.c): with the
 * kernel backend (dco_select.h chose "dco") a role opens its tunnel device
 * here instead of os/tun.c. The kernel forwards between the device and the
 * paths itself, so the role never reads or writes it: t->fd is an eventfd
 * that never becomes readable (the role's TUN watcher stays idle), and the
 * addresses, MTU and routes are set through t->nl on t->ifindex as for a TUN.
 */
#ifndef BRAID_DP_DCO_DEV_H
#define BRAID_DP_DCO_DEV_H

#include "config/options.h"
#include "os/tun.h"

/*
 * braid_dco_dev_open() - create the device: o->dev when it names one
 * ("tun"/"tap"/"" mean "pick one": braid0..braid15, the first free), point to
 * point mode. 0 or -errno (logged with the kernel's reason).
 */
int braid_dco_dev_open(struct braid_tun *t, const struct braid_options *o);

/* braid_dco_dev_close() - what braid_tun_close() undoes, then delete the device. */
void braid_dco_dev_close(struct braid_tun *t, const struct braid_options *o);

#endif /* BRAID_DP_DCO_DEV_H */
