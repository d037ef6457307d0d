// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_sched_nl.c - what braid-sched-attach (bpf/sched_nl.c) reads from the kernel: one received
 * generic netlink buffer through sched_nl_parse_reply() (sequence check, NLMSG_ERROR with the
 * extack message attribute, capped or not), then a reply through sched_nl_parse_get() (the sched
 * nest of PROG_GET and its u32/u64 counters).
 * Feeds: the buffer itself; the sequence number expected is the buffer's own when its first byte is
 * odd (so replies get past the check), else 0.
 * Asserts: a reply's length is within the buffer; the extack text is NUL-terminated within its
 * buffer; an error is a negative errno.
 */
#include <stdint.h>
#include <string.h>

#include <linux/netlink.h>

#include "../../bpf/sched_nl.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sched_nl_info info;
	struct nlmsghdr nh;
	char err[64];
	size_t len = 0;
	uint32_t seq = 0;
	int rc;

	if (size >= sizeof(nh)) {
		memcpy(&nh, data, sizeof(nh));
		if (data[0] & 1)
			seq = nh.nlmsg_seq;
	}
	memset(err, 'x', sizeof(err));
	err[sizeof(err) - 1] = 0;
	rc = sched_nl_parse_reply(data, size, seq, &len, err, sizeof(err));
	FZ_ASSERT(strnlen(err, sizeof(err)) < sizeof(err));
	FZ_ASSERT(rc <= 1 && rc >= -4095);
	FZ_ASSERT(len <= size);
	if (rc == 0 && len)
		(void)sched_nl_parse_get(data, len, &info);
	return 0;
}
