// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_push.c - the client side of push: a TLS record split into control
 * messages (daemon/ctl/session_text.c braid_ctls_text_split), each
 * classified and a PUSH_REPLY parsed (daemon/session/push.c: braid_ctl_msg_parse,
 * braid_push_accumulate, braid_push_filter, braid_push_parse, and
 * braid_push_split for the round trip).
 *
 * Feeds: flags(1) then TLS records as chunks, as the TLS channel delivers
 * them: NUL-separated PUSH_REPLY parts with push-continuation, AUTH_FAILED,
 * RESTART, INFO, ... flags bit 0:
 * route-nopull; bit 1: two pull-filter rules (ignore "route-ipv6", reject
 * "dhcp-option DOMAIN evil").
 * Asserts: every message split out of a record lies inside it, is not
 * empty, has no control character and no trailing CR/LF; a classified
 * message's text points into the message; when a
 * reply is complete, splitting its option list into PUSH_REPLY messages and
 * accumulating those again gives the same list (split/accumulate round
 * trip); the parse result's counts stay within their arrays; the DNS
 * settings built from it (session/push_dns.c braid_push_dns_conf, the `dns`
 * option and dhcp-option DNS/DOMAIN) hold only numeric addresses and clean
 * domain names within their arrays, and their resolv.conf text
 * (os/dns.c braid_dns_format) fits its buffer or is refused.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "util/log.h"
#include "os/dns.h"
#include "session/push.h"
#include "session/push_dns.h"
#include "session.h"

struct resplit {
	struct braid_push_list l;
	int last;
};

static int emit(void *user, const char *msg)
{
	struct resplit *rs = user;
	char err[256];

	FZ_ASSERT(strlen(msg) <= BRAID_PUSH_MSG_MAX);
	FZ_ASSERT(rs->last == 0);	/* nothing after the last part */
	rs->last = braid_push_accumulate(&rs->l, msg, err, sizeof(err));
	FZ_ASSERT(rs->last >= 0);
	return 0;
}

static void check_dns(const struct braid_pushed *p)
{
	struct braid_dns_conf dc;
	unsigned char bin[16];
	char text[4096];
	int n;

	FZ_ASSERT(p->n_dns <= BRAID_PUSH_DNS_MAX_SERVERS &&
		  p->n_dns_search <= BRAID_PUSH_DNS_MAX_DOMAINS);
	for (unsigned i = 0; i < p->n_dns; i++)
		FZ_ASSERT(p->dns[i].n_addr <= BRAID_PUSH_DNS_MAX_ADDRS &&
			  p->dns[i].n_domains <= BRAID_PUSH_DNS_MAX_DOMAINS);
	braid_push_dns_conf(p, NULL, &dc);
	FZ_ASSERT(dc.n_servers <= BRAID_DNS_MAX_SERVERS && dc.n_search <= BRAID_DNS_MAX_DOMAINS &&
		  dc.n_route <= BRAID_DNS_MAX_DOMAINS);
	for (unsigned i = 0; i < dc.n_servers; i++)
		FZ_ASSERT(inet_pton(AF_INET, dc.servers[i], bin) == 1 ||
			  inet_pton(AF_INET6, dc.servers[i], bin) == 1);
	for (unsigned i = 0; i < dc.n_search; i++)
		FZ_ASSERT(braid_dns_name_ok(dc.search[i]));
	for (unsigned i = 0; i < dc.n_route; i++)
		FZ_ASSERT(braid_dns_name_ok(dc.route[i]));
	n = braid_dns_format(&dc, "tun0", text, sizeof(text));
	FZ_ASSERT(n == -ENOSPC || (n > 0 && (size_t)n == strlen(text)));
}

static void complete(struct braid_push_list *l, unsigned flags)
{
	static char ign[] = "route-ipv6", rej[] = "dhcp-option DOMAIN evil";
	const struct braid_opt_pull_filter rules[2] = { { BRAID_PF_IGNORE, ign },
							{ BRAID_PF_REJECT, rej } };
	struct braid_pushed *p = calloc(1, sizeof(*p));
	struct resplit rs;
	char err[256];
	int r;

	FZ_ASSERT(p);
	memset(&rs, 0, sizeof(rs));
	r = braid_push_split((const char *const *)l->opt, l->n, 0, emit, &rs);
	if (r == 0 && l->n) {
		FZ_ASSERT(rs.last == 1 && rs.l.n == l->n);
		for (unsigned i = 0; i < l->n; i++)
			FZ_ASSERT(!strcmp(rs.l.opt[i], l->opt[i]));
	}
	braid_push_list_clear(&rs.l);

	if (!braid_push_filter(l, rules, flags & 2 ? 2 : 0, flags & 1, err, sizeof(err)) &&
	    !braid_push_parse(l, p, err, sizeof(err))) {
		FZ_ASSERT(p->n_routes <= BRAID_PUSH_MAX_ROUTES && p->n_dhcp <= BRAID_PUSH_MAX_DHCP);
		FZ_ASSERT(strnlen(p->cipher, sizeof(p->cipher)) < sizeof(p->cipher));
		check_dns(p);
		braid_pushed_free(p);
	}
	free(p);
}

struct ctx {
	struct braid_push_list l;
	unsigned flags;
	const char *rec, *end;
};

static void on_msg(void *arg, const char *msg)
{
	struct ctx *c = arg;
	size_t n = strlen(msg);
	struct braid_ctl_msg cm;
	char err[256];

	FZ_ASSERT(msg >= c->rec && msg + n < c->end && n > 0);
	for (size_t i = 0; i < n; i++)
		FZ_ASSERT((unsigned char)msg[i] >= 0x20 && msg[i] != 0x7f);
	braid_ctl_msg_parse(msg, &cm);
	FZ_ASSERT(cm.text && (!*cm.text || (cm.text >= msg && cm.text < msg + n)));
	if (cm.kind == BRAID_MSG_PUSH_REPLY &&
	    braid_push_accumulate(&c->l, msg, err, sizeof(err)) == 1)
		complete(&c->l, c->flags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	struct fz f = { data, size };
	struct ctx c;
	const uint8_t *r;
	size_t len;

	if (!init++) {
		braid_log_open_file("/dev/null", true);
		braid_log_set_verb(4);
	}
	memset(&c, 0, sizeof(c));
	c.flags = fz_u8(&f);
	while (fz_chunk(&f, &r, &len)) {
		char *rec = malloc(len + 1);	/* the record plus its NUL, as the session holds it */

		FZ_ASSERT(rec);
		memcpy(rec, r, len);
		c.rec = rec;
		c.end = rec + len + 1;
		(void)braid_ctls_text_split(rec, len, on_msg, &c);
		free(rec);
	}
	braid_push_list_clear(&c.l);
	return 0;
}
