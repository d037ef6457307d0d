/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h - deterministic two-engine simulator on a virtual clock.
 *
 * Side 0 ("A") and side 1 ("B") each run a braid_mp engine; every path has
 * one link per direction with a bottleneck rate, a buffer, a one-way delay,
 * FIFO-preserving jitter, random loss and a down switch (cut / blackhole).
 * The harness plays the daemon: it assigns packet-ids (data at enqueue,
 * control at send, one counter per direction), carries packets and feeds
 * rx_data / rx_control. Offered load: constant-rate packets from A to B,
 * and/or one window-based TCP flow A -> B whose ACKs come back B -> A
 * through B's engine (simtcp.h), and/or a ping probe A -> B -> A. Loss is
 * uniform or Gilbert-Elliott per link (seeded). The bottleneck queue of
 * each link is drop-tail with a size in bytes or in ms of its rate.
 * Inner packets are heap copies (struct sim_ipkt) handed to the engine as
 * refs; the links carry their own copies.
 */
#ifndef BRAID_MP_SIM_H
#define BRAID_MP_SIM_H

#include <stdint.h>

#include "mp.h"
#include "simtcp.h"

#define SIM_MAX_PATHS 4
#define SIM_MAX_PID (1u << 22)

struct sim_link_cfg {
	uint64_t rate_bps;
	uint32_t delay_us;
	uint32_t jitter_us;
	uint32_t batch_us;	/* arrivals released in batches every batch_us (a shaper's
				 * batched verdicts, a busy receiver); 0 = off */
	uint32_t loss_pm;
	uint32_t buf_bytes;	/* bottleneck buffer; 0 = buf_us worth */
	uint32_t buf_us;	/* bottleneck buffer in time; 0 (and no bytes) = 100 ms */
	/* Gilbert-Elliott (netem gemodel p r 1-h 1-k), per million; p = 0: off */
	uint32_t ge_p, ge_r, ge_bad_loss, ge_good_loss;
	uint64_t seed;		/* 0 = derived from the link's index */
	uint32_t mtu;		/* larger packets (engine sizes) are dropped; 0 = none */
};

struct sim_pkt {
	uint64_t arr_us;
	uint64_t pid;
	uint32_t len;
	uint8_t is_ctl;
	uint8_t direct;		/* bypasses the engines (baseline runs) */
	uint8_t *ctl;
	struct sim_ipkt ip;
};

struct sim_link {
	struct sim_link_cfg cfg;
	int down;
	uint64_t busy_until, last_arr;
	struct sim_pkt *ring;
	uint32_t head, n;
	uint64_t rng;
	int ge_bad;
	/* stats */
	uint64_t pkts, bytes, data_bytes, drop_buf, drop_loss, drop_down;
	uint64_t drop_mtu, drop_mtu_data;	/* above cfg.mtu (all / data packets) */
	uint64_t win_data_bytes;
	uint64_t qdelay_max, qdelay_sum, qdelay_n;
};

struct sim_side {
	struct braid_mp *mp;
	uint64_t next_pid;
	uint64_t rng;
	uint64_t rel[4];	/* tx_release counts by reason */
	uint64_t ce_marks;
};

struct sim {
	uint64_t now;
	int npaths;
	struct sim_side side[2];
	struct sim_link link[2][SIM_MAX_PATHS];	/* [from side][path] */
	/* offered load A -> B */
	uint64_t load_bps;
	uint32_t pkt_len;
	uint32_t seg_len;		/* TCP segment size; 0 = pkt_len */
	unsigned int meta;
	unsigned int load_rx_meta;	/* the class B's daemon gives an offered packet (BULK) */
	uint64_t load_next, load_until;
	uint64_t offered, offered_bytes, enq_fail;
	/* deliveries at B */
	uint8_t *is_data;	/* by pid: 1 = data offered, 2 = delivered */
	uint64_t delivered, delivered_bytes, dup_deliveries, out_of_order;
	uint64_t load_max_delay_us;	/* offered -> delivered at B, the largest (settable) */
	uint64_t last_delivered_pid;
	uint64_t max_held_us;
	/* measurement window */
	uint64_t win_start, win_end;
	uint64_t win_offered_bytes, win_delivered_bytes;
	uint64_t spins;
	/* inner TCP flow A -> B */
	struct sim_tcp *tcp;		/* NULL = none */
	int direct_path;		/* >= 0: TCP and ping bypass the tunnel on it */
	uint64_t tcp_start;
	uint64_t tcp_segs, win_tcp_segs;	/* delivered in order at B */
	uint64_t tcp_entry_drops;		/* refused by enqueue (tunnel full) */
	/* ping A -> B -> A */
	uint64_t ping_every, ping_next, ping_until;
	uint32_t ping_seq;
	uint64_t *ping_rtt;		/* samples in the measurement window */
	uint32_t ping_n, ping_cap;
	uint64_t pings_lost_entry;
};

/* cfg may be NULL for defaults; sched applies to both sides. */
int sim_init(struct sim *s, int npaths, const struct sim_link_cfg *fwd,
	     const struct sim_link_cfg *rev, const struct braid_mp_config *cfg);
void sim_fini(struct sim *s);
/* Run until virtual time t. */
void sim_run(struct sim *s, uint64_t t);
/* Run until path p of side 'side' is in state st or t passes; 1 if reached. */
int sim_run_until_state(struct sim *s, int side, int p, enum braid_mp_path_state st,
			uint64_t t);
void sim_set_load(struct sim *s, uint64_t bps, uint32_t len, uint64_t until);
void sim_window(struct sim *s, uint64_t start, uint64_t end);
/* Lost offered packets = offered data packets never delivered. */
uint64_t sim_lost(const struct sim *s);
/* The same, for packet-ids >= from. */
uint64_t sim_lost_from(const struct sim *s, uint64_t from);
enum braid_mp_path_state sim_state(const struct sim *s, int side, int p);
/* Start one TCP flow A -> B now (direct_path >= 0: without the tunnel). */
int sim_tcp_start(struct sim *s, const struct sim_tcp_cfg *cfg, int direct_path);
/* Ping every 'every' us until 'until'; RTT samples taken inside the window. */
int sim_ping_start(struct sim *s, uint64_t every, uint64_t until, uint32_t cap);
/* p-th percentile (0..100) of the ping samples, 0 if none. */
uint64_t sim_ping_pct(struct sim *s, unsigned int p);

#endif /* BRAID_MP_SIM_H */
