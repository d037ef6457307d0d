/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_pmtu.h - per-path packetization-layer path MTU search (the model is
 * RFC 8899, DPLPMTUD for datagram transports), without ICMP.
 *
 * Sizes are engine packet sizes: the plaintext the daemon encrypts (an
 * inner IP packet, or a control message). The engine sends MTU_PROBE
 * messages padded to the size under test inside the encrypted channel; the
 * peer answers each with a small MTU_ACK. One probe is in flight per path.
 *
 *   validated --> SEARCH: mtu = base (assumed), probe max first, then
 *                 halve the interval (mtu, hi) until hi - mtu <= step;
 *                 a size counts as too big after MP_PMTU_TRIES lost probes;
 *                 if nothing above base passed, base itself is probed, and
 *                 if it fails too the search goes on from MP_PMTU_FLOOR
 *   SEARCH --> DONE: raise timer (cfg.pmtu_raise_us) --> SEARCH again
 *   black-hole suspicion (data above base lost while small packets pass)
 *     --> confirmation probe of size mtu; MP_PMTU_CONFIRM_TRIES lost -->
 *     mtu = base, hi = the old mtu, SEARCH (the caller moves packets that
 *     no longer fit to other paths)
 *
 * A lost MTU probe is neither data loss nor probe loss: it never fails or
 * degrades a path. This file is the state machine only; mp.c sends the
 * messages and drives the timers.
 */
#ifndef BRAID_MP_PMTU_H
#define BRAID_MP_PMTU_H

#include <stdint.h>

#define MP_PMTU_TRIES 3		/* lost probes before a size counts as too big */
#define MP_PMTU_CONFIRM_TRIES 2	/* lost confirmations before a black hole */
#define MP_PMTU_BH_HOLD_US 1000000ULL	/* no new suspicion after a good confirmation */
#define MP_PMTU_FLOOR 480	/* assumed when even base does not pass (IPv4's 576 minimum
				 * less outer headers and a data channel's overhead) */

enum mp_pmtu_state {
	MP_PMTU_OFF = 0,	/* search off, or the path is not usable */
	MP_PMTU_SEARCH,
	MP_PMTU_DONE,
};

struct mp_pmtu {
	enum mp_pmtu_state state;
	uint32_t base, max, step;
	uint32_t mtu;		/* PLPMTU: largest confirmed size (low until one is) */
	uint32_t low;		/* assumed to pass: base, or MP_PMTU_FLOOR once base failed */
	int low_ok;		/* low itself passed (or there is nothing smaller to try) */
	uint32_t hi;		/* smallest size known not to pass; max + 1 = none */
	uint32_t size;		/* probe in flight (sent_us != 0): its size */
	uint32_t seq;		/* its sequence number */
	uint64_t sent_us;	/* 0: no probe in flight */
	uint32_t tries;		/* lost probes of this size so far */
	int confirm;		/* the probe confirms mtu (black-hole suspicion) */
	uint64_t confirm_us;	/* when the confirmation started */
	uint64_t raise_us;	/* DONE: time of the next search */
	uint64_t hold_until;	/* no black-hole suspicion before */
	/* counters */
	uint64_t probes, acks, lost;
	uint32_t blackholes, searches;
};

/* Search off: every size fits (mtu UINT32_MAX). */
void mp_pmtu_off(struct mp_pmtu *u);
/* (Re)start the search from base (path validated). */
void mp_pmtu_start(struct mp_pmtu *u, uint64_t now, uint32_t base, uint32_t max, uint32_t step);
/* The path failed: forget the probe in flight, keep nothing. */
void mp_pmtu_stop(struct mp_pmtu *u);
/* Size of the probe to send now, 0 if none is due (one in flight, DONE). */
uint32_t mp_pmtu_due(struct mp_pmtu *u, uint64_t now);
/* A probe of size with sequence seq went out now. */
void mp_pmtu_sent(struct mp_pmtu *u, uint64_t now, uint32_t seq, uint32_t size);
/* An MTU_ACK arrived. Returns 1 if mtu grew. */
int mp_pmtu_ack(struct mp_pmtu *u, uint64_t now, uint32_t seq, uint32_t size,
		uint64_t raise_us);
/* The probe in flight is older than pto: lost. Returns 1 if mtu shrank
 * (black hole confirmed). */
int mp_pmtu_timeout(struct mp_pmtu *u, uint64_t now, uint64_t pto, uint64_t raise_us);
/* Packets above base are lost while smaller ones pass: confirm mtu now.
 * Returns 1 if a confirmation was started. */
int mp_pmtu_suspect(struct mp_pmtu *u, uint64_t now);
/* Time the engine must look at this path next (UINT64_MAX: none). */
uint64_t mp_pmtu_next(const struct mp_pmtu *u, uint64_t pto);

#endif /* BRAID_MP_PMTU_H */
