/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_line.h - the management interface's line protocol (mgmt_line.c):
 * splitting a connection's byte stream into command lines (LF or CRLF,
 * at most BRAID_MGMT_LINE_MAX - 1 bytes each) and a line into words the
 * way OpenVPN's manage.c does it (its config-line rules: blanks separate,
 * "double quotes" group with \" and \\ escapes, 'single quotes' group
 * verbatim). Pure functions: no I/O, no allocation; the fuzz harness
 * tests/fuzz/fuzz_mgmt_line.c drives both.
 */
#ifndef BRAID_MGMT_LINE_H
#define BRAID_MGMT_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define BRAID_MGMT_LINE_MAX 1024	/* a command line, LF included */
#define BRAID_MGMT_ARGS_MAX 16

/* What a line was refused for (counted per kind by the interface). */
enum braid_mgmt_rej {
	BRAID_MGMT_REJ_TOO_LONG,	/* no LF within BRAID_MGMT_LINE_MAX bytes */
	BRAID_MGMT_REJ_BAD_CHAR,	/* NUL or another control byte */
	BRAID_MGMT_REJ_QUOTE,		/* unterminated quote or a trailing backslash */
	BRAID_MGMT_REJ_TOO_MANY,	/* more than BRAID_MGMT_ARGS_MAX words */
	BRAID_MGMT_REJ_UNKNOWN,		/* unknown command */
	BRAID_MGMT_REJ_ARGS,		/* a known command with bad arguments */
	BRAID_MGMT_REJ_PASSWORD,	/* a wrong management password */
	BRAID_MGMT_REJ_CONN,		/* a connection refused (too many, wrong user) */
	BRAID_MGMT_REJ_OVERFLOW,	/* a client that did not read its replies */
	BRAID_MGMT_REJ_CR_RESPONSE,	/* a VPN client's CR_RESPONSE that is not base64 */
	BRAID_MGMT_REJ_N
};

/* The splitter's state for one connection. */
struct braid_mgmt_lbuf {
	char buf[BRAID_MGMT_LINE_MAX];
	size_t len;
	bool discard;			/* inside an over-long line: drop up to the next LF */
};

/*
 * Take bytes from data[0..n) into b; *used gets how many were taken. Returns
 * 1 with a complete line in line and len (CR before the LF removed, not
 * NUL-terminated; valid until the next call), -E2BIG once for a line longer
 * than the buffer (its bytes are dropped up to its LF), or 0 when all of
 * data is taken and no line is complete. Call again with the rest.
 */
int braid_mgmt_lbuf_take(struct braid_mgmt_lbuf *b, const char *data, size_t n, size_t *used,
			 const char **line, size_t *len);

/* One line as words. */
struct braid_mgmt_argv {
	int argc;
	char *argv[BRAID_MGMT_ARGS_MAX + 1];	/* argv[argc] == NULL */
	char store[BRAID_MGMT_LINE_MAX + BRAID_MGMT_ARGS_MAX];
};

/*
 * Split line[0..len) (len < BRAID_MGMT_LINE_MAX) into words. 0 (argc may be
 * 0 for a blank line), or -EINVAL with *why set (QUOTE, BAD_CHAR, TOO_MANY,
 * TOO_LONG).
 */
int braid_mgmt_split(const char *line, size_t len, struct braid_mgmt_argv *a,
		     enum braid_mgmt_rej *why);

/*
 * Challenge-response answers (`cr-response B64` on a client, the control
 * message "CR_RESPONSE,B64" it sends, >CLIENT:CR_RESPONSE on the gateway):
 * base64 only (A-Z a-z 0-9 + / =), 1..BRAID_CR_RESPONSE_MAX bytes, so the
 * text can go into a management line as is.
 */
#define BRAID_CR_RESPONSE_MAX 768
/* s[0..len) is such an answer: 0, or -EINVAL. */
int braid_cr_b64_check(const char *s, size_t len);
/*
 * A control-channel message text t[0..len): -ENOENT when it is not a
 * CR_RESPONSE, -EINVAL when it is one with a bad answer, 0 with the answer
 * at *b64 (inside t, *b64_len bytes).
 */
int braid_cr_response_parse(const char *t, size_t len, const char **b64, size_t *b64_len);

/* A short name of a rejection kind ("too_long", ...), for logs and counters. */
const char *braid_mgmt_rej_name(enum braid_mgmt_rej r);

#endif /* BRAID_MGMT_LINE_H */
