// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-packet path choice. Without a program: round robin over the peer's paths that are up
 * (PATH_SET) and sending, the backups only when no other path is up, a path whose sends fail only
 * when no other is left. With a
 * BPF_PROG_TYPE_SCHED_CLS program attached (nl_prog.c): the program runs on the inner packet,
 * framed as tc shows a packet on an Ethernet device (a zeroed Ethernet header whose type is the
 * packet's protocol, then the IP packet; __sk_buff cb[] zeroed) so that the object
 * BPF_PROG_TEST_RUN tests on the host runs here unchanged; its return value is the path id (bits
 * 8-15: one plus the id of a path that also gets a copy). A result naming no path falls back to
 * round robin and is counted. The program pointer is swapped with rcu_replace_pointer() and the
 * old program is put after a grace period, so a swap under load never leaves transmit without a
 * scheduler.
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/skbuff.h>

#include "device.h"
#include "path.h"
#include "peer.h"
#include "sched.h"

/**
 * braid_sched_builtin() - the built-in round robin's choice, whatever program is attached
 * @peer: the peer
 *
 * Round robin over the peer's paths that are up, not backups and not failing to send, else over
 * such backups, else over the paths that are up but failing (a send that works again clears the
 * state: io.c). The choice without a program, after a program's fallback, and for a packet whose
 * send on the chosen path failed (io.c).
 *
 * Context: under rcu_read_lock().
 * Return: a path, or NULL when the peer has no path that is up
 */
struct braid_path *braid_sched_builtin(struct braid_peer *peer)
{
	struct braid_path *paths[BRAID_DCO_PATHS_MAX], *backups[BRAID_DCO_PATHS_MAX];
	struct braid_path *failing[BRAID_DCO_PATHS_MAX], *path;
	unsigned int i, n = 0, nb = 0, nf = 0, rr;

	for (i = 0; i < BRAID_DCO_PATHS_MAX; i++) {
		path = rcu_dereference(peer->paths[i]);
		if (!path || READ_ONCE(path->down))
			continue;
		if (atomic_read(&path->tx_failing))
			failing[nf++] = path;
		else if (READ_ONCE(path->backup))
			backups[nb++] = path;
		else
			paths[n++] = path;
	}
	if (!n && !nb && !nf)
		return NULL;
	rr = atomic_inc_return(&peer->path_rr);
	if (n)
		return paths[rr % n];
	if (nb)
		return backups[rr % nb];
	return failing[rr % nf];
}

static struct braid_path *braid_sched_path(struct braid_peer *peer, u32 id)
{
	if (id >= BRAID_DCO_PATHS_MAX)
		return NULL;
	return rcu_dereference(peer->paths[id]);
}

/**
 * braid_sched_pick() - the path an inner packet goes out on
 * @bdev: the device
 * @peer: the packet's peer
 * @skb: the inner packet: linear, with headroom for an Ethernet header (ETH_HLEN)
 * @copy: set to a second path that gets a copy of the sealed packet, or NULL
 *
 * Context: rcu_read_lock(), softirq or BH disabled (ndo_start_xmit).
 * Return: the path; NULL when the peer has none; ERR_PTR(-EINVAL) when the program changed the
 * packet's length or made it non-linear (the packet is dropped)
 */
struct braid_path *braid_sched_pick(struct braid_dev *bdev, struct braid_peer *peer,
				    struct sk_buff *skb, struct braid_path **copy)
{
	struct bpf_prog *prog = rcu_dereference(bdev->sched.prog);
	unsigned int len = skb->len;
	struct braid_path *path;
	struct ethhdr *eth;
	u32 ret;

	*copy = NULL;
	if (!prog)
		return braid_sched_builtin(peer);
	eth = skb_push(skb, ETH_HLEN);
	memset(eth, 0, ETH_HLEN);
	eth->h_proto = skb->protocol;
	skb_reset_mac_header(skb);
	memset(skb->cb, 0, sizeof(skb->cb));
	bpf_compute_data_pointers(skb);
	ret = bpf_prog_run(prog, skb);
	braid_sched_count(&bdev->sched, BRAID_SCHED_RUNS);
	if (skb->len != len + ETH_HLEN || skb_is_nonlinear(skb))
		return ERR_PTR(-EINVAL);
	__skb_pull(skb, ETH_HLEN);
	memset(skb->cb, 0, sizeof(skb->cb));
	path = (int)ret < 0 ? NULL : braid_sched_path(peer, ret & BRAID_SCHED_PATH_MASK);
	if (!path) {
		braid_sched_count(&bdev->sched, BRAID_SCHED_FALLBACKS);
		return braid_sched_builtin(peer);
	}
	ret = (ret >> BRAID_SCHED_COPY_SHIFT) & BRAID_SCHED_PATH_MASK;
	if (ret) {
		*copy = braid_sched_path(peer, ret - 1);
		if (*copy == path)
			*copy = NULL;
	}
	return path;
}

/**
 * braid_sched_init() - allocate a new device's per-CPU scheduler counters
 * @bdev: the device (ndo_init)
 *
 * Freed by braid_sched_release() from the device's destructor, once no request holds the device.
 * Return: 0 or -ENOMEM
 */
int braid_sched_init(struct braid_dev *bdev)
{
	bdev->sched.stats = braid_ctrs_alloc(GFP_KERNEL);
	return bdev->sched.stats ? 0 : -ENOMEM;
}

/**
 * braid_sched_attach() - make @prog the device's scheduler, replacing the one attached
 * @bdev: the device; the caller holds bdev->lock
 * @prog: a BPF_PROG_TYPE_SCHED_CLS program; its reference passes to the device
 *
 * The old program is put after a grace period: a transmit that still runs it finishes first.
 * Return: 0
 */
int braid_sched_attach(struct braid_dev *bdev, struct bpf_prog *prog)
{
	struct bpf_prog *old;

	old = rcu_replace_pointer(bdev->sched.prog, prog, lockdep_is_held(&bdev->lock));
	if (old) {
		synchronize_rcu();
		bpf_prog_put(old);
	}
	return 0;
}

/**
 * braid_sched_detach() - go back to the built-in round robin
 * @bdev: the device; the caller holds bdev->lock
 *
 * Return: 0, or -ENOENT when no program is attached
 */
int braid_sched_detach(struct braid_dev *bdev)
{
	struct bpf_prog *old;

	old = rcu_replace_pointer(bdev->sched.prog, NULL, lockdep_is_held(&bdev->lock));
	if (!old)
		return -ENOENT;
	synchronize_rcu();
	bpf_prog_put(old);
	return 0;
}

/**
 * braid_sched_release() - drop the program and the counters of a device being freed
 * @bdev: the device, unregistered and no longer held (its destructor: no transmit and no
 *        netlink request can see it)
 */
void braid_sched_release(struct braid_dev *bdev)
{
	struct bpf_prog *old = rcu_replace_pointer(bdev->sched.prog, NULL, true);

	if (old)
		bpf_prog_put(old);
	free_percpu(bdev->sched.stats);
	bdev->sched.stats = NULL;
}

/**
 * braid_sched_prog_id() - the id of the attached program
 * @bdev: the device; the caller holds bdev->lock
 *
 * Return: the BPF program id, 0 when none is attached
 */
u32 braid_sched_prog_id(struct braid_dev *bdev)
{
	struct bpf_prog *prog = rcu_dereference_protected(bdev->sched.prog,
							  lockdep_is_held(&bdev->lock));

	return prog ? prog->aux->id : 0;
}
