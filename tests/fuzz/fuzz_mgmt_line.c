// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_mgmt_line.c - the management interface's line protocol
 * (daemon/control/mgmt_line.c), as a connection's reader uses it: the
 * byte stream arrives in chunks (fuzz_common.h's u16-length chunks, as
 * recv() would cut it), braid_mgmt_lbuf_take splits it into lines, each
 * line goes through braid_mgmt_split.
 *
 * Asserts: every byte is taken (used > 0 while input is left); a line is
 * shorter than BRAID_MGMT_LINE_MAX and has no LF (a CR left at its end,
 * from "\r\r\n", is refused by the split as a control byte); an
 * over-long line is refused once (-E2BIG) until the next LF; a split line
 * has argc within BRAID_MGMT_ARGS_MAX, argv NULL-terminated, every word
 * NUL-terminated inside the store and no longer than the line; a refusal
 * is -EINVAL with a known reason.
 *
 * Each line is also a control-channel message text for
 * braid_cr_response_parse (a VPN client's CR_RESPONSE,B64 on the gateway):
 * accepted only with the prefix, the answer inside the line, 1..
 * BRAID_CR_RESPONSE_MAX base64 bytes, braid_cr_b64_check agreeing.
 */
#include <errno.h>
#include <string.h>

#include "control/mgmt_line.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct braid_mgmt_lbuf *b = calloc(1, sizeof(*b));
	struct braid_mgmt_argv *a = malloc(sizeof(*a));
	const uint8_t *chunk;
	size_t clen;

	FZ_ASSERT(b && a);
	while (fz_chunk(&f, &chunk, &clen)) {
		size_t off = 0;

		while (off < clen) {
			const char *line = NULL;
			size_t used = 0, len = 0;
			enum braid_mgmt_rej why = BRAID_MGMT_REJ_N;
			bool was_discarding = b->discard;
			int r = braid_mgmt_lbuf_take(b, (const char *)chunk + off, clen - off, &used,
						     &line, &len);

			FZ_ASSERT(used > 0 && used <= clen - off);
			off += used;
			FZ_ASSERT(r == 0 || r == 1 || r == -E2BIG);
			if (r == -E2BIG)
				FZ_ASSERT(!was_discarding);
			if (r != 1)
				continue;
			FZ_ASSERT(len < BRAID_MGMT_LINE_MAX);
			FZ_ASSERT(!memchr(line, '\n', len));
			{
				const char *b64 = NULL;
				size_t bl = 0;
				int cr = braid_cr_response_parse(line, len, &b64, &bl);

				FZ_ASSERT(cr == 0 || cr == -ENOENT || cr == -EINVAL);
				if (cr == 0) {
					FZ_ASSERT(len > 12 && !memcmp(line, "CR_RESPONSE,", 12));
					FZ_ASSERT(b64 == line + 12 && bl == len - 12);
					FZ_ASSERT(bl >= 1 && bl <= BRAID_CR_RESPONSE_MAX);
					FZ_ASSERT(braid_cr_b64_check(b64, bl) == 0);
					for (size_t i = 0; i < bl; i++)
						FZ_ASSERT(b64[i] > ' ' && b64[i] != ',');
				}
			}
			r = braid_mgmt_split(line, len, a, &why);
			/* one CR before the LF is taken off; another one is a control byte */
			if (len && line[len - 1] == '\r')
				FZ_ASSERT(r == -EINVAL && why == BRAID_MGMT_REJ_BAD_CHAR);
			if (r) {
				FZ_ASSERT(r == -EINVAL && why < BRAID_MGMT_REJ_N);
				continue;
			}
			FZ_ASSERT(a->argc >= 0 && a->argc <= BRAID_MGMT_ARGS_MAX);
			FZ_ASSERT(a->argv[a->argc] == NULL);
			for (int i = 0; i < a->argc; i++) {
				size_t room = sizeof(a->store) - (size_t)(a->argv[i] - a->store);

				FZ_ASSERT(a->argv[i] >= a->store && (size_t)(a->argv[i] - a->store) <
								     sizeof(a->store));
				FZ_ASSERT(memchr(a->argv[i], 0, room));
				FZ_ASSERT(strlen(a->argv[i]) <= len);
			}
		}
	}
	free(a);
	free(b);
	return 0;
}
