// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pkt.c - control packet layouts (fact sheet §1.1-1.3), round trips,
 * TCP framing, tls-auth/tls-crypt layouts and failures, random-bytes fuzz.
 */
#include <errno.h>
#include <stdlib.h>

#include "pkt.h"
#include "check.h"
#include "tls_auth.h"
#include "tls_crypt.h"

static const uint8_t csid[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const uint8_t ssid[8] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8 };

static void test_known_layouts(void)
{
	struct braid_ctl_pkt p = { 0 }, q;
	uint8_t buf[256];
	const char *why = NULL;
	size_t n;

	/* bare client reset = 14 B: 38 | sid | 00 | 00000000 */
	p.opcode = BRAID_OP_HARD_RESET_CLIENT_V2;
	memcpy(p.sid, csid, 8);
	p.has_msg_pid = true;
	CHECK_EQ(braid_ctl_pkt_encode(&p, buf, sizeof(buf), &n), 0);
	CHECK_EQ(n, 14);
	CHECK_EQ(buf[0], 0x38);
	CHECK_MEM(buf + 1, csid, 8);
	CHECK_MEM(buf + 9, "\0\0\0\0\0", 5);

	/* server reset: 40 | ssid | 01 00000000 csid | 00000000 = 26 B plain (54 with tls-auth SHA1) */
	memset(&p, 0, sizeof(p));
	p.opcode = BRAID_OP_HARD_RESET_SERVER_V2;
	memcpy(p.sid, ssid, 8);
	p.n_acks = 1;
	p.acks[0] = 0;
	memcpy(p.ack_sid, csid, 8);
	p.has_msg_pid = true;
	CHECK_EQ(braid_ctl_pkt_encode(&p, buf, sizeof(buf), &n), 0);
	CHECK_EQ(n, 26);
	CHECK_EQ(buf[0], 0x40);
	CHECK_EQ(buf[9], 1);
	CHECK_MEM(buf + 10, "\0\0\0\0", 4);
	CHECK_MEM(buf + 14, csid, 8);
	CHECK_MEM(buf + 22, "\0\0\0\0", 4);
	CHECK_EQ(braid_ctl_pkt_decode(buf, n, &q, &why), 0);
	CHECK_EQ(q.opcode, BRAID_OP_HARD_RESET_SERVER_V2);
	CHECK_EQ(q.n_acks, 1);
	CHECK_MEM(q.ack_sid, csid, 8);
	CHECK_EQ(q.has_msg_pid, 1);
	CHECK_EQ(q.msg_pid, 0);
	CHECK_EQ(q.payload_len, 0);
}

static void test_roundtrip(void)
{
	uint8_t payload[300], buf[600];
	struct braid_ctl_pkt p, q;
	const char *why;
	size_t n;

	for (unsigned i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7);
	for (unsigned op = 0; op < 32; op++) {
		for (unsigned na = 0; na <= BRAID_CTL_ACK_MAX; na++) {
			memset(&p, 0, sizeof(p));
			p.opcode = (uint8_t)op;
			p.key_id = (uint8_t)(op % 8);
			if (op == BRAID_OP_HARD_RESET_CLIENT_V2 || op == BRAID_OP_HARD_RESET_CLIENT_V3)
				p.key_id = 0;
			memcpy(p.sid, csid, 8);
			p.n_acks = (uint8_t)na;
			for (unsigned a = 0; a < na; a++)
				p.acks[a] = 0x01020300u + a;
			memcpy(p.ack_sid, ssid, 8);
			p.has_msg_pid = op != BRAID_OP_ACK_V1;
			p.msg_pid = 0xdeadbe00u + op;
			p.payload = op == BRAID_OP_ACK_V1 ? NULL : payload;
			p.payload_len = op == BRAID_OP_ACK_V1 ? 0 : 10 * op;
			if (!braid_ctl_op_is_control((uint8_t)op)) {
				CHECK_EQ(braid_ctl_pkt_encode(&p, buf, sizeof(buf), &n), -EINVAL);
				continue;
			}
			CHECK_EQ(braid_ctl_pkt_encode(&p, buf, sizeof(buf), &n), 0);
			CHECK_EQ(n, 9 + 1 + 4 * na + (na ? 8 : 0) + (p.has_msg_pid ? 4 : 0) + p.payload_len);
			memset(&q, 0xee, sizeof(q));
			CHECK_EQ(braid_ctl_pkt_decode(buf, n, &q, &why), 0);
			CHECK_EQ(q.opcode, op);
			CHECK_EQ(q.key_id, p.key_id);
			CHECK_MEM(q.sid, csid, 8);
			CHECK_EQ(q.n_acks, na);
			for (unsigned a = 0; a < na; a++)
				CHECK_EQ(q.acks[a], p.acks[a]);
			if (na)
				CHECK_MEM(q.ack_sid, ssid, 8);
			CHECK_EQ(q.has_msg_pid, p.has_msg_pid);
			if (p.has_msg_pid)
				CHECK_EQ(q.msg_pid, p.msg_pid);
			CHECK_EQ(q.payload_len, p.payload_len);
			if (p.payload_len)
				CHECK_MEM(q.payload, payload, p.payload_len);
			/* every truncation is -EBADMSG, never a crash */
			for (size_t t = 0; t < n - p.payload_len; t++) {
				int r = braid_ctl_pkt_decode(buf, t, &q, &why);
				CHECK(r == -EBADMSG);
			}
		}
	}
}

static void test_malformed(void)
{
	uint8_t buf[64] = { 0 };
	struct braid_ctl_pkt q;
	const char *why = NULL;

	buf[0] = BRAID_OP_CONTROL_V1 << 3;
	buf[9] = 9; /* 9 ACKs */
	CHECK_EQ(braid_ctl_pkt_decode(buf, 64, &q, &why), -EBADMSG);
	CHECK_STR(why, "more than 8 ACKs");
	buf[0] = BRAID_OP_DATA_V2 << 3;
	CHECK_EQ(braid_ctl_pkt_decode(buf, 64, &q, &why), -EPROTO);
	CHECK_STR(why, "not a control opcode");
	buf[0] = BRAID_OP_HARD_RESET_CLIENT_V1 << 3;
	CHECK_EQ(braid_ctl_pkt_decode(buf, 64, &q, &why), -EPROTO);
	CHECK_STR(why, "unsupported key-method 1 reset");
	buf[0] = BRAID_OP_HARD_RESET_CLIENT_V2 << 3 | 1;
	CHECK_EQ(braid_ctl_pkt_decode(buf, 64, &q, &why), -EPROTO);
	CHECK_STR(why, "client hard reset with key_id != 0");
	/* ACK_V1 with trailing bytes */
	buf[0] = BRAID_OP_ACK_V1 << 3;
	buf[9] = 0;
	CHECK_EQ(braid_ctl_pkt_decode(buf, 11, &q, &why), -EBADMSG);
	CHECK_EQ(braid_ctl_pkt_decode(buf, 10, &q, &why), 0);
	CHECK_EQ(q.has_msg_pid, 0);
}

static void test_tcp(void)
{
	uint8_t pkt[5] = { 1, 2, 3, 4, 5 }, stream[64];
	const uint8_t *p;
	size_t n, pl, used, off = 0;
	const char *why = NULL;

	CHECK_EQ(braid_ctl_tcp_frame(pkt, 5, stream, sizeof(stream), &n), 0);
	CHECK_EQ(n, 7);
	CHECK_MEM(stream, "\x00\x05\x01\x02\x03\x04\x05", 7);
	CHECK_EQ(braid_ctl_tcp_frame(pkt, 3, stream + 7, sizeof(stream) - 7, &n), 0);
	CHECK_EQ(braid_ctl_tcp_frame(pkt, 0, stream, sizeof(stream), &n), -EINVAL);
	CHECK_EQ(braid_ctl_tcp_frame(pkt, 5, stream, 6, &n), -ENOBUFS);
	/* every prefix shorter than a whole packet needs more */
	for (size_t a = 0; a < 7; a++)
		CHECK_EQ(braid_ctl_tcp_next(stream, a, 1600, &p, &pl, &used, &why), -EAGAIN);
	CHECK_EQ(braid_ctl_tcp_next(stream, 12, 1600, &p, &pl, &used, &why), 0);
	CHECK_EQ(pl, 5);
	CHECK_EQ(used, 7);
	off += used;
	CHECK_EQ(braid_ctl_tcp_next(stream + off, 12 - off, 1600, &p, &pl, &used, &why), 0);
	CHECK_EQ(pl, 3);
	CHECK_MEM(p, pkt, 3);
	stream[0] = 0;
	stream[1] = 0;
	CHECK_EQ(braid_ctl_tcp_next(stream, 12, 1600, &p, &pl, &used, &why), -EBADMSG);
	CHECK_STR(why, "TCP packet length 0");
	stream[0] = 0x07;
	CHECK_EQ(braid_ctl_tcp_next(stream, 12, 1600, &p, &pl, &used, &why), -EBADMSG);
}

static void fill_key(struct braid_key2 *k)
{
	for (unsigned i = 0; i < sizeof(k->k); i++)
		k->k[i] = (uint8_t)(i ^ 0x5a);
}

static void test_tls_auth_layout(void)
{
	struct braid_tls_auth cli, srv, wrong, bad;
	struct braid_key2 k;
	struct braid_ctl_pkt p = { 0 }, q;
	uint8_t plain[64], wire[128], back[128];
	size_t n, wn, bn;
	const char *why;

	fill_key(&k);
	CHECK_EQ(braid_tls_auth_init(&cli, &k, BRAID_KEY_DIR_INVERSE, NULL, 64, 15), 0);
	CHECK_EQ(braid_tls_auth_init(&srv, &k, BRAID_KEY_DIR_NORMAL, "SHA1", 64, 15), 0);
	CHECK_EQ(braid_tls_auth_init(&wrong, &k, BRAID_KEY_DIR_INVERSE, NULL, 64, 15), 0);
	CHECK_EQ(braid_tls_auth_init(&bad, &k, 7, NULL, 64, 15), -EINVAL);
	CHECK_EQ(braid_tls_auth_init(&bad, &k, 1, "NOPE", 64, 15), -EINVAL);
	/* client dir 1: out key = bytes 192..211, in key = 64..83 (fact sheet §2.2) */
	CHECK_MEM(cli.key_out, k.k + 192, 20);
	CHECK_MEM(cli.key_in, k.k + 64, 20);
	CHECK_EQ(braid_tls_auth_overhead(&cli), 28);

	p.opcode = BRAID_OP_HARD_RESET_CLIENT_V2;
	memcpy(p.sid, csid, 8);
	p.has_msg_pid = true;
	CHECK_EQ(braid_ctl_pkt_encode(&p, plain, sizeof(plain), &n), 0);
	CHECK_EQ(braid_tls_auth_wrap(&cli, plain, n, 1700000000, wire, sizeof(wire), &wn), 0);
	/* 42 B: 38|sid|HMAC20|00000001|time|00|00000000 */
	CHECK_EQ(wn, 42);
	CHECK_EQ(wire[0], 0x38);
	CHECK_MEM(wire + 29, "\x00\x00\x00\x01", 4);
	CHECK_MEM(wire + 33, "\x65\x53\xf1\x00", 4); /* 1700000000 */
	CHECK_MEM(wire + 37, "\0\0\0\0\0", 5);
	CHECK_EQ(braid_tls_auth_unwrap(&srv, wire, wn, 1700000000, 0, back, sizeof(back), &bn), 0);
	CHECK_EQ(bn, n);
	CHECK_MEM(back, plain, n);
	CHECK_EQ(srv.rx_pid, 1);
	CHECK_EQ(braid_ctl_pkt_decode(back, bn, &q, &why), 0);
	/* replay of the same packet */
	CHECK_EQ(braid_tls_auth_unwrap(&srv, wire, wn, 1700000000, 0, back, sizeof(back), &bn),
		 -EALREADY);
	/* second transmission gets replay id 2 */
	CHECK_EQ(braid_tls_auth_wrap(&cli, plain, n, 1700000005, wire, sizeof(wire), &wn), 0);
	CHECK_MEM(wire + 29, "\x00\x00\x00\x02\x65\x53\xf1\x00", 8);
	/* wrong direction: a client cannot unwrap its own packets */
	CHECK_EQ(braid_tls_auth_unwrap(&wrong, wire, wn, 1700000000, 0, back, sizeof(back), &bn),
		 -EBADMSG);
	CHECK(strstr(wrong.why, "HMAC mismatch") != NULL);
	/* any flipped bit fails */
	for (size_t i = 0; i < wn; i++) {
		if (i == 0)
			continue; /* opcode change may become a non-control opcode: -EPROTO */
		wire[i] ^= 0x10;
		CHECK_EQ(braid_tls_auth_unwrap(&srv, wire, wn, 1700000000, 0, back, sizeof(back), &bn),
			 -EBADMSG);
		wire[i] ^= 0x10;
	}
	CHECK_EQ(braid_tls_auth_unwrap(&srv, wire, wn, 1700000000, 0, back, sizeof(back), &bn), 0);

	/* server reset 54 B: 40|ssid|HMAC20|00000001|time|01 00000000 csid|00000000 */
	memset(&p, 0, sizeof(p));
	p.opcode = BRAID_OP_HARD_RESET_SERVER_V2;
	memcpy(p.sid, ssid, 8);
	p.n_acks = 1;
	memcpy(p.ack_sid, csid, 8);
	p.has_msg_pid = true;
	CHECK_EQ(braid_ctl_pkt_encode(&p, plain, sizeof(plain), &n), 0);
	braid_tls_auth_set_tx(&srv, 1, 1700000000);
	CHECK_EQ(braid_tls_auth_wrap(&srv, plain, n, 1800000000, wire, sizeof(wire), &wn), 0);
	CHECK_EQ(wn, 54);
	CHECK_MEM(wire + 29, "\x00\x00\x00\x01\x65\x53\xf1\x00\x01\0\0\0\0", 13);
	CHECK_MEM(wire + 42, csid, 8);
	CHECK_EQ(braid_tls_auth_unwrap(&cli, wire, wn, 1700000000, 0, back, sizeof(back), &bn), 0);
	CHECK_EQ(braid_ctl_pkt_decode(back, bn, &q, &why), 0);
	CHECK_EQ(q.n_acks, 1);
	CHECK_EQ(q.acks[0], 0);
	/* stateless server reset: replay id always 1, NO_REPLAY verify only */
	braid_tls_auth_set_tx(&srv, 1, 1700000000);
	CHECK_EQ(braid_tls_auth_wrap(&srv, plain, n, 1800000000, wire, sizeof(wire), &wn), 0);
	CHECK_EQ(braid_tls_auth_unwrap(&cli, wire, wn, 1700000000, 0, back, sizeof(back), &bn),
		 -EALREADY);
	CHECK_EQ(braid_tls_auth_unwrap(&cli, wire, wn, 1700000000, BRAID_UNWRAP_NO_REPLAY, back,
				       sizeof(back), &bn), 0);
	braid_tls_auth_free(&cli);
	braid_tls_auth_free(&srv);
	braid_tls_auth_free(&wrong);
}

static void test_tls_crypt_layout(void)
{
	struct braid_tls_crypt cli, srv;
	struct braid_key2 k, k2;
	struct braid_ctl_pkt p = { 0 };
	uint8_t plain[64], wire[128], back[128];
	size_t n, wn, bn;

	fill_key(&k);
	CHECK_EQ(braid_tls_crypt_init(&cli, &k, false, 64, 15), 0);
	CHECK_EQ(braid_tls_crypt_init(&srv, &k, true, 64, 15), 0);
	CHECK_MEM(cli.ke_out, k.k + 128, 32);
	CHECK_MEM(cli.ka_out, k.k + 192, 32);
	CHECK_MEM(srv.ke_out, k.k, 32);
	CHECK_MEM(srv.ka_out, k.k + 64, 32);
	p.opcode = BRAID_OP_HARD_RESET_CLIENT_V2;
	memcpy(p.sid, csid, 8);
	p.has_msg_pid = true;
	CHECK_EQ(braid_ctl_pkt_encode(&p, plain, sizeof(plain), &n), 0);
	CHECK_EQ(braid_tls_crypt_wrap(&cli, plain, n, 1700000000, wire, sizeof(wire), &wn), 0);
	CHECK_EQ(wn, 17 + 32 + 5); /* header | tag | AES-CTR(inner) */
	CHECK_MEM(wire + 9, "\x00\x00\x00\x01\x65\x53\xf1\x00", 8);
	/* in place */
	memcpy(back, wire, wn);
	CHECK_EQ(braid_tls_crypt_unwrap(&srv, back, wn, 1700000000, 0, back, sizeof(back), &bn), 0);
	CHECK_EQ(bn, n);
	CHECK_MEM(back, plain, n);
	/* client cannot unwrap a client packet (role) */
	CHECK_EQ(braid_tls_crypt_unwrap(&cli, wire, wn, 1700000000, 0, back, sizeof(back), &bn),
		 -EBADMSG);
	CHECK(strstr(cli.why, "tag mismatch") != NULL);
	/* wrong key */
	k2 = k;
	k2.k[195] ^= 1; /* keys[1].hmac: the server's receive Ka */
	braid_tls_crypt_free(&srv);
	CHECK_EQ(braid_tls_crypt_init(&srv, &k2, true, 64, 15), 0);
	CHECK_EQ(braid_tls_crypt_unwrap(&srv, wire, wn, 1700000000, 0, back, sizeof(back), &bn),
		 -EBADMSG);
	CHECK_EQ(braid_tls_crypt_unwrap(&srv, wire, 49, 1700000000, 0, back, sizeof(back), &bn),
		 -EBADMSG);
	braid_tls_crypt_free(&cli);
	braid_tls_crypt_free(&srv);
}

/* random bytes: decoders and unwrappers never crash, errors are the documented ones */
static void test_fuzz(void)
{
	struct braid_tls_auth ta;
	struct braid_tls_crypt tc;
	struct braid_key2 k;
	struct braid_ctl_pkt q;
	uint8_t buf[200], out[256];
	const char *why;
	size_t n, on;
	unsigned bad = 0;

	fill_key(&k);
	CHECK_EQ(braid_tls_auth_init(&ta, &k, 0, "SHA256", 64, 15), 0);
	CHECK_EQ(braid_tls_crypt_init(&tc, &k, true, 64, 15), 0);
	srandom(12345);
	for (unsigned it = 0; it < 20000; it++) {
		int r;

		n = (size_t)random() % sizeof(buf);
		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)random();
		if (it & 1 && n) /* half of them with a valid control opcode */
			buf[0] = (uint8_t)((BRAID_OP_SOFT_RESET_V1 + random() % 3) << 3);
		r = braid_ctl_pkt_decode(buf, n, &q, &why);
		if (r && r != -EBADMSG && r != -EPROTO)
			bad++;
		if (!r && (q.n_acks > 8 || q.payload + q.payload_len != buf + n))
			bad++;
		r = braid_tls_auth_unwrap(&ta, buf, n, 1, 0, out, sizeof(out), &on);
		if (r != -EBADMSG && r != -EPROTO)
			bad++;
		r = braid_tls_crypt_unwrap(&tc, buf, n, 1, 0, out, sizeof(out), &on);
		if (r != -EBADMSG && r != -EPROTO)
			bad++;
	}
	CHECK_EQ(bad, 0);
	braid_tls_auth_free(&ta);
	braid_tls_crypt_free(&tc);
}

int main(void)
{
	test_known_layouts();
	test_roundtrip();
	test_malformed();
	test_tcp();
	test_tls_auth_layout();
	test_tls_crypt_layout();
	test_fuzz();
	CHECK_DONE();
}
