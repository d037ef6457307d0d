// SPDX-License-Identifier: GPL-2.0-only
/*
 * Path objects: the socket passed by fd is checked (UDP, family of the remote endpoint) and
 * referenced; release drops the reference after an RCU grace period, since the data path reads
 * paths under RCU.
 */
#include <linux/file.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "counters.h"
#include "main.h"
#include "path.h"
#include "socket.h"

/**
 * braid_path_new() - take a reference on a UDP socket and build a path around it
 * @bdev: the device the path's packets belong to
 * @id: the path id
 * @fd: a file descriptor of the calling process
 * @remote: the remote endpoint (AF_INET or AF_INET6, port set)
 * @local: the local endpoint or AF_UNSPEC
 * @extack: where a refusal is explained
 *
 * Return: the path, or ERR_PTR: -EBADF/-ENOTSOCK (not a socket), -EPROTONOSUPPORT (not UDP), -EBUSY
 * (the socket serves another device or encapsulation),
 * -EAFNOSUPPORT (family mismatch), -ENOMEM
 */
struct braid_path *braid_path_new(struct braid_dev *bdev, u8 id, int fd,
				  const union braid_sockaddr *remote,
				  const union braid_sockaddr *local, struct netlink_ext_ack *extack)
{
	struct braid_path *path;
	struct braid_sock *bs;
	int family, err;

	bs = braid_sock_get(bdev, fd, extack);
	if (IS_ERR(bs))
		return ERR_CAST(bs);
	family = bs->sock->sk->sk_family;
	if (family != remote->sa.sa_family && !(family == AF_INET6 &&
						remote->sa.sa_family == AF_INET)) {
		NL_SET_ERR_MSG(extack, "socket: its family cannot reach the remote address");
		err = -EAFNOSUPPORT;
		goto err_put;
	}
	path = kzalloc(sizeof(*path), GFP_KERNEL);
	if (path)
		path->stats = braid_ctrs_alloc(GFP_KERNEL);
	if (!path || !path->stats) {
		kfree(path);
		err = -ENOMEM;
		goto err_put;
	}
	path->id = id;
	path->bs = bs;
	path->remote = *remote;
	seqlock_init(&path->remote_lock);
	path->local = *local;
	braid_obj_created(BRAID_OBJ_PATH);
	pr_debug("path %u created\n", id);
	return path;

err_put:
	braid_sock_put(bs);
	return ERR_PTR(err);
}

static void braid_path_free_work(struct work_struct *work)
{
	struct braid_path *path = container_of(to_rcu_work(work), struct braid_path, rwork);

	braid_sock_put(path->bs);
	braid_obj_destroyed(BRAID_OBJ_PATH);
	free_percpu(path->stats);
	kfree(path);
}

/**
 * braid_path_release() - free a path once no RCU reader can see it
 * @path: the path, already unpublished (may be NULL)
 */
void braid_path_release(struct braid_path *path)
{
	if (!path)
		return;
	pr_debug("path %u destroyed\n", path->id);
	INIT_RCU_WORK(&path->rwork, braid_path_free_work);
	queue_rcu_work(braid_wq, &path->rwork);
}
