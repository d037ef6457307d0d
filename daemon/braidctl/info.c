// SPDX-License-Identifier: GPL-2.0-only
/*
 * info.c - braidd's state, statistics, clients and paths read over the
 * management interface and parsed (see info.h). A field that does not
 * parse is left empty or 0; nothing is guessed.
 */
#include "info.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Field i (0-based) of a sep-separated line into out (empty if absent). */
static void field(const char *line, char sep, int i, char *out, size_t n)
{
	const char *p = i < 0 ? NULL : line, *e;

	while (p && i-- > 0)
		p = strchr(p, sep) ? strchr(p, sep) + 1 : NULL;
	if (!p) {
		out[0] = '\0';
		return;
	}
	e = strchr(p, sep);
	snprintf(out, n, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
}

static uint64_t u64(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	return errno || end == s ? 0 : (uint64_t)v;
}

int info_state(struct braidctl *b, struct info_state *s)
{
	struct mgmtc_reply r;
	char t[32];
	int e;

	memset(s, 0, sizeof(*s));
	e = braidctl_cmd(b, "state", MGMTC_MULTI, &r);
	if (e)
		return e;
	if (r.n) {
		const char *l = r.lines[r.n - 1];

		field(l, ',', 0, t, sizeof(t));
		s->since = (long long)u64(t);
		field(l, ',', 1, s->name, sizeof(s->name));
		field(l, ',', 2, s->desc, sizeof(s->desc));
		field(l, ',', 3, s->tun4, sizeof(s->tun4));
		field(l, ',', 4, s->rip, sizeof(s->rip));
		field(l, ',', 5, s->rport, sizeof(s->rport));
		field(l, ',', 6, s->lip, sizeof(s->lip));
		field(l, ',', 7, s->lport, sizeof(s->lport));
		field(l, ',', 8, s->tun6, sizeof(s->tun6));
	}
	mgmtc_reply_free(&r);
	return 0;
}

/* "nclients=N,bytesin=N,bytesout=N" */
static void load_stats(const char *msg, struct info_stats *st)
{
	const char *p;

	if ((p = strstr(msg, "nclients=")))
		st->nclients = (unsigned)u64(p + 9);
	if ((p = strstr(msg, "bytesin=")))
		st->bytes_in = u64(p + 8);
	if ((p = strstr(msg, "bytesout=")))
		st->bytes_out = u64(p + 9);
}

int info_stats(struct braidctl *b, struct info_stats *st)
{
	struct mgmtc_reply r;
	char k[64], v[32];
	int e;

	memset(st, 0, sizeof(*st));
	e = braidctl_cmd(b, "status 3", MGMTC_MULTI, &r);
	if (e)
		return e;
	st->gateway = r.n && !strncmp(r.lines[0], "TITLE", 5);
	for (size_t i = 0; !st->gateway && i < r.n; i++) {
		field(r.lines[i], ',', 0, k, sizeof(k));
		field(r.lines[i], ',', 1, v, sizeof(v));
		if (!strcmp(k, "TUN/TAP read bytes"))
			st->tun_read = u64(v);
		else if (!strcmp(k, "TUN/TAP write bytes"))
			st->tun_write = u64(v);
		else if (!strcmp(k, "TCP/UDP read bytes"))
			st->link_read = u64(v);
		else if (!strcmp(k, "TCP/UDP write bytes"))
			st->link_write = u64(v);
	}
	mgmtc_reply_free(&r);
	e = braidctl_cmd(b, "load-stats", MGMTC_ONE, &r);
	if (e)
		return e;
	load_stats(r.msg, st);
	mgmtc_reply_free(&r);
	return 0;
}

/* The column of name in a "HEADER\tCLIENT_LIST\t..." line (counted like the data rows), or -1. */
static int column(const char *header, const char *name)
{
	char f[64];

	for (int i = 1; i < 32; i++) {
		field(header, '\t', i + 1, f, sizeof(f));
		if (!f[0])
			break;
		if (!strcmp(f, name))
			return i;
	}
	return -1;
}

static void client_row(const char *hdr, const char *l, struct info_client *c)
{
	char v[32];

	memset(c, 0, sizeof(*c));
	c->braid = c->paths = c->paths_up = -1;
	field(l, '\t', column(hdr, "Common Name"), c->cn, sizeof(c->cn));
	field(l, '\t', column(hdr, "Real Address"), c->real, sizeof(c->real));
	field(l, '\t', column(hdr, "Virtual Address"), c->virt, sizeof(c->virt));
	field(l, '\t', column(hdr, "Virtual IPv6 Address"), c->virt6, sizeof(c->virt6));
	field(l, '\t', column(hdr, "Username"), c->user, sizeof(c->user));
	field(l, '\t', column(hdr, "Bytes Received"), v, sizeof(v));
	c->rx = u64(v);
	field(l, '\t', column(hdr, "Bytes Sent"), v, sizeof(v));
	c->tx = u64(v);
	field(l, '\t', column(hdr, "Connected Since (time_t)"), v, sizeof(v));
	c->since = (long long)u64(v);
	field(l, '\t', column(hdr, "Client ID"), v, sizeof(v));
	c->cid = (unsigned long)u64(v);
}

/* `braid clients`: kind and paths per CID (absent from a daemon without the extension). */
static void braid_clients(struct braidctl *b, struct info_client *cl, size_t n)
{
	struct mgmtc_reply r;

	if (mgmtc_cmd(&b->c, "braid clients", MGMTC_MULTI, &r))
		return;
	for (size_t i = 0; r.ok && i < r.n; i++) {
		struct json j;

		if (json_parse(r.lines[i], &j))
			continue;
		for (size_t k = 0; k < n; k++) {
			if (json_num(&j, "cid", -1) != (double)cl[k].cid)
				continue;
			cl[k].braid = json_num(&j, "braid", -1) < 0 ? -1 : json_num(&j, "braid", 0) != 0;
			cl[k].paths = (int)json_num(&j, "paths", -1);
			cl[k].paths_up = (int)json_num(&j, "paths_up", -1);
		}
		json_free(&j);
	}
	mgmtc_reply_free(&r);
}

int info_clients(struct braidctl *b, struct info_client **out, size_t *n)
{
	struct mgmtc_reply r;
	const char *hdr = NULL;
	struct info_client *cl;
	int e;

	*out = NULL;
	*n = 0;
	e = braidctl_cmd(b, "status 3", MGMTC_MULTI, &r);
	if (e)
		return e;
	if (!r.n || strncmp(r.lines[0], "TITLE", 5)) {
		fprintf(stderr, "%s: %s is not a gateway (no client list)\n", braidctl_prog,
			b->c.where);
		mgmtc_reply_free(&r);
		return BRAIDCTL_EXIT_DAEMON;
	}
	cl = calloc(r.n, sizeof(*cl));
	if (!cl) {
		mgmtc_reply_free(&r);
		return BRAIDCTL_EXIT_DAEMON;
	}
	for (size_t i = 0; i < r.n; i++) {
		if (!strncmp(r.lines[i], "HEADER\tCLIENT_LIST\t", 19))
			hdr = r.lines[i];
		else if (hdr && !strncmp(r.lines[i], "CLIENT_LIST\t", 12))
			client_row(hdr, r.lines[i], &cl[(*n)++]);
	}
	mgmtc_reply_free(&r);
	braid_clients(b, cl, *n);
	*out = cl;
	return 0;
}

int info_find_client(const struct info_client *cl, size_t n, const char *name,
		     unsigned long *cid)
{
	size_t hits = 0;
	char *end;
	unsigned long id = strtoul(name, &end, 10);

	if (*name && !*end) {
		for (size_t i = 0; i < n; i++)
			if (cl[i].cid == id) {
				*cid = id;
				return 0;
			}
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cl[i].cn, name)) {
			*cid = cl[i].cid;
			hits++;
		}
	if (hits == 1)
		return 0;
	if (hits)
		fprintf(stderr, "%s: %zu clients have the common name '%s': name one by its ID "
			"(braidctl clients)\n", braidctl_prog, hits, name);
	else
		fprintf(stderr, "%s: no client '%s' (braidctl clients lists them)\n", braidctl_prog,
			name);
	return BRAIDCTL_EXIT_DAEMON;
}

void info_paths_free(struct info_paths *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		json_free(&ps->p[i]);
		free(ps->raw[i]);
	}
	free(ps->p);
	free(ps->raw);
	ps->n = 0;
	ps->p = NULL;
	ps->raw = NULL;
}

int info_paths(struct braidctl *b, long cid, struct info_paths *ps)
{
	struct mgmtc_reply r;
	char cmd[64];

	memset(ps, 0, sizeof(*ps));
	if (cid < 0)
		snprintf(cmd, sizeof(cmd), "braid paths");
	else
		snprintf(cmd, sizeof(cmd), "braid client-paths %ld", cid);
	if (braidctl_connect(b) || mgmtc_cmd(&b->c, cmd, MGMTC_MULTI, &r))
		return BRAIDCTL_EXIT_DAEMON;
	if (!r.ok) {
		snprintf(ps->err, sizeof(ps->err), "%s", r.msg);
		mgmtc_reply_free(&r);
		return BRAIDCTL_EXIT_DAEMON;
	}
	ps->p = calloc(r.n + 1, sizeof(*ps->p));
	ps->raw = calloc(r.n + 1, sizeof(*ps->raw));
	if (!ps->p || !ps->raw) {
		info_paths_free(ps);
		mgmtc_reply_free(&r);
		return BRAIDCTL_EXIT_DAEMON;
	}
	for (size_t i = 0; i < r.n; i++) {
		if (json_parse(r.lines[i], &ps->p[ps->n]) || ps->p[ps->n].t != JSON_OBJ) {
			fprintf(stderr, "%s: '%s': line %zu is not a path object: '%.80s'\n",
				braidctl_prog, cmd, i + 1, r.lines[i]);
			json_free(&ps->p[ps->n]);
			info_paths_free(ps);
			mgmtc_reply_free(&r);
			return BRAIDCTL_EXIT_DAEMON;
		}
		ps->raw[ps->n++] = r.lines[i];
		r.lines[i] = NULL;
	}
	mgmtc_reply_free(&r);
	return 0;
}
