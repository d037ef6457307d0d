// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_line.c - the management interface's line splitter and word parser
 * (see mgmt_line.h).
 */
#include "control/mgmt_line.h"

#include <errno.h>
#include <string.h>

int braid_mgmt_lbuf_take(struct braid_mgmt_lbuf *b, const char *data, size_t n, size_t *used,
			 const char **line, size_t *len)
{
	const char *nl = memchr(data, '\n', n);
	size_t take = nl ? (size_t)(nl - data) + 1 : n;

	*used = take;
	if (b->discard) {
		if (nl)
			b->discard = false;
		return 0;
	}
	if (b->len + take > sizeof(b->buf) || (!nl && b->len + take == sizeof(b->buf))) {
		/* the line does not fit (with its LF): refuse it once, drop the rest of it */
		b->len = 0;
		b->discard = !nl;
		return -E2BIG;
	}
	memcpy(b->buf + b->len, data, take);
	b->len += take;
	if (!nl)
		return 0;
	*len = b->len - 1;		/* without the LF */
	if (*len && b->buf[*len - 1] == '\r')
		(*len)--;
	*line = b->buf;
	b->len = 0;
	return 1;
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

int braid_mgmt_split(const char *line, size_t len, struct braid_mgmt_argv *a,
		     enum braid_mgmt_rej *why)
{
	size_t i = 0, o = 0;

	a->argc = 0;
	a->argv[0] = NULL;
	if (len >= BRAID_MGMT_LINE_MAX) {
		*why = BRAID_MGMT_REJ_TOO_LONG;
		return -EINVAL;
	}
	for (size_t k = 0; k < len; k++) {
		unsigned char ch = (unsigned char)line[k];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			*why = BRAID_MGMT_REJ_BAD_CHAR;
			return -EINVAL;
		}
	}
	for (;;) {
		while (i < len && blank(line[i]))
			i++;
		if (i == len)
			break;
		if (a->argc == BRAID_MGMT_ARGS_MAX) {
			*why = BRAID_MGMT_REJ_TOO_MANY;
			return -EINVAL;
		}
		a->argv[a->argc++] = a->store + o;
		while (i < len && !blank(line[i])) {
			char q = line[i];

			if (q == '"' || q == '\'') {
				i++;
				while (i < len && line[i] != q) {
					if (q == '"' && line[i] == '\\') {
						if (++i == len)
							break;
					}
					a->store[o++] = line[i++];
				}
				if (i == len) {
					*why = BRAID_MGMT_REJ_QUOTE;
					a->argc = 0;
					a->argv[0] = NULL;
					return -EINVAL;
				}
				i++;	/* the closing quote */
			} else if (q == '\\') {
				if (++i == len) {
					*why = BRAID_MGMT_REJ_QUOTE;
					a->argc = 0;
					a->argv[0] = NULL;
					return -EINVAL;
				}
				a->store[o++] = line[i++];
			} else {
				a->store[o++] = line[i++];
			}
		}
		a->store[o++] = '\0';
	}
	a->argv[a->argc] = NULL;
	return 0;
}

int braid_cr_b64_check(const char *s, size_t len)
{
	if (!len || len > BRAID_CR_RESPONSE_MAX)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '+' || ch == '/' || ch == '='))
			return -EINVAL;
	}
	return 0;
}

int braid_cr_response_parse(const char *t, size_t len, const char **b64, size_t *b64_len)
{
	static const char pfx[] = "CR_RESPONSE,";
	const size_t pl = sizeof(pfx) - 1;

	if (len < pl || memcmp(t, pfx, pl))
		return -ENOENT;
	if (braid_cr_b64_check(t + pl, len - pl))
		return -EINVAL;
	*b64 = t + pl;
	*b64_len = len - pl;
	return 0;
}

const char *braid_mgmt_rej_name(enum braid_mgmt_rej r)
{
	static const char *const names[BRAID_MGMT_REJ_N] = {
		"too_long", "bad_char", "bad_quote", "too_many_args", "unknown_command",
		"bad_arguments", "bad_password", "connection_refused", "output_overflow",
		"bad_cr_response",
	};

	return (unsigned)r < BRAID_MGMT_REJ_N ? names[r] : "?";
}
