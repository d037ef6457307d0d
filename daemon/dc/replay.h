/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - packet-id replay protection with OpenVPN --replay-window semantics.
 *
 * OpenVPN (packet_id.c, backtrack mode, the mode 2.6 uses on UDP and TCP):
 *  - packet-id 0 is never valid;
 *  - an id above the highest seen is accepted;
 *  - an older id is accepted only if highest - id < window, it was not seen
 *    before, and no higher id arrived more than time_window seconds ago;
 *  - long-form ids (tls-auth/tls-crypt: u32 time + u32 id): a newer time
 *    starts a new sequence, an older time is rejected ("time backtrack").
 *    The TLS-mode data channel uses short form: pkt_time = 0; braidd's static-key
 *    mode uses the long form (dc.h).
 *
 * The window is a bitmap (window rounded up to a power of two, >= 64), so a
 * multipath session can afford deep windows (4096+, max 65536). The time rule
 * is kept exactly, at one-second resolution, with a small ring of "highest id
 * at the end of second s" (OpenVPN reaps every 5 s, so it may accept up to
 * 5 s longer than time_window; we never do).
 *
 * Usage: check and commit only after the packet authenticated.
 * `now` is a monotonic clock in seconds; if it steps back it is clamped.
 */
#ifndef BRAID_DC_REPLAY_H
#define BRAID_DC_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#define BRAID_REPLAY_DEFAULT_WINDOW 64
#define BRAID_REPLAY_MAX_WINDOW 65536
#define BRAID_REPLAY_DEFAULT_TIME 15
#define BRAID_REPLAY_MAX_TIME 600

enum braid_replay_result {
	BRAID_REPLAY_OK = 0,
	BRAID_REPLAY_ZERO_ID,        /* packet-id 0: never valid */
	BRAID_REPLAY_DUPLICATE,      /* seen before (within the window) */
	BRAID_REPLAY_TOO_OLD,        /* highest - id >= window */
	BRAID_REPLAY_EXPIRED,        /* in the window, but a higher id arrived > time_window s ago */
	BRAID_REPLAY_TIME_BACKTRACK, /* long form: packet time older than the current sequence's */
};

struct braid_replay_tick {
	int64_t sec;
	uint32_t highest;
};

struct braid_replay {
	uint64_t *bits;        /* bit (id & mask) set = seen */
	uint32_t nbits;        /* power of two >= window */
	uint32_t window;       /* accept highest - id < window */
	uint32_t time_window;  /* seconds, 0 = no time rule */
	uint32_t pkt_time;     /* long-form time of the current sequence */
	uint32_t highest;      /* 0 = nothing accepted yet */
	/* time rule: ring of per-second highest ids, oldest first */
	struct braid_replay_tick *ticks;
	uint32_t nticks_cap, tick_head, nticks;
	uint32_t expired_below; /* ids <= this are expired by the time rule */
	int64_t last_now;
	uint64_t max_backtrack; /* deepest accepted reorder seen (stat) */
};

/* window 1..65536, time_window 0..600. -EINVAL otherwise, -ENOMEM. */
int braid_replay_init(struct braid_replay *r, uint32_t window, uint32_t time_window);
void braid_replay_free(struct braid_replay *r);
/* Forget everything (new key): as after init. */
void braid_replay_reset(struct braid_replay *r);

/* Would this id be accepted now? Does not change state except aging. */
enum braid_replay_result braid_replay_check(struct braid_replay *r, uint32_t pkt_time,
					    uint32_t id, int64_t now);
/* Record an id that braid_replay_check() accepted. */
void braid_replay_commit(struct braid_replay *r, uint32_t pkt_time, uint32_t id, int64_t now);
/* check + commit if OK. */
enum braid_replay_result braid_replay_accept(struct braid_replay *r, uint32_t pkt_time,
					     uint32_t id, int64_t now);

const char *braid_replay_result_str(enum braid_replay_result res);

#endif /* BRAID_DC_REPLAY_H */
