/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_parse.h - argument parsers shared by the directive handlers (options_parse.c);
 * internal to the options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_PARSE_H
#define BRAID_OPTIONS_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/* "FILE:LINE: option 'NAME': MESSAGE" (or "command line: ...") into c->err; -EINVAL. */
int opt_fail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Numbers in [min, max]; what names the argument in the message. 0 or -EINVAL. */
int opt_parse_long(struct ctx *c, const char *what, const char *s, long min, long max, long *out);
int opt_parse_int(struct ctx *c, const char *what, const char *s, int min, int max, int *out);

/* A port 1..65535. */
int opt_parse_port(struct ctx *c, const char *s, uint16_t *out);

/* An IPv4 / IPv6 address literal. */
int opt_parse_ip4(struct ctx *c, const char *what, const char *s, struct in_addr *out);
int opt_parse_ip6(struct ctx *c, const char *what, const char *s, struct in6_addr *out);

/* Contiguous netmask -> prefix length, -1 if not a netmask. */
int opt_mask_to_prefix(struct in_addr m);

/* "ADDR/BITS" (BITS optional, default dflt). */
int opt_parse_ip6_prefix(struct ctx *c, const char *what, const char *s, int dflt,
			 struct in6_addr *out, uint8_t *prefix);

/* Replace *dst with a copy of s. */
int opt_set_str(struct ctx *c, char **dst, const char *s);

/* Free a source slot (inline text wiped). */
void opt_source_clear(struct braid_opt_source *s);

/* File argument or inline body into a source slot. */
int opt_set_source(struct ctx *c, struct braid_opt_source *s, const char *path);

/* The canonical spelling of a supported data cipher, NULL if not supported. */
const char *opt_cipher_canonical(const char *name);
int opt_parse_u64(struct ctx *c, const char *what, const char *s, uint64_t *out);

#endif /* BRAID_OPTIONS_PARSE_H */
