// SPDX-License-Identifier: GPL-2.0-only
/*
 * Transmit and receive of data packets. Transmit picks the peer (p2p: the device's one peer; mp:
 * the peer whose tunnel address is the destination), the path (sched.c: an attached BPF program or
 * the built-in round robin), seals with the primary key and sends over the
 * path's UDP socket (IPv4 or IPv6 paths). Receive opens with the key the opcode names, checks the
 * replay window and hands the inner packet to the device. Drops are counted per device and logged
 * rate-limited.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "compat.h"
#include "cost.h"
#include "crypto.h"
#include "device.h"
#include "io.h"
#include "key.h"
#include "netlink.h"
#include "path.h"
#include "peer.h"
#include "sched.h"
#include "socket.h"

/* headroom a sealed IPv4 packet needs in front of the inner packet */
#define BRAID_TX_HEADROOM (LL_MAX_HEADER + sizeof(struct iphdr) + sizeof(struct udphdr) + \
			   BRAID_DATA_V2_OVERHEAD)

/* the peer an inner packet goes to; under rcu_read_lock() */
static struct braid_peer *braid_peer_for_skb(struct braid_dev *bdev, struct sk_buff *skb)
{
	struct braid_peer *peer;
	int bkt;

	hash_for_each_rcu(bdev->peers, bkt, peer, hnode) {
		if (bdev->mode == BRAID_DCO_MODE_P2P)
			return peer;
		if (skb->protocol == htons(ETH_P_IP) && peer->has_vpn4 &&
		    pskb_network_may_pull(skb, sizeof(struct iphdr)) &&
			    ip_hdr(skb)->daddr == peer->vpn4)
			return peer;
		if (skb->protocol == htons(ETH_P_IPV6) && peer->has_vpn6 &&
		    pskb_network_may_pull(skb, sizeof(struct ipv6hdr)) &&
		    ipv6_addr_equal(&ipv6_hdr(skb)->daddr, &peer->vpn6))
			return peer;
	}
	return NULL;
}

#if IS_ENABLED(CONFIG_IPV6)
static int braid_udp_send6(struct braid_dev *bdev, struct braid_path *path,
			   const union braid_sockaddr *remote, struct sk_buff *skb)
{
	struct sock *sk = path->bs->sock->sk;
	struct dst_entry *dst;
	struct flowi6 fl = { };

	fl.daddr = remote->in6.sin6_addr;
	if (path->local.sa.sa_family == AF_INET6)
		fl.saddr = path->local.in6.sin6_addr;
	fl.fl6_dport = remote->in6.sin6_port;
	fl.fl6_sport = inet_sk(sk)->inet_sport;
	fl.flowi6_proto = IPPROTO_UDP;
	fl.flowi6_oif = sk->sk_bound_dev_if;
	fl.flowi6_mark = sk->sk_mark;
	dst = ipv6_stub->ipv6_dst_lookup_flow(sock_net(sk), sk, &fl, NULL);
	if (IS_ERR(dst))
		return PTR_ERR(dst);
	if (dst->dev == bdev->dev) {
		dst_release(dst);
		return -ELOOP;
	}
	/*
	 * int until 6.1 (always 0), void since: like the IPv4 side, an error is the stack's to
	 * count. The device given is the one whose counters it adds the packet to: ours
	 * (skb->dev on transmit, NULL for a PACKET_SEND control packet), never the underlying
	 * route's, whose per-CPU counters may be of another type
	 */
	udp_tunnel6_xmit_skb(dst, sk, skb, skb->dev, &fl.saddr, &fl.daddr, 0,
			     ip6_dst_hoplimit(dst), 0, fl.fl6_sport, fl.fl6_dport,
			     udp_get_no_check6_tx(sk));
	return 0;
}
#endif

static int braid_udp_send4(struct braid_dev *bdev, struct braid_path *path, struct sk_buff *skb)
{
	struct sock *sk = path->bs->sock->sk;
	union braid_sockaddr remote;
	struct flowi4 fl = { };
	struct rtable *rt;

	braid_path_remote(path, &remote);
#if IS_ENABLED(CONFIG_IPV6)
	if (remote.sa.sa_family == AF_INET6)
		return braid_udp_send6(bdev, path, &remote, skb);
#endif
	/* an IPv4 remote on an IPv6 socket (v4-mapped) is not sent yet */
	if (remote.sa.sa_family != AF_INET || sk->sk_family != AF_INET)
		return -EAFNOSUPPORT;
	fl.daddr = remote.in4.sin_addr.s_addr;
	if (path->local.sa.sa_family == AF_INET)
		fl.saddr = path->local.in4.sin_addr.s_addr;
	fl.fl4_dport = remote.in4.sin_port;
	fl.fl4_sport = inet_sk(sk)->inet_sport;
	fl.flowi4_proto = IPPROTO_UDP;
	fl.flowi4_oif = sk->sk_bound_dev_if;
	fl.flowi4_mark = sk->sk_mark;
	rt = ip_route_output_flow(sock_net(sk), &fl, sk);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	if (rt->dst.dev == bdev->dev) {
		ip_rt_put(rt);
		return -ELOOP;
	}
	udp_tunnel_xmit_skb(rt, sk, skb, fl.saddr, fl.daddr, 0, ip4_dst_hoplimit(&rt->dst), 0,
			    fl.fl4_sport, fl.fl4_dport, false, sk->sk_no_check_tx);
	return 0;
}

/*
 * send a sealed packet on @path and track the path's transmit state: the first failure after a
 * success is notified (tx-error, with the errno), so is the first success after a failure
 * (tx-resumed). Return: 0 (@skb consumed, the path's tx counters added to) or -errno (the caller
 * still owns @skb)
 */
static int braid_path_send(struct braid_dev *bdev, u32 peer_id, struct braid_path *path,
			   struct sk_buff *skb)
{
	unsigned int len = skb->len;
	int err = braid_udp_send4(bdev, path, skb);

	if (err) {
		if (!atomic_xchg(&path->tx_failing, 1))
			braid_nl_path_notify(bdev, peer_id, path, BRAID_DCO_PATH_EVENT_TX_ERROR,
					     err, GFP_ATOMIC);
		return err;
	}
	braid_ctrs_count(path->stats, BRAID_PATH_TX_PACKETS, BRAID_PATH_TX_BYTES, len);
	if (unlikely(atomic_read(&path->tx_failing)) && atomic_xchg(&path->tx_failing, 0))
		braid_nl_path_notify(bdev, peer_id, path, BRAID_DCO_PATH_EVENT_TX_RESUMED, 0,
				     GFP_ATOMIC);
	return 0;
}

/**
 * braid_dev_xmit() - ndo_start_xmit: seal an inner packet and send it to its peer over one path
 * @skb: the inner IPv4 or IPv6 packet
 * @dev: the braid_dco device
 *
 * Return: NETDEV_TX_OK (the skb is always consumed; failures count as tx drops)
 */
netdev_tx_t braid_dev_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct braid_dev *bdev = netdev_priv(dev);
	unsigned int len = skb->len;
	struct braid_path *path, *copy, *alt;
	struct braid_peer *peer;
	struct braid_key *key;
	struct sk_buff *dup;
	int err = -ENOENT;
	u64 t0;

	rcu_read_lock();
	peer = braid_peer_for_skb(bdev, skb);
	if (!peer)
		goto drop;
	err = -ENOKEY;
	key = rcu_dereference(peer->keys[BRAID_DCO_KEY_SLOT_PRIMARY]);
	if (!key)
		goto drop;
	err = -ENOMEM;
	if (skb_linearize(skb) || skb_cow_head(skb, BRAID_TX_HEADROOM))
		goto drop;
	t0 = braid_cost_start();
	path = braid_sched_pick(bdev, peer, skb, &copy);
	braid_cost_end(BRAID_COST_SCHED_N, t0);
	err = path ? PTR_ERR_OR_ZERO(path) : -ENETUNREACH;
	if (err)
		goto drop;
	t0 = braid_cost_start();
	err = braid_seal(key, peer->id, skb);
	if (err)
		goto drop;
	braid_cost_end(BRAID_COST_ENC_N, t0);
	/* a redundant copy the scheduler asked for: same packet id, the receiver keeps the first */
	dup = copy ? skb_copy(skb, GFP_ATOMIC) : NULL;
	if (dup) {
		braid_sched_count(&bdev->sched, BRAID_SCHED_COPIES);
		if (braid_path_send(bdev, peer->id, copy, dup))
			kfree_skb(dup);
	}
	err = braid_path_send(bdev, peer->id, path, skb);
	if (err) {
		/*
		 * the path is failing now (no route, the source address gone): the sealed packet
		 * goes on the path the built-in round robin picks among the others, if one is left
		 * (the same packet id: the receiver's replay window takes it once)
		 */
		alt = braid_sched_builtin(peer);
		if (alt && alt != path && !atomic_read(&alt->tx_failing)) {
			braid_sched_count(&bdev->sched, BRAID_SCHED_REROUTES);
			err = braid_path_send(bdev, peer->id, alt, skb);
		}
	}
	if (err)
		goto drop;
	braid_ctrs_count(peer->stats, BRAID_PEER_VPN_TX_PACKETS, BRAID_PEER_VPN_TX_BYTES, len);
	rcu_read_unlock();
	return NETDEV_TX_OK;

drop:
	rcu_read_unlock();
	net_dbg_ratelimited("%s: tx drop: %d\n", dev->name, err);
	dev_core_stats_tx_dropped_inc(dev);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

/**
 * braid_send_ctl() - seal a control payload for a peer and send it on one of its paths
 * @peer: the peer (a reference held by the caller)
 * @path_id: the path
 * @data: the plaintext (not an IP packet: the receiving module hands it up to userspace)
 * @len: its length, at most BRAID_DCO_SEND_PAYLOAD_MAX
 * @pktid: set to the packet id it was sealed with
 *
 * The payload takes the next packet id of the primary key, as the data packets do: a control
 * payload never reuses a nonce the data path used.
 *
 * Context: process (netlink); takes rcu_read_lock() with bottom halves off, as ndo_start_xmit runs.
 * Return: 0, -ENOENT (no such path), -ENOKEY (no primary key), -ENOMEM or the send's -errno
 */
int braid_send_ctl(struct braid_peer *peer, u8 path_id, const void *data, unsigned int len,
		   u32 *pktid)
{
	struct braid_dev *bdev = peer->bdev;
	struct braid_path *path;
	struct braid_key *key;
	struct sk_buff *skb;
	int err;
	u64 t0;

	skb = alloc_skb(BRAID_TX_HEADROOM + len, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, BRAID_TX_HEADROOM);
	skb_put_data(skb, data, len);
	local_bh_disable();
	rcu_read_lock();
	err = -ENOENT;
	path = path_id < BRAID_DCO_PATHS_MAX ? rcu_dereference(peer->paths[path_id]) : NULL;
	if (!path)
		goto drop;
	err = -ENOKEY;
	key = rcu_dereference(peer->keys[BRAID_DCO_KEY_SLOT_PRIMARY]);
	if (!key)
		goto drop;
	t0 = braid_cost_start();
	err = braid_seal(key, peer->id, skb);
	if (err)
		goto drop;
	braid_cost_end(BRAID_COST_ENC_N, t0);
	*pktid = get_unaligned_be32(skb->data + 4);
	braid_ctrs_count(peer->stats, BRAID_PEER_CTL_TX_PACKETS, -1, 0);
	err = braid_path_send(bdev, peer->id, path, skb);
	if (err)
		goto drop;
	rcu_read_unlock();
	local_bh_enable();
	return 0;

drop:
	rcu_read_unlock();
	local_bh_enable();
	kfree_skb(skb);
	return err;
}

/* a data packet this long after the previous one on its path starts a new delivery-rate span */
#define BRAID_RX_SPAN_JOIN_NS (20 * NSEC_PER_MSEC)

/*
 * a data packet of @outer bytes and packet id @pktid arrived on @path: what a multipath receiver
 * reports to the sender (PEER_GET: the last packet id, and the delivery-rate spans, enum
 * braid_path_ctr). A packet within BRAID_RX_SPAN_JOIN_NS of the previous one adds its bytes and
 * the gap, as Braid's userspace receiver measures a span from arrival to arrival: a poll's
 * interval instead would read a path that is busy for a part of it as slow. A control packet
 * (@pktid NULL: a probe, a REPORT) joins a span that is open, as the userspace receiver counts
 * control while data flows (the sender's pacer is charged for it too), and opens none. Softirq;
 * two CPUs receiving on one path at once may each take the other's gap, which the sums tolerate.
 */
static void braid_rx_span(struct braid_path *path, const u32 *pktid, unsigned int outer)
{
	u64 now = ktime_get_ns(), last = READ_ONCE(path->rx_last_ns);
	bool join = last && now > last && now - last < BRAID_RX_SPAN_JOIN_NS;

	if (pktid)
		WRITE_ONCE(path->rx_last_pktid, *pktid);
	if (pktid || join)
		WRITE_ONCE(path->rx_last_ns, now);
	if (join)
		braid_ctrs_count2(path->stats, BRAID_PATH_RX_SPAN_PACKETS, BRAID_PATH_RX_SPAN_BYTES,
				  outer, BRAID_PATH_RX_SPAN_NS, now - last);
}

/*
 * the path a packet came in on: its source endpoint on the socket @bs it arrived at (several paths
 * may lead to the same remote endpoint from different local sockets), else by the source alone;
 * under rcu_read_lock()
 */
static struct braid_path *braid_path_by_source(struct braid_peer *peer, struct sk_buff *skb,
					       const struct braid_sock *bs)
{
	__be16 sport = udp_hdr(skb)->source;
	bool v4 = ip_hdr(skb)->version == 4;
	struct braid_path *path, *any = NULL;
	union braid_sockaddr r;
	int i;

	for (i = 0; i < BRAID_DCO_PATHS_MAX; i++) {
		path = rcu_dereference(peer->paths[i]);
		if (!path)
			continue;
		braid_path_remote(path, &r);
		if (!(v4 && r.sa.sa_family == AF_INET && r.in4.sin_port == sport &&
		      r.in4.sin_addr.s_addr == ip_hdr(skb)->saddr) &&
		    !(!v4 && r.sa.sa_family == AF_INET6 && r.in6.sin6_port == sport &&
		      ipv6_addr_equal(&r.in6.sin6_addr, &ipv6_hdr(skb)->saddr)))
			continue;
		if (path->bs == bs)
			return path;
		if (!any)
			any = path;
	}
	return any;
}

/*
 * float: an authenticated packet of @peer came from a source that none of its paths has (a client
 * behind NAT whose mapping changed, a roaming client). When exactly one of the peer's paths uses
 * the socket @bs the packet arrived on and has its address family, that path's remote endpoint
 * becomes the packet's source, as OpenVPN floats a client, and the change is notified (PATH_NTF
 * float). Several candidates (a multipath peer's paths on one shared socket): no float, userspace
 * learns such paths. Under rcu_read_lock(), softirq. Return: the path floated or NULL
 */
static struct braid_path *braid_path_float(struct braid_dev *bdev, struct braid_peer *peer,
					   struct sk_buff *skb, const struct braid_sock *bs)
{
	sa_family_t family = ip_hdr(skb)->version == 4 ? AF_INET : AF_INET6;
	struct braid_path *path, *found = NULL;
	union braid_sockaddr r;
	int i;

	for (i = 0; i < BRAID_DCO_PATHS_MAX; i++) {
		path = rcu_dereference(peer->paths[i]);
		if (!path || path->bs != bs)
			continue;
		braid_path_remote(path, &r);
		if (r.sa.sa_family != family)
			continue;
		if (found)
			return NULL;
		found = path;
	}
	if (!found)
		return NULL;
	write_seqlock(&found->remote_lock);
	if (family == AF_INET) {
		found->remote.in4.sin_addr.s_addr = ip_hdr(skb)->saddr;
		found->remote.in4.sin_port = udp_hdr(skb)->source;
	} else {
		found->remote.in6.sin6_addr = ipv6_hdr(skb)->saddr;
		found->remote.in6.sin6_port = udp_hdr(skb)->source;
	}
	write_sequnlock(&found->remote_lock);
	braid_nl_path_notify(bdev, peer->id, found, BRAID_DCO_PATH_EVENT_FLOAT, 0, GFP_ATOMIC);
	return found;
}

static struct braid_key *braid_key_by_id(struct braid_peer *peer, u8 key_id)
{
	struct braid_key *key;
	int i;

	for (i = 0; i < ARRAY_SIZE(peer->keys); i++) {
		key = rcu_dereference(peer->keys[i]);
		if (key && key->key_id == key_id)
			return key;
	}
	return NULL;
}

/*
 * open, check and deliver a P_DATA_V2 packet of @peer (skb data at the opcode); 0, 1 (authenticated
 * but not an IP packet: skb data at the plaintext, for userspace) or -errno
 */
static int braid_rx_data(struct braid_dev *bdev, struct braid_peer *peer, struct sk_buff *skb,
			 const struct braid_sock *bs)
{
	struct braid_path *path;
	struct braid_key *key;
	unsigned int outer;
	u32 pktid;
	int err;
	u64 t0;

	key = braid_key_by_id(peer, skb->data[0] & 7);
	if (!key)
		return -ENOKEY;
	if (skb_linearize(skb) || skb_ensure_writable(skb, skb->len))
		return -ENOMEM;
	outer = skb->len;
	t0 = braid_cost_start();
	err = braid_open(key, skb, &pktid);
	if (err)
		return err;
	braid_cost_end(BRAID_COST_DEC_N, t0);
	err = braid_replay_check(&key->replay, pktid);
	if (err)
		return err;
	path = braid_path_by_source(peer, skb, bs);
	if (!path)
		path = braid_path_float(bdev, peer, skb, bs);
	if (path)
		braid_ctrs_count(path->stats, BRAID_PATH_RX_PACKETS, BRAID_PATH_RX_BYTES, outer);
	__skb_pull(skb, BRAID_DATA_V2_OVERHEAD);
	if (!pskb_may_pull(skb, 1))
		return -EPROTO;
	if (!braid_is_ip(skb->data[0])) {
		/* not an IP packet (keepalive ping, OCC, multipath control): for userspace */
		braid_ctrs_count(peer->stats, BRAID_PEER_CTL_RX_PACKETS, -1, 0);
		if (path)
			braid_rx_span(path, NULL, outer);
		return 1;
	}
	skb->protocol = skb->data[0] >> 4 == 4 ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	if (path)	/* a data packet: what a multipath receiver reports (PEER_GET) */
		braid_rx_span(path, &pktid, outer);
	braid_ctrs_count(peer->stats, BRAID_PEER_VPN_RX_PACKETS, BRAID_PEER_VPN_RX_BYTES, skb->len);
	skb_scrub_packet(skb, true);
	skb->dev = bdev->dev;
	dev_sw_netstats_rx_add(bdev->dev, skb->len);
	skb->pkt_type = PACKET_HOST;
	skb->ip_summed = CHECKSUM_NONE;
	skb_reset_mac_header(skb);
	skb_reset_network_header(skb);
	skb_reset_transport_header(skb);
	netif_rx(skb);
	return 0;
}

/*
 * hand an opened non-IP payload to the socket's reader (skb data at the plaintext): the header
 * becomes [BRAID_DCO_UP_OPCODE << 3 | key id] [peer id] [packet id] [zeroed tag], data goes back
 * to the UDP header, the length is unchanged; the UDP stack then queues it as any datagram
 */
static void braid_rx_up(struct sk_buff *skb)
{
	__skb_push(skb, BRAID_DATA_V2_OVERHEAD);
	skb->data[0] = BRAID_DCO_UP_OPCODE << 3 | (skb->data[0] & 7);
	memset(skb->data + BRAID_DATA_V2_AAD, 0, BRAID_TAG_SIZE);
	__skb_push(skb, sizeof(struct udphdr));
	skb->ip_summed = CHECKSUM_UNNECESSARY;
}

/**
 * braid_udp_encap_recv() - the UDP encapsulation hook of a braid_dco socket
 * @sk: the socket
 * @skb: the datagram, data at the UDP header, checksum verified
 *
 * Context: softirq, rcu_read_lock() held by the UDP stack.
 * Return: 0 (consumed: delivered or dropped) or 1 (on to the socket and userspace: not ours to
 * handle, or an authenticated non-IP payload rewritten by braid_rx_up())
 */
int braid_udp_encap_recv(struct sock *sk, struct sk_buff *skb)
{
	unsigned int off = sizeof(struct udphdr);
	struct braid_sock *bs = rcu_dereference_sk_user_data(sk);
	struct braid_peer *peer;
	u32 peer_id;
	int err;

	if (!bs || !pskb_may_pull(skb, off + 1))
		return 1;
	if (skb->data[off] >> 3 == BRAID_DCO_UP_OPCODE) {
		/* only the module writes this opcode (any length): none forged to userspace */
		net_dbg_ratelimited("%s: rx drop: up opcode from the network\n",
				    bs->bdev->dev->name);
		dev_core_stats_rx_dropped_inc(bs->bdev->dev);
		kfree_skb(skb);
		return 0;
	}
	if (skb->data[off] >> 3 != BRAID_OP_DATA_V2 ||
	    !pskb_may_pull(skb, off + BRAID_DATA_V2_OVERHEAD))
		return 1;
	peer_id = get_unaligned_be32(skb->data + off) & BRAID_DCO_PEER_ID_MAX;
	peer = braid_peer_lookup(bs->bdev, peer_id);
	if (!peer)
		return 1;
	__skb_pull(skb, off);
	err = braid_rx_data(bs->bdev, peer, skb, bs);
	braid_peer_put(peer);
	if (err > 0) {
		braid_rx_up(skb);
		return 1;
	}
	if (err) {
		net_dbg_ratelimited("%s: rx drop from peer %u: %d\n", bs->bdev->dev->name, peer_id,
				    err);
		dev_core_stats_rx_dropped_inc(bs->bdev->dev);
		kfree_skb(skb);
	}
	return 0;
}
