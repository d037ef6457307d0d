// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_reliable.c - the reliability layer on a virtual clock: windows,
 * ACKs, backoff, early retransmit, hand-window, and a lossy reordering
 * link that must deliver every message exactly once, in order.
 */
#include <errno.h>
#include <stdlib.h>

#include "reliable.h"
#include "check.h"

static const uint8_t sid_a[8] = "AAAAAAAA", sid_b[8] = "BBBBBBBB";

static void test_windows_and_timers(void)
{
	struct braid_reliable a, b;
	struct braid_ctl_pkt p, ack;
	uint8_t msg[4] = { 0 }, out[16], op;
	uint32_t id;
	size_t n;

	braid_rel_init(&a, 0, 0, 0);
	braid_rel_init(&b, 0, 0, 0);
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_ACK_V1, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_CONTROL_V1, msg, BRAID_REL_MAX_PAYLOAD + 1, NULL), -EMSGSIZE);
	for (unsigned i = 0; i < 6; i++) {
		CHECK_EQ(braid_rel_send(&a, i ? BRAID_OP_CONTROL_V1 : BRAID_OP_HARD_RESET_CLIENT_V2,
					msg, 4, &id), 0);
		CHECK_EQ(id, i);
	}
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_CONTROL_V1, msg, 4, NULL), -ENOBUFS);
	/* all six go out at t=0, lowest id first; deadline = 2000 (timeout) */
	for (unsigned i = 0; i < 6; i++) {
		CHECK_EQ(braid_rel_next(&a, 0, &p), 0);
		CHECK_EQ(p.msg_pid, i);
		CHECK_EQ(p.n_acks, 0);
	}
	CHECK_EQ(braid_rel_next(&a, 0, &p), -EAGAIN);
	CHECK_EQ(braid_rel_deadline(&a), 2000);
	CHECK_EQ(braid_rel_next(&a, 1999, &p), -EAGAIN);
	CHECK_EQ(braid_rel_next(&a, 2000, &p), 0);
	CHECK_EQ(p.msg_pid, 0);
	CHECK_EQ(a.n_retransmits, 1);
	/* ids 1..5 are due at 2000 too; after their resend, id 0 is next at 2000+4000 */
	for (unsigned i = 1; i < 6; i++)
		CHECK_EQ(braid_rel_next(&a, 2000, &p), 0);
	CHECK_EQ(braid_rel_deadline(&a), 6000);

	/* b receives id 3 first (out of order): stored and ACKed, not readable */
	p.opcode = BRAID_OP_CONTROL_V1;
	p.has_msg_pid = true;
	p.msg_pid = 3;
	p.payload = msg;
	p.payload_len = 4;
	p.n_acks = 0;
	CHECK_EQ(braid_rel_recv(&b, &p, 2000), 0);
	CHECK_EQ(braid_rel_read(&b, &op, out, sizeof(out), &n), -EAGAIN);
	p.msg_pid = 12; /* expected 0: window is [0, 12) */
	CHECK_EQ(braid_rel_recv(&b, &p, 2000), -ERANGE);
	/* b's pending ACK goes out as P_ACK_V1 */
	CHECK_EQ(braid_rel_deadline(&b) <= 2000, 1);
	CHECK_EQ(braid_rel_next(&b, 2000, &ack), 0);
	CHECK_EQ(ack.opcode, BRAID_OP_ACK_V1);
	CHECK_EQ(ack.n_acks, 1);
	CHECK_EQ(ack.acks[0], 3);
	/* three ACKs of later ids (3, 4, 5) make id 0..2 due early */
	CHECK_EQ(braid_rel_recv(&a, &ack, 2100), 0);
	CHECK_EQ(braid_rel_next(&a, 2100, &p), -EAGAIN);
	ack.acks[0] = 4;
	CHECK_EQ(braid_rel_recv(&a, &ack, 2100), 0);
	ack.acks[0] = 5;
	CHECK_EQ(braid_rel_recv(&a, &ack, 2100), 0);
	CHECK_EQ(braid_rel_next(&a, 2100, &p), 0);
	CHECK_EQ(p.msg_pid, 0);
	CHECK_EQ(braid_rel_send_room(&a), 3);
	/* window is counted from the lowest unacked id (0): 6,7,8 fit? no: 6 - 0 >= 6 */
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_CONTROL_V1, msg, 4, NULL), -ENOBUFS);
	/* duplicates below expected are re-ACKed */
	p.msg_pid = 0;
	p.n_acks = 0;
	CHECK_EQ(braid_rel_recv(&b, &p, 2200), 0);
	CHECK_EQ(braid_rel_read(&b, &op, out, sizeof(out), &n), 0);
	CHECK_EQ(op, BRAID_OP_HARD_RESET_CLIENT_V2);
	CHECK_EQ(braid_rel_recv(&b, &p, 2200), 0);
	CHECK_EQ(b.n_dup_rx, 1);
	CHECK_EQ(braid_rel_next(&b, 2200, &ack), 0);
	CHECK_EQ(ack.n_acks, 1); /* one owed ACK for id 0, deduplicated */
	/* hand-window */
	CHECK_EQ(braid_rel_expired(&a, 59999), 0);
	CHECK_EQ(braid_rel_expired(&a, 60000), -ETIMEDOUT);
	braid_rel_handshake_done(&a);
	CHECK_EQ(braid_rel_expired(&a, 60000), 0);
	/* a holds ids 0..2 (4 bytes each, unACKed), b holds id 3 (stored, unread) */
	CHECK_EQ(braid_rel_held(&a), 12);
	CHECK_EQ(braid_rel_held(&b), 4);
	braid_rel_free(&a);
	braid_rel_free(&b);
	CHECK_EQ(braid_rel_held(&a), 0);
	CHECK_EQ(braid_rel_held(&b), 0);
	CHECK_EQ(braid_rel_send_room(&a), 6);
}

/*
 * Memory follows use: a message's buffer (its exact length) lives while it is
 * unACKed (sender) or unread (receiver); an idle pair holds nothing.
 */
static void test_buffers_follow_use(void)
{
	struct braid_reliable a, b;
	struct braid_ctl_pkt p, ack;
	uint8_t msg[BRAID_REL_MAX_PAYLOAD], out[BRAID_REL_MAX_PAYLOAD], op;
	size_t n;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 7);
	braid_rel_init(&a, 0, 0, 0);
	braid_rel_init(&b, 0, 0, 0);
	CHECK_EQ(braid_rel_held(&a), 0);
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_HARD_RESET_CLIENT_V2, NULL, 0, NULL), 0);
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_CONTROL_V1, msg, 1000, NULL), 0);
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_CONTROL_V1, msg, BRAID_REL_MAX_PAYLOAD, NULL), 0);
	CHECK_EQ(braid_rel_held(&a), 1000 + BRAID_REL_MAX_PAYLOAD);
	/* the sender's copy is its own: changing msg afterwards changes nothing sent */
	msg[0] ^= 0xff;
	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ(braid_rel_next(&a, 0, &p), 0);
		CHECK_EQ(braid_rel_recv(&b, &p, 0), 0);
	}
	CHECK_EQ(braid_rel_held(&b), 1000 + BRAID_REL_MAX_PAYLOAD);
	CHECK_EQ(braid_rel_read(&b, &op, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(braid_rel_read(&b, &op, out, 10, &n), -ENOBUFS); /* stays */
	CHECK_EQ(braid_rel_held(&b), 1000 + BRAID_REL_MAX_PAYLOAD);
	CHECK_EQ(braid_rel_read(&b, &op, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 1000);
	CHECK_EQ(out[0], 0);
	CHECK_EQ(out[999], (uint8_t)(999 * 7));
	CHECK_EQ(braid_rel_held(&b), BRAID_REL_MAX_PAYLOAD);
	CHECK_EQ(braid_rel_read(&b, &op, out, sizeof(out), &n), 0);
	CHECK_EQ(n, BRAID_REL_MAX_PAYLOAD);
	CHECK_EQ(braid_rel_held(&b), 0);
	/* the ACKs (ids 0..2) free the sender's buffers */
	CHECK_EQ(braid_rel_next(&b, 0, &ack), 0);
	CHECK_EQ(ack.n_acks, 3);
	CHECK_EQ(braid_rel_recv(&a, &ack, 10), 0);
	CHECK(braid_rel_all_acked(&a));
	CHECK_EQ(braid_rel_held(&a), 0);
	/* idle: nothing to send, nothing held; a later message allocates again */
	CHECK_EQ(braid_rel_next(&a, 10, &p), -EAGAIN);
	CHECK_EQ(braid_rel_send(&a, BRAID_OP_CONTROL_V1, msg, 5, NULL), 0);
	CHECK_EQ(braid_rel_held(&a), 5);
	braid_rel_free(&a);
	braid_rel_free(&b);
}

/* ---- lossy, reordering link ---- */

struct inflight {
	int64_t at;
	int to; /* 0 = a, 1 = b */
	size_t len;
	uint8_t buf[BRAID_CTL_MAX_PKT];
};

#define MAXQ 4096
static struct inflight q[MAXQ];
static unsigned nq;
static unsigned long long n_sent, n_lost;

static void emit(struct braid_reliable *r, int from, const uint8_t sid[8], const uint8_t peer[8],
		 int64_t now)
{
	struct braid_ctl_pkt p;

	while (braid_rel_next(r, now, &p) == 0) {
		size_t n;

		p.key_id = 0;
		memcpy(p.sid, sid, 8);
		memcpy(p.ack_sid, peer, 8);
		n_sent++;
		if (random() % 100 < 30) { /* 30 % loss */
			n_lost++;
			continue;
		}
		if (nq == MAXQ)
			abort();
		CHECK_EQ(braid_ctl_pkt_encode(&p, q[nq].buf, sizeof(q[nq].buf), &n), 0);
		q[nq].len = n;
		q[nq].to = !from;
		q[nq].at = now + 10 + random() % 400; /* reordering delays */
		nq++;
	}
}

static void test_lossy_link(void)
{
	static struct braid_reliable ep[2];
	const unsigned total[2] = { 150, 90 };
	unsigned queued[2] = { 0, 0 }, got[2] = { 0, 0 };
	int64_t now = 0;
	unsigned bad_order = 0;

	srandom(777);
	braid_rel_init(&ep[0], 0, 0, 0);
	braid_rel_init(&ep[1], 0, 0, 0);
	while (now < 3600000 && (got[0] < total[1] || got[1] < total[0] ||
				 !braid_rel_all_acked(&ep[0]) || !braid_rel_all_acked(&ep[1]) ||
				 ep[0].n_acks || ep[1].n_acks)) {
		for (int s = 0; s < 2; s++) {
			while (queued[s] < total[s] && braid_rel_send_room(&ep[s])) {
				uint8_t m[64];
				size_t len = 4 + queued[s] % 50;

				memset(m, 0, sizeof(m));
				m[0] = (uint8_t)(queued[s] >> 8);
				m[1] = (uint8_t)queued[s];
				m[2] = (uint8_t)s;
				if (braid_rel_send(&ep[s], queued[s] ? BRAID_OP_CONTROL_V1 :
						   BRAID_OP_HARD_RESET_CLIENT_V2, m, len, NULL))
					break;
				queued[s]++;
			}
			emit(&ep[s], s, s ? sid_b : sid_a, s ? sid_a : sid_b, now);
		}
		/* deliver what arrived */
		for (unsigned i = 0; i < nq;) {
			if (q[i].at > now) {
				i++;
				continue;
			}
			struct braid_ctl_pkt p;
			const char *why;
			int to = q[i].to;

			CHECK_EQ(braid_ctl_pkt_decode(q[i].buf, q[i].len, &p, &why), 0);
			int r = braid_rel_recv(&ep[to], &p, now);
			CHECK(r == 0 || r == -ERANGE || r == -ENOBUFS);
			q[i] = q[--nq];
			uint8_t op, out[BRAID_REL_MAX_PAYLOAD];
			size_t n;

			while (braid_rel_read(&ep[to], &op, out, sizeof(out), &n) == 0) {
				unsigned seq = (unsigned)out[0] << 8 | out[1];

				if (seq != got[to] || out[2] != !to || n != 4 + seq % 50)
					bad_order++;
				got[to]++;
			}
		}
		now += 20;
	}
	CHECK_EQ(got[1], total[0]);
	CHECK_EQ(got[0], total[1]);
	CHECK_EQ(bad_order, 0);
	CHECK(braid_rel_all_acked(&ep[0]));
	CHECK(braid_rel_all_acked(&ep[1]));
	/* everything ACKed and read: no buffer left on either side */
	CHECK_EQ(braid_rel_held(&ep[0]), 0);
	CHECK_EQ(braid_rel_held(&ep[1]), 0);
	CHECK(ep[0].n_retransmits > 0);
	CHECK(n_lost > 0);
	fprintf(stderr, "lossy link: %llu packets sent, %llu lost, retransmits %llu/%llu, "
		"duplicates %llu/%llu, done at t=%lld ms\n", n_sent, n_lost,
		(unsigned long long)ep[0].n_retransmits, (unsigned long long)ep[1].n_retransmits,
		(unsigned long long)ep[0].n_dup_rx, (unsigned long long)ep[1].n_dup_rx,
		(long long)now);
}

int main(void)
{
	test_windows_and_timers();
	test_buffers_follow_use();
	test_lossy_link();
	CHECK_DONE();
}
