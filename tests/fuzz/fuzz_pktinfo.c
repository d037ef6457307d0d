// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_pktinfo.c - the control data of a received datagram as the kernel
 * hands it back (daemon/os/pktinfo.c braid_pktinfo_from_msg: IP_PKTINFO,
 * IPV6_PKTINFO, v4-mapped) and the source control message written back
 * (daemon/os/sock.c braid_sock_src_cmsg).
 *
 * Feeds: the whole input as msg_control (copied into an aligned buffer of
 * exactly its size, so ASan sees any read past it).
 * Asserts: the family found is 0, AF_INET or AF_INET6; what it writes as a
 * source control message fits the room given and parses back to the same
 * family (and IPv6 address).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "fuzz_common.h"
#include "os/pktinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_pktinfo local, back;
	struct msghdr h;
	union {
		struct cmsghdr align;
		uint8_t b[BRAID_SOCK_SRC_CMSG];
	} out;
	void *ctl;
	size_t n;

	if (size > 4096)
		return 0;
	ctl = aligned_alloc(sizeof(struct cmsghdr) > 8 ? sizeof(struct cmsghdr) : 8,
			    (size + 15) & ~(size_t)15);
	FZ_ASSERT(ctl);
	memcpy(ctl, data, size);
	memset(&h, 0, sizeof(h));
	h.msg_control = size ? ctl : NULL;
	h.msg_controllen = size;
	braid_pktinfo_from_msg(&h, &local);
	FZ_ASSERT(local.family == 0 || local.family == AF_INET || local.family == AF_INET6);
	n = braid_sock_src_cmsg(out.b, sizeof(out.b), &local, true);
	FZ_ASSERT(n <= sizeof(out.b));
	FZ_ASSERT(!local.family == !n);
	if (n) {
		h.msg_control = out.b;
		h.msg_controllen = n;
		braid_pktinfo_from_msg(&h, &back);
		/* IP_PKTINFO goes out with the address as ipi_spec_dst and is read from ipi_addr:
		 * the family comes back; IPV6_PKTINFO (never v4-mapped here) with its address */
		FZ_ASSERT(back.family == local.family);
		if (local.family == AF_INET6)
			FZ_ASSERT(!memcmp(&back.addr.v6, &local.addr.v6, sizeof(back.addr.v6)));
	}
	free(ctl);
	return 0;
}
