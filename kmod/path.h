/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One path of a peer: a UDP socket userspace created and passed by fd, and the remote (and
 * optionally local) endpoint packets on this path use. A socket may carry paths of several peers.
 */
#ifndef _BRAID_DCO_PATH_H_
#define _BRAID_DCO_PATH_H_

#include <linux/atomic.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/workqueue.h>
#include <linux/socket.h>

#include "pcpu.h"

/**
 * union braid_sockaddr - an IPv4 or IPv6 UDP endpoint
 * @sa: the family
 * @in4: IPv4
 * @in6: IPv6
 */
union braid_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in4;
	struct sockaddr_in6 in6;
};

/**
 * enum braid_path_ctr - a path's per-CPU counters (struct braid_ctrs indices)
 * @BRAID_PATH_RX_PACKETS: outer packets received on this path
 * @BRAID_PATH_RX_BYTES: outer bytes received on this path
 * @BRAID_PATH_TX_PACKETS: outer packets sent on this path
 * @BRAID_PATH_TX_BYTES: outer bytes sent on this path
 * @BRAID_PATH_RX_SPAN_PACKETS: packets received within BRAID_RX_SPAN_JOIN_NS of the previous one on
 *                              this path, a data packet's or a control packet's that followed data
 *                              (the delivery-rate spans, io.c)
 * @BRAID_PATH_RX_SPAN_BYTES: their outer bytes
 * @BRAID_PATH_RX_SPAN_NS: the sum of those gaps: bytes / time is the path's delivery rate while it
 *                         was busy, as a multipath receiver reports it (Braid's REPORT span)
 * @BRAID_PATH_NR: number of counters
 */
enum braid_path_ctr {
	BRAID_PATH_RX_PACKETS,
	BRAID_PATH_RX_BYTES,
	BRAID_PATH_TX_PACKETS,
	BRAID_PATH_TX_BYTES,
	BRAID_PATH_RX_SPAN_PACKETS,
	BRAID_PATH_RX_SPAN_BYTES,
	BRAID_PATH_RX_SPAN_NS,
	BRAID_PATH_NR,
};

/**
 * struct braid_path - a path of a peer
 * @id: the path id (index in the peer's path array)
 * @bs: the UDP socket (shared by the paths that use it)
 * @remote: the peer's endpoint on this path; changed by a float (io.c) under @remote_lock, read
 *          with braid_path_remote()
 * @remote_lock: the seqlock of @remote (written from softirq, read by transmit and requests)
 * @local: the local endpoint (AF_UNSPEC: the socket's choice)
 * @rwork: frees the path in process context after a grace period
 * @stats: per-CPU counters of outer packets and bytes, indexed by enum braid_path_ctr
 * @rx_last_pktid: packet id of the last data packet received on this path
 * @rx_last_ns: when it, or a control packet in its span, arrived (ktime_get_ns()): the start of the
 *              next delivery-rate gap
 * @down: userspace marked the path down (PATH_SET): the built-in round robin skips it; written
 *        under the device lock, read locklessly
 * @backup: a backup path: the built-in round robin uses it only when no other path is up; as @down
 * @tx_failing: 1 from a failed send on this path (no route, the source address gone) to the next
 *              successful one; each change is notified (PATH_NTF tx-error / tx-resumed), and the
 *              built-in round robin leaves a failing path while another path is usable
 */
struct braid_path {
	u8 id;
	struct braid_sock *bs;
	union braid_sockaddr remote;
	seqlock_t remote_lock;
	union braid_sockaddr local;
	struct rcu_work rwork;
	struct braid_ctrs __percpu *stats;
	u32 rx_last_pktid;
	u64 rx_last_ns;
	bool down;
	bool backup;
	atomic_t tx_failing;
};

struct braid_dev;
struct braid_sock;

struct braid_path *braid_path_new(struct braid_dev *bdev, u8 id, int fd,
				  const union braid_sockaddr *remote,
				  const union braid_sockaddr *local,
					  struct netlink_ext_ack *extack);
void braid_path_release(struct braid_path *path);

/**
 * braid_path_remote() - a consistent copy of a path's remote endpoint
 * @path: the path
 * @out: the copy
 */
static inline void braid_path_remote(const struct braid_path *path, union braid_sockaddr *out)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&path->remote_lock);
		*out = path->remote;
	} while (read_seqretry(&path->remote_lock, seq));
}

#endif /* _BRAID_DCO_PATH_H_ */
