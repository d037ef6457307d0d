// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attaching the module to a UDP socket passed by fd: the first path on a socket sets up the UDP
 * encapsulation hook (sk_user_data points to the braid_sock), later paths share it, the last put
 * detaches the hook and drops the file reference after an RCU grace period (the hook runs under
 * RCU).
 */
#include <linux/file.h>
#include <linux/slab.h>
#include <net/sock.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "device.h"
#include "io.h"
#include "main.h"
#include "socket.h"

/* the value in udp_sk(sk)->encap_type that marks a braid_dco socket (private to this module) */
#define BRAID_UDP_ENCAP 0x42

static DEFINE_MUTEX(braid_sock_lock);

/**
 * braid_sock_get() - the module's hold on the UDP socket @fd of the caller, attaching it if new
 * @bdev: the device the socket will feed
 * @fd: a file descriptor of the calling process
 * @extack: where a refusal is explained
 *
 * Return: the braid_sock with a reference for the caller, or ERR_PTR: -EBADF/-ENOTSOCK,
 * -EPROTONOSUPPORT (not UDP), -EBUSY (the socket has another encapsulation or serves another
 * device), -ENOMEM
 */
struct braid_sock *braid_sock_get(struct braid_dev *bdev, int fd, struct netlink_ext_ack *extack)
{
	struct udp_tunnel_sock_cfg cfg = { };
	struct braid_sock *bs;
	struct socket *sock;
	int err = 0;

	sock = sockfd_lookup(fd, &err);
	if (!sock) {
		NL_SET_ERR_MSG(extack, "socket: not an open socket of the caller");
		return ERR_PTR(err);
	}
	if (!sock->sk || sock->sk->sk_protocol != IPPROTO_UDP || sock->sk->sk_type != SOCK_DGRAM) {
		NL_SET_ERR_MSG(extack, "socket: not a UDP socket");
		err = -EPROTONOSUPPORT;
		goto err_put;
	}
	mutex_lock(&braid_sock_lock);
	if (udp_sk(sock->sk)->encap_type == BRAID_UDP_ENCAP) {
		bs = rcu_dereference_protected(__sk_user_data(sock->sk),
					       lockdep_is_held(&braid_sock_lock));
		if (bs && bs->bdev == bdev && kref_get_unless_zero(&bs->refcount)) {
			mutex_unlock(&braid_sock_lock);
			sockfd_put(sock);
			return bs;
		}
		NL_SET_ERR_MSG(extack, "socket: serves another braid_dco device");
		err = -EBUSY;
		goto err_unlock;
	}
	if (udp_sk(sock->sk)->encap_type || rcu_access_pointer(__sk_user_data(sock->sk))) {
		NL_SET_ERR_MSG(extack, "socket: already used by another encapsulation");
		err = -EBUSY;
		goto err_unlock;
	}
	bs = kzalloc(sizeof(*bs), GFP_KERNEL);
	if (!bs) {
		err = -ENOMEM;
		goto err_unlock;
	}
	bs->sock = sock;
	bs->bdev = bdev;
	kref_init(&bs->refcount);
	dev_hold(bdev->dev);
	cfg.sk_user_data = bs;
	cfg.encap_type = BRAID_UDP_ENCAP;
	cfg.encap_rcv = braid_udp_encap_recv;
	setup_udp_tunnel_sock(sock_net(sock->sk), sock, &cfg);
	mutex_unlock(&braid_sock_lock);
	return bs;

err_unlock:
	mutex_unlock(&braid_sock_lock);
err_put:
	sockfd_put(sock);
	return ERR_PTR(err);
}

static void braid_sock_free_work(struct work_struct *work)
{
	struct braid_sock *bs = container_of(to_rcu_work(work), struct braid_sock, rwork);

	dev_put(bs->bdev->dev);
	sockfd_put(bs->sock);
	kfree(bs);
}

static void braid_sock_release(struct kref *kref)
{
	struct braid_sock *bs = container_of(kref, struct braid_sock, refcount);
	struct sock *sk = bs->sock->sk;

	/* braid_sock_lock is held (kref_put_mutex): no attach sees a half-detached socket */
	lock_sock(sk);
	WRITE_ONCE(udp_sk(sk)->encap_rcv, NULL);
	WRITE_ONCE(udp_sk(sk)->encap_type, 0);
	rcu_assign_sk_user_data(sk, NULL);
	release_sock(sk);
	mutex_unlock(&braid_sock_lock);
	INIT_RCU_WORK(&bs->rwork, braid_sock_free_work);
	queue_rcu_work(braid_wq, &bs->rwork);
}

/**
 * braid_sock_put() - drop a path's reference; the last one detaches the socket
 * @bs: the socket hold (may be NULL)
 *
 * Context: process context (takes a mutex and the socket lock).
 */
void braid_sock_put(struct braid_sock *bs)
{
	if (bs)
		kref_put_mutex(&bs->refcount, braid_sock_release, &braid_sock_lock);
}
