// SPDX-License-Identifier: GPL-2.0-only
/*
 * braid_dco's path scheduler chain (docs/bpf-sched.md): BPF_PROG_TYPE_SCHED_CLS programs the module
 * runs on each inner packet (framed as tc frames a packet on an Ethernet device). The entry program
 * braid_sched starts the chain at step 0; each step is one program of the prog array
 * braid_sched_progs, configured by its entry of braid_sched_chain, and the steps are linked by tail
 * calls. Selectors test the packet (inner 5-tuple, DSCP, length, skb mark) and go on to their next or
 * miss step; actors pick the path from the per-path table the daemon publishes (braid_sched_paths):
 * weighted split, lowest RTT, primary/backup, and a redundant copy. The result is the path id (bits
 * 8-15: 1 + the id of a copy's path) or -1 for the module's built-in round robin.
 */
#include "vmlinux.h"
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "braid_sched.h"

#define ETH_HLEN 14
#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD
#define IP_MF 0x2000
#define IP_OFFSET 0x1FFF

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, BRAID_SCHED_STEPS);
	__type(key, __u32);
	__type(value, __u32);
} braid_sched_progs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BRAID_SCHED_STEPS);
	__type(key, __u32);
	__type(value, struct braid_sched_step);
} braid_sched_chain SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BRAID_SCHED_PATHS);
	__type(key, __u32);
	__type(value, struct braid_sched_path);
} braid_sched_paths SEC(".maps");

/* the weighted split's packet counter */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} braid_sched_state SEC(".maps");

/* the inner packet's fields the selectors test */
struct pkt {
	__u32 saddr, daddr; /* IPv4 only; 0 for IPv6 */
	__u16 sport, dport; /* host order; 0 when not TCP/UDP or a fragment */
	__u8 proto, dscp, v6;
};

static __always_inline int parse(struct __sk_buff *skb, struct pkt *p)
{
	__u16 ports[2] = {};
	__u32 l4 = 0;

	__builtin_memset(p, 0, sizeof(*p));
	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		struct iphdr ip;

		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)))
			return -1;
		p->saddr = ip.saddr;
		p->daddr = ip.daddr;
		p->proto = ip.protocol;
		p->dscp = ip.tos >> 2;
		if (!(bpf_ntohs(ip.frag_off) & (IP_MF | IP_OFFSET)))
			l4 = ETH_HLEN + ip.ihl * 4;
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6;

		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip6, sizeof(ip6)))
			return -1;
		p->v6 = 1;
		p->proto = ip6.nexthdr;
		p->dscp = ((ip6.priority << 4) | (ip6.flow_lbl[0] >> 4)) >> 2;
		l4 = ETH_HLEN + sizeof(ip6);
	} else {
		return -1;
	}
	if (l4 && (p->proto == IPPROTO_TCP || p->proto == IPPROTO_UDP) &&
	    !bpf_skb_load_bytes(skb, l4, ports, sizeof(ports))) {
		p->sport = bpf_ntohs(ports[0]);
		p->dport = bpf_ntohs(ports[1]);
	}
	return 0;
}

/* continue the chain at @step (tail call); -1 when the step is END or has no program */
static __always_inline int go(struct __sk_buff *skb, __u32 step)
{
	if (step >= BRAID_SCHED_STEPS)
		return BRAID_SCHED_DEFAULT;
	skb->cb[BRAID_SCHED_CB_STEP] = step;
	bpf_tail_call(skb, &braid_sched_progs, step);
	return BRAID_SCHED_DEFAULT;
}

static __always_inline struct braid_sched_step *cur(struct __sk_buff *skb)
{
	__u32 step = skb->cb[BRAID_SCHED_CB_STEP];

	return bpf_map_lookup_elem(&braid_sched_chain, &step);
}

static __always_inline struct braid_sched_path *path_if_up(__u32 mask, __u32 id)
{
	struct braid_sched_path *p;

	if (mask && !(mask & (1u << id)))
		return NULL;
	p = bpf_map_lookup_elem(&braid_sched_paths, &id);
	return p && (p->flags & BRAID_SCHED_PATH_UP) ? p : NULL;
}

/* the entry point the module runs: step 0 */
SEC("tc")
int braid_sched(struct __sk_buff *skb)
{
	return go(skb, 0);
}

/* selector: inner IPv4 addresses under masks, protocol, ports */
SEC("tc")
int sel_tuple(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	struct pkt p;
	int ok;

	if (!s)
		return BRAID_SCHED_DEFAULT;
	ok = !parse(skb, &p);
	ok = ok && (!s->smask || (!p.v6 && (p.saddr & s->smask) == (s->saddr & s->smask)));
	ok = ok && (!s->dmask || (!p.v6 && (p.daddr & s->dmask) == (s->daddr & s->dmask)));
	ok = ok && (!s->proto || p.proto == s->proto);
	ok = ok && (!s->sport || p.sport == s->sport);
	ok = ok && (!s->dport || p.dport == s->dport);
	return go(skb, ok ? s->next : s->miss);
}

/* selector: the DSCP of the inner IPv4 or IPv6 header */
SEC("tc")
int sel_dscp(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	struct pkt p;

	if (!s)
		return BRAID_SCHED_DEFAULT;
	return go(skb, !parse(skb, &p) && p.dscp == s->dscp ? s->next : s->miss);
}

/* selector: the inner packet's length within [len_min, len_max] */
SEC("tc")
int sel_len(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	__u32 len = skb->len - ETH_HLEN;

	if (!s)
		return BRAID_SCHED_DEFAULT;
	return go(skb, len >= s->len_min && len <= s->len_max ? s->next : s->miss);
}

/* selector: the skb mark (set by nftables, SO_MARK, ...) under a mask */
SEC("tc")
int sel_mark(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);

	if (!s)
		return BRAID_SCHED_DEFAULT;
	return go(skb, (skb->mark & s->mark_mask) == s->mark ? s->next : s->miss);
}

/* actor: weighted split; packet n goes to the path whose cumulative weight range holds n % sum */
SEC("tc")
int act_weighted(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	struct braid_sched_path *p;
	__u32 w[BRAID_SCHED_PATHS] = {}, sum = 0, zero = 0, i;
	__u64 *cnt, pos;

	if (!s)
		return BRAID_SCHED_DEFAULT;
#pragma unroll
	for (i = 0; i < BRAID_SCHED_PATHS; i++) {
		p = path_if_up(s->paths, i);
		w[i] = p ? p->weight : 0;
		sum += w[i];
	}
	cnt = bpf_map_lookup_elem(&braid_sched_state, &zero);
	if (!sum || !cnt)
		return go(skb, s->next);
	pos = __sync_fetch_and_add(cnt, 1) % sum;
#pragma unroll
	for (i = 0; i < BRAID_SCHED_PATHS; i++) {
		if (pos < w[i])
			return i;
		pos -= w[i];
	}
	return go(skb, s->next);
}

/* the up path of @mask with the lowest known RTT (unknown counts as the highest); -1: none */
static __always_inline int lowest_rtt(__u32 mask)
{
	struct braid_sched_path *p;
	__u64 best = ~0ull, rtt;
	int id = -1;
	__u32 i;

#pragma unroll
	for (i = 0; i < BRAID_SCHED_PATHS; i++) {
		p = path_if_up(mask, i);
		if (!p)
			continue;
		rtt = p->rtt_us ? p->rtt_us : 0xffffffffull;
		if (id < 0 || rtt < best) {
			best = rtt;
			id = i;
		}
	}
	return id;
}

/* actor: the up path with the lowest RTT */
SEC("tc")
int act_lowrtt(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	int id;

	if (!s)
		return BRAID_SCHED_DEFAULT;
	id = lowest_rtt(s->paths);
	return id >= 0 ? id : go(skb, s->next);
}

/* actor: the best primary path (lowest RTT of @paths) while one is up, else the best backup */
SEC("tc")
int act_backup(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	int id;

	if (!s)
		return BRAID_SCHED_DEFAULT;
	id = lowest_rtt(s->paths ? s->paths : ~s->backup);
	if (id < 0 && s->backup)
		id = lowest_rtt(s->backup);
	return id >= 0 ? id : go(skb, s->next);
}

/* actor: the best path of @paths plus a redundant copy on path @backup (when up and different) */
SEC("tc")
int act_redundant(struct __sk_buff *skb)
{
	struct braid_sched_step *s = cur(skb);
	int id;

	if (!s)
		return BRAID_SCHED_DEFAULT;
	id = lowest_rtt(s->paths);
	if (id < 0)
		return go(skb, s->next);
	if (s->backup < BRAID_SCHED_PATHS && s->backup != (__u32)id && path_if_up(0, s->backup))
		id |= (s->backup + 1) << BRAID_SCHED_COPY_SHIFT;
	return id;
}

char LICENSE[] SEC("license") = "GPL";
