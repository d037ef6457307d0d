/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_live.h - whether each kernel path still reaches the peer (dco_live.c).
 * With braid_dco in multipath the module is the sender: its round robin
 * spreads the data over the paths it is told are up. A path that dies beyond
 * the first hop (a dead uplink behind a working Wi-Fi, a carrier's outage)
 * raises no send error, so the module would keep sending half the data into
 * it. braidd probes each path itself (PROBE through PACKET_SEND, the peer's
 * engine answers PROBE_ECHO on the same path) and applies the engine's
 * failure rule (DESIGN.md §5, docs/multipath.md): a path whose probes go
 * unanswered for max(3 srtt, 300 ms), two of them at least, is dead; the
 * backend then marks it down (PATH_SET) while another path is up. Probes
 * keep going on a down path; two answered in a row bring it back.
 */
#ifndef BRAID_DP_DCO_LIVE_H
#define BRAID_DP_DCO_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_mp_msg;

#define BRAID_DCO_LIVE_PATHS 8
#define BRAID_DCO_LIVE_BUSY_US 50000u	/* probe interval while the tunnel carries data */
#define BRAID_DCO_LIVE_IDLE_US 1000000u	/* probe interval while it is idle */
#define BRAID_DCO_LIVE_FLOOR_US 300000u	/* the failure rule's floor */
#define BRAID_DCO_LIVE_UNANSWERED 2	/* probes unanswered before a path can fail */
#define BRAID_DCO_LIVE_BACK 2		/* echoes in a row that bring a dead path back */

struct braid_dco_live_path {
	uint32_t seq;			/* the last probe's sequence number (0: none sent) */
	uint32_t answered;		/* the highest sequence echoed */
	uint64_t first_unanswered_us;	/* when the oldest unanswered probe left (0: none) */
	uint64_t tx_us[16];		/* departures of the last 16 probes, by sequence */
	unsigned int unanswered;	/* probes sent since the last echo */
	unsigned int streak;		/* consecutive probes answered while dead */
	uint64_t next_us;		/* when the next probe is due */
	uint64_t srtt_us, rttvar_us;	/* from the echoes (0 before the first) */
	bool dead;			/* failed by the rule (marked down) */
	uint64_t dead_at_us;		/* when it was found dead */
	uint64_t fails, recoveries;	/* transitions */
	uint64_t echoes_rx, echoes_bad;	/* echoes taken; echoes not of this path's probes */
};

struct braid_dco_live {
	int n;
	struct braid_dco_live_path p[BRAID_DCO_LIVE_PATHS];
};

enum braid_dco_live_event {
	BRAID_DCO_LIVE_NONE = 0,
	BRAID_DCO_LIVE_DEAD,	/* mark the path down */
	BRAID_DCO_LIVE_BACK_UP,	/* mark it up again */
};

/* n paths (at most BRAID_DCO_LIVE_PATHS), none probed yet; -EINVAL otherwise. */
int braid_dco_live_init(struct braid_dco_live *l, int n);

/*
 * braid_dco_live_probe() - path i's probe when one is due at now (busy: the
 * tunnel moved data since the last call, probe every BUSY_US, else every
 * IDLE_US; an unanswered probe is repeated after one interval either way):
 * its length in out (cap at least BRAID_MP_PROBE_LEN), 0 when none is due,
 * -errno. The caller sends it on path i (the peer answers on that path).
 */
int braid_dco_live_probe(struct braid_dco_live *l, int i, uint64_t now, bool busy, uint8_t *out,
			 size_t cap);

/*
 * braid_dco_live_echo() - a handed-up control message that arrived on path
 * i at now: 1 when it was a PROBE_ECHO (of path i's probes: rtt sampled,
 * counted; else counted as bad), -ENOMSG when it is anything else (the
 * caller answers or passes it on), -EBADMSG when it does not parse.
 */
int braid_dco_live_echo(struct braid_dco_live *l, int i, const uint8_t *msg, size_t len,
			uint64_t now);
/* The same for a message its caller parsed already: 1 (a PROBE_ECHO) or -ENOMSG. */
int braid_dco_live_echo_msg(struct braid_dco_live *l, int i, const struct braid_mp_msg *m, uint64_t now);

/*
 * braid_dco_live_check() - path i's verdict at now: DEAD when it has just
 * met the failure rule and another path is alive (the last one alive is
 * never failed: the session's own timeout takes over), BACK_UP when a dead
 * one has just answered BACK echoes in a row, else NONE.
 */
enum braid_dco_live_event braid_dco_live_check(struct braid_dco_live *l, int i, uint64_t now);

/* The failure timeout of path i: max(3 srtt, FLOOR_US). */
uint64_t braid_dco_live_timeout(const struct braid_dco_live_path *p);

#endif /* BRAID_DP_DCO_LIVE_H */
