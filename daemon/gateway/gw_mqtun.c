// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_mqtun.c - the queues of the gateway's multiqueue TUN device
 * (gw_mqtun.h).
 */
#include "gateway/gw_mqtun.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gateway/gw_reuseport.h"
#include "os/tun.h"

static int mq_open(const char *name, unsigned n, int *fds, char ifname[IFNAMSIZ], bool vnet)
{
	struct ifreq ifr;
	unsigned i;
	int r = 0;

	if (!n || n > BRAID_GW_MAX_WORKERS || strlen(name) >= IFNAMSIZ)
		return -EINVAL;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", strcmp(name, "tun") ? name : "tun%d");
	for (i = 0; i < n; i++) {
		fds[i] = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fds[i] < 0) {
			r = -errno;
			break;
		}
		ifr.ifr_flags = IFF_TUN | IFF_NO_PI | IFF_MULTI_QUEUE | (vnet ? IFF_VNET_HDR : 0);
		/* the first queue creates the device (and names it); the others attach by that name */
		if (ioctl(fds[i], TUNSETIFF, &ifr) < 0) {
			r = -errno;
			close(fds[i]);
			break;
		}
		if (vnet) {
			int hsz = BRAID_TUN_VNET_LEN;

			/* the header size is each queue's; the offloads are the device's */
			if (ioctl(fds[i], TUNSETVNETHDRSZ, &hsz) < 0 ||
			    (!i && ioctl(fds[i], TUNSETOFFLOAD, TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6) < 0)) {
				r = -errno;
				close(fds[i]);
				break;
			}
		}
	}
	if (r) {
		while (i--)
			close(fds[i]);
		return r;
	}
	snprintf(ifname, IFNAMSIZ, "%s", ifr.ifr_name);
	return 0;
}

int braid_gw_mqtun_open(const char *name, unsigned n, int *fds, char ifname[IFNAMSIZ])
{
	return mq_open(name, n, fds, ifname, false);
}

int braid_gw_mqtun_open_vnet(const char *name, unsigned n, int *fds, char ifname[IFNAMSIZ],
			     bool *vnet)
{
	int r = mq_open(name, n, fds, ifname, true);

	*vnet = !r;
	if (r != -EINVAL && r != -ENOTTY && r != -EOPNOTSUPP)
		return r;
	return mq_open(name, n, fds, ifname, false);
}
