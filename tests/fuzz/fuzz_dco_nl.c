// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dco_nl.c - one netlink datagram braidd's braid_dco client receives
 * (daemon/dataplane/dco_nl.c braid_dco_nl_parse: PEER_GET's peer and path
 * counters, PACKET_SEND's packet id, STATS_GET's cost nest, NLMSG_ERROR with
 * its extack text, capped or not), as the answer to sequence 7 of family 30.
 *
 * Feeds: the whole input as the datagram (copied into an aligned buffer of
 * exactly its size, so ASan sees any read past it).
 * Asserts: the result is 1, 0 or -EBADMSG; the extack text is NUL-terminated
 * within its buffer; the error is 0 or negative; only path ids 0-7 are marked;
 * key ids are -1 or 0-7; without a cost nest the cost counters stay 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/dco_nl.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_dco_reply r;
	uint8_t *b;
	int k;

	if (size > 65536)
		return 0;
	b = aligned_alloc(8, (size + 7) & ~(size_t)7 ? (size + 7) & ~(size_t)7 : 8);
	FZ_ASSERT(b);
	memcpy(b, data, size);
	memset(&r, 0, sizeof(r));
	r.primary_key_id = r.secondary_key_id = -1;
	k = braid_dco_nl_parse(b, size, 7, 30, &r);
	FZ_ASSERT(k == 1 || k == 0 || k == -EBADMSG);
	FZ_ASSERT(memchr(r.msg, '\0', sizeof(r.msg)));
	FZ_ASSERT(r.err <= 0);
	FZ_ASSERT(r.path_mask < (1u << BRAID_DCO_NL_PATHS));
	FZ_ASSERT(!(r.path_down_mask & ~r.path_mask) && !(r.path_backup_mask & ~r.path_mask));
	FZ_ASSERT(r.primary_key_id >= -1 && r.primary_key_id <= 7);
	FZ_ASSERT(r.secondary_key_id >= -1 && r.secondary_key_id <= 7);
	FZ_ASSERT(r.cost.present || (!r.cost.enabled && !r.cost.encrypt_packets && !r.cost.encrypt_ns &&
				     !r.cost.decrypt_packets && !r.cost.decrypt_ns &&
				     !r.cost.sched_packets && !r.cost.sched_ns));
	free(b);
	return 0;
}
