// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmtc.c - braidctl's management-interface client (see mgmtc.h).
 */
#include "mgmtc.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "prog.h"

#define PROMPT "ENTER PASSWORD:"
#define BANNER ">INFO:OpenVPN Management Interface Version"
#define PW_MAX 256

static int send_all(struct mgmtc *c, const char *b, size_t len)
{
	while (len) {
		ssize_t n = send(c->fd, b, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "%s: cannot send to %s: %s\n", braidctl_prog, c->where,
				strerror(errno));
			return -errno;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Take one line out of buf into c->line: 1, 0 (none complete yet), -E2BIG. */
static int take_line(struct mgmtc *c)
{
	char *nl = memchr(c->buf, '\n', c->len);
	size_t l, used;

	if (!nl) {
		/* the password prompt has no line end */
		if (c->len == strlen(PROMPT) && !memcmp(c->buf, PROMPT, c->len)) {
			memcpy(c->line, PROMPT, c->len + 1);
			c->len = 0;
			return 1;
		}
		return c->len > MGMTC_LINE_MAX ? -E2BIG : 0;
	}
	l = (size_t)(nl - c->buf);
	used = l + 1;
	if (l && c->buf[l - 1] == '\r')
		l--;
	if (l > MGMTC_LINE_MAX)
		return -E2BIG;
	memcpy(c->line, c->buf, l);
	c->line[l] = '\0';
	memmove(c->buf, c->buf + used, c->len - used);
	c->len -= used;
	return 1;
}

/* The next line into c->line: 1, 0 timeout, -errno (with a message). */
static int read_line(struct mgmtc *c, int timeout_ms)
{
	for (;;) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		int r = take_line(c);
		ssize_t n;

		if (r == -E2BIG) {
			fprintf(stderr, "%s: %s sent a line longer than %d bytes\n", braidctl_prog,
				c->where, MGMTC_LINE_MAX);
			return r;
		}
		if (r)
			return 1;
		r = poll(&pfd, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			return -EINTR;
		if (r < 0)
			return -errno;
		if (r == 0)
			return 0;
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "%s: %s closed the connection%s%s\n", braidctl_prog,
				c->where, n < 0 ? ": " : "", n < 0 ? strerror(errno) : "");
			return -ECONNRESET;
		}
		c->len += (size_t)n;
	}
}

/* The next line that is not a notification (those go to c->notify). */
static int reply_line(struct mgmtc *c)
{
	for (;;) {
		int r = read_line(c, MGMTC_TIMEOUT_MS);

		if (r == 0) {
			fprintf(stderr, "%s: no reply from %s within %d s\n", braidctl_prog, c->where,
				MGMTC_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		if (r < 0)
			return r;
		if (c->line[0] != '>')
			return 0;
		if (c->notify)
			c->notify(c->user, c->line);
	}
}

int mgmtc_pump(struct mgmtc *c, int timeout_ms)
{
	int r = read_line(c, timeout_ms);

	if (r == 1 && c->line[0] == '>' && c->notify)
		c->notify(c->user, c->line);
	return r;
}

static int connect_unix(struct mgmtc *c, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int r;

	snprintf(c->where, sizeof(c->where), "%s", path);
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "%s: socket path '%s' too long\n", braidctl_prog, path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (!connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)))
		return 0;
	r = -errno;
	fprintf(stderr, "%s: cannot connect to %s: %s (is braidd running with 'management %s "
		"unix' or 'control-socket %s'? -s SOCKET names another)\n", braidctl_prog, path,
		strerror(-r), path, path);
	return r;
}

static int connect_tcp(struct mgmtc *c, const char *hp)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL, *a;
	char host[128];
	const char *colon = strrchr(hp, ':');
	size_t hl;
	int r = -ECONNREFUSED, g;

	snprintf(c->where, sizeof(c->where), "%s", hp);
	if (!colon || colon == hp || !colon[1] || (hl = (size_t)(colon - hp)) >= sizeof(host)) {
		fprintf(stderr, "%s: --tcp wants HOST:PORT, not '%s'\n", braidctl_prog, hp);
		return -EINVAL;
	}
	memcpy(host, hp, hl);
	host[hl] = '\0';
	if (host[0] == '[' && hl > 2 && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = '\0';
	}
	g = getaddrinfo(host, colon + 1, &hints, &ai);
	if (g) {
		fprintf(stderr, "%s: cannot resolve %s: %s\n", braidctl_prog, hp, gai_strerror(g));
		return -EINVAL;
	}
	for (a = ai; a; a = a->ai_next) {
		c->fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c->fd < 0) {
			r = -errno;
			continue;
		}
		if (!connect(c->fd, a->ai_addr, a->ai_addrlen)) {
			r = 0;
			break;
		}
		r = -errno;
		close(c->fd);
		c->fd = -1;
	}
	freeaddrinfo(ai);
	if (r)
		fprintf(stderr, "%s: cannot connect to %s: %s (is braidd running with 'management "
			"%s %s'?)\n", braidctl_prog, hp, strerror(-r), host, colon + 1);
	return r;
}

/* The password's first line into pw (at most PW_MAX - 1 bytes). */
static int read_pwfile(const char *file, char *pw)
{
	FILE *f = fopen(file, "re");
	size_t l;

	if (!f) {
		fprintf(stderr, "%s: cannot read the password file %s: %s\n", braidctl_prog, file,
			strerror(errno));
		return -errno;
	}
	if (!fgets(pw, PW_MAX, f))
		pw[0] = '\0';
	fclose(f);
	l = strcspn(pw, "\r\n");
	pw[l] = '\0';
	return 0;
}

static int authenticate(struct mgmtc *c, const char *pwfile)
{
	char pw[PW_MAX];
	int r;

	if (!pwfile) {
		fprintf(stderr, "%s: %s asks for the management password: give it with "
			"--password-file FILE\n", braidctl_prog, c->where);
		return -EACCES;
	}
	r = read_pwfile(pwfile, pw);
	if (r)
		return r;
	r = send_all(c, pw, strlen(pw));
	explicit_bzero(pw, sizeof(pw));
	if (!r)
		r = send_all(c, "\n", 1);
	if (!r)
		r = reply_line(c);
	if (r)
		return r;
	if (!strncmp(c->line, "SUCCESS:", 8))
		return 0;
	fprintf(stderr, "%s: %s refused the password from %s (%s)\n", braidctl_prog, c->where,
		pwfile, c->line);
	return -EACCES;
}

int mgmtc_open(struct mgmtc *c, const struct mgmtc_target *t)
{
	int r;

	c->fd = -1;
	c->len = 0;
	r = t->unix_path ? connect_unix(c, t->unix_path) : connect_tcp(c, t->tcp);
	if (r)
		goto fail;
	r = read_line(c, MGMTC_TIMEOUT_MS);
	if (r == 0) {
		fprintf(stderr, "%s: no greeting from %s within %d s\n", braidctl_prog, c->where,
			MGMTC_TIMEOUT_MS / 1000);
		r = -ETIMEDOUT;
	}
	if (r < 0)
		goto fail;
	if (!strcmp(c->line, PROMPT)) {
		r = authenticate(c, t->pwfile);
		if (r)
			goto fail;
		r = read_line(c, MGMTC_TIMEOUT_MS);
		if (r <= 0) {
			r = r ? r : -ETIMEDOUT;
			goto fail;
		}
	}
	if (!strncmp(c->line, "ERROR:", 6)) {
		fprintf(stderr, "%s: %s: braidd: %s\n", braidctl_prog, c->where, c->line + 7);
		r = -EBUSY;
		goto fail;
	}
	if (strncmp(c->line, BANNER, strlen(BANNER))) {
		fprintf(stderr, "%s: %s is not a management interface (it said '%.60s')\n",
			braidctl_prog, c->where, c->line);
		r = -EPROTO;
		goto fail;
	}
	return 0;
fail:
	mgmtc_close(c);
	return r;
}

void mgmtc_close(struct mgmtc *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

void mgmtc_reply_free(struct mgmtc_reply *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->lines[i]);
	free(r->lines);
	free(r->msg);
	memset(r, 0, sizeof(*r));
}

static int add_line(struct mgmtc_reply *r, const char *s)
{
	char **nl;

	if (r->n >= MGMTC_REPLY_MAX)
		return -E2BIG;
	nl = realloc(r->lines, (r->n + 1) * sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	r->lines = nl;
	r->lines[r->n] = strdup(s);
	if (!r->lines[r->n])
		return -ENOMEM;
	r->n++;
	return 0;
}

/* Data lines up to END into r (r->n lines already there are kept). */
static int data_lines(struct mgmtc *c, const char *cmd, struct mgmtc_reply *r)
{
	for (;;) {
		int e = reply_line(c);

		if (e)
			return e;
		if (!strcmp(c->line, "END"))
			return 0;
		e = add_line(r, c->line);
		if (e == -E2BIG)
			fprintf(stderr, "%s: reply from %s to '%s' longer than %d lines\n",
				braidctl_prog, c->where, cmd, MGMTC_REPLY_MAX);
		if (e)
			return e;
	}
}

int mgmtc_cmd(struct mgmtc *c, const char *cmd, enum mgmtc_kind kind, struct mgmtc_reply *r)
{
	int e;

	memset(r, 0, sizeof(*r));
	if (strpbrk(cmd, "\r\n") || strlen(cmd) > 1000)
		return -EINVAL;
	e = send_all(c, cmd, strlen(cmd));
	if (!e)
		e = send_all(c, "\n", 1);
	if (!e)
		e = reply_line(c);
	if (e)
		return e;
	if (!strncmp(c->line, "SUCCESS:", 8) || !strncmp(c->line, "ERROR:", 6)) {
		const char *m = strchr(c->line, ':') + 1;

		r->ok = c->line[0] == 'S';
		r->msg = strdup(m + (*m == ' '));
		return r->msg ? 0 : -ENOMEM;
	}
	if (kind == MGMTC_ONE) {
		fprintf(stderr, "%s: unexpected reply from %s to '%s': '%.80s'\n", braidctl_prog,
			c->where, cmd, c->line);
		return -EPROTO;
	}
	r->ok = true;
	if (!strcmp(c->line, "END"))
		return 0;
	e = add_line(r, c->line);
	if (!e)
		e = data_lines(c, cmd, r);
	if (e)
		mgmtc_reply_free(r);
	return e;
}

int mgmtc_more(struct mgmtc *c, const char *cmd, struct mgmtc_reply *r)
{
	int e;

	memset(r, 0, sizeof(*r));
	r->ok = true;
	e = data_lines(c, cmd, r);
	if (e)
		mgmtc_reply_free(r);
	return e;
}

void mgmtc_quote(char *out, size_t n, const char *word)
{
	size_t o = 0;

	if (n < 3) {
		if (n)
			out[0] = '\0';
		return;
	}
	out[o++] = '"';
	for (const char *p = word; *p && o + 3 < n; p++) {
		if (*p == '"' || *p == '\\')
			out[o++] = '\\';
		out[o++] = *p;
	}
	out[o++] = '"';
	out[o] = '\0';
}
