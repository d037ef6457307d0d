// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_mp_msg.c - multipath control messages (daemon/mp/mp_msg.c
 * braid_mp_msg_is_control, braid_mp_msg_parse, braid_mp_msg_encode), the
 * payloads that arrive inside the data channel after decryption.
 *
 * Feeds: the input as one decrypted data-channel payload.
 * Asserts: parse returns 0, -ENOMSG exactly when the magic is missing, or
 * -EBADMSG; a parsed REPORT has at most 8 entries and a NACK length that is
 * a multiple of 8 in 8..4096 (or 0); a parsed message encodes (into a
 * BRAID_MP_CTL_MAX buffer, as the daemon's) and parses back to the same
 * fields (round trip).
 */
#include <errno.h>
#include <string.h>

#include "fuzz_common.h"
#include "mp_msg.h"

static struct braid_mp_msg m, m2;
static uint8_t buf[BRAID_MP_MSG_MAX > BRAID_MP_CTL_MAX ? BRAID_MP_MSG_MAX : BRAID_MP_CTL_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int ctl = braid_mp_msg_is_control(data, size), r, n;

	memset(&m, 0, sizeof(m));
	r = braid_mp_msg_parse(data, size, &m);
	FZ_ASSERT((r == -ENOMSG) == !ctl);
	if (r) {
		FZ_ASSERT(r == -ENOMSG || r == -EBADMSG);
		return 0;
	}
	if (m.type == BRAID_MP_MSG_REPORT) {
		FZ_ASSERT(m.u.report.n <= BRAID_MP_REPORT_MAX);
		FZ_ASSERT(m.u.report.nack_bits % 8 == 0 &&
			  m.u.report.nack_bits <= BRAID_MP_NACK_MAX_BITS);
	}
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	FZ_ASSERT(n > 0 && (size_t)n <= sizeof(buf));
	memset(&m2, 0, sizeof(m2));
	FZ_ASSERT(!braid_mp_msg_parse(buf, (size_t)n, &m2));
	FZ_ASSERT(!memcmp(&m, &m2, sizeof(m)));
	return 0;
}
