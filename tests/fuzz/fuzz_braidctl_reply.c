// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_braidctl_reply.c - braidctl's reader of the management interface
 * (daemon/braidctl/mgmtc.c) and its JSON reader (json.c), as braidctl
 * meets a daemon's bytes: the input is what the far end of the socket
 * sends (then it closes); braidctl sends commands one after another and
 * reads each reply (one-line and multi-line kinds alternate), the
 * `>` notifications between them going to its callback; every data line
 * of a reply is parsed as a path object.
 *
 * Asserts: a reply line or notification is at most MGMTC_LINE_MAX bytes
 * and holds no LF (one CR before the LF is taken off; a second stays, as
 * the daemon's own reader leaves it); a reply has at most MGMTC_REPLY_MAX
 * lines; the reader ends (EOF) without hanging; json_parse of any line
 * either fails or gives a value that json_free releases.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "json.h"
#include "mgmtc.h"

const char *braidctl_prog = "braidctl";

static void check_line(const char *l)
{
	size_t n = strnlen(l, MGMTC_LINE_MAX + 1);

	FZ_ASSERT(n <= MGMTC_LINE_MAX);
	FZ_ASSERT(!memchr(l, '\n', n));
}

static void on_note(void *user, const char *line)
{
	(*(unsigned *)user)++;
	FZ_ASSERT(line[0] == '>');
	check_line(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mgmtc *c;
	int fds[2], sz = 1 << 20;
	unsigned notes = 0;
	size_t off = 0;

	if (size > 65536)
		return 0;
	FZ_ASSERT(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds));
	setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	while (off < size) {
		ssize_t n = write(fds[1], data + off, size - off);

		FZ_ASSERT(n > 0);
		off += (size_t)n;
	}
	shutdown(fds[1], SHUT_WR);
	c = calloc(1, sizeof(*c));
	FZ_ASSERT(c);
	c->fd = fds[0];
	snprintf(c->where, sizeof(c->where), "fuzz");
	c->notify = on_note;
	c->user = &notes;
	for (int i = 0; i < 64; i++) {
		struct mgmtc_reply r;
		int e = mgmtc_cmd(c, "status 3", i % 2 ? MGMTC_ONE : MGMTC_MULTI, &r);

		if (e)
			break;
		FZ_ASSERT(r.msg || r.ok);
		FZ_ASSERT(r.n <= MGMTC_REPLY_MAX);
		if (r.msg)
			check_line(r.msg);
		for (size_t k = 0; k < r.n; k++) {
			struct json j;

			check_line(r.lines[k]);
			if (!json_parse(r.lines[k], &j))
				json_free(&j);
		}
		mgmtc_reply_free(&r);
	}
	while (mgmtc_pump(c, 0) == 1)
		;
	mgmtc_close(c);
	close(fds[1]);
	free(c);
	return 0;
}
