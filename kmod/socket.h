/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A UDP socket userspace handed to a device: the module's file reference, the UDP encapsulation
 * hook that takes P_DATA_V2 packets into the device (everything else reaches userspace as before),
 * and a reference count over the paths that use the socket. A socket serves one device.
 */
#ifndef _BRAID_DCO_SOCKET_H_
#define _BRAID_DCO_SOCKET_H_

#include <linux/kref.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/workqueue.h>

struct braid_dev;

/**
 * struct braid_sock - the module's hold on a UDP socket
 * @sock: the socket (file reference from sockfd_lookup())
 * @bdev: the device it feeds (the device is held: dev_hold() until the last put)
 * @refcount: one per path using the socket
 * @rwork: detaches and frees in process context after a grace period
 */
struct braid_sock {
	struct socket *sock;
	struct braid_dev *bdev;
	struct kref refcount;
	struct rcu_work rwork;
};

struct braid_sock *braid_sock_get(struct braid_dev *bdev, int fd, struct netlink_ext_ack *extack);
void braid_sock_put(struct braid_sock *bs);

#endif /* _BRAID_DCO_SOCKET_H_ */
