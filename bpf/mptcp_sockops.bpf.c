// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_sockops.bpf.c - the first of the MPTCP actors (issue 14 part 3): a
 * sockops program on braidd's cgroup that recognises MPTCP subflows
 * (bpf_skc_to_mptcp_sock) when they are established, active or passive,
 * and counts them per connection, keyed by the MPTCP token, so the daemon
 * can tell which subflows belong to its tunnel. It changes nothing yet: the
 * per-subflow marks and clamps come with the next actors. CO-RE: the
 * kernel's struct mptcp_sock is read through vmlinux.h's BTF.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

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

SEC("sockops")
int braid_mptcp_sockops(struct bpf_sock_ops *skops)
{
	struct braid_mptcp_sf_count zero = {}, *c;
	struct mptcp_sock *msk;
	struct bpf_sock *sk;
	__u32 token;
	int op = skops->op;

	if (op != BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB && op != BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB)
		return 1;
	sk = skops->sk;
	if (!sk)
		return 1;
	msk = bpf_skc_to_mptcp_sock(sk);
	if (!msk)
		return 1;	/* plain TCP */
	token = BPF_CORE_READ(msk, token);
	c = bpf_map_lookup_elem(&braid_mptcp_subflows, &token);
	if (!c) {
		bpf_map_update_elem(&braid_mptcp_subflows, &token, &zero, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&braid_mptcp_subflows, &token);
		if (!c)
			return 1;
	}
	if (op == BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB)
		__sync_fetch_and_add(&c->active, 1);
	else
		__sync_fetch_and_add(&c->passive, 1);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
