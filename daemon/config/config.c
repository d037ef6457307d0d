// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.c - tokenizer, config-file reader (inline blocks, nesting) and the
 * command-line splitter. Both feed braid_options_apply().
 */
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

enum tok_state { ST_INITIAL, ST_QUOTED, ST_UNQUOTED, ST_SQUOTED };

static bool is_space(char c)
{
	return c == '\0' || isspace((unsigned char)c);
}

void braid_config_free_tokens(char **tok, int n)
{
	for (int i = 0; i < n; i++) {
		free(tok[i]);
		tok[i] = NULL;
	}
}

int braid_config_tokenize(const char *line, char **tok, int max, int *ntok, char *err,
			  size_t err_len)
{
	enum tok_state st = ST_INITIAL;
	char parm[BRAID_CONFIG_PARM_SIZE];
	size_t plen = 0;
	bool bs = false;
	const char *c = line;
	int n = 0;

	*ntok = 0;
	for (;; c++) {
		char in = *c, out = 0;
		bool done = false;

		if (!bs && in == '\\' && st != ST_SQUOTED) {
			bs = true;
		} else {
			switch (st) {
			case ST_INITIAL:
				if (is_space(in))
					break;
				if (in == '#' || in == ';') {
					bs = false;
					goto end; /* comment: the rest of the line */
				}
				if (!bs && in == '"') {
					st = ST_QUOTED;
				} else if (!bs && in == '\'') {
					st = ST_SQUOTED;
				} else {
					out = in;
					st = ST_UNQUOTED;
				}
				break;
			case ST_UNQUOTED:
				if (!bs && is_space(in))
					done = true;
				else
					out = in;
				break;
			case ST_QUOTED:
				if (!bs && in == '"')
					done = true;
				else
					out = in;
				break;
			case ST_SQUOTED:
				if (in == '\'')
					done = true;
				else
					out = in;
				break;
			}
			if (bs && out && !(out == '\\' || out == '"' || is_space(out))) {
				snprintf(err, err_len,
					 "bad backslash ('\\') usage: only \\\\, \\\" and \\<space> are "
					 "escapes (write \\\\ for a backslash)");
				goto fail;
			}
			bs = false;
			if (done) {
				if (n >= max) {
					snprintf(err, err_len, "too many parameters (max %d)", max);
					goto fail;
				}
				tok[n] = malloc(plen + 1);
				if (!tok[n]) {
					snprintf(err, err_len, "out of memory");
					braid_config_free_tokens(tok, n);
					return -ENOMEM;
				}
				memcpy(tok[n], parm, plen);
				tok[n][plen] = '\0';
				n++;
				plen = 0;
				st = ST_INITIAL;
			}
		}
		if (out) {
			if (plen >= sizeof(parm) - 1) {
				snprintf(err, err_len, "parameter is too long (%zu chars max)",
					 sizeof(parm) - 1);
				goto fail;
			}
			parm[plen++] = out;
		}
		if (in == '\0')
			break;
	}
end:
	if (st == ST_QUOTED) {
		snprintf(err, err_len, "no closing quotation (\")");
		goto fail;
	}
	if (st == ST_SQUOTED) {
		snprintf(err, err_len, "no closing single quotation (')");
		goto fail;
	}
	if (st != ST_INITIAL || bs) {
		snprintf(err, err_len, "backslash at the end of the line");
		goto fail;
	}
	sodium_memzero(parm, sizeof(parm));
	*ntok = n;
	return 0;
fail:
	sodium_memzero(parm, sizeof(parm));
	braid_config_free_tokens(tok, n);
	return -EINVAL;
}

/* One line of text: [p, eol) with the newline excluded; returns the start of the next line. */
static const char *next_line(const char *p, char *buf, size_t cap, bool *too_long)
{
	size_t n = strcspn(p, "\n");

	*too_long = n >= cap;
	if (!*too_long) {
		memcpy(buf, p, n);
		buf[n] = '\0';
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = '\0';
	}
	return p[n] ? p + n + 1 : p + n;
}

static int parse_text(struct braid_options *o, const char *name, const char *text, int line0,
		      char *err, size_t err_len);

static int nested_config(struct braid_options *o, const char *path, const struct braid_opt_loc *loc,
			 char *err, size_t err_len)
{
	int r;

	if (o->depth >= BRAID_OPT_MAX_DEPTH) {
		if (loc->file)
			snprintf(err, err_len, "%s:%d: option 'config': nested too deeply (max %d)",
				 loc->file, loc->line, BRAID_OPT_MAX_DEPTH);
		else
			snprintf(err, err_len, "command line: option 'config': nested too deeply");
		return -EINVAL;
	}
	o->depth++;
	r = braid_config_parse_file(o, path, err, err_len);
	o->depth--;
	return r;
}

/* A directive: `config` nests here, everything else goes to the options table. */
static int dispatch(struct braid_options *o, int argc, char **argv, const char *inl,
		    const struct braid_opt_loc *loc, char *err, size_t err_len)
{
	if (!strcmp(argv[0], "config") && !inl) {
		if (o->in_connection) {	/* not one of OpenVPN's connection options */
			snprintf(err, err_len,
				 "%s:%d: option 'config': cannot be used inside a <connection> block",
				 loc->file ? loc->file : "?", loc->line);
			return -EINVAL;
		}
		if (argc != 2) {
			if (loc->file)
				snprintf(err, err_len,
					 "%s:%d: option 'config': expects 1 argument, got %d",
					 loc->file, loc->line, argc - 1);
			else
				snprintf(err, err_len,
					 "command line: option 'config': expects 1 argument, got %d",
					 argc - 1);
			return -EINVAL;
		}
		return nested_config(o, argv[1], loc, err, err_len);
	}
	return braid_options_apply(o, argc, argv, inl, loc, err, err_len);
}

/* A <connection> block: its lines are directives of one connection entry. */
static int connection_block(struct braid_options *o, const char *name, const char *body,
			    const struct braid_opt_loc *loc, char *err, size_t err_len)
{
	int r = braid_options_connection_begin(o, loc, err, err_len);

	if (r)
		return r;
	r = parse_text(o, name, body, loc->line, err, err_len);
	if (r) {
		o->in_connection = false;
		return r;
	}
	return braid_options_connection_end(o, loc, err, err_len);
}

/* line0: the line before the text's first line (an inline block's opening tag). */
static int parse_text(struct braid_options *o, const char *name, const char *text, int line0,
		      char *err, size_t err_len)
{
	char line[4096], msg[512];
	char *tok[BRAID_CONFIG_MAX_PARMS];
	const char *p = text;
	int lineno = line0, n, r = 0;
	bool too_long;

	/* a UTF-8 byte order mark at the start is skipped, as OpenVPN does */
	if (!strncmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (*p) {
		struct braid_opt_loc loc = { name, ++lineno };
		char *inl = NULL;

		p = next_line(p, line, sizeof(line), &too_long);
		if (too_long) {
			snprintf(err, err_len, "%s:%d: line is too long (max %zu characters)", name,
				 lineno, sizeof(line) - 1);
			return -EINVAL;
		}
		r = braid_config_tokenize(line, tok, BRAID_CONFIG_MAX_PARMS, &n, msg, sizeof(msg));
		if (r) {
			snprintf(err, err_len, "%s:%d: %s", name, lineno, msg);
			return r;
		}
		if (!n)
			continue;
		if (strlen(tok[0]) >= 3 && !strncmp(tok[0], "--", 2))
			memmove(tok[0], tok[0] + 2, strlen(tok[0]) - 1);
		/* <name> … </name> */
		size_t tl = strlen(tok[0]);
		if (tl > 2 && tok[0][0] == '<' && tok[0][tl - 1] == '>' && tok[0][1] != '/') {
			char close[BRAID_CONFIG_PARM_SIZE + 4];
			size_t cap = 256, len = 0;
			int open_line = lineno;
			bool closed = false;

			tok[0][tl - 1] = '\0';
			memmove(tok[0], tok[0] + 1, tl - 1);
			snprintf(close, sizeof(close), "</%s>", tok[0]);
			if (n > 1) {
				snprintf(err, err_len, "%s:%d: unexpected text after <%s>", name,
					 lineno, tok[0]);
				r = -EINVAL;
				goto out_tok;
			}
			inl = malloc(cap);
			if (!inl) {
				r = -ENOMEM;
				snprintf(err, err_len, "out of memory");
				goto out_tok;
			}
			inl[0] = '\0';
			while (*p) {
				const char *start = p, *q;
				size_t ll = strcspn(p, "\n");

				lineno++;
				p = p[ll] ? p + ll + 1 : p + ll;
				for (q = start; q < start + ll && isspace((unsigned char)*q); q++)
					;
				if (!strncmp(q, close, strlen(close))) {
					closed = true;
					break;
				}
				if (len + ll + 2 > cap) {
					char *ni;

					while (len + ll + 2 > cap)
						cap *= 2;
					ni = malloc(cap);
					if (!ni) {
						r = -ENOMEM;
						snprintf(err, err_len, "out of memory");
						goto out_inl;
					}
					memcpy(ni, inl, len + 1);
					sodium_memzero(inl, len);
					free(inl);
					inl = ni;
				}
				/* a CRLF file: the block's lines lose their CR like every other line */
				if (ll && start[ll - 1] == '\r')
					ll--;
				memcpy(inl + len, start, ll);
				len += ll;
				inl[len++] = '\n';
				inl[len] = '\0';
			}
			if (!closed) {
				snprintf(err, err_len,
					 "%s:%d: inline block <%s> has no closing tag %s", name,
					 open_line, tok[0], close);
				r = -EINVAL;
				goto out_inl;
			}
			loc.line = open_line;
			if (!strcmp(tok[0], "connection")) {
				r = connection_block(o, name, inl, &loc, err, err_len);
				goto out_inl;
			}
			if (!braid_options_inline_ok(tok[0])) {
				char *a[1] = { tok[0] };

				/* unknown names get OpenVPN's message; known ones a precise one */
				r = braid_options_apply(o, 1, a, inl, &loc, err, err_len);
				goto out_inl;
			}
		}
		r = dispatch(o, n, tok, inl, &loc, err, err_len);
out_inl:
		if (inl) {
			sodium_memzero(inl, strlen(inl));
			free(inl);
		}
out_tok:
		braid_config_free_tokens(tok, n);
		if (r)
			break;
	}
	sodium_memzero(line, sizeof(line));
	return r;
}

int braid_config_parse_text(struct braid_options *o, const char *name, const char *text,
			    char *err, size_t err_len)
{
	return parse_text(o, name, text, 0, err, err_len);
}

int braid_config_parse_file(struct braid_options *o, const char *path, char *err, size_t err_len)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int r;

	f = fopen(path, "re");
	if (!f) {
		r = -errno;
		snprintf(err, err_len, "cannot open config file '%s': %s", path, strerror(-r));
		return r;
	}
	if (!o->config_path[0])	/* the first one read: scripts' `config` variable, as stock */
		snprintf(o->config_path, sizeof(o->config_path), "%s", path);
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 16384;
			if (cap > 16u << 20) {
				snprintf(err, err_len, "config file '%s' is too large (max 16 MiB)",
					 path);
				r = -EFBIG;
				goto out;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err, err_len, "out of memory");
				r = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, 4096, f);

		len += got;
		if (got < 4096)
			break;
	}
	if (ferror(f)) {
		r = -EIO;
		snprintf(err, err_len, "cannot read config file '%s'", path);
		goto out;
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		r = -EINVAL;
		snprintf(err, err_len, "config file '%s' contains a NUL byte", path);
		goto out;
	}
	r = parse_text(o, path, buf, 0, err, err_len);
out:
	if (buf) {
		sodium_memzero(buf, cap);
		free(buf);
	}
	fclose(f);
	return r;
}

int braid_config_parse_argv(struct braid_options *o, int argc, char **argv, char *err,
			    size_t err_len)
{
	struct braid_opt_loc loc = { NULL, 0 };
	int i = 1;

	if (argc == 2 && strncmp(argv[1], "--", 2))
		return braid_config_parse_file(o, argv[1], err, err_len);
	while (i < argc) {
		char *a[BRAID_CONFIG_MAX_PARMS];
		int n = 0, r;

		if (strncmp(argv[i], "--", 2) || !argv[i][2]) {
			snprintf(err, err_len,
				 "command line: '%s' is not an option (options start with '--')",
				 argv[i]);
			return -EINVAL;
		}
		a[n++] = argv[i++] + 2;
		while (i < argc && strncmp(argv[i], "--", 2)) {
			if (n >= BRAID_CONFIG_MAX_PARMS) {
				snprintf(err, err_len,
					 "command line: option '%s': too many parameters (max %d)",
					 a[0], BRAID_CONFIG_MAX_PARMS - 1);
				return -EINVAL;
			}
			a[n++] = argv[i++];
		}
		r = dispatch(o, n, a, NULL, &loc, err, err_len);
		if (r)
			return r;
	}
	return 0;
}
