// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_sockops.bpf.c - the MPTCP subflow actors (issue 14 part 3): a
 * sockops program on braidd's cgroup that recognises MPTCP subflows
 * (bpf_skc_to_mptcp_sock, keyed by the connection's token) and, for a
 * subflow whose local address is one of braidd's paths (map braid_mptcp_paths,
 * written by daemon/os/mptcp_bpf.c):
 *  - sets the path's SO_MARK when it is established (policy routing, nft);
 *  - enforces the split ratio of the paths' weights: on every RTT sample it
 *    records the subflow's bytes_acked under (token, path slot); a subflow
 *    that is ahead of its share by more than `slack` bytes against another
 *    weighted subflow of the same connection is throttled (SO_MAX_PACING_RATE
 *    down to `throttle_rate`: the kernel's scheduler, which prefers the
 *    subflow with the least queued-bytes/pacing-rate, then sends on the
 *    others), and released (no pacing cap, or the path's mp-cap) once the
 *    others caught up. With a cap alone it paces at the cap.
 * It also counts the established subflows per token (active / passive).
 * Only sockets of braidd's network namespace are touched (netns_cookie; 0:
 * any). CO-RE: struct mptcp_sock is read through vmlinux.h's BTF.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#define BRAID_SOL_SOCKET 1
#define BRAID_SO_MARK 36
#define BRAID_SO_MAX_PACING_RATE 47
#define BRAID_AF_INET 2
#define BRAID_MAX_SLOTS 8

/* Per MPTCP connection (token): established subflows seen, by direction. */
struct braid_mptcp_sf_count {
	__u32 active;		/* this side opened them (client) */
	__u32 passive;		/* the peer opened them (gateway) */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct braid_mptcp_sf_count);
} braid_mptcp_subflows SEC(".maps");

/* A path: its local address (IPv4 in addr[0], network order) ... */
struct braid_mptcp_path_key {
	__u32 family;
	__u32 addr[4];
};

/* ... and what to do with its subflows. */
struct braid_mptcp_path {
	__u32 slot;		/* 0..7: index into braid_mptcp_split.acked */
	__u32 weight;		/* share of the split; 0: not split (no throttling) */
	__u32 mark;		/* SO_MARK; 0: none */
	__u32 cap;		/* bytes/s pacing cap (mp-cap); 0: none */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct braid_mptcp_path_key);
	__type(value, struct braid_mptcp_path);
} braid_mptcp_paths SEC(".maps");

/* Per MPTCP connection: bytes acked per path slot, weights seen, throttled slots. */
struct braid_mptcp_split {
	__u64 acked[BRAID_MAX_SLOTS];
	__u32 weight[BRAID_MAX_SLOTS];
	__u32 throttled;	/* bit per slot */
	__u32 throttles;	/* how often a subflow was throttled (telemetry) */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct braid_mptcp_split);
} braid_mptcp_split SEC(".maps");

const volatile __u64 netns_cookie = 0;		/* braidd's netns; 0: any */
const volatile __u32 throttle_rate = 50000;	/* bytes/s of a subflow ahead of its share */
const volatile __u32 slack = 65536;		/* bytes ahead tolerated */

static struct braid_mptcp_path *path_of(struct bpf_sock_ops *skops)
{
	struct braid_mptcp_path_key k = {};

	k.family = skops->family;
	if (k.family == BRAID_AF_INET) {
		k.addr[0] = skops->local_ip4;
	} else {
		k.addr[0] = skops->local_ip6[0];
		k.addr[1] = skops->local_ip6[1];
		k.addr[2] = skops->local_ip6[2];
		k.addr[3] = skops->local_ip6[3];
	}
	return bpf_map_lookup_elem(&braid_mptcp_paths, &k);
}

static void count(__u32 token, int op)
{
	struct braid_mptcp_sf_count zero = {}, *c;

	c = bpf_map_lookup_elem(&braid_mptcp_subflows, &token);
	if (!c) {
		bpf_map_update_elem(&braid_mptcp_subflows, &token, &zero, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&braid_mptcp_subflows, &token);
		if (!c)
			return;
	}
	if (op == BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB)
		__sync_fetch_and_add(&c->active, 1);
	else
		__sync_fetch_and_add(&c->passive, 1);
}

/* SO_MAX_PACING_RATE in bytes/s (0: none). bpf_setsockopt takes an int here (~0U: unlimited). */
static int pace(struct bpf_sock_ops *skops, __u32 rate)
{
	__u32 r = rate ? rate : ~0U;

	return bpf_setsockopt(skops, BRAID_SOL_SOCKET, BRAID_SO_MAX_PACING_RATE, &r, sizeof(r));
}

/* An RTT sample of a weighted subflow: record its bytes, throttle or release it. */
static void split(struct bpf_sock_ops *skops, __u32 token, const struct braid_mptcp_path *p)
{
	struct braid_mptcp_split zero = {}, *s;
	__u32 me = p->slot, bit;
	__u64 mine;
	int ahead = 0;

	if (me >= BRAID_MAX_SLOTS)
		return;
	bit = 1u << me;
	s = bpf_map_lookup_elem(&braid_mptcp_split, &token);
	if (!s) {
		bpf_map_update_elem(&braid_mptcp_split, &token, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&braid_mptcp_split, &token);
		if (!s)
			return;
	}
	mine = skops->bytes_acked;
	s->acked[me] = mine;
	s->weight[me] = p->weight;
	for (__u32 j = 0; j < BRAID_MAX_SLOTS; j++) {
		__u64 wj = s->weight[j];

		if (j == me || !wj)
			continue;
		/* mine / w_me > (acked_j + slack) / w_j: ahead of path j */
		if (mine * wj > (s->acked[j] + slack) * p->weight)
			ahead = 1;
	}
	if (ahead && !(s->throttled & bit)) {
		if (pace(skops, throttle_rate))
			return;
		s->throttled |= bit;
		s->throttles++;
	} else if (!ahead && (s->throttled & bit)) {
		if (!pace(skops, p->cap))
			s->throttled &= ~bit;
	}
}

SEC("sockops")
int braid_mptcp_sockops(struct bpf_sock_ops *skops)
{
	struct braid_mptcp_path *p;
	struct mptcp_sock *msk;
	struct bpf_sock *sk;
	__u32 token;
	int op = skops->op;

	if (op != BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB && op != BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB &&
	    op != BPF_SOCK_OPS_RTT_CB)
		return 1;
	sk = skops->sk;
	if (!sk)
		return 1;
	msk = bpf_skc_to_mptcp_sock(sk);
	if (!msk)
		return 1;	/* plain TCP */
	if (netns_cookie && bpf_get_netns_cookie(skops) != netns_cookie)
		return 1;
	token = BPF_CORE_READ(msk, token);
	p = path_of(skops);
	if (op == BPF_SOCK_OPS_RTT_CB) {
		if (p && p->weight)
			split(skops, token, p);
		return 1;
	}
	count(token, op);
	if (!p)
		return 1;
	if (p->mark)
		bpf_setsockopt(skops, BRAID_SOL_SOCKET, BRAID_SO_MARK, &p->mark, sizeof(p->mark));
	if (p->cap)
		pace(skops, p->cap);
	if (p->weight)
		bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags |
					  BPF_SOCK_OPS_RTT_CB_FLAG);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
