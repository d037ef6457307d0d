/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * push_dns.h - the DNS part of a PUSH_REPLY: OpenVPN 2.6's `dns` option
 * parsed into struct braid_pushed, and the resolver settings a reply asks for
 * (from `dns` or, without `dns server`, from `dhcp-option DNS/DNS6/DOMAIN/
 * DOMAIN-SEARCH`) as a struct braid_dns_conf for os/dns.h.
 */
#ifndef BRAID_PUSH_DNS_H
#define BRAID_PUSH_DNS_H

#include <stddef.h>

#include "os/dns.h"
#include "session/push_types.h"

/*
 * One `dns ...` option, split into argv (argv[0] = "dns"). 0, or -EINVAL
 * with err naming what is wrong (the caller logs it and skips the line, as
 * OpenVPN does with a bad pushed option); -ENOMEM.
 */
int braid_push_dns_parse(struct braid_pushed *p, int argc, char **argv, char *err, size_t err_len);

/* Free what braid_push_dns_parse stored in p (braid_pushed_free calls it). */
void braid_push_dns_free(struct braid_pushed *p);

/*
 * The resolver settings of p: the servers of the `dns server` with the lowest
 * priority if there is one, else every `dhcp-option DNS`/`DNS6`; the search
 * domains of `dns search-domains` if pushed, else `DOMAIN` then
 * `DOMAIN-SEARCH`; the chosen server's resolve-domains as routing domains.
 * The `dhcp-option` lines are the configuration's (o, may be NULL) followed by
 * the pushed ones, OpenVPN's foreign_option_N order. Entries that cannot be
 * applied are logged and left out. Never fails.
 */
void braid_push_dns_conf(const struct braid_pushed *p, const struct braid_options *o,
			 struct braid_dns_conf *out);

#endif /* BRAID_PUSH_DNS_H */
