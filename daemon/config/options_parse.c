// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_parse.c - argument parsers shared by the directive handlers: numbers, ports,
 * addresses and prefixes, strings, file sources, cipher names; and fail(),
 * which formats "FILE:LINE: option 'NAME': problem".
 */
#include "config/options_parse.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "config/options_int.h"
#include "util/numparse.h"

__attribute__((format(printf, 2, 3))) int opt_fail(struct ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->loc && c->loc->file)
		snprintf(c->err, c->err_len, "%s:%d: option '%s': %s", c->loc->file, c->loc->line,
			 c->name, msg);
	else
		snprintf(c->err, c->err_len, "command line: option '%s': %s", c->name, msg);
	return -EINVAL;
}

int opt_parse_long(struct ctx *c, const char *what, const char *s, long min, long max, long *out)
{
	int r = braid_parse_long(s, min, max, out);

	if (r == -EINVAL)
		return opt_fail(c, "%s '%s' is not a number", what, s);
	if (r)
		return opt_fail(c, "%s %s is out of range (%ld..%ld)", what, s, min, max);
	return 0;
}

int opt_parse_int(struct ctx *c, const char *what, const char *s, int min, int max, int *out)
{
	long v;
	int r = opt_parse_long(c, what, s, min, max, &v);

	if (!r)
		*out = (int)v;
	return r;
}

int opt_parse_port(struct ctx *c, const char *s, uint16_t *out)
{
	int v;
	int r = opt_parse_int(c, "port", s, 1, 65535, &v);

	if (!r)
		*out = (uint16_t)v;
	return r;
}

int opt_parse_ip4(struct ctx *c, const char *what, const char *s, struct in_addr *out)
{
	if (inet_pton(AF_INET, s, out) != 1)
		return opt_fail(c, "%s '%s' is not a valid IPv4 address", what, s);
	return 0;
}

int opt_parse_ip6(struct ctx *c, const char *what, const char *s, struct in6_addr *out)
{
	if (inet_pton(AF_INET6, s, out) != 1)
		return opt_fail(c, "%s '%s' is not a valid IPv6 address", what, s);
	return 0;
}

/* Contiguous netmask -> prefix length, -1 if not a netmask. */
int opt_mask_to_prefix(struct in_addr m)
{
	uint32_t v = ntohl(m.s_addr);
	int n = 0;

	while (n < 32 && (v & (0x80000000u >> n)))
		n++;
	if (n < 32 && (v << n) != 0)
		return -1;
	return n;
}

/* "ADDR/BITS" (BITS optional, default dflt). */
int opt_parse_ip6_prefix(struct ctx *c, const char *what, const char *s, int dflt,
			 struct in6_addr *out, uint8_t *prefix)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash;
	int bits = dflt;
	int r;

	if (strlen(s) >= sizeof(buf))
		return opt_fail(c, "%s '%s' is not a valid IPv6 address/prefix", what, s);
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		r = opt_parse_int(c, "prefix length", slash + 1, 0, 128, &bits);
		if (r)
			return r;
	}
	if (inet_pton(AF_INET6, buf, out) != 1)
		return opt_fail(c, "%s '%s' is not a valid IPv6 address", what, buf);
	*prefix = (uint8_t)bits;
	return 0;
}

int opt_set_str(struct ctx *c, char **dst, const char *s)
{
	char *d = strdup(s);

	if (!d)
		return opt_fail(c, "out of memory");
	free(*dst);
	*dst = d;
	return 0;
}

void opt_source_clear(struct braid_opt_source *s)
{
	free(s->path);
	if (s->inline_text) {
		sodium_memzero(s->inline_text, s->inline_len);
		free(s->inline_text);
	}
	memset(s, 0, sizeof(*s));
}

/* File argument or inline body into a source slot. */
int opt_set_source(struct ctx *c, struct braid_opt_source *s, const char *path)
{
	struct braid_opt_source n = { 0 };

	if (c->inl) {
		n.inline_len = strlen(c->inl);
		n.inline_text = strdup(c->inl);
		if (!n.inline_text)
			return opt_fail(c, "out of memory");
	} else {
		n.path = strdup(path);
		if (!n.path)
			return opt_fail(c, "out of memory");
	}
	opt_source_clear(s);
	*s = n;
	return 0;
}

static const char *const ciphers[] = { "AES-256-GCM", "AES-128-GCM", "CHACHA20-POLY1305" };

const char *opt_cipher_canonical(const char *name)
{
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		if (!strcasecmp(name, ciphers[i]))
			return ciphers[i];
	return NULL;
}

int opt_parse_u64(struct ctx *c, const char *what, const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return opt_fail(c, "%s '%s' is not a number", what, s);
	v = strtoull(s, &end, 10);
	if (*end)
		return opt_fail(c, "%s '%s' is not a number", what, s);
	if (errno == ERANGE)
		return opt_fail(c, "%s %s is out of range", what, s);
	*out = v;
	return 0;
}
