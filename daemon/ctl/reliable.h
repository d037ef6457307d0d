/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reliable.h - the OpenVPN control-channel reliability layer for one
 * key_state (one key_id), without an event loop.
 *
 * The caller feeds it time (milliseconds, any monotonic origin) and
 * decoded plain packets (pkt.h); it returns packets to send and a deadline.
 *
 *  - message packet-ids per direction from 0 (the reset / soft reset), +1,
 *    no gaps;
 *  - send window 6: at most 6 unacknowledged messages (-ENOBUFS beyond);
 *  - receive window 12: ids in [expected, expected+12) are stored and ACKed,
 *    older ids (duplicates) are re-ACKed, newer ones dropped without an ACK;
 *  - ACKs are individual; up to 4 ride on a message, up to 8 in a P_ACK_V1;
 *  - retransmission after timeout (2 s default), doubling each time; early
 *    after 3 ACKs of later ids; braid_rel_resend_all() for a received reset;
 *  - hand-window: until braid_rel_handshake_done(), the deadline includes
 *    start + hand_window, after which braid_rel_expired() returns -ETIMEDOUT.
 *
 * The session fields of outgoing packets (key_id, own sid, ack_sid = the
 * peer's sid) are the caller's; braid_rel_next() fills opcode, ACKs,
 * msg_pid and payload (pointing into the reliable struct, valid until the
 * next call).
 *
 * Memory: a window slot holds a heap buffer of exactly its message's length
 * only while it is in use (a send slot until ACKed, a receive slot until
 * read), so an idle key state (everything ACKed and read) holds no payload
 * buffer at all (issue 16: per-session memory). braid_rel_free() releases
 * whatever is still held; a struct given to braid_rel_init() must hold
 * nothing (fresh, or after braid_rel_free()).
 */
#ifndef BRAID_CTL_RELIABLE_H
#define BRAID_CTL_RELIABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pkt.h"

#define BRAID_REL_SEND_WINDOW 6
#define BRAID_REL_RECV_WINDOW 12
#define BRAID_REL_N_ACK_RETRANSMIT 3
#define BRAID_REL_MAX_PAYLOAD 1400
#define BRAID_REL_DEFAULT_TIMEOUT_MS 2000
#define BRAID_REL_DEFAULT_HAND_WINDOW_MS 60000
#define BRAID_REL_NEVER INT64_MAX

struct braid_rel_tx {
	bool used;
	bool sent;           /* transmitted at least once */
	uint8_t opcode;
	uint32_t msg_pid;
	int64_t next_ms;     /* next (re)transmission */
	uint32_t timeout_ms; /* current backoff */
	unsigned later_acks; /* ACKs of later ids seen since the last send */
	unsigned n_tx;
	size_t len;
	uint8_t *buf; /* len bytes on the heap while used (NULL when len is 0) */
};

struct braid_rel_rx {
	bool used;
	uint8_t opcode;
	size_t len;
	uint8_t *buf; /* len bytes on the heap while used (NULL when len is 0) */
};

struct braid_reliable {
	uint32_t next_tx_pid;
	struct braid_rel_tx tx[BRAID_REL_SEND_WINDOW];
	uint32_t rx_expected;
	struct braid_rel_rx rx[BRAID_REL_RECV_WINDOW]; /* slot = msg_pid % 12 */
	uint32_t acks[BRAID_CTL_ACK_MAX];              /* ACKs owed, oldest first */
	unsigned n_acks;
	uint32_t timeout_ms;
	int64_t start_ms, hand_window_ms;
	bool handshake_done;
	/* counters */
	uint64_t n_retransmits, n_dup_rx, n_window_drops, n_ack_full_drops;
};

/* timeout_ms 0 = 2000, hand_window_ms 0 = 60000. */
void braid_rel_init(struct braid_reliable *r, int64_t now_ms, uint32_t timeout_ms,
		    uint32_t hand_window_ms);

/* Release every buffer still held (cleansed first); r keeps its ids and counters. */
void braid_rel_free(struct braid_reliable *r);

/* Bytes of payload buffers held now (for tests and memory accounting). */
size_t braid_rel_held(const struct braid_reliable *r);

/* Free send slots. */
unsigned braid_rel_send_room(const struct braid_reliable *r);
/*
 * Queue a message (reset, soft reset, CONTROL_V1/WKC payload). Gets the next
 * msg_pid (returned in *msg_pid if not NULL). -ENOBUFS: window full;
 * -EMSGSIZE: len > BRAID_REL_MAX_PAYLOAD; -EINVAL: P_ACK_V1 or not control;
 * -ENOMEM: no memory for the payload (nothing queued).
 */
int braid_rel_send(struct braid_reliable *r, uint8_t opcode, const uint8_t *payload,
		   size_t len, uint32_t *msg_pid);

/*
 * Process a received, authenticated packet of this key_state: its ACKs free
 * send slots, its message (if any) is stored for reading and an ACK is owed.
 * 0 if accepted or a duplicate (re-ACKed); -ERANGE: msg_pid beyond the
 * receive window (dropped, not ACKed); -ENOBUFS: no room to owe another ACK
 * (dropped; the peer retransmits); -ENOMEM: no memory to store the message
 * (dropped, not ACKed; the peer retransmits).
 */
int braid_rel_recv(struct braid_reliable *r, const struct braid_ctl_pkt *p, int64_t now_ms);

/*
 * Next in-order received message: copies its payload into out. 0, -EAGAIN
 * (nothing in order), -ENOBUFS (cap too small; the message stays).
 */
int braid_rel_read(struct braid_reliable *r, uint8_t *opcode, uint8_t *out, size_t cap,
		   size_t *len);

/*
 * Next packet to transmit now: a due (re)transmission with up to 4 owed
 * ACKs, else a P_ACK_V1 with up to 8. 0 (p filled), -EAGAIN (nothing now).
 * Call until -EAGAIN.
 */
int braid_rel_next(struct braid_reliable *r, int64_t now_ms, struct braid_ctl_pkt *p);

/* Earliest time braid_rel_next or braid_rel_expired has something to do. */
int64_t braid_rel_deadline(const struct braid_reliable *r);

/* Make every unacknowledged message due now (a reset arrived). */
void braid_rel_resend_all(struct braid_reliable *r, int64_t now_ms);

/* All sent messages acknowledged? */
bool braid_rel_all_acked(const struct braid_reliable *r);

void braid_rel_handshake_done(struct braid_reliable *r);
/* -ETIMEDOUT once the hand-window passed before handshake_done; else 0. */
int braid_rel_expired(const struct braid_reliable *r, int64_t now_ms);

#endif /* BRAID_CTL_RELIABLE_H */
