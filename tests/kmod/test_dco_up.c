// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dco_up.c - braid_dco_up_parse (daemon/dataplane/dco_up.c), the reader
 * of the datagrams braid_dco hands up to a path socket: the exact datagram the
 * VM test sees for OpenVPN's ping (tests/kmod/dco_interop.sh), every key id and
 * the largest peer id, the control channel left to the role, and every
 * malformed form (short, nonzero tag, empty payload, an IP packet).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dataplane/dco_up.h"

static const uint8_t ping[16] = { 0x2a, 0x18, 0x7b, 0xf3, 0x64, 0x1e, 0xb4, 0xcb,
				  0x07, 0xed, 0x2d, 0x0a, 0x98, 0x1f, 0xc7, 0x48 };

static size_t up(uint8_t *b, uint8_t kid, uint32_t peer, uint32_t pid, const uint8_t *p, size_t n)
{
	memset(b, 0, BRAID_DCO_UP_HDR);
	b[0] = (uint8_t)(31 << 3 | kid);
	b[1] = (uint8_t)(peer >> 16);
	b[2] = (uint8_t)(peer >> 8);
	b[3] = (uint8_t)peer;
	b[4] = (uint8_t)(pid >> 24);
	b[5] = (uint8_t)(pid >> 16);
	b[6] = (uint8_t)(pid >> 8);
	b[7] = (uint8_t)pid;
	memcpy(b + BRAID_DCO_UP_HDR, p, n);
	return BRAID_DCO_UP_HDR + n;
}

int main(void)
{
	struct braid_dco_up u;
	uint8_t b[128];
	size_t n;
	int k;

	/* the VM test's datagram: f9 000005 00000002 16 zero bytes, the ping magic */
	n = up(b, 1, 5, 2, ping, sizeof(ping));
	CHECK_EQ(b[0], 0xf9);
	CHECK_EQ(braid_dco_up_parse(b, n, &u), 0);
	CHECK_EQ(u.key_id, 1);
	CHECK_EQ(u.peer_id, 5);
	CHECK_EQ(u.packet_id, 2);
	CHECK_EQ(u.len, 16);
	CHECK(u.payload == b + 24 && !memcmp(u.payload, ping, 16));
	for (k = 0; k < 8; k++) {
		n = up(b, (uint8_t)k, 0xffffff, 0xfffffffe, (const uint8_t *)"\x28", 1);
		CHECK_EQ(braid_dco_up_parse(b, n, &u), 0);
		CHECK_EQ(u.key_id, k);
		CHECK_EQ(u.peer_id, 0xffffff);
		CHECK_EQ(u.packet_id, 0xfffffffeu);
		CHECK_EQ(u.len, 1);
	}
	/* not ours: P_DATA_V2, control channel opcodes, nothing */
	b[0] = 9 << 3 | 1;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), -ENOMSG);
	b[0] = 7 << 3;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), -ENOMSG);
	CHECK_EQ(braid_dco_up_parse(b, 0, &u), -ENOMSG);
	/* malformed up-opcode datagrams: every length up to the header, a tag byte set, IP */
	n = up(b, 1, 5, 2, ping, sizeof(ping));
	for (k = 1; k <= BRAID_DCO_UP_HDR; k++)
		CHECK_EQ(braid_dco_up_parse(b, (size_t)k, &u), -EBADMSG);
	for (k = 8; k < BRAID_DCO_UP_HDR; k++) {
		b[k] = 1;
		CHECK_EQ(braid_dco_up_parse(b, n, &u), -EBADMSG);
		b[k] = 0;
	}
	b[BRAID_DCO_UP_HDR] = 0x45;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), -EBADMSG);
	b[BRAID_DCO_UP_HDR] = 0x60;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), -EBADMSG);
	b[BRAID_DCO_UP_HDR] = 0x4f;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), -EBADMSG);
	b[BRAID_DCO_UP_HDR] = 0x2a;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), 0);
	/* Braid's multipath magic ("BRAID-MP", 0x42: version nibble 4, IHL 2) is not an IP packet */
	b[BRAID_DCO_UP_HDR] = 0x42;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), 0);
	b[BRAID_DCO_UP_HDR] = 0x44;
	CHECK_EQ(braid_dco_up_parse(b, n, &u), 0);
	CHECK_DONE();
}
