/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmtc.h - braidctl's side of braidd's management interface
 * (docs/management.md): connect over a unix socket or TCP, the password
 * prompt, one command at a time with its reply, and the real-time `>TYPE:`
 * notifications that may come between reply lines.
 *
 * Lines are CRLF (LF accepted) and at most MGMTC_LINE_MAX bytes; a longer
 * one, a reply of more than MGMTC_REPLY_MAX lines, or a daemon silent for
 * MGMTC_TIMEOUT_MS ends the exchange with a message (never a guess).
 */
#ifndef BRAIDCTL_MGMTC_H
#define BRAIDCTL_MGMTC_H

#include <stdbool.h>
#include <stddef.h>

#define MGMTC_LINE_MAX 8192
#define MGMTC_REPLY_MAX 100000
#define MGMTC_TIMEOUT_MS 10000

struct mgmtc_target {
	const char *unix_path;		/* a unix socket, or NULL */
	const char *tcp;		/* "HOST:PORT" ("[v6]:PORT"), when unix_path is NULL */
	const char *pwfile;		/* the password's file (first line), or NULL */
};

struct mgmtc {
	int fd;
	char where[160];		/* for messages: the socket path or host:port */
	char buf[MGMTC_LINE_MAX + 2];	/* bytes read, not yet a line */
	size_t len;
	char line[MGMTC_LINE_MAX + 1];	/* the current line, without CR/LF */
	/* each notification line (without CRLF) while waiting, or NULL: dropped */
	void (*notify)(void *user, const char *line);
	void *user;
};

/* A reply: lines[0..n) without CRLF; ok false for an `ERROR:` reply (msg: its text). */
struct mgmtc_reply {
	bool ok;
	char *msg;			/* the SUCCESS:/ERROR: text after the colon and blank */
	char **lines;			/* the data lines of a multi-line reply (END not included) */
	size_t n;
};

enum mgmtc_kind {
	MGMTC_ONE,			/* one SUCCESS:/ERROR: line */
	MGMTC_MULTI,			/* data lines up to END, or one ERROR: line */
};

/*
 * Connect and authenticate (the banner read). 0, or -errno after a
 * message on stderr naming the socket and what to check.
 */
int mgmtc_open(struct mgmtc *c, const struct mgmtc_target *t);
void mgmtc_close(struct mgmtc *c);
/*
 * Send cmd (one line, no CR/LF in it) and read its reply into r (free it with
 * mgmtc_reply_free). 0 (r->ok tells SUCCESS or ERROR) or -errno after a message.
 */
int mgmtc_cmd(struct mgmtc *c, const char *cmd, enum mgmtc_kind kind, struct mgmtc_reply *r);
void mgmtc_reply_free(struct mgmtc_reply *r);
/* The data part that follows a SUCCESS line (`log on all`: the history up to END). */
int mgmtc_more(struct mgmtc *c, const char *cmd, struct mgmtc_reply *r);
/*
 * Wait up to timeout_ms (-1: no limit) for the next line; a notification
 * goes to c->notify. 1 a line came, 0 timeout, -errno (the daemon went away:
 * -ECONNRESET) after a message.
 */
int mgmtc_pump(struct mgmtc *c, int timeout_ms);
/* Quote a word for a command line as stock parses it ("..." with \" and \\). */
void mgmtc_quote(char *out, size_t n, const char *word);

#endif
