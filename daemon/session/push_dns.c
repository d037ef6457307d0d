// SPDX-License-Identifier: GPL-2.0-only
/*
 * push_dns.c - the DNS part of a PUSH_REPLY (push_dns.h): OpenVPN 2.6's
 *   dns search-domains DOMAIN [DOMAIN ...]
 *   dns server N address ADDR[:PORT] [ADDR[:PORT] ...]    (IPv6 with a port: [ADDR]:PORT)
 *   dns server N resolve-domains DOMAIN [DOMAIN ...]
 *   dns server N dnssec yes|optional|no
 *   dns server N transport plain|DoT|DoH
 *   dns server N sni NAME
 * and the resolver settings a reply asks for.
 */
#include "session/push_dns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/log.h"
#include "util/numparse.h"

void braid_push_dns_free(struct braid_pushed *p)
{
	for (unsigned int i = 0; i < p->n_dns; i++)
		for (unsigned int j = 0; j < p->dns[i].n_domains; j++)
			free(p->dns[i].domains[j]);
	for (unsigned int i = 0; i < p->n_dns_search; i++)
		free(p->dns_search[i]);
	p->n_dns = p->n_dns_search = 0;
}

/* ADDR, ADDR:PORT (IPv4), [ADDR]:PORT or ADDR (IPv6) into a numeric address and a port. */
static int parse_addr(const char *s, char *addr, uint16_t *port)
{
	char buf[INET6_ADDRSTRLEN + 16];
	unsigned char bin[16];
	const char *ps = NULL;
	long v;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", s);
	if (buf[0] == '[') {
		char *close = strchr(buf, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		*close = '\0';
		ps = close + 2;
		memmove(buf, buf + 1, strlen(buf + 1) + 1);
		if (inet_pton(AF_INET6, buf, bin) != 1)
			return -EINVAL;
	} else if (inet_pton(AF_INET6, buf, bin) != 1) {
		char *colon = strchr(buf, ':');

		if (colon) {
			*colon = '\0';
			ps = colon + 1;
		}
		if (inet_pton(AF_INET, buf, bin) != 1)
			return -EINVAL;
	}
	*port = 0;
	if (ps) {
		if (braid_parse_long(ps, 1, 65535, &v))
			return -EINVAL;
		*port = (uint16_t)v;
	}
	if (strlen(buf) >= INET6_ADDRSTRLEN)
		return -EINVAL;
	memcpy(addr, buf, strlen(buf) + 1);
	return 0;
}

/* A line's domains, taken whole or not at all. */
static int add_domains(char **list, unsigned int *n, int argc, char **argv, const char *what,
		       char *err, size_t err_len)
{
	if (argc < 1) {
		snprintf(err, err_len, "pushed 'dns %s' needs a domain", what);
		return -EINVAL;
	}
	if (*n + (unsigned int)argc > BRAID_PUSH_DNS_MAX_DOMAINS) {
		snprintf(err, err_len, "pushed 'dns %s': more than %d domains", what,
			 BRAID_PUSH_DNS_MAX_DOMAINS);
		return -EINVAL;
	}
	for (int i = 0; i < argc; i++) {
		if (!braid_dns_name_ok(argv[i])) {
			snprintf(err, err_len, "pushed 'dns %s': bad domain '%.64s'", what, argv[i]);
			return -EINVAL;
		}
	}
	for (int i = 0; i < argc; i++) {
		list[*n] = strdup(argv[i]);
		if (!list[*n])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

static struct braid_push_dns_server *server(struct braid_pushed *p, int prio)
{
	for (unsigned int i = 0; i < p->n_dns; i++)
		if (p->dns[i].priority == prio)
			return &p->dns[i];
	if (p->n_dns >= BRAID_PUSH_DNS_MAX_SERVERS)
		return NULL;
	memset(&p->dns[p->n_dns], 0, sizeof(p->dns[0]));
	p->dns[p->n_dns].priority = prio;
	return &p->dns[p->n_dns++];
}

static int parse_server(struct braid_pushed *p, int argc, char **argv, char *err, size_t err_len)
{
	struct braid_push_dns_server *s;
	long prio;

	if (argc < 4 || braid_parse_long(argv[2], -128, 127, &prio)) {
		snprintf(err, err_len, "pushed 'dns server' needs a priority -128..127, a keyword and "
			 "its value");
		return -EINVAL;
	}
	s = server(p, (int)prio);
	if (!s) {
		snprintf(err, err_len, "pushed 'dns server': more than %d servers",
			 BRAID_PUSH_DNS_MAX_SERVERS);
		return -EINVAL;
	}
	if (!strcmp(argv[3], "address")) {
		if (argc < 5) {
			snprintf(err, err_len, "pushed 'dns server %ld address' needs an address", prio);
			return -EINVAL;
		}
		unsigned int had = s->n_addr;	/* a line is taken whole or not at all */

		for (int i = 4; i < argc; i++) {
			if (s->n_addr >= BRAID_PUSH_DNS_MAX_ADDRS) {
				s->n_addr = had;
				snprintf(err, err_len, "pushed 'dns server %ld': more than %d addresses",
					 prio, BRAID_PUSH_DNS_MAX_ADDRS);
				return -EINVAL;
			}
			if (parse_addr(argv[i], s->addr[s->n_addr], &s->port[s->n_addr])) {
				s->n_addr = had;
				snprintf(err, err_len, "pushed 'dns server %ld address': bad address "
					 "'%.64s'", prio, argv[i]);
				return -EINVAL;
			}
			s->n_addr++;
		}
		return 0;
	}
	if (!strcmp(argv[3], "resolve-domains"))
		return add_domains(s->domains, &s->n_domains, argc - 4, argv + 4, "resolve-domains",
				   err, err_len);
	if (argc != 5) {
		snprintf(err, err_len, "pushed 'dns server %ld %.32s' needs one value", prio, argv[3]);
		return -EINVAL;
	}
	if (!strcmp(argv[3], "dnssec")) {
		if (strcmp(argv[4], "yes") && strcmp(argv[4], "optional") && strcmp(argv[4], "no")) {
			snprintf(err, err_len, "pushed 'dns server %ld dnssec': yes, optional or no", prio);
			return -EINVAL;
		}
		if (strcmp(argv[4], "no"))
			braid_info("pushed 'dns server %ld dnssec %s': left to the host's resolver", prio,
				   argv[4]);
		return 0;
	}
	if (!strcmp(argv[3], "transport")) {
		if (strcmp(argv[4], "plain") && strcmp(argv[4], "DoT") && strcmp(argv[4], "DoH")) {
			snprintf(err, err_len, "pushed 'dns server %ld transport': plain, DoT or DoH", prio);
			return -EINVAL;
		}
		if (strcmp(argv[4], "plain"))
			braid_warn("pushed 'dns server %ld transport %s': braidd configures plain DNS to "
				   "its addresses", prio, argv[4]);
		return 0;
	}
	if (!strcmp(argv[3], "sni")) {
		if (!braid_dns_name_ok(argv[4])) {
			snprintf(err, err_len, "pushed 'dns server %ld sni': bad name", prio);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, err_len, "pushed 'dns server %ld': unknown keyword '%.32s'", prio, argv[3]);
	return -EINVAL;
}

int braid_push_dns_parse(struct braid_pushed *p, int argc, char **argv, char *err, size_t err_len)
{
	unsigned int n_dns = p->n_dns;
	int r;

	if (argc >= 2 && !strcmp(argv[1], "search-domains"))
		return add_domains(p->dns_search, &p->n_dns_search, argc - 2, argv + 2,
				   "search-domains", err, err_len);
	if (argc >= 2 && !strcmp(argv[1], "server")) {
		r = parse_server(p, argc, argv, err, err_len);
		if (r && p->n_dns > n_dns) {	/* a server this bad line created: gone again */
			struct braid_push_dns_server *s = &p->dns[--p->n_dns];

			for (unsigned int j = 0; j < s->n_domains; j++)
				free(s->domains[j]);
			memset(s, 0, sizeof(*s));
		}
		return r;
	}
	snprintf(err, err_len, "pushed 'dns': 'search-domains' or 'server' expected");
	return -EINVAL;
}

/* ---- the settings to apply ---- */

static void add_server(struct braid_dns_conf *c, const char *addr)
{
	unsigned char bin[16];

	if (inet_pton(AF_INET, addr, bin) != 1 && inet_pton(AF_INET6, addr, bin) != 1) {
		braid_warn("pushed DNS server '%.64s' is not a numeric address: not applied", addr);
		return;
	}
	for (unsigned int i = 0; i < c->n_servers; i++)
		if (!strcmp(c->servers[i], addr))
			return;
	if (c->n_servers >= BRAID_DNS_MAX_SERVERS) {
		braid_warn("more than %d pushed DNS servers: '%s' not applied", BRAID_DNS_MAX_SERVERS,
			   addr);
		return;
	}
	snprintf(c->servers[c->n_servers++], sizeof(c->servers[0]), "%s", addr);
}

static void add_domain(char (*list)[BRAID_DNS_NAME_MAX + 1], unsigned int *n, const char *d)
{
	if (!braid_dns_name_ok(d)) {
		braid_warn("pushed DNS domain '%.64s' is not a domain name: not applied", d);
		return;
	}
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(list[i], d))
			return;
	if (*n >= BRAID_DNS_MAX_DOMAINS) {
		braid_warn("more than %d pushed DNS domains: '%s' not applied", BRAID_DNS_MAX_DOMAINS, d);
		return;
	}
	snprintf(list[(*n)++], BRAID_DNS_NAME_MAX + 1, "%s", d);
}

/* The value of dhcp-option number i (the configuration's first, then the pushed), if of type. */
static const char *dhcp_value(const struct braid_pushed *p, const struct braid_options *o,
			      unsigned int i, const char *type);

/* "TYPE VALUE" of a dhcp-option line, TYPE compared without case as OpenVPN does. */
static const char *line_value(const char *line, const char *type)
{
	size_t n = strlen(type);

	if (strncasecmp(line, type, n) || (line[n] != ' ' && line[n] != '\t'))
		return NULL;
	line += n;
	while (*line == ' ' || *line == '\t')
		line++;
	return *line && !strpbrk(line, " \t") ? line : NULL;
}

static const char *dhcp_value(const struct braid_pushed *p, const struct braid_options *o,
			      unsigned int i, const char *type)
{
	unsigned int nc = o ? o->n_dhcp_options : 0;

	if (i >= nc)
		return line_value(p->dhcp[i - nc], type);
	if (strcasecmp(o->dhcp_options[i].type, type) || !o->dhcp_options[i].value ||
	    strpbrk(o->dhcp_options[i].value, " \t"))
		return NULL;
	return o->dhcp_options[i].value;
}

void braid_push_dns_conf(const struct braid_pushed *p, const struct braid_options *o,
			 struct braid_dns_conf *out)
{
	const struct braid_push_dns_server *best = NULL;
	unsigned int nd = p->n_dhcp + (o ? o->n_dhcp_options : 0);
	const char *v;

	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < p->n_dns; i++)
		if (p->dns[i].n_addr && (!best || p->dns[i].priority < best->priority))
			best = &p->dns[i];
	if (best) {
		for (unsigned int i = 0; i < best->n_addr; i++) {
			if (best->port[i] && best->port[i] != 53) {
				braid_warn("pushed DNS server %s port %u: the resolver takes port 53 "
					   "only; not applied", best->addr[i], best->port[i]);
				continue;
			}
			add_server(out, best->addr[i]);
		}
		for (unsigned int i = 0; i < best->n_domains; i++)
			add_domain(out->route, &out->n_route, best->domains[i]);
	} else {
		for (unsigned int i = 0; i < nd; i++)
			if ((v = dhcp_value(p, o, i, "DNS")) || (v = dhcp_value(p, o, i, "DNS6")))
				add_server(out, v);
	}
	if (p->n_dns_search) {
		for (unsigned int i = 0; i < p->n_dns_search; i++)
			add_domain(out->search, &out->n_search, p->dns_search[i]);
	} else {
		for (unsigned int i = 0; i < nd; i++)
			if ((v = dhcp_value(p, o, i, "DOMAIN")))
				add_domain(out->search, &out->n_search, v);
		for (unsigned int i = 0; i < nd; i++)
			if ((v = dhcp_value(p, o, i, "DOMAIN-SEARCH")))
				add_domain(out->search, &out->n_search, v);
	}
}
