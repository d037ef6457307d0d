// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_payload.c - ping/OCC/IP classification and compression framing.
 */
#include "payload.h"
#include "check.h"

#include <errno.h>

static const uint8_t ping_bytes[16] = {
	0x2a, 0x18, 0x7b, 0xf3, 0x64, 0x1e, 0xb4, 0xcb, 0x07, 0xed, 0x2d, 0x0a, 0x98, 0x1f, 0xc7, 0x48,
};
static const uint8_t occ_bytes[16] = {
	0x28, 0x7f, 0x34, 0x6b, 0xd4, 0xef, 0x7a, 0x81, 0x2d, 0x56, 0xb8, 0xd3, 0xaf, 0xc5, 0x45, 0x9c,
};

static enum braid_payload_kind kind_of(enum braid_comp_framing f, const uint8_t *p, size_t n,
				       struct braid_payload *pl)
{
	static uint8_t buf[2048];

	memcpy(buf, p, n);
	braid_payload_classify(f, buf, n, pl);
	return pl->kind;
}

static void test_plain(void)
{
	struct braid_payload pl;
	uint8_t v4[20] = { 0x45 }, v6[40] = { 0x60 }, buf[64];

	CHECK_EQ(kind_of(BRAID_COMP_NONE, ping_bytes, 16, &pl), BRAID_PAYLOAD_PING);
	/* ping must be exactly 16 bytes */
	memcpy(buf, ping_bytes, 16);
	buf[16] = 0;
	CHECK_EQ(kind_of(BRAID_COMP_NONE, buf, 17, &pl), BRAID_PAYLOAD_NOT_IP);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, ping_bytes, 15, &pl), BRAID_PAYLOAD_NOT_IP);

	memcpy(buf, occ_bytes, 16);
	buf[16] = 6;
	CHECK_EQ(kind_of(BRAID_COMP_NONE, buf, 17, &pl), BRAID_PAYLOAD_OCC);
	CHECK_EQ(pl.occ_type, BRAID_OCC_EXIT);
	CHECK_EQ(pl.len, 0);
	buf[16] = 1;
	memcpy(buf + 17, "V4,dev-type tun", 16);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, buf, 33, &pl), BRAID_PAYLOAD_OCC);
	CHECK_EQ(pl.occ_type, BRAID_OCC_REPLY);
	CHECK_EQ(pl.len, 16);
	CHECK_STR((const char *)pl.data, "V4,dev-type tun");
	CHECK_EQ(kind_of(BRAID_COMP_NONE, occ_bytes, 16, &pl), BRAID_PAYLOAD_OCC);
	CHECK_EQ(pl.occ_type, -1);

	CHECK_EQ(kind_of(BRAID_COMP_NONE, v4, 20, &pl), BRAID_PAYLOAD_IPV4);
	CHECK_EQ(pl.len, 20);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, v4, 19, &pl), BRAID_PAYLOAD_NOT_IP);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, v6, 40, &pl), BRAID_PAYLOAD_IPV6);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, v6, 39, &pl), BRAID_PAYLOAD_NOT_IP);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, v4, 0, &pl), BRAID_PAYLOAD_EMPTY);
	/* "IP packet with unknown IP version=15": a 0xFA framing byte without comp-lzo */
	buf[0] = 0xfa;
	memcpy(buf + 1, v4, 20);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, buf, 21, &pl), BRAID_PAYLOAD_NOT_IP);
	CHECK_STR(braid_payload_kind_str(BRAID_PAYLOAD_NOT_IP), "not-ip");
}

static void test_framings(void)
{
	struct braid_payload pl;
	uint8_t v4[28], out[64], buf[64];
	size_t n;

	for (int i = 0; i < 28; i++)
		v4[i] = (uint8_t)(0x45 + i);

	/* comp-lzo no: 0xFA prefix */
	CHECK_EQ(braid_payload_frame(BRAID_COMP_LZO, v4, 28, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 29);
	CHECK_EQ(out[0], 0xfa);
	CHECK_MEM(out + 1, v4, 28);
	CHECK_EQ(kind_of(BRAID_COMP_LZO, out, n, &pl), BRAID_PAYLOAD_IPV4);
	CHECK_EQ(pl.len, 28);
	CHECK_MEM(pl.data, v4, 28);
	buf[0] = 0x66;
	CHECK_EQ(kind_of(BRAID_COMP_LZO, buf, 10, &pl), BRAID_PAYLOAD_COMPRESSED);
	CHECK_EQ(kind_of(BRAID_COMP_LZO, v4, 28, &pl), BRAID_PAYLOAD_BAD_FRAMING);

	/* compress (stub, swap): byte0 -> end, 0xFB in front */
	CHECK_EQ(braid_payload_frame(BRAID_COMP_STUB, v4, 28, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 29);
	CHECK_EQ(out[0], 0xfb);
	CHECK_MEM(out + 1, v4 + 1, 27);
	CHECK_EQ(out[28], 0x45);
	CHECK_EQ(kind_of(BRAID_COMP_STUB, out, n, &pl), BRAID_PAYLOAD_IPV4);
	CHECK_EQ(pl.len, 28);
	CHECK_MEM(pl.data, v4, 28);
	buf[0] = 0x69;
	CHECK_EQ(kind_of(BRAID_COMP_STUB, buf, 10, &pl), BRAID_PAYLOAD_COMPRESSED);

	/* compress stub-v2: no framing unless the payload starts with 0x50 */
	CHECK_EQ(braid_payload_frame(BRAID_COMP_STUB_V2, v4, 28, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 28);
	CHECK_MEM(out, v4, 28);
	CHECK_EQ(kind_of(BRAID_COMP_STUB_V2, out, n, &pl), BRAID_PAYLOAD_IPV4);
	buf[0] = 0x50;
	buf[1] = 0x99;
	CHECK_EQ(braid_payload_frame(BRAID_COMP_STUB_V2, buf, 2, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 4);
	CHECK_EQ(out[0], 0x50);
	CHECK_EQ(out[1], 0x00);
	CHECK_EQ(out[2], 0x50);
	CHECK_EQ(out[3], 0x99);
	CHECK_EQ(kind_of(BRAID_COMP_STUB_V2, out, n, &pl), BRAID_PAYLOAD_NOT_IP);
	CHECK_EQ(pl.len, 2);
	CHECK_EQ(pl.data[0], 0x50);
	buf[1] = 0x01;
	CHECK_EQ(kind_of(BRAID_COMP_STUB_V2, buf, 10, &pl), BRAID_PAYLOAD_COMPRESSED);
	buf[1] = 0x07;
	CHECK_EQ(kind_of(BRAID_COMP_STUB_V2, buf, 10, &pl), BRAID_PAYLOAD_BAD_FRAMING);
	CHECK_EQ(kind_of(BRAID_COMP_STUB_V2, buf, 1, &pl), BRAID_PAYLOAD_BAD_FRAMING);

	/* empty payloads are never framed */
	CHECK_EQ(braid_payload_frame(BRAID_COMP_LZO, v4, 0, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(braid_payload_frame(BRAID_COMP_LZO, v4, 28, out, 28, &n), -ENOBUFS);
}

static void test_builders(void)
{
	static const enum braid_comp_framing fr[] = {
		BRAID_COMP_NONE, BRAID_COMP_LZO, BRAID_COMP_STUB, BRAID_COMP_STUB_V2,
	};
	struct braid_payload pl;
	uint8_t out[32];
	size_t n;

	CHECK_EQ(braid_payload_build_ping(BRAID_COMP_NONE, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 16);
	CHECK_MEM(out, ping_bytes, 16);
	CHECK_EQ(braid_payload_build_occ_exit(BRAID_COMP_NONE, out, sizeof(out), &n), 0);
	CHECK_EQ(n, 17);
	CHECK_MEM(out, occ_bytes, 16);
	CHECK_EQ(out[16], 6);
	CHECK_EQ(braid_payload_build_ping(BRAID_COMP_NONE, out, 15, &n), -ENOBUFS);

	/* ping and OCC get the framing too, and classify back through it */
	for (size_t i = 0; i < 4; i++) {
		CHECK_EQ(braid_payload_build_ping(fr[i], out, sizeof(out), &n), 0);
		CHECK_EQ(n, (size_t)(fr[i] == BRAID_COMP_LZO || fr[i] == BRAID_COMP_STUB ? 17 : 16));
		CHECK_EQ(kind_of(fr[i], out, n, &pl), BRAID_PAYLOAD_PING);
		CHECK_EQ(braid_payload_build_occ_exit(fr[i], out, sizeof(out), &n), 0);
		CHECK_EQ(kind_of(fr[i], out, n, &pl), BRAID_PAYLOAD_OCC);
		CHECK_EQ(pl.occ_type, BRAID_OCC_EXIT);
	}
	/* a ping framed for comp-lzo is not a ping to a peer without framing */
	CHECK_EQ(braid_payload_build_ping(BRAID_COMP_LZO, out, sizeof(out), &n), 0);
	CHECK_EQ(kind_of(BRAID_COMP_NONE, out, n, &pl), BRAID_PAYLOAD_NOT_IP);
}

int main(void)
{
	test_plain();
	test_framings();
	test_builders();
	CHECK_DONE();
}
