// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_msg.c - control message byte layouts, malformed input, fuzz.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp_msg.h"
#include "check.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_probe_bytes(void)
{
	static const uint8_t want[BRAID_MP_PROBE_LEN] = {
		0x42, 0x52, 0x41, 0x49, 0x44, 0x2d, 0x4d, 0x50,
		0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15,
		0x01,				/* type PROBE */
		0x00, 0x00, 0x00, 0x03,		/* path id 3 */
		0x01, 0x02, 0x03, 0x04,		/* seq */
		0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,	/* tx_us */
	};
	struct braid_mp_msg m, p;
	uint8_t buf[BRAID_MP_MSG_MAX];

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE;
	m.path_id = 3;
	m.u.probe.seq = 0x01020304;
	m.u.probe.tx_us = 0x0102030405ULL;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), BRAID_MP_PROBE_LEN);
	CHECKM(memcmp(buf, want, sizeof(want)) == 0, "probe bytes differ");
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_PROBE_LEN, &p), 0);
	CHECK_EQ(p.type, BRAID_MP_MSG_PROBE);
	CHECK_EQ(p.path_id, 3);
	CHECK_EQ(p.u.probe.seq, 0x01020304);
	CHECK_EQ(p.u.probe.tx_us, 0x0102030405LL);
	/* one byte short / long */
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_PROBE_LEN - 1, &p), -EBADMSG);
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_PROBE_LEN + 1, &p), -EBADMSG);
	CHECK_EQ(braid_mp_msg_encode(&m, buf, BRAID_MP_PROBE_LEN - 1), -ENOSPC);
}

static void test_roundtrips(void)
{
	struct braid_mp_msg m, p;
	uint8_t buf[BRAID_MP_MSG_MAX];
	int n, i;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE_ECHO;
	m.path_id = 1;
	m.u.echo.seq = 7;
	m.u.echo.tx_us = 123456789;
	m.u.echo.hold_us = 250;
	m.u.echo.owd_us = -4242;	/* relative OWD may be negative */
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, 45);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), 0);
	CHECK_EQ(p.u.echo.owd_us, -4242);
	CHECK_EQ(p.u.echo.hold_us, 250);
	CHECK_EQ(p.u.echo.tx_us, 123456789);

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_REPORT;
	m.u.report.n = 2;
	for (i = 0; i < 2; i++) {
		m.u.report.e[i].path_id = (uint32_t)i;
		m.u.report.e[i].rx_pkts = 1000u + (uint32_t)i;
		m.u.report.e[i].rx_bytes = 1400000ULL * (uint64_t)(i + 1);
		m.u.report.e[i].last_pid = 0x1122334455ULL;
		m.u.report.e[i].span_us = 5000;
		m.u.report.e[i].span_bytes = 7000;
		m.u.report.e[i].owd_min_us = -10;
		m.u.report.e[i].owd_last_us = 20;
		m.u.report.e[i].probe_seq_hi = 9;
		m.u.report.e[i].probes_lost = 1;
	}
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, 17 + 1 + 2 * 56);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), 0);
	CHECKM(memcmp(&p.u.report, &m.u.report, sizeof(p.u.report)) == 0, "report differs");
	/* count byte lies */
	buf[17] = 3;
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), -EBADMSG);
	buf[17] = 0;
	CHECK_EQ(braid_mp_msg_parse(buf, 18, &p), -EBADMSG);
	buf[17] = 9;
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_REPORT_LEN(9), &p), -EBADMSG);
	m.u.report.n = 0;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), -EINVAL);

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_CHALLENGE;
	m.path_id = 2;
	memcpy(m.u.token, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, 29);
	CHECK_EQ(buf[16], 4);
	CHECKM(memcmp(buf + 21, m.u.token, 8) == 0, "token bytes");
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), 0);
	CHECKM(memcmp(p.u.token, m.u.token, 8) == 0, "token parse");
	m.type = BRAID_MP_MSG_PATH_CLOSE;
	m.u.close_reason = 2;
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, 22);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), 0);
	CHECK_EQ(p.u.close_reason, 2);

	/* unknown type, no magic, too short for a header */
	buf[16] = 0x7f;
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), -EBADMSG);
	buf[0] ^= 1;
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), -ENOMSG);
	CHECK_EQ(braid_mp_msg_is_control(buf, (size_t)n), 0);
	CHECK_EQ(braid_mp_msg_parse(braid_mp_magic, BRAID_MP_MAGIC_LEN, &p), -ENOMSG);
}

/* REPORT with the NACK tail, and SKIP: exact bytes, malformed tails. */
static void test_nack_skip(void)
{
	struct braid_mp_msg m, p;
	uint8_t buf[BRAID_MP_MSG_MAX];
	size_t base = BRAID_MP_REPORT_LEN(1);
	int n;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_REPORT;
	m.u.report.n = 1;
	m.u.report.e[0].last_pid = 99;
	m.u.report.nack_hi = 0x0102030405060708ULL;
	m.u.report.nack_bits = 16;
	m.u.report.nack[0] = 0x80;	/* pid nack_hi - 1 missing */
	m.u.report.nack[1] = 0x01;	/* pid nack_hi - 16 missing */
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, (int)base + 10 + 2);
	CHECKM(memcmp(buf + base, "\x01\x02\x03\x04\x05\x06\x07\x08\x00\x10\x80\x01", 12) == 0,
	      "nack tail bytes");
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), 0);
	CHECK_EQ(p.u.report.nack_bits, 16);
	CHECK_EQ(p.u.report.nack_hi, 0x0102030405060708ULL);
	CHECKM(memcmp(&p.u.report, &m.u.report, sizeof(p.u.report)) == 0, "nack report differs");
	/* without the tail it is a plain report */
	CHECK_EQ(braid_mp_msg_parse(buf, base, &p), 0);
	CHECK_EQ(p.u.report.nack_bits, 0);
	/* tail shorter than its header, bit count 0 / not a multiple of 8 /
	 * too large / disagreeing with the length */
	CHECK_EQ(braid_mp_msg_parse(buf, base + 5, &p), -EBADMSG);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n - 1, &p), -EBADMSG);
	buf[base + 9] = 0;
	CHECK_EQ(braid_mp_msg_parse(buf, base + 10, &p), -EBADMSG);
	buf[base + 9] = 12;
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), -EBADMSG);
	buf[base + 8] = 0x10;
	buf[base + 9] = 0x08;	/* 4104 bits */
	CHECK_EQ(braid_mp_msg_parse(buf, base + 10 + 513, &p), -EBADMSG);
	buf[base + 8] = 0;
	buf[base + 9] = 24;
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), -EBADMSG);
	m.u.report.nack_bits = 12;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.report.nack_bits = BRAID_MP_NACK_MAX_BITS;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), (int)base + 10 + 512);

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_SKIP;
	m.path_id = 3;
	m.u.skip_pid = 0xa1a2a3a4a5a6a7a8ULL;
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, BRAID_MP_SKIP_LEN);
	CHECK_EQ(n, 29);
	CHECK_EQ(buf[16], 7);
	CHECKM(memcmp(buf + 17, "\x00\x00\x00\x03\xa1\xa2\xa3\xa4\xa5\xa6\xa7\xa8", 12) == 0,
	      "skip bytes");
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &p), 0);
	CHECK_EQ(p.u.skip_pid, m.u.skip_pid);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n - 1, &p), -EBADMSG);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n + 1, &p), -EBADMSG);
}

/* MTU_PROBE (padded to its size field) and MTU_ACK: exact bytes, and every
 * way the size, the length and the padding can disagree. */
static void test_mtu(void)
{
	static const uint8_t ack[] = {
		0x42, 0x52, 0x41, 0x49, 0x44, 0x2d, 0x4d, 0x50,
		0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15,
		0x09,				/* type MTU_ACK */
		0x00, 0x00, 0x00, 0x02,		/* path id 2 */
		0x00, 0x00, 0x01, 0x07,		/* seq 263 */
		0x05, 0x14,			/* size 1300 */
	};
	static uint8_t buf[BRAID_MP_MTU_PROBE_MAX + 8];
	struct braid_mp_msg m, p;
	size_t k;
	int nonzero = 0;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_MTU_ACK;
	m.path_id = 2;
	m.u.mtu.seq = 263;
	m.u.mtu.size = 1300;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), BRAID_MP_MTU_ACK_LEN);
	CHECK_EQ(BRAID_MP_MTU_ACK_LEN, sizeof(ack));
	CHECK_MEM(buf, ack, sizeof(ack));
	CHECK_EQ(braid_mp_msg_parse(buf, sizeof(ack), &p), 0);
	CHECK_EQ(p.type, BRAID_MP_MSG_MTU_ACK);
	CHECK_EQ(p.path_id, 2);
	CHECK_EQ(p.u.mtu.seq, 263);
	CHECK_EQ(p.u.mtu.size, 1300);
	CHECK_EQ(braid_mp_msg_parse(buf, sizeof(ack) + 1, &p), -EBADMSG);
	CHECK_EQ(braid_mp_msg_parse(buf, sizeof(ack) - 1, &p), -EBADMSG);
	buf[25] = 0x00;
	buf[26] = 0x1a;			/* size 26: smaller than any probe */
	CHECK_EQ(braid_mp_msg_parse(buf, sizeof(ack), &p), -EBADMSG);

	/* the probe: the same header with type 8, then zeros up to 1300 bytes */
	memset(buf, 0xee, sizeof(buf));
	m.type = BRAID_MP_MSG_MTU_PROBE;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, 1299), -ENOSPC);
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), 1300);
	CHECK_MEM(buf, ack, 16);
	CHECK_EQ(buf[16], 0x08);
	CHECK_MEM(buf + 17, ack + 17, 10);
	for (k = BRAID_MP_MTU_HDR_LEN; k < 1300; k++)
		nonzero |= buf[k];
	CHECK_EQ(nonzero, 0);
	CHECK_EQ(buf[1300], 0xee);
	CHECK_EQ(braid_mp_msg_parse(buf, 1300, &p), 0);
	CHECK_EQ(p.type, BRAID_MP_MSG_MTU_PROBE);
	CHECK_EQ(p.u.mtu.size, 1300);
	CHECK_EQ(p.u.mtu.seq, 263);
	/* length and size field disagree; a padding byte that is not zero */
	CHECK_EQ(braid_mp_msg_parse(buf, 1299, &p), -EBADMSG);
	CHECK_EQ(braid_mp_msg_parse(buf, 1301, &p), -EBADMSG);
	buf[1299] = 1;
	CHECK_EQ(braid_mp_msg_parse(buf, 1300, &p), -EBADMSG);
	buf[1299] = 0;
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_MTU_HDR_LEN - 1, &p), -EBADMSG);
	/* the smallest and the largest probe; sizes outside are refused */
	m.u.mtu.size = BRAID_MP_MTU_HDR_LEN;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), BRAID_MP_MTU_HDR_LEN);
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_MTU_HDR_LEN, &p), 0);
	m.u.mtu.size = BRAID_MP_MTU_PROBE_MAX;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), BRAID_MP_MTU_PROBE_MAX);
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_MTU_PROBE_MAX, &p), 0);
	m.u.mtu.size = BRAID_MP_MTU_HDR_LEN - 1;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	m.u.mtu.size = BRAID_MP_MTU_PROBE_MAX + 1;
	CHECK_EQ(braid_mp_msg_encode(&m, buf, sizeof(buf)), -EINVAL);
	buf[25] = (BRAID_MP_MTU_PROBE_MAX + 1) >> 8;
	buf[26] = (BRAID_MP_MTU_PROBE_MAX + 1) & 0xff;
	buf[BRAID_MP_MTU_PROBE_MAX] = 0;
	CHECK_EQ(braid_mp_msg_parse(buf, BRAID_MP_MTU_PROBE_MAX + 1, &p), -EBADMSG);
}

/* Random bytes, random lengths, random mutations of valid messages: the
 * parser returns only 0 / -ENOMSG / -EBADMSG, never reads out of bounds
 * (run under ASan), and everything it accepts re-encodes to the same bytes. */
static void test_fuzz(void)
{
	uint8_t buf[BRAID_MP_MSG_MAX + 16], out[sizeof(buf)];
	struct braid_mp_msg m;
	int i, ok = 0, bad = 0, nomsg = 0;

	for (i = 0; i < 200000; i++) {
		size_t len = rnd() % sizeof(buf), k;
		int r, n;

		for (k = 0; k < len; k++)
			buf[k] = (uint8_t)rnd();
		if (rnd() % 4) {	/* mostly keep the magic and a real type */
			memcpy(buf, braid_mp_magic, len < 16 ? len : 16);
			if (len > 16)
				buf[16] = (uint8_t)(rnd() % 10);
			if (len > 17 && buf[16] == BRAID_MP_MSG_REPORT)
				buf[17] = (uint8_t)(rnd() % 10);
			if (rnd() % 2) {	/* an exact valid length */
				static const size_t lens[] = { 33, 45, 29, 22, 74, 130, 466, 27 };

				len = lens[rnd() % 8];
			}
			if (len > 27 && buf[16] == BRAID_MP_MSG_MTU_PROBE && rnd() % 2) {
				/* a probe: the size field says len, zero padding */
				buf[25] = (uint8_t)(len >> 8);
				buf[26] = (uint8_t)len;
				if (rnd() % 2)
					memset(buf + 27, 0, len - 27);
			}
		}
		{
			uint8_t *copy = malloc(len ? len : 1);	/* exact size for ASan */

			memcpy(copy, buf, len);
			r = braid_mp_msg_parse(copy, len, &m);
			free(copy);
		}
		CHECKM(r == 0 || r == -ENOMSG || r == -EBADMSG, "parse returned %d", r);
		if (r == 0) {
			ok++;
			n = braid_mp_msg_encode(&m, out, sizeof(out));
			CHECKM(n == (int)len && memcmp(out, buf, len) == 0, "re-encode differs");
		} else if (r == -ENOMSG) {
			nomsg++;
		} else {
			bad++;
		}
	}
	CHECKM(ok > 1000 && bad > 1000 && nomsg > 1000, "fuzz coverage ok %d bad %d nomsg %d", ok,
	      bad, nomsg);
}

int main(void)
{
	test_probe_bytes();
	test_roundtrips();
	test_nack_skip();
	test_mtu();
	test_fuzz();
	CHECK_DONE();
}
