// SPDX-License-Identifier: GPL-2.0-only
/*
 * reuseport_peerid.bpf.c - the gateway's worker steering (issue 16 part 1):
 * an sk_reuseport program on the gateway's SO_REUSEPORT group of UDP
 * sockets (one per worker, slot = worker index in braid_rp_socks).
 *  - P_DATA_V2 (opcode 9, any key-id) carries a 24-bit peer-id: the packet
 *    goes to worker (peer_id & 0xffff) % nworkers, the worker that handed
 *    that peer-id out, from whatever source address it comes (every path
 *    of a multipath session, a NAT rebinding). The high byte (the cluster's
 *    gateway id, daemon/cluster/) is not part of the choice.
 *  - every other packet (P_CONTROL*, P_ACK, P_DATA_V1, a packet too short
 *    to carry an opcode) goes to worker hash % nworkers, the kernel's
 *    4-tuple hash: one source always reaches one worker, so a new session's
 *    handshake stays on the worker that then owns its peer-id.
 *  - the undefined peer-id 0xffffff is treated as "no peer-id" (hash).
 * A slot without a socket (bpf_sk_select_reuseport fails) leaves the
 * choice to the kernel (SK_PASS without a selection: its own hash).
 * Per-worker counters (per CPU) are read by the gateway's status and by
 * tests/bpf/test_reuseport_peerid.c. The worker rule is the same as
 * braid_gw_worker_of() in daemon/gateway/gw_reuseport.h.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>

#define BRAID_RP_MAX_WORKERS 64
#define BRAID_RP_OP_DATA_V2 9
#define BRAID_RP_PID_UNDEF 0xffffffu
#define BRAID_RP_UDP_HLEN 8

/* Per worker: packets steered there by peer-id, and by hash. Slot
 * BRAID_RP_MAX_WORKERS counts the packets whose worker had no socket. */
struct braid_rp_count {
	__u64 by_pid;
	__u64 by_hash;
};

struct {
	__uint(type, BPF_MAP_TYPE_REUSEPORT_SOCKARRAY);
	__uint(max_entries, BRAID_RP_MAX_WORKERS);
	__type(key, __u32);
	__type(value, __u64);
} braid_rp_socks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, BRAID_RP_MAX_WORKERS + 1);
	__type(key, __u32);
	__type(value, struct braid_rp_count);
} braid_rp_stats SEC(".maps");

/* set by the loader before load (the skeleton's rodata) */
const volatile __u32 nworkers = 1;

SEC("sk_reuseport")
int braid_rp_select(struct sk_reuseport_md *md)
{
	__u8 h[4] = {};
	__u32 n = nworkers, w, pid = BRAID_RP_PID_UNDEF;
	struct braid_rp_count *c;
	bool by_pid = false;

	if (n == 0 || n > BRAID_RP_MAX_WORKERS)
		return SK_PASS;
	/* md->data is the UDP header; the OpenVPN opcode and peer-id follow */
	if (md->len >= BRAID_RP_UDP_HLEN + 4 &&
	    !bpf_skb_load_bytes(md, BRAID_RP_UDP_HLEN, h, sizeof(h)) &&
	    (h[0] >> 3) == BRAID_RP_OP_DATA_V2)
		pid = (__u32)h[1] << 16 | (__u32)h[2] << 8 | h[3];
	if (pid != BRAID_RP_PID_UNDEF) {
		w = (pid & 0xffff) % n;
		by_pid = true;
	} else {
		w = md->hash % n;
	}
	if (bpf_sk_select_reuseport(md, &braid_rp_socks, &w, 0))
		w = BRAID_RP_MAX_WORKERS;
	c = bpf_map_lookup_elem(&braid_rp_stats, &w);
	if (c) {
		if (by_pid)
			c->by_pid++;
		else
			c->by_hash++;
	}
	return SK_PASS;
}

char LICENSE[] SEC("license") = "GPL";
