// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dco_up.c - a datagram read from a path socket of braid_dco
 * (daemon/dataplane/dco_up.c braid_dco_up_parse: the up-opcode hand-up).
 *
 * Feeds: the whole input as the datagram (copied into a buffer of exactly its
 * size, so ASan sees any read past it).
 * Asserts: the result is 0, -ENOMSG or -EBADMSG; on 0 the payload lies inside
 * the datagram right after the 24-byte header, is not empty and not an IP
 * packet, the fields are the header's bytes (key id 0-7, peer id < 2^24) and
 * the opcode is 31; -ENOMSG exactly when the first byte's opcode is not 31.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/dco_up.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_dco_up u;
	uint8_t *b;
	int r;

	if (size > 65536)
		return 0;
	b = malloc(size ? size : 1);
	FZ_ASSERT(b);
	memcpy(b, data, size);
	r = braid_dco_up_parse(b, size, &u);
	FZ_ASSERT(r == 0 || r == -ENOMSG || r == -EBADMSG);
	FZ_ASSERT((r == -ENOMSG) == (!size || b[0] >> 3 != BRAID_DCO_UP_OPCODE_V));
	if (!r) {
		FZ_ASSERT(size > BRAID_DCO_UP_HDR);
		FZ_ASSERT(u.payload == b + BRAID_DCO_UP_HDR && u.len == size - BRAID_DCO_UP_HDR);
		/* never an IP packet: IPv6, or IPv4 with IHL >= 5 (Braid's 0x42 magic is not one) */
		FZ_ASSERT(u.payload[0] >> 4 != 6 && !(u.payload[0] >> 4 == 4 && (u.payload[0] & 0x0f) >= 5));
		FZ_ASSERT(u.key_id == (b[0] & 7) && u.peer_id < (1u << 24));
		FZ_ASSERT(u.peer_id == ((uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]));
	}
	free(b);
	return 0;
}
