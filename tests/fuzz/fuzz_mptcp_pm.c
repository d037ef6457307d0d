// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_mptcp_pm.c - what braidd reads from the MPTCP path manager's generic
 * netlink family (daemon/os/mptcp_pm.c braid_mptcp_pm_parse): the
 * controller's family lookup (id, multicast groups), the family's replies
 * (GET_ADDR dump entries with the nested address, GET_LIMITS, ACKs and
 * errors, DONE; the userspace path manager's ANNOUNCE / SUBFLOW_CREATE /
 * SUBFLOW_DESTROY errors) and its events (token, addresses, ports, ids,
 * backup, server side, ...). Each parsed event also goes through the
 * userspace path manager's connection table (dataplane/mptcp_upm.c, a
 * gateway's, no paths: no request is sent), kept across inputs.
 *
 * Feeds: byte 0 picks how to read (% 3: reply, event, controller), the rest
 * is one received buffer, read message by message as talk() does.
 * Asserts: each parsed message moves the offset forward and never past the
 * buffer; an endpoint (has_endp) has family AF_INET or AF_INET6; an error
 * is a -errno in [-4095, 0].
 */
#include <errno.h>
#include <sys/socket.h>

#include "fuzz_common.h"
#include "dataplane/mptcp_upm.h"
#include "os/mptcp_pm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_mptcp_pm_msg m;
	enum braid_mptcp_pm_kind kind;
	static struct braid_mptcp_upm *u;
	size_t off = 0, prev;
	int r;

	if (!u && braid_mptcp_upm_new(&u, NULL, true, 0))
		return 0;
	if (!size)
		return 0;
	kind = (enum braid_mptcp_pm_kind)(data[0] % 3);
	data++;
	size--;
	for (;;) {
		prev = off;
		r = braid_mptcp_pm_parse(data, size, &off, kind, &m);
		if (r)
			break;
		FZ_ASSERT(off > prev && off <= size);
		FZ_ASSERT(!m.has_endp || m.endp.family == AF_INET || m.endp.family == AF_INET6);
		FZ_ASSERT(m.error <= 0 && m.error >= -4095);
		if (kind == BRAID_MPTCP_PM_EVENT)
			braid_mptcp_upm_event(u, &m);
	}
	FZ_ASSERT(r == -ENOENT || r == -EPROTO);
	return 0;
}
