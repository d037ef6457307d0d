// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_reliable.c - the control channel's reliability layer
 * (daemon/ctl/reliable.c: braid_rel_recv, _send, _next, _read,
 * _resend_all, _expired) driven by decoded packets (daemon/ctl/pkt.c).
 *
 * Feeds: a script of operations, each an op byte then its argument:
 *   0 chunk  received plain control packet (braid_ctl_pkt_decode, then recv)
 *   1 chunk  a message to send (CONTROL_V1)
 *   2 u16    time advances that many ms; take every packet due (rel_next)
 *   3        read every in-order message
 *   4        resend_all (a reset arrived)    5  handshake done, check expiry
 * Asserts: recv returns only its documented codes (and -EMSGSIZE); the send room stays in
 * 0..6; every packet rel_next emits has <= 8 ACKs (<= 4 on a message), a
 * payload <= 1400, encodes, and decodes back to the same fields; rel_next
 * runs dry after a bounded number of packets; read returns <= cap bytes and
 * each message read moves the expected packet-id by exactly one.
 */
#include <errno.h>
#include <string.h>

#include "fuzz_common.h"
#include "reliable.h"

static struct braid_reliable rel;

static void check_out(const struct braid_ctl_pkt *p)
{
	uint8_t buf[BRAID_CTL_MAX_PKT + 64];
	struct braid_ctl_pkt q = *p, d;
	size_t len = 0;
	const char *why;

	FZ_ASSERT(p->n_acks <= BRAID_CTL_ACK_MAX);
	FZ_ASSERT(p->opcode == BRAID_OP_ACK_V1 || p->n_acks <= BRAID_CTL_ACK_PIGGYBACK);
	FZ_ASSERT(p->payload_len <= BRAID_REL_MAX_PAYLOAD);
	q.key_id = 0;	/* the session's fields: the caller fills them */
	memset(q.sid, 0x11, sizeof(q.sid));
	memset(q.ack_sid, 0x22, sizeof(q.ack_sid));
	FZ_ASSERT(!braid_ctl_pkt_encode(&q, buf, sizeof(buf), &len));
	FZ_ASSERT(!braid_ctl_pkt_decode(buf, len, &d, &why));
	FZ_ASSERT(d.opcode == q.opcode && d.n_acks == q.n_acks && d.msg_pid == q.msg_pid &&
		  d.payload_len == q.payload_len);
	FZ_ASSERT(!memcmp(d.acks, q.acks, q.n_acks * sizeof(q.acks[0])));
	FZ_ASSERT(!q.payload_len || !memcmp(d.payload, q.payload, q.payload_len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	int64_t now = FZ_NOW_MS;
	uint32_t n_read = 0;
	const uint8_t *c;
	size_t len;

	braid_rel_init(&rel, now, 0, 0);
	while (f.n) {
		struct braid_ctl_pkt p;
		uint8_t out[BRAID_REL_MAX_PAYLOAD], op;
		const char *why;
		int r, i;

		switch (fz_u8(&f) % 6) {
		case 0:
			if (!fz_chunk(&f, &c, &len))
				break;
			if (braid_ctl_pkt_decode(c, len, &p, &why))
				break;
			r = braid_rel_recv(&rel, &p, now);
			/* -EMSGSIZE (payload > 1400) is not in reliable.h's list */
			FZ_ASSERT(r == 0 || r == -ERANGE || r == -ENOBUFS || r == -EMSGSIZE);
			break;
		case 1:
			if (!fz_chunk(&f, &c, &len))
				break;
			r = braid_rel_send(&rel, BRAID_OP_CONTROL_V1, c, len, NULL);
			FZ_ASSERT(r == 0 || r == -ENOBUFS || r == -EMSGSIZE);
			FZ_ASSERT(r != -EMSGSIZE || len > BRAID_REL_MAX_PAYLOAD);
			break;
		case 2:
			now += fz_u16(&f);
			for (i = 0; braid_rel_next(&rel, now, &p) == 0; i++) {
				FZ_ASSERT(i < 64);
				check_out(&p);
			}
			(void)braid_rel_deadline(&rel);
			break;
		case 3:
			while (!braid_rel_read(&rel, &op, out, sizeof(out), &len)) {
				FZ_ASSERT(len <= sizeof(out));
				n_read++;
			}
			FZ_ASSERT(rel.rx_expected == n_read);
			break;
		case 4:
			braid_rel_resend_all(&rel, now);
			break;
		case 5:
			braid_rel_handshake_done(&rel);
			FZ_ASSERT(!braid_rel_expired(&rel, now + 1000000000));
			break;
		}
		FZ_ASSERT(braid_rel_send_room(&rel) <= BRAID_REL_SEND_WINDOW);
		FZ_ASSERT(rel.n_acks <= BRAID_CTL_ACK_MAX);
		FZ_ASSERT(braid_rel_held(&rel) <= (BRAID_REL_SEND_WINDOW + BRAID_REL_RECV_WINDOW) *
						  BRAID_REL_MAX_PAYLOAD);
	}
	braid_rel_free(&rel);
	FZ_ASSERT(braid_rel_held(&rel) == 0);
	return 0;
}
