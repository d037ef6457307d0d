// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ctlproto.c - the control/status socket's request parser
 * (daemon/control/ctlproto.c braid_ctl_parse), as braidd's control socket calls it
 * with one received line.
 *
 * Feeds: the input as one request line (any bytes, NULs included, any
 * length; the socket reader hands over at most BRAID_CTL_LINE_MAX).
 * Asserts: a refusal is -EINVAL with a non-empty, NUL-terminated reason that
 * fits err; an accepted request has a known command, NUL-terminated
 * strings, and the fields its command needs (a path and an op for
 * `set path`, a scheduler for `set scheduler`); the line is not written to.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "control/ctlproto.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_ctl_req req;
	char err[BRAID_CTL_ERR_MAX];
	char *line = malloc(size ? size : 1);	/* exact size: ASan sees any over-read */
	int r;

	FZ_ASSERT(line);
	memcpy(line, data, size);
	memset(err, 0x7f, sizeof(err));
	r = braid_ctl_parse(line, size, &req, err, sizeof(err));
	FZ_ASSERT(!memcmp(line, data, size));
	if (r) {
		FZ_ASSERT(r == -EINVAL);
		FZ_ASSERT(memchr(err, 0, sizeof(err)) && err[0]);
	} else {
		FZ_ASSERT(req.cmd >= BRAID_CTL_STATUS && req.cmd <= BRAID_CTL_KILL);
		FZ_ASSERT(memchr(req.sched, 0, sizeof(req.sched)));
		FZ_ASSERT(memchr(req.path, 0, sizeof(req.path)));
		FZ_ASSERT(memchr(req.client, 0, sizeof(req.client)));
		if (req.cmd == BRAID_CTL_KILL)
			FZ_ASSERT(req.client[0]);
		if (req.cmd == BRAID_CTL_SET_PATH)
			FZ_ASSERT(req.path[0] && req.op >= BRAID_CTL_PATH_BACKUP &&
				  req.op <= BRAID_CTL_PATH_NOCAP);
		if (req.cmd == BRAID_CTL_SET_SCHED)
			FZ_ASSERT(req.sched[0]);
	}
	free(line);
	return 0;
}
