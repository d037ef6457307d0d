// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_dev.c - the braid_dco device a role uses instead of a TUN with the
 * kernel backend (dco_dev.h): created over rtnetlink (dco_nl.c), configured
 * by the role like a TUN, deleted at close.
 */
#include "dataplane/dco_dev.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "dataplane/dco_nl.h"
#include "util/log.h"

#define DCO_DEV_PICK 16	/* braid0 .. braid15 */

static bool dev_named(const char *dev)
{
	return dev[0] && strcmp(dev, "tun") && strcmp(dev, "tap") && !strchr(dev, '%');
}

int braid_dco_dev_open(struct braid_tun *t, const struct braid_options *o)
{
	struct braid_dco_nl *d = NULL;
	char name[IFNAMSIZ];
	int r, idx = 0;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	r = braid_dco_nl_open(&d);
	if (r) {
		braid_err("dco: cannot talk to the braid_dco module: %s", strerror(-r));
		return r;
	}
	if (dev_named(o->dev)) {
		snprintf(name, sizeof(name), "%s", o->dev);
		r = braid_dco_nl_link_new(d, name, false, &idx);
	} else {
		r = -EEXIST;
		for (int i = 0; i < DCO_DEV_PICK && r == -EEXIST; i++) {
			snprintf(name, sizeof(name), "braid%d", i);
			r = if_nametoindex(name) ? -EEXIST : braid_dco_nl_link_new(d, name, false, &idx);
		}
	}
	if (r) {
		braid_err("dco: cannot create the braid_dco device %s: %s%s%s", name, strerror(-r),
			  braid_dco_nl_error(d)[0] ? ": " : "", braid_dco_nl_error(d));
		braid_dco_nl_close(d);
		return r;
	}
	braid_dco_nl_close(d);
	t->ifindex = idx;
	snprintf(t->name, sizeof(t->name), "%s", name);
	/* the kernel carries the packets: the role's TUN watcher gets an fd that stays quiet */
	t->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (t->fd < 0 || braid_nl_open(&t->nl)) {
		r = t->fd < 0 ? -errno : -ENOMEM;
		braid_err("dco: %s: %s", name, strerror(-r));
		braid_dco_dev_close(t, o);
		return r;
	}
	braid_info("dco: device %s (braid_dco, ifindex %d) instead of a TUN", name, idx);
	return 0;
}

void braid_dco_dev_close(struct braid_tun *t, const struct braid_options *o)
{
	struct braid_dco_nl *d = NULL;
	int idx = t->ifindex, r;

	if (t->fd >= 0 && t->nl)
		braid_tun_close(t, o);
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (!idx)
		return;
	t->ifindex = 0;
	r = braid_dco_nl_open(&d);
	if (!r)
		r = braid_dco_nl_link_del(d, idx);
	braid_dco_nl_close(d);
	if (r && r != -ENODEV)
		braid_warn("dco: cannot delete the device %s: %s", t->name, strerror(-r));
}
