/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_mpctl.h - the kernel backend's answers to the peer's multipath control
 * messages (dco_mpctl.c). With braid_dco the data packets never reach
 * userspace; the peer's engine still validates each path it learned
 * (PATH_CHALLENGE), measures it (PROBE) and searches its MTU (MTU_PROBE).
 * The module hands these up (dco_up.h); they are answered here on the path
 * they came on, the answer sent by the module (PACKET_SEND). The rest
 * (REPORT, PATH_STATUS, SKIP, ...) is counted and needs no answer.
 */
#ifndef BRAID_DP_DCO_MPCTL_H
#define BRAID_DP_DCO_MPCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_mp_msg;

struct braid_dco_mpctl_stats {
	uint64_t challenges, probes, mtu_probes;	/* answered */
	uint64_t other;		/* understood, no answer needed */
	uint64_t malformed;	/* the magic, but not parsable */
};

/* What the peer's messages on one of our paths told: its id of the path, its probes. */
struct braid_dco_mpctl_path {
	bool known;		/* a challenge or probe named the peer's path id */
	uint32_t peer_path_id;
	uint32_t probe_seq_hi;	/* the highest probe sequence seen on the path */
	uint64_t rx_pkts;		/* at the last report */
	uint64_t span_bytes, span_ns;	/* at the last report */
};

/* What the module counted on one path (PEER_GET), cumulative. */
struct braid_dco_mpctl_rx {
	uint64_t pkts, bytes;		/* every packet received on it */
	uint32_t last_pktid;		/* the last data packet's id */
	uint64_t span_bytes, span_ns;	/* the delivery-rate spans (rx-span-bytes, rx-span-ns) */
};

/**
 * braid_dco_mpctl_answer() - the answer to one handed-up payload msg that
 * starts with the multipath magic, received at now_us (CLOCK_MONOTONIC).
 * Returns the answer's length in out (cap at least BRAID_MP_MSG_MAX is
 * plenty), 0 when none is due, -ENOMSG when msg is not a multipath control
 * message (no magic: the role's), -EBADMSG when it is malformed (counted).
 * pp (or NULL): the path's state, updated from a challenge or probe.
 */
int braid_dco_mpctl_answer(const uint8_t *msg, size_t len, uint64_t now_us, uint8_t *out, size_t cap,
			   struct braid_dco_mpctl_stats *st, struct braid_dco_mpctl_path *pp);
/* The same for a message its caller parsed already (braid_mp_msg_parse() returned 0): no -errno. */
int braid_dco_mpctl_answer_msg(const struct braid_mp_msg *m, uint64_t now_us, uint8_t *out, size_t cap,
			       struct braid_dco_mpctl_stats *st, struct braid_dco_mpctl_path *pp);

/**
 * braid_dco_mpctl_report() - the REPORT the peer's multipath sender needs to
 * acknowledge its data (docs/multipath.md): one entry per path in pp[0..n)
 * whose peer id is known, from the module's per-path counters rx[i]
 * (cumulative packets and bytes, the last data packet id of key generation
 * gen: reported as gen << 32 | id, as the peer's engine counts them,
 * mpath_engine_pid). The rate sample is what the module's spans added since
 * the last report: the bytes of the packets that followed another within
 * 20 ms, over the sum of those gaps (the span of the userspace receiver,
 * measured from arrival to arrival; not the poll's interval, which reads a
 * path busy for a part of it as slow). pp's marks are moved on. Returns its
 * length in out, 0 when nothing arrived since the last report, or -ENOSPC.
 */
int braid_dco_mpctl_report(struct braid_dco_mpctl_path *pp, int n, const struct braid_dco_mpctl_rx *rx,
			   uint32_t gen, uint8_t *out, size_t cap);

/* The key generation of key_id after generation cur (OpenVPN's key ids 0, 1..7, 1..7, ...; first: cur < 0). */
uint32_t braid_dco_mpctl_gen(int64_t cur, unsigned int key_id);

#endif /* BRAID_DP_DCO_MPCTL_H */
