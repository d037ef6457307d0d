/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simtcp.h - a window-based inner TCP flow for the multipath simulator.
 *
 * Segments are numbered (one MSS-sized packet each, no byte sequence). The
 * sender does slow start, CUBIC (or Reno) congestion avoidance, SACK-based
 * loss recovery (RFC 6675 style: a hole is lost once 3 segments above it
 * are SACKed, or on 3 duplicate ACKs; pipe accounting), an RFC 6298 RTO
 * with 200 ms minimum and go-back on timeout, a receive window, and the
 * ECN reaction (one reduction per window). A fixed duplicate threshold of
 * 3 and no RACK: reordering beyond 3 packets costs a window reduction, as
 * it does a real TCP without reordering adaptation. The receiver ACKs every
 * segment with the cumulative ACK and up to 3 SACK blocks, echoing CE as ECE.
 */
#ifndef BRAID_MP_SIMTCP_H
#define BRAID_MP_SIMTCP_H

#include <stdint.h>

#define SIMTCP_SB (1u << 15)	/* scoreboard ring, > any window used */

enum sim_kind { SIM_K_LOAD = 1, SIM_K_SEG, SIM_K_ACK, SIM_K_PING, SIM_K_PONG };

/* An inner packet as the simulator carries it (the engine only sees a ref). */
struct sim_ipkt {
	uint8_t kind;
	uint8_t ce;		/* CE set by the tunnel (SEG) */
	uint8_t ece;		/* ACK: CE seen */
	uint8_t nsack;
	uint32_t seq;		/* SEG: segment number; PING/PONG: probe number */
	uint32_t ack;		/* ACK: next expected segment */
	uint32_t sack[3][2];	/* ACK: [start, end) blocks */
	uint64_t ts;		/* PING/PONG: send time */
	uint64_t pid;		/* LOAD: offered packet-id */
};

struct sim_tcp_cfg {
	int reno;		/* 0 = CUBIC (beta 0.7), 1 = Reno (beta 0.5) */
	uint32_t rwnd;		/* receive window in segments (<= SIMTCP_SB / 2) */
	uint32_t init_cwnd;	/* 10 */
	uint32_t min_rto_us;	/* 200 ms */
	int ect;		/* ECN-capable: CE marks instead of drops */
};

struct sim_tcp {
	struct sim_tcp_cfg cfg;
	/* sender */
	uint32_t una, nxt, recover, cwr_until, rexmit_scan;
	double cwnd, ssthresh;
	uint32_t dupacks;
	int in_rec;
	uint8_t sb[SIMTCP_SB];		/* 1 sacked, 2 lost, 4 retransmitted */
	uint64_t tx_us[SIMTCP_SB];
	uint32_t n_sacked, n_lost, n_retx, hi_sacked;
	uint64_t srtt, rttvar, rto, rto_at, min_rtt;
	int have_rtt;
	/* CUBIC */
	double wmax, k, origin, west;
	uint64_t epoch;
	/* receiver */
	uint32_t rcv_nxt, rcv_hi;
	uint8_t rb[SIMTCP_SB];		/* 1 = received out of order */
	uint32_t last_blk[3][2];
	int nlast;
	/* stats */
	uint64_t segs_sent, retrans, fast_recoveries, rtos, ecn_reductions, spurious_dup;
	uint64_t rcv_dup_segs, rcv_ooo_segs;
};

void simtcp_init(struct sim_tcp *t, const struct sim_tcp_cfg *cfg, uint64_t now);
/* 1 and *out = a segment the window allows now, 0 if none. */
int simtcp_next(struct sim_tcp *t, uint64_t now, struct sim_ipkt *out);
void simtcp_on_ack(struct sim_tcp *t, uint64_t now, const struct sim_ipkt *ack);
/* RTO time, UINT64_MAX if nothing is outstanding. */
uint64_t simtcp_deadline(const struct sim_tcp *t);
void simtcp_timer(struct sim_tcp *t, uint64_t now);
/* Receiver: a segment arrived; *ack is the ACK to send. Returns the number
 * of segments newly delivered in order to the application. */
uint32_t simtcp_on_seg(struct sim_tcp *t, const struct sim_ipkt *seg, struct sim_ipkt *ack);

#endif
