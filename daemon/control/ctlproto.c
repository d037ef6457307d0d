// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctlproto.c - control socket request parser (see ctlproto.h).
 */
#include "control/ctlproto.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp/mp.h"

#define MAX_WORDS 8
#define SCHED_LIST "edf, rtt, ratio A:B, mpip, lowest-rtt, backup, redundant"
#define PATH_OPS "backup, active, cap MBIT, nocap"
#define CAP_MAX_MBIT 1000000.0

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Split buf in place on blanks; -E2BIG beyond MAX_WORDS. */
static int split(char *buf, char **w)
{
	int n = 0;
	char *p = buf;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			return n;
		if (n == MAX_WORDS)
			return -E2BIG;
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
}

/* A client's name: its common name or client ID, as given (checked by the role). */
static int set_client(struct braid_ctl_req *req, const char *cmd, const char *name, char *err,
		      size_t errlen)
{
	if (strlen(name) >= sizeof(req->client))
		return fail(err, errlen, "%s: client name too long (max %zu bytes)", cmd,
			    sizeof(req->client) - 1);
	snprintf(req->client, sizeof(req->client), "%s", name);
	return 0;
}

static int parse_sched(struct braid_ctl_req *req, int n, char **w, char *err, size_t errlen)
{
	enum braid_mp_sched s;
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	unsigned int k = 0, sum = 0;

	if (n < 3)
		return fail(err, errlen, "set scheduler: missing scheduler (%s)", SCHED_LIST);
	if (!strcmp(w[2], "ratio")) {
		if (n < 4)
			return fail(err, errlen, "set scheduler: ratio needs weights A:B (by path index)");
		if (n > 4)
			return fail(err, errlen, "set scheduler: unexpected argument '%s'", w[4]);
		snprintf(req->sched, sizeof(req->sched), "ratio %s", w[3]);
		if (strlen(w[3]) > 64 || braid_mp_sched_parse(req->sched, &s, ratio, &k))
			return fail(err, errlen,
				    "set scheduler: bad ratio '%s' (weights A:B:... by path index, "
				    "at most %d)", w[3], BRAID_MP_MAX_PATHS);
		for (unsigned int i = 0; i < k; i++)
			sum += ratio[i];
		if (!sum)
			return fail(err, errlen, "set scheduler: ratio '%s' has no nonzero weight",
				    w[3]);
	} else {
		if (n > 3)
			return fail(err, errlen, "set scheduler: unexpected argument '%s'", w[3]);
		if (strlen(w[2]) >= sizeof(req->sched) ||
		    braid_mp_sched_parse(w[2], &s, ratio, &k) || s == BRAID_MP_SCHED_RATIO)
			return fail(err, errlen, "set scheduler: unknown scheduler '%s' (%s)", w[2],
				    SCHED_LIST);
		snprintf(req->sched, sizeof(req->sched), "%s", w[2]);
	}
	req->cmd = BRAID_CTL_SET_SCHED;
	return 0;
}

static int parse_cap(const char *s, uint64_t *bps)
{
	char *end;
	double v;

	if ((*s < '0' || *s > '9') && *s != '.')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > CAP_MAX_MBIT)
		return -EINVAL;
	*bps = (uint64_t)(v * 1e6 + 0.5);
	return *bps ? 0 : -EINVAL;
}

static int parse_path(struct braid_ctl_req *req, int n, char **w, char *err, size_t errlen)
{
	int want = 4;

	if (n < 3)
		return fail(err, errlen, "set path: missing path (index or local address)");
	if (strlen(w[2]) >= sizeof(req->path))
		return fail(err, errlen, "set path: path name too long (max %zu bytes)",
			    sizeof(req->path) - 1);
	snprintf(req->path, sizeof(req->path), "%s", w[2]);
	if (n < 4)
		return fail(err, errlen, "set path: missing action (%s)", PATH_OPS);
	if (!strcmp(w[3], "backup")) {
		req->op = BRAID_CTL_PATH_BACKUP;
	} else if (!strcmp(w[3], "active")) {
		req->op = BRAID_CTL_PATH_ACTIVE;
	} else if (!strcmp(w[3], "nocap")) {
		req->op = BRAID_CTL_PATH_NOCAP;
	} else if (!strcmp(w[3], "cap")) {
		req->op = BRAID_CTL_PATH_CAP;
		if (n < 5)
			return fail(err, errlen, "set path: cap needs a rate in Mbit/s");
		if (parse_cap(w[4], &req->cap_bps))
			return fail(err, errlen, "set path: bad cap '%.40s' (Mbit/s, > 0, <= %.0f)",
				    w[4], CAP_MAX_MBIT);
		want = 5;
	} else {
		return fail(err, errlen, "set path: unknown action '%s' (%s)", w[3], PATH_OPS);
	}
	if (n > want)
		return fail(err, errlen, "set path: unexpected argument '%s'", w[want]);
	req->cmd = BRAID_CTL_SET_PATH;
	return 0;
}

int braid_ctl_parse(const char *line, size_t len, struct braid_ctl_req *req, char *err,
		    size_t errlen)
{
	char buf[BRAID_CTL_LINE_MAX], *words[MAX_WORDS], **w = words;
	int n;

	memset(req, 0, sizeof(*req));
	if (len && line[len - 1] == '\r')
		len--;
	if (len >= sizeof(buf))
		return fail(err, errlen, "request line too long (max %d bytes)",
			    BRAID_CTL_LINE_MAX - 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return fail(err, errlen, "request contains control character 0x%02x at "
				    "byte %zu", c, i + 1);
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = split(buf, words);
	if (n == -E2BIG)
		return fail(err, errlen, "too many words in the request (max %d)", MAX_WORDS);
	if (n == 0)
		return fail(err, errlen, "empty request");
	/* words are truncated in messages: a line is at most 511 bytes anyway */
	if (!strcmp(w[0], "paths") || !strcmp(w[0], "kill")) {
		bool kill = w[0][0] == 'k';

		if (n > 2)
			return fail(err, errlen, "%s: unexpected argument '%.60s'", w[0], w[2]);
		if (kill && n < 2)
			return fail(err, errlen, "kill: missing the client (common name or ID)");
		if (n == 2 && set_client(req, w[0], w[1], err, errlen))
			return -EINVAL;
		req->cmd = kill ? BRAID_CTL_KILL : BRAID_CTL_PATHS;
		return 0;
	}
	if (!strcmp(w[0], "clients")) {
		if (n > 1)
			return fail(err, errlen, "clients: unexpected argument '%.60s'", w[1]);
		req->cmd = BRAID_CTL_CLIENTS;
		return 0;
	}
	if (!strcmp(w[0], "status") || !strcmp(w[0], "version")) {
		if (n > 1)
			return fail(err, errlen, "%s: unexpected argument '%.60s'", w[0], w[1]);
		req->cmd = w[0][0] == 's' ? BRAID_CTL_STATUS : BRAID_CTL_VERSION;
		return 0;
	}
	if (!strcmp(w[0], "set")) {
		if (n < 2)
			return fail(err, errlen, "set: missing what to set (scheduler or path)");
		if (!strcmp(w[1], "client")) {	/* set client CLIENT ...: shift the words */
			if (n < 3)
				return fail(err, errlen, "set client: missing the client (common name "
					    "or ID)");
			if (set_client(req, "set client", w[2], err, errlen))
				return -EINVAL;
			if (n < 4)
				return fail(err, errlen, "set: missing what to set (scheduler or path)");
			w[2] = w[0];	/* "set" */
			w += 2;
			n -= 2;
		}
		if (!strcmp(w[1], "scheduler"))
			return parse_sched(req, n, w, err, errlen);
		if (!strcmp(w[1], "path"))
			return parse_path(req, n, w, err, errlen);
		return fail(err, errlen, "set: unknown setting '%.60s' (scheduler or path)", w[1]);
	}
	return fail(err, errlen, "unknown command '%.60s' (status, paths, clients, kill, version, "
		    "set)", w[0]);
}
