// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_check.c - what the post-parse checks share: where each directive was
 * given last (kept by braid_options_apply), the messages that name it
 * ("FILE:LINE: option 'NAME': ..."), the directive that chose the TLS role and
 * whether a file or inline block was given.
 */
#include "config/options_check.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Remember where `name` (a table name) was given last. */
void opt_note_where(struct braid_options *o, const char *name, const struct braid_opt_loc *loc)
{
	struct braid_opt_where *w = NULL;
	char *f = NULL;

	for (unsigned int i = 0; i < o->n_where; i++)
		if (o->where[i].name == name)
			w = &o->where[i];
	if (!w) {
		if (o->n_where >= BRAID_OPT_MAX_WHERE)
			return;
		w = &o->where[o->n_where++];
		w->name = name;
		w->file = NULL;
	}
	if (loc && loc->file)
		f = strdup(loc->file);	/* NULL on ENOMEM: the message loses the file only */
	free(w->file);
	w->file = f;
	w->line = loc && loc->file ? loc->line : 0;
}

static const struct braid_opt_where *find_where(const struct braid_options *o, const char *name)
{
	for (unsigned int i = 0; i < o->n_where; i++)
		if (!strcmp(o->where[i].name, name))
			return &o->where[i];
	return NULL;
}

/* "FILE:LINE: option 'NAME': MESSAGE" with the place NAME was given (if it was). */
__attribute__((format(printf, 5, 6))) int opt_lfail(const struct braid_options *o, char *err,
						    size_t err_len, const char *name,
						    const char *fmt, ...)
{
	const struct braid_opt_where *w = find_where(o, name);
	char msg[512], where[300] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w && w->file)
		snprintf(where, sizeof(where), "%s:%d: ", w->file, w->line);
	else if (w)
		snprintf(where, sizeof(where), "command line: ");
	snprintf(err, err_len, "%soption '%s': %s", where, name, msg);
	return -EINVAL;
}

/* The directive that chose the TLS role (for messages about the role's needs). */
const char *opt_role_opt(const struct braid_options *o)
{
	if (o->client)
		return "client";
	if (o->has_server)
		return "server";
	return o->tls == BRAID_TLS_CLIENT ? "tls-client" : "tls-server";
}

__attribute__((format(printf, 3, 4))) int opt_ffail(char *err, size_t err_len, const char *fmt,
						    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

bool opt_has_blob(const struct braid_options *o, enum braid_opt_blob b)
{
	return o->blobs[b].path || o->blobs[b].inline_text;
}
