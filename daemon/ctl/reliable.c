// SPDX-License-Identifier: GPL-2.0-only
/*
 * reliable.c - OpenVPN control-channel reliability layer (no event loop).
 */
#include "reliable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

/* Free a slot's payload buffer (control-channel bytes: cleansed first). */
static void drop_buf(uint8_t **buf, size_t *len)
{
	if (*buf) {
		OPENSSL_cleanse(*buf, *len);
		free(*buf);
	}
	*buf = NULL;
	*len = 0;
}

/* A heap copy of len bytes (NULL for 0); -ENOMEM. */
static int copy_buf(uint8_t **out, const uint8_t *payload, size_t len)
{
	*out = NULL;
	if (!len)
		return 0;
	*out = malloc(len);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, payload, len);
	return 0;
}

void braid_rel_free(struct braid_reliable *r)
{
	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++) {
		drop_buf(&r->tx[i].buf, &r->tx[i].len);
		r->tx[i].used = false;
	}
	for (unsigned i = 0; i < BRAID_REL_RECV_WINDOW; i++) {
		drop_buf(&r->rx[i].buf, &r->rx[i].len);
		r->rx[i].used = false;
	}
}

size_t braid_rel_held(const struct braid_reliable *r)
{
	size_t n = 0;

	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++)
		n += r->tx[i].buf ? r->tx[i].len : 0;
	for (unsigned i = 0; i < BRAID_REL_RECV_WINDOW; i++)
		n += r->rx[i].buf ? r->rx[i].len : 0;
	return n;
}

void braid_rel_init(struct braid_reliable *r, int64_t now_ms, uint32_t timeout_ms,
		    uint32_t hand_window_ms)
{
	memset(r, 0, sizeof(*r));
	r->timeout_ms = timeout_ms ? timeout_ms : BRAID_REL_DEFAULT_TIMEOUT_MS;
	r->hand_window_ms = hand_window_ms ? hand_window_ms : BRAID_REL_DEFAULT_HAND_WINDOW_MS;
	r->start_ms = now_ms;
}

unsigned braid_rel_send_room(const struct braid_reliable *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++)
		n += !r->tx[i].used;
	return n;
}

/* Lowest unacknowledged msg_pid, or next_tx_pid if none. */
static uint32_t lowest_unacked(const struct braid_reliable *r)
{
	uint32_t low = r->next_tx_pid;

	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++)
		if (r->tx[i].used && (int32_t)(r->tx[i].msg_pid - low) < 0)
			low = r->tx[i].msg_pid;
	return low;
}

int braid_rel_send(struct braid_reliable *r, uint8_t opcode, const uint8_t *payload,
		   size_t len, uint32_t *msg_pid)
{
	struct braid_rel_tx *t = NULL;
	uint8_t *copy;

	if (!braid_ctl_op_is_control(opcode) || opcode == BRAID_OP_ACK_V1)
		return -EINVAL;
	if (len > BRAID_REL_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (len && !payload)
		return -EINVAL;
	/* window: ids beyond lowest unacked + 6 must wait (reliable_can_send) */
	if (r->next_tx_pid - lowest_unacked(r) >= BRAID_REL_SEND_WINDOW)
		return -ENOBUFS;
	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW && !t; i++)
		if (!r->tx[i].used)
			t = &r->tx[i];
	if (!t)
		return -ENOBUFS;
	if (copy_buf(&copy, payload, len))
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	t->used = true;
	t->opcode = opcode;
	t->msg_pid = r->next_tx_pid++;
	t->timeout_ms = r->timeout_ms;
	t->next_ms = INT64_MIN; /* due at once */
	t->len = len;
	t->buf = copy;
	if (msg_pid)
		*msg_pid = t->msg_pid;
	return 0;
}

static bool ack_owed(const struct braid_reliable *r, uint32_t id)
{
	for (unsigned i = 0; i < r->n_acks; i++)
		if (r->acks[i] == id)
			return true;
	return false;
}

static void process_acks(struct braid_reliable *r, const struct braid_ctl_pkt *p, int64_t now_ms)
{
	for (unsigned a = 0; a < p->n_acks; a++) {
		uint32_t id = p->acks[a];
		bool hit = false;

		for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++) {
			if (r->tx[i].used && r->tx[i].sent && r->tx[i].msg_pid == id) {
				r->tx[i].used = false;
				drop_buf(&r->tx[i].buf, &r->tx[i].len);
				hit = true;
			}
		}
		if (!hit)
			continue;
		/* early retransmit of older messages that later ids overtook */
		for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++) {
			struct braid_rel_tx *t = &r->tx[i];

			if (t->used && t->sent && (int32_t)(t->msg_pid - id) < 0 &&
			    ++t->later_acks >= BRAID_REL_N_ACK_RETRANSMIT) {
				t->later_acks = 0;
				if (t->next_ms > now_ms)
					t->next_ms = now_ms;
			}
		}
	}
}

int braid_rel_recv(struct braid_reliable *r, const struct braid_ctl_pkt *p, int64_t now_ms)
{
	uint32_t d;
	struct braid_rel_rx *s;

	process_acks(r, p, now_ms);
	if (!p->has_msg_pid)
		return 0;
	d = p->msg_pid - r->rx_expected;
	if (d >= BRAID_REL_RECV_WINDOW && (int32_t)d >= 0) {
		r->n_window_drops++;
		return -ERANGE;
	}
	if (!ack_owed(r, p->msg_pid)) {
		if (r->n_acks == BRAID_CTL_ACK_MAX) {
			r->n_ack_full_drops++;
			return -ENOBUFS;
		}
		r->acks[r->n_acks++] = p->msg_pid;
	}
	if ((int32_t)d < 0) { /* older than expected: duplicate, re-ACKed */
		r->n_dup_rx++;
		return 0;
	}
	s = &r->rx[p->msg_pid % BRAID_REL_RECV_WINDOW];
	if (s->used) { /* duplicate inside the window */
		r->n_dup_rx++;
		return 0;
	}
	if (p->payload_len > BRAID_REL_MAX_PAYLOAD) {
		r->n_acks--; /* not stored: do not ACK it */
		return -EMSGSIZE;
	}
	if (copy_buf(&s->buf, p->payload, p->payload_len)) {
		r->n_acks--; /* not stored: do not ACK it */
		return -ENOMEM;
	}
	s->used = true;
	s->opcode = p->opcode;
	s->len = p->payload_len;
	return 0;
}

int braid_rel_read(struct braid_reliable *r, uint8_t *opcode, uint8_t *out, size_t cap,
		   size_t *len)
{
	struct braid_rel_rx *s = &r->rx[r->rx_expected % BRAID_REL_RECV_WINDOW];

	if (!s->used)
		return -EAGAIN;
	if (s->len > cap)
		return -ENOBUFS;
	if (s->len)
		memcpy(out, s->buf, s->len);
	*len = s->len;
	*opcode = s->opcode;
	s->used = false;
	drop_buf(&s->buf, &s->len);
	r->rx_expected++;
	return 0;
}

static void take_acks(struct braid_reliable *r, struct braid_ctl_pkt *p, unsigned max)
{
	unsigned n = r->n_acks < max ? r->n_acks : max;

	p->n_acks = (uint8_t)n;
	memcpy(p->acks, r->acks, n * sizeof(r->acks[0]));
	memmove(r->acks, r->acks + n, (r->n_acks - n) * sizeof(r->acks[0]));
	r->n_acks -= n;
}

int braid_rel_next(struct braid_reliable *r, int64_t now_ms, struct braid_ctl_pkt *p)
{
	struct braid_rel_tx *due = NULL;

	/* the due message with the lowest id first */
	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++) {
		struct braid_rel_tx *t = &r->tx[i];

		if (t->used && t->next_ms <= now_ms &&
		    (!due || (int32_t)(t->msg_pid - due->msg_pid) < 0))
			due = t;
	}
	if (due) {
		p->opcode = due->opcode;
		p->has_msg_pid = true;
		p->msg_pid = due->msg_pid;
		p->payload = due->buf;
		p->payload_len = due->len;
		take_acks(r, p, BRAID_CTL_ACK_PIGGYBACK);
		if (due->sent) {
			r->n_retransmits++;
			due->timeout_ms = due->timeout_ms > UINT32_MAX / 2 ? UINT32_MAX
									   : due->timeout_ms * 2;
		}
		due->sent = true;
		due->n_tx++;
		due->later_acks = 0;
		due->next_ms = now_ms + due->timeout_ms;
		return 0;
	}
	if (r->n_acks) {
		p->opcode = BRAID_OP_ACK_V1;
		p->has_msg_pid = false;
		p->msg_pid = 0;
		p->payload = NULL;
		p->payload_len = 0;
		take_acks(r, p, BRAID_CTL_ACK_MAX);
		return 0;
	}
	return -EAGAIN;
}

int64_t braid_rel_deadline(const struct braid_reliable *r)
{
	int64_t d = BRAID_REL_NEVER;

	if (r->n_acks)
		return INT64_MIN;
	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++)
		if (r->tx[i].used && r->tx[i].next_ms < d)
			d = r->tx[i].next_ms;
	if (!r->handshake_done && r->start_ms + r->hand_window_ms < d)
		d = r->start_ms + r->hand_window_ms;
	return d;
}

void braid_rel_resend_all(struct braid_reliable *r, int64_t now_ms)
{
	for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++)
		if (r->tx[i].used && r->tx[i].next_ms > now_ms)
			r->tx[i].next_ms = now_ms;
}

bool braid_rel_all_acked(const struct braid_reliable *r)
{
	return braid_rel_send_room(r) == BRAID_REL_SEND_WINDOW;
}

void braid_rel_handshake_done(struct braid_reliable *r)
{
	r->handshake_done = true;
}

int braid_rel_expired(const struct braid_reliable *r, int64_t now_ms)
{
	if (!r->handshake_done && now_ms >= r->start_ms + r->hand_window_ms)
		return -ETIMEDOUT;
	return 0;
}
