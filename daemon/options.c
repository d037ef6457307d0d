// SPDX-License-Identifier: GPL-2.0-only
/*
 * options.c - the directive table, one handler per directive, and the
 * post-parse checks. Messages name the location, the option and the problem.
 */
#include "options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "dc/static_key.h"
#include "log.h"
#include "mp/mp.h"

#define KEY_DIR_UNSET (-2)

struct ctx;
typedef int (*opt_handler)(struct ctx *c, int argc, char **argv);

struct opt_def {
	const char *name;
	int min_args, max_args;		/* arguments after the name */
	opt_handler fn;
	bool inline_ok;
	int blob;			/* enum braid_opt_blob, or -1 */
	size_t off;			/* h_flag / h_string: the field in struct braid_options */
};

struct ctx {
	struct braid_options *o;
	const struct braid_opt_loc *loc;
	const char *name;
	const char *inl;	/* inline block body, or NULL */
	char *err;
	size_t err_len;
	const struct opt_def *def;
};

__attribute__((format(printf, 2, 3))) static int fail(struct ctx *c, const char *fmt, ...)
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

static int parse_long(struct ctx *c, const char *what, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || (s[0] == '-' && min >= 0) || s[0] == '+' || s[0] == ' ')
		return fail(c, "%s '%s' is not a number", what, s);
	if (errno == ERANGE || v < min || v > max)
		return fail(c, "%s %s is out of range (%ld..%ld)", what, s, min, max);
	*out = v;
	return 0;
}

static int parse_int(struct ctx *c, const char *what, const char *s, int min, int max, int *out)
{
	long v;
	int r = parse_long(c, what, s, min, max, &v);

	if (!r)
		*out = (int)v;
	return r;
}

static int parse_port(struct ctx *c, const char *s, uint16_t *out)
{
	int v;
	int r = parse_int(c, "port", s, 1, 65535, &v);

	if (!r)
		*out = (uint16_t)v;
	return r;
}

static int parse_ip4(struct ctx *c, const char *what, const char *s, struct in_addr *out)
{
	if (inet_pton(AF_INET, s, out) != 1)
		return fail(c, "%s '%s' is not a valid IPv4 address", what, s);
	return 0;
}

static int parse_ip6(struct ctx *c, const char *what, const char *s, struct in6_addr *out)
{
	if (inet_pton(AF_INET6, s, out) != 1)
		return fail(c, "%s '%s' is not a valid IPv6 address", what, s);
	return 0;
}

/* Contiguous netmask -> prefix length, -1 if not a netmask. */
static int mask_to_prefix(struct in_addr m)
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
static int parse_ip6_prefix(struct ctx *c, const char *what, const char *s, int dflt,
			    struct in6_addr *out, uint8_t *prefix)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash;
	int bits = dflt;
	int r;

	if (strlen(s) >= sizeof(buf))
		return fail(c, "%s '%s' is not a valid IPv6 address/prefix", what, s);
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		r = parse_int(c, "prefix length", slash + 1, 0, 128, &bits);
		if (r)
			return r;
	}
	if (inet_pton(AF_INET6, buf, out) != 1)
		return fail(c, "%s '%s' is not a valid IPv6 address", what, buf);
	*prefix = (uint8_t)bits;
	return 0;
}

static int set_str(struct ctx *c, char **dst, const char *s)
{
	char *d = strdup(s);

	if (!d)
		return fail(c, "out of memory");
	free(*dst);
	*dst = d;
	return 0;
}

static void source_clear(struct braid_opt_source *s)
{
	free(s->path);
	if (s->inline_text) {
		sodium_memzero(s->inline_text, s->inline_len);
		free(s->inline_text);
	}
	memset(s, 0, sizeof(*s));
}

/* File argument or inline body into a source slot. */
static int set_source(struct ctx *c, struct braid_opt_source *s, const char *path)
{
	struct braid_opt_source n = { 0 };

	if (c->inl) {
		n.inline_len = strlen(c->inl);
		n.inline_text = strdup(c->inl);
		if (!n.inline_text)
			return fail(c, "out of memory");
	} else {
		n.path = strdup(path);
		if (!n.path)
			return fail(c, "out of memory");
	}
	source_clear(s);
	*s = n;
	return 0;
}

static const char *const ciphers[] = { "AES-256-GCM", "AES-128-GCM", "CHACHA20-POLY1305" };

static const char *cipher_canonical(const char *name)
{
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		if (!strcasecmp(name, ciphers[i]))
			return ciphers[i];
	return NULL;
}

/* ---- handlers: argv[0] is the directive name ---- */

static int h_dev(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (strlen(argv[1]) >= IFNAMSIZ)
		return fail(c, "device name '%s' is too long (max %d characters)", argv[1], IFNAMSIZ - 1);
	if (strchr(argv[1], '/') || strchr(argv[1], '%') || !strcmp(argv[1], ".") ||
	    !strcmp(argv[1], ".."))
		return fail(c, "'%s' is not a valid device name", argv[1]);
	if (!strncmp(argv[1], "tap", 3))
		return fail(c, "tap devices are not supported yet (only tun)");
	if (!strcmp(argv[1], "null"))
		return fail(c, "'dev null' is not supported (braidd needs a tun device)");
	strcpy(c->o->dev, argv[1]);
	return 0;
}

static int h_dev_type(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "tun")) {
		c->o->has_dev_type = true;
		return 0;
	}
	if (!strcmp(argv[1], "tap"))
		return fail(c, "tap devices are not supported yet (only tun)");
	return fail(c, "unknown device type '%s' (expected tun)", argv[1]);
}

/* A protocol name: udp[46], tcp[46] (resolved by finalize), tcp[46]-client, tcp[46]-server. */
static int proto_parse(struct ctx *c, const char *p, enum braid_opt_proto *proto, int *family,
		       bool *generic)
{
	static const struct {
		const char *name;
		enum braid_opt_proto proto;
		int family;
		bool generic;
	} tab[] = {
		{ "udp", BRAID_PROTO_UDP, AF_UNSPEC, false },
		{ "udp4", BRAID_PROTO_UDP, AF_INET, false },
		{ "udp6", BRAID_PROTO_UDP, AF_INET6, false },
		{ "tcp", BRAID_PROTO_TCP_CLIENT, AF_UNSPEC, true },
		{ "tcp4", BRAID_PROTO_TCP_CLIENT, AF_INET, true },
		{ "tcp6", BRAID_PROTO_TCP_CLIENT, AF_INET6, true },
		{ "tcp-client", BRAID_PROTO_TCP_CLIENT, AF_UNSPEC, false },
		{ "tcp4-client", BRAID_PROTO_TCP_CLIENT, AF_INET, false },
		{ "tcp6-client", BRAID_PROTO_TCP_CLIENT, AF_INET6, false },
		{ "tcp-server", BRAID_PROTO_TCP_SERVER, AF_UNSPEC, false },
		{ "tcp4-server", BRAID_PROTO_TCP_SERVER, AF_INET, false },
		{ "tcp6-server", BRAID_PROTO_TCP_SERVER, AF_INET6, false },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strcmp(p, tab[i].name))
			continue;
		*proto = tab[i].proto;
		*family = tab[i].family;
		*generic = tab[i].generic;
		return 0;
	}
	return fail(c, "unknown protocol '%s' (expected udp, udp4, udp6, tcp, tcp4, tcp6, "
		    "tcp-client, tcp-server or their 4/6 forms)", p);
}

static int h_proto(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	(void)argc;
	if (o->in_connection) {
		e = proto_parse(c, argv[1], &o->conn.proto, &o->conn.family,
				&o->conn.proto_tcp_generic);
		if (!e)
			o->conn.has_proto = true;
		return e;
	}
	e = proto_parse(c, argv[1], &o->proto, &o->family, &o->proto_tcp_generic);
	if (e)
		return e;
	o->has_proto_opt = true;
	snprintf(o->proto_name, sizeof(o->proto_name), "%s", argv[1]);
	return 0;
}

static int h_remote(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_remote *r, n = { 0 };
	int e;

	if (!o->in_connection && o->n_remotes >= BRAID_OPT_MAX_REMOTES)
		return fail(c, "too many remotes (max %d)", BRAID_OPT_MAX_REMOTES);
	if (!argv[1][0])
		return fail(c, "empty host name");
	if (argc >= 3) {
		e = parse_port(c, argv[2], &n.port);
		if (e)
			return e;
	}
	if (argc >= 4) {
		e = proto_parse(c, argv[3], &n.proto, &n.family, &n.proto_tcp_generic);
		if (e)
			return e;
		n.has_proto = true;
	}
	if (o->in_connection) {	/* the block's remote: the last one wins, as in OpenVPN */
		char *h = strdup(argv[1]);

		if (!h)
			return fail(c, "out of memory");
		free(o->conn.host);
		o->conn.host = h;
		if (n.port)
			o->conn.port = n.port;
		if (n.has_proto) {
			o->conn.proto = n.proto;
			o->conn.family = n.family;
			o->conn.proto_tcp_generic = n.proto_tcp_generic;
			o->conn.has_proto = true;
		}
		o->conn_has_remote = true;
		return 0;
	}
	r = &o->remotes[o->n_remotes];
	*r = n;
	r->host = strdup(argv[1]);
	if (!r->host)
		return fail(c, "out of memory");
	o->n_remotes++;
	return 0;
}

static int h_local(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_str(c, &c->o->local, argv[1]);
}

static int h_lport(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_port(c, argv[1], &c->o->lport);
}

static int h_rport(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (c->o->in_connection)
		return parse_port(c, argv[1], &c->o->conn.port);
	return parse_port(c, argv[1], &c->o->rport);
}

static int h_port(struct ctx *c, int argc, char **argv)
{
	uint16_t p;
	int e = parse_port(c, argv[1], &p);

	(void)argc;
	if (!e && c->o->in_connection)
		c->o->conn.port = p;
	else if (!e)
		c->o->lport = c->o->rport = p;
	return e;
}

static int h_nobind(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (c->o->in_connection)
		c->o->conn.nobind = true;
	else
		c->o->nobind = true;
	return 0;
}

static int h_float(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->float_ok = true;
	return 0;
}

static int h_ifconfig(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	(void)argc;
	e = parse_ip4(c, "local address", argv[1], &o->ifc_local);
	if (!e)
		e = parse_ip4(c, "remote address or netmask", argv[2], &o->ifc_remote);
	if (!e)
		o->has_ifconfig = true;
	return e;
}

static int h_ifconfig6(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	(void)argc;
	e = parse_ip6_prefix(c, "address", argv[1], 64, &o->ifc6_local, &o->ifc6_prefix);
	if (!e)
		e = parse_ip6(c, "remote address", argv[2], &o->ifc6_remote);
	if (!e)
		o->has_ifconfig6 = true;
	return e;
}

static int route_slot(struct ctx *c, struct braid_opt_route **out)
{
	if (c->o->n_routes >= BRAID_OPT_MAX_ROUTES)
		return fail(c, "too many routes (max %d)", BRAID_OPT_MAX_ROUTES);
	*out = &c->o->routes[c->o->n_routes];
	memset(*out, 0, sizeof(**out));
	return 0;
}

static int route_gw_keyword(struct ctx *c, const char *s, bool *is_default)
{
	*is_default = false;
	if (!strcmp(s, "vpn_gateway") || !strcmp(s, "default")) {
		*is_default = true;
		return 0;
	}
	if (!strcmp(s, "net_gateway") || !strcmp(s, "remote_host"))
		return fail(c, "gateway '%s' is not supported yet", s);
	return 0;
}

static int h_route(struct ctx *c, int argc, char **argv)
{
	struct braid_opt_route *r = NULL;
	struct in_addr net, mask, gw;
	long metric;
	bool dflt;
	int prefix = 32, e;

	e = route_slot(c, &r);
	if (e)
		return e;
	e = parse_ip4(c, "network", argv[1], &net);
	if (e)
		return e;
	if (argc >= 3 && strcmp(argv[2], "default")) {
		e = parse_ip4(c, "netmask", argv[2], &mask);
		if (e)
			return e;
		prefix = mask_to_prefix(mask);
		if (prefix < 0)
			return fail(c, "netmask '%s' is not a valid netmask", argv[2]);
	}
	mask.s_addr = prefix ? htonl(0xffffffffu << (32 - prefix)) : 0;
	if (net.s_addr & ~mask.s_addr)
		return fail(c, "network %s is not aligned to its netmask (/%d)", argv[1], prefix);
	r->family = AF_INET;
	memcpy(r->dst, &net, 4);
	r->prefix = (uint8_t)prefix;
	if (argc >= 4) {
		e = route_gw_keyword(c, argv[3], &dflt);
		if (e)
			return e;
		if (!dflt) {
			e = parse_ip4(c, "gateway", argv[3], &gw);
			if (e)
				return e;
			r->has_gw = true;
			memcpy(r->gw, &gw, 4);
		}
	}
	if (argc >= 5) {
		e = parse_long(c, "metric", argv[4], 0, INT_MAX, &metric);
		if (e)
			return e;
		r->metric = (uint32_t)metric;
	}
	c->o->n_routes++;
	return 0;
}

static int h_route6(struct ctx *c, int argc, char **argv)
{
	struct braid_opt_route *r = NULL;
	struct in6_addr net, gw;
	uint8_t prefix;
	long metric;
	bool dflt;
	int e;

	e = route_slot(c, &r);
	if (e)
		return e;
	e = parse_ip6_prefix(c, "network", argv[1], 128, &net, &prefix);
	if (e)
		return e;
	for (int i = prefix; i < 128; i++)
		if (net.s6_addr[i / 8] & (0x80 >> (i % 8)))
			return fail(c, "network %s has bits set beyond its prefix length", argv[1]);
	r->family = AF_INET6;
	memcpy(r->dst, &net, 16);
	r->prefix = prefix;
	if (argc >= 3) {
		e = route_gw_keyword(c, argv[2], &dflt);
		if (e)
			return e;
		if (!dflt) {
			e = parse_ip6(c, "gateway", argv[2], &gw);
			if (e)
				return e;
			r->has_gw = true;
			memcpy(r->gw, &gw, 16);
		}
	}
	if (argc >= 4) {
		e = parse_long(c, "metric", argv[3], 0, INT_MAX, &metric);
		if (e)
			return e;
		r->metric = (uint32_t)metric;
	}
	c->o->n_routes++;
	return 0;
}

static int h_tun_mtu(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "MTU", argv[1], BRAID_OPT_TUN_MTU_MIN, BRAID_OPT_TUN_MTU_MAX,
			 &c->o->tun_mtu);
}

static int h_topology(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "p2p"))
		c->o->topology = BRAID_TOPO_P2P;
	else if (!strcmp(argv[1], "net30"))
		c->o->topology = BRAID_TOPO_NET30;
	else if (!strcmp(argv[1], "subnet"))
		c->o->topology = BRAID_TOPO_SUBNET;
	else
		return fail(c, "unknown topology '%s' (expected subnet, net30 or p2p)", argv[1]);
	c->o->has_topology = true;
	return 0;
}

static int h_cipher(struct ctx *c, int argc, char **argv)
{
	const char *n = cipher_canonical(argv[1]);

	(void)argc;
	if (!n) {
		/* an error in static-key mode; in the TLS modes only the fallback (finalize decides) */
		if (strlen(argv[1]) >= sizeof(c->o->cipher_unsupported))
			return fail(c, "unsupported cipher '%s'", argv[1]);
		strcpy(c->o->cipher_unsupported, argv[1]);
		c->o->cipher[0] = '\0';
		return 0;
	}
	c->o->cipher_unsupported[0] = '\0';
	strcpy(c->o->cipher, n);
	return 0;
}

static int h_data_ciphers(struct ctx *c, int argc, char **argv)
{
	char list[sizeof(c->o->data_ciphers)] = "";
	char *copy, *tok, *save = NULL;
	size_t used = 0;

	(void)argc;
	copy = strdup(argv[1]);
	if (!copy)
		return fail(c, "out of memory");
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		const char *n = cipher_canonical(tok[0] == '?' ? tok + 1 : tok);

		if (!n) {
			/* OpenVPN drops unsupported entries with a warning; so do we */
			if (c->loc->file)
				braid_warn("%s:%d: option '%s': ignoring unsupported cipher '%s'",
					   c->loc->file, c->loc->line, c->name, tok);
			else
				braid_warn("command line: option '%s': ignoring unsupported cipher '%s'",
					   c->name, tok);
			continue;
		}
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ":" : "", n);
	}
	free(copy);
	if (!used)
		return fail(c,
			    "no supported cipher in '%s' (supported: AES-256-GCM, AES-128-GCM, "
			    "CHACHA20-POLY1305)",
			    argv[1]);
	strcpy(c->o->data_ciphers, list);
	return 0;
}

static int parse_dir(struct ctx *c, const char *s, int *dir)
{
	if (braid_key_direction_parse(s, dir))
		return fail(c, "key direction '%s' is not 0 or 1", s);
	return 0;
}

static int h_secret(struct ctx *c, int argc, char **argv)
{
	int e, dir = KEY_DIR_UNSET;

	if (!c->inl && argc >= 3) {
		e = parse_dir(c, argv[2], &dir);
		if (e)
			return e;
	}
	e = set_source(c, &c->o->secret, c->inl ? NULL : argv[1]);
	if (!e && !c->inl)
		c->o->secret_dir = dir;
	return e;
}

static int h_key_direction(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_dir(c, argv[1], &c->o->key_direction);
}

static int h_keepalive(struct ctx *c, int argc, char **argv)
{
	int ping, restart, e;

	(void)argc;
	e = parse_int(c, "ping interval", argv[1], 1, 86400, &ping);
	if (!e)
		e = parse_int(c, "restart timeout", argv[2], 1, 86400 * 7, &restart);
	if (e)
		return e;
	if (restart < 2 * ping)
		return fail(c, "restart timeout %d must be at least twice the ping interval %d",
			    restart, ping);
	c->o->ping = ping;
	c->o->ping_restart = restart;
	c->o->keepalive_ping = ping;
	c->o->keepalive_restart = restart;
	return 0;
}

static int h_ping(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->ping_opt = c->def->name;
	return parse_int(c, "interval", argv[1], 0, 86400, &c->o->ping);
}

static int h_ping_restart(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->ping_opt = c->def->name;
	return parse_int(c, "timeout", argv[1], 0, 86400 * 7, &c->o->ping_restart);
}

static int h_ping_exit(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->ping_opt = c->def->name;
	return parse_int(c, "timeout", argv[1], 0, 86400 * 7, &c->o->ping_exit);
}

static int h_verb(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "level", argv[1], 0, BRAID_LOG_VERB_MAX, &c->o->verb);
}

static int h_replay_window(struct ctx *c, int argc, char **argv)
{
	long w, t;
	int e;

	e = parse_long(c, "window", argv[1], 0, 65536, &w);
	if (e)
		return e;
	if (w == 0)
		return fail(c, "a window of 0 (no reordering at all) is not supported; use 1..65536");
	if (argc >= 3) {
		e = parse_long(c, "time", argv[2], 0, 600, &t);
		if (e)
			return e;
		/* the data channel reads 0 as "default 15 s"; turning the time rule off needs a dc change */
		if (t == 0)
			return fail(c, "a time window of 0 (off) is not supported yet; use 1..600");
		c->o->replay_time = (uint32_t)t;
		c->o->has_replay_time = true;
	}
	c->o->replay_window = (uint32_t)w;
	return 0;
}

static int h_peer_id(struct ctx *c, int argc, char **argv)
{
	long v;
	int e;

	(void)argc;
	e = parse_long(c, "peer-id", argv[1], 0, 0xfffffe, &v);
	if (!e)
		c->o->peer_id = (uint32_t)v;
	return e;
}

static int h_mssfix(struct ctx *c, int argc, char **argv)
{
	int v = BRAID_OPT_DEFAULT_MSSFIX, e;

	if (argc >= 2) {
		e = parse_int(c, "size", argv[1], 0, 65535, &v);
		if (e)
			return e;
		if (v && v < 576)
			return fail(c, "size %d is too small (0 turns mssfix off, else >= 576)", v);
	}
	if (argc >= 3 && strcmp(argv[2], "mtu"))
		return fail(c, "unknown flag '%s' (only 'mtu' is supported)", argv[2]);
	c->o->mssfix = v;
	return 0;
}

static int h_writepid(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return set_str(c, &c->o->writepid, argv[1]);
}

static int h_log(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->log_append = !strcmp(argv[0], "log-append");
	return set_str(c, &c->o->log_path, argv[1]);
}

static int h_daemon(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return fail(c, "not supported: run braidd under systemd, or in the background with '&'");
}

static int h_ignore_unknown(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	for (int i = 1; i < argc; i++) {
		if (o->n_ignore_unknown >= BRAID_OPT_MAX_IGNORE)
			return fail(c, "too many option names (max %d)", BRAID_OPT_MAX_IGNORE);
		o->ignore_unknown[o->n_ignore_unknown] = strdup(argv[i]);
		if (!o->ignore_unknown[o->n_ignore_unknown])
			return fail(c, "out of memory");
		o->n_ignore_unknown++;
	}
	return 0;
}

static int h_multipath(struct ctx *c, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "on") || !strcmp(argv[1], "yes")) {
		c->o->multipath = 1;
		return 0;
	}
	if (!strcmp(argv[1], "off") || !strcmp(argv[1], "no")) {
		c->o->multipath = 0;
		return 0;
	}
	return fail(c, "expected 'on' or 'off', got '%s'", argv[1]);
}

/* mp-path/mp-backup/mp-cap name local addresses literally: numeric only, so they can be matched. */
static int check_numeric(struct ctx *c, const char *what, const char *s)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1 || inet_pton(AF_INET6, s, &a6) == 1)
		return 0;
	return fail(c, "%s '%s' is not a numeric IPv4 or IPv6 address", what, s);
}

static int h_mp_path(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_mp_path *p;
	uint16_t port = 0;
	int e;

	if (o->n_mp_paths >= BRAID_OPT_MAX_MP_PATHS)
		return fail(c, "too many paths (max %d)", BRAID_OPT_MAX_MP_PATHS);
	e = check_numeric(c, "local address", argv[1]);
	if (e)
		return e;
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (!strcmp(o->mp_paths[i].local, argv[1]) &&
		    (argc < 3 ? !o->mp_paths[i].remote
			      : o->mp_paths[i].remote && !strcmp(o->mp_paths[i].remote, argv[2])))
			return fail(c, "path %s%s%s is given twice", argv[1], argc >= 3 ? " -> " : "",
				    argc >= 3 ? argv[2] : "");
	if (argc >= 4) {
		e = parse_port(c, argv[3], &port);
		if (e)
			return e;
	}
	p = &o->mp_paths[o->n_mp_paths];
	memset(p, 0, sizeof(*p));
	p->local = strdup(argv[1]);
	p->remote = argc >= 3 ? strdup(argv[2]) : NULL;
	if (!p->local || (argc >= 3 && !p->remote)) {
		free(p->local);
		free(p->remote);
		return fail(c, "out of memory");
	}
	p->port = port;
	o->n_mp_paths++;
	return 0;
}

static int mp_attr(struct ctx *c, const char *local, bool backup, uint64_t cap)
{
	struct braid_options *o = c->o;
	struct braid_opt_mp_attr *a;
	int e = check_numeric(c, "local address", local);

	if (e)
		return e;
	if (o->n_mp_attrs >= sizeof(o->mp_attrs) / sizeof(o->mp_attrs[0]))
		return fail(c, "too many mp-backup/mp-cap lines (max %zu)",
			    sizeof(o->mp_attrs) / sizeof(o->mp_attrs[0]));
	a = &o->mp_attrs[o->n_mp_attrs];
	memset(a, 0, sizeof(*a));
	a->local = strdup(local);
	a->file = c->loc && c->loc->file ? strdup(c->loc->file) : NULL;
	if (!a->local || (c->loc && c->loc->file && !a->file)) {
		free(a->local);
		free(a->file);
		return fail(c, "out of memory");
	}
	a->line = c->loc ? c->loc->line : 0;
	a->backup = backup;
	a->cap_bps = cap;
	o->n_mp_attrs++;
	return 0;
}

static int h_mp_backup(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return mp_attr(c, argv[1], true, 0);
}

static int h_mp_cap(struct ctx *c, int argc, char **argv)
{
	char *end;
	double v;

	(void)argc;
	errno = 0;
	v = strtod(argv[2], &end);
	if (!argv[2][0] || *end || errno || !(v > 0.0) || v > 100000.0)
		return fail(c, "cap '%s' is not a rate in Mbit/s (0 < MBIT <= 100000)", argv[2]);
	return mp_attr(c, argv[1], false, (uint64_t)(v * 1e6));
}

static int h_mp_scheduler(struct ctx *c, int argc, char **argv)
{
	char buf[BRAID_OPT_MP_SCHED_LEN];
	enum braid_mp_sched s;
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	unsigned int n = 0, sum = 0;

	if (argc >= 3)
		snprintf(buf, sizeof(buf), "%s %s", argv[1], argv[2]);
	else
		snprintf(buf, sizeof(buf), "%s", argv[1]);
	if (strlen(argv[1]) + (argc >= 3 ? strlen(argv[2]) + 1 : 0) >= sizeof(buf) ||
	    braid_mp_sched_parse(buf, &s, ratio, &n)) {
		if (!strcmp(argv[1], "ratio"))
			return fail(c, "'ratio' needs weights like 3:1 (one per path, max %d), got '%s'",
				    BRAID_MP_MAX_PATHS, argc >= 3 ? argv[2] : "");
		return fail(c,
			    "unknown scheduler '%s' (expected edf, rtt, ratio A:B..., mpip, lowest-rtt, "
			    "backup or redundant)",
			    buf);
	}
	for (unsigned int i = 0; i < n; i++)
		sum += ratio[i];
	if (s == BRAID_MP_SCHED_RATIO && !sum)
		return fail(c, "ratio '%s' has no non-zero weight", argv[2]);
	strcpy(c->o->mp_sched, buf);
	return 0;
}

static int h_mp_reorder_ms(struct ctx *c, int argc, char **argv)
{
	int v, e;

	(void)argc;
	e = parse_int(c, "milliseconds", argv[1], 1, 2000, &v);
	if (!e)
		c->o->mp_reorder_ms = (uint32_t)v;
	return e;
}

static int h_mp_path_timeout(struct ctx *c, int argc, char **argv)
{
	int v, e;

	(void)argc;
	e = parse_int(c, "seconds", argv[1], 1, 86400, &v);
	if (!e)
		c->o->mp_path_timeout = (uint32_t)v;
	return e;
}

static int h_mp_class(struct ctx *c, int argc, char **argv)
{
	struct braid_mpclass_rule r;
	char msg[256];

	if (braid_mpclass_parse(&r, argc - 1, argv + 1, msg, sizeof(msg)))
		return fail(c, "%s", msg);
	if (braid_mpclass_add(&c->o->mp_classes, &r))
		return fail(c, "too many rules (max %d)", BRAID_MPCLASS_MAX_RULES);
	return 0;
}

static int h_control_socket(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!argv[1][0])
		return fail(c, "empty socket path");
	return set_str(c, &c->o->control_socket, argv[1]);
}

static int h_status(struct ctx *c, int argc, char **argv)
{
	int e;

	if (argc >= 3) {
		e = parse_int(c, "interval", argv[2], 1, 86400, &c->o->status_interval);
		if (e)
			return e;
	}
	return set_str(c, &c->o->status_path, argv[1]);
}

/* ---- role, TLS, client and gateway directives ---- */

/* Generic handlers: the table's `off` names the field (see struct opt_def). */
static int h_flag(struct ctx *c, int argc, char **argv);
static int h_string(struct ctx *c, int argc, char **argv);

static int h_mode(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "server"))
		c->o->mode = BRAID_MODE_SERVER;
	else if (!strcmp(argv[1], "p2p"))
		c->o->mode = BRAID_MODE_P2P;
	else
		return fail(c, "unknown mode '%s' (expected p2p or server)", argv[1]);
	c->o->has_mode_opt = true;
	return 0;
}

static int h_client(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->client = true;
	return 0;
}

static int h_tls_client(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->opt_tls_client = true;
	return 0;
}

static int h_tls_server(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->opt_tls_server = true;
	return 0;
}

static int h_pull(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->pull = true;
	return 0;
}

static int parse_ip4_nonzero(struct ctx *c, const char *what, const char *s, struct in_addr *out)
{
	int e = parse_ip4(c, what, s, out);

	if (!e && !out->s_addr)
		return fail(c, "%s must not be 0.0.0.0", what);
	return e;
}

static int h_server(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct in_addr net, mask;
	int e;

	e = parse_ip4_nonzero(c, "network", argv[1], &net);
	if (!e)
		e = parse_ip4_nonzero(c, "netmask", argv[2], &mask);
	if (e)
		return e;
	if (mask_to_prefix(mask) < 0)
		return fail(c, "netmask '%s' is not a valid netmask", argv[2]);
	if (net.s_addr & ~mask.s_addr)
		return fail(c, "network %s is not aligned to its netmask %s", argv[1], argv[2]);
	if (argc >= 4 && strcmp(argv[3], "nopool"))
		return fail(c, "'%s' is not a recognized flag (expected nopool)", argv[3]);
	o->has_server = true;
	o->server_net = net;
	o->server_mask = mask;
	o->server_nopool = argc >= 4;
	return 0;
}

static int h_server6(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct in6_addr net;
	uint8_t bits;
	int e;

	(void)argc;
	if (!strchr(argv[1], '/'))
		return fail(c, "'%s' needs a prefix length (NET/LEN, /64 to /124)", argv[1]);
	e = parse_ip6_prefix(c, "network", argv[1], 64, &net, &bits);
	if (e)
		return e;
	if (bits < 64 || bits > 124)
		return fail(c, "network must be between /64 and /124 (not /%d)", bits);
	o->has_server6 = true;
	o->server6_net = net;
	o->server6_prefix = bits;
	return 0;
}

static int h_ifconfig_pool(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct in_addr s, e4, m = { 0 };
	int e;

	e = parse_ip4(c, "start address", argv[1], &s);
	if (!e)
		e = parse_ip4(c, "end address", argv[2], &e4);
	if (!e && argc >= 4)
		e = parse_ip4(c, "netmask", argv[3], &m);
	if (e)
		return e;
	if (ntohl(s.s_addr) > ntohl(e4.s_addr))
		return fail(c, "start address %s is after the end address %s", argv[1], argv[2]);
	if (ntohl(e4.s_addr) - ntohl(s.s_addr) >= 65536)
		return fail(c, "range %s - %s is too large (max 65536 addresses)", argv[1], argv[2]);
	if (argc >= 4 && mask_to_prefix(m) < 0)
		return fail(c, "netmask '%s' is not a valid netmask", argv[3]);
	o->has_ifconfig_pool = true;
	o->ifconfig_pool_start = s;
	o->ifconfig_pool_end = e4;
	o->ifconfig_pool_mask = m;
	return 0;
}

static int h_push(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	(void)argc;
	if (o->n_push >= BRAID_OPT_MAX_PUSH)
		return fail(c, "too many push options (max %d)", BRAID_OPT_MAX_PUSH);
	if (!argv[1][0])
		return fail(c, "empty option text");
	if (strchr(argv[1], ','))
		return fail(c, "'%s' contains a comma (pushed options are comma-separated)", argv[1]);
	o->push[o->n_push] = strdup(argv[1]);
	if (!o->push[o->n_push])
		return fail(c, "out of memory");
	o->n_push++;
	return 0;
}

static int h_max_clients(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "count", argv[1], 1, 65536, &c->o->max_clients);
}

static int h_aupv(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	(void)argc;
	if (!strcmp(argv[2], "via-env"))
		o->auth_user_pass_verify_method = BRAID_AUPV_VIA_ENV;
	else if (!strcmp(argv[2], "via-file"))
		o->auth_user_pass_verify_method = BRAID_AUPV_VIA_FILE;
	else
		return fail(c, "second parameter must be 'via-env' or 'via-file', got '%s'", argv[2]);
	return set_str(c, &o->auth_user_pass_verify, argv[1]);
}

static int h_status_version(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "version", argv[1], 1, 3, &c->o->status_version);
}

static int h_ifconfig_pool_persist(struct ctx *c, int argc, char **argv)
{
	int e;

	if (argc >= 3) {
		e = parse_int(c, "seconds", argv[2], 0, 86400 * 365, &c->o->ifconfig_pool_persist_sec);
		if (e)
			return e;
	}
	return set_str(c, &c->o->ifconfig_pool_persist, argv[1]);
}

static int h_connect_freq(struct ctx *c, int argc, char **argv)
{
	int e;

	(void)argc;
	e = parse_int(c, "count", argv[1], 1, 65535, &c->o->connect_freq_n);
	if (!e)
		e = parse_int(c, "seconds", argv[2], 1, 86400, &c->o->connect_freq_sec);
	return e;
}

static int h_management(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	uint16_t port = 0;
	int e;

	if (!strcmp(argv[2], "unix")) {
		o->management_unix = true;
	} else {
		e = parse_port(c, argv[2], &port);
		if (e)
			return e;
		o->management_unix = false;
	}
	o->management_port = port;
	e = set_str(c, &o->management_host, argv[1]);
	if (!e && argc >= 4) {
		e = set_str(c, &o->management_pwfile, argv[3]);
	} else if (!e) {
		free(o->management_pwfile);
		o->management_pwfile = NULL;
	}
	return e;
}

static int h_remote_random(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->remote_random = true;
	return 0;
}

static int h_resolv_retry(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "infinite")) {
		c->o->resolv_retry = -1;
		return 0;
	}
	return parse_int(c, "seconds", argv[1], 0, INT_MAX, &c->o->resolv_retry);
}

static int h_connect_retry(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	e = parse_int(c, "seconds", argv[1], 0, 65535, &o->connect_retry);
	if (!e && argc >= 3) {
		e = parse_int(c, "maximum", argv[2], 0, INT_MAX, &o->connect_retry_max_backoff);
		if (!e && o->connect_retry_max_backoff < o->connect_retry)
			o->connect_retry_max_backoff = o->connect_retry;
	}
	return e;
}

static int h_connect_retry_max(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "count", argv[1], 0, INT_MAX, &c->o->connect_retry_max);
}

static int h_server_poll_timeout(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "seconds", argv[1], 0, INT_MAX, &c->o->server_poll_timeout);
}

static int h_auth(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (strlen(argv[1]) >= sizeof(c->o->auth_digest))
		return fail(c, "digest name '%s' is too long", argv[1]);
	strcpy(c->o->auth_digest, argv[1]);
	return 0;
}

static int tls_version(struct ctx *c, const char *s, char *out)
{
	if (!strcmp(s, "1.0") || !strcmp(s, "1.1") || !strcmp(s, "1.2") || !strcmp(s, "1.3")) {
		strcpy(out, s);
		return 0;
	}
	return fail(c, "unknown TLS version '%s' (expected 1.0, 1.1, 1.2 or 1.3)", s);
}

static int h_tls_version_min(struct ctx *c, int argc, char **argv)
{
	int e = tls_version(c, argv[1], c->o->tls_version_min);

	if (e)
		return e;
	c->o->tls_version_min_or_highest = false;
	if (argc >= 3) {
		if (strcmp(argv[2], "or-highest"))
			return fail(c, "unknown flag '%s' (expected or-highest)", argv[2]);
		c->o->tls_version_min_or_highest = true;
	}
	return 0;
}

static int h_tls_version_max(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return tls_version(c, argv[1], c->o->tls_version_max);
}

static int h_remote_cert_tls(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "server"))
		c->o->remote_cert_tls = BRAID_RCT_SERVER;
	else if (!strcmp(argv[1], "client"))
		c->o->remote_cert_tls = BRAID_RCT_CLIENT;
	else
		return fail(c, "expected 'server' or 'client', got '%s'", argv[1]);
	return 0;
}

static int h_verify_x509_name(struct ctx *c, int argc, char **argv)
{
	int type = BRAID_X509_SUBJECT;

	if (!argv[1][0])
		return fail(c, "empty name");
	if (argc >= 3) {
		if (!strcmp(argv[2], "subject"))
			type = BRAID_X509_SUBJECT;
		else if (!strcmp(argv[2], "name"))
			type = BRAID_X509_NAME;
		else if (!strcmp(argv[2], "name-prefix"))
			type = BRAID_X509_NAME_PREFIX;
		else
			return fail(c, "unknown X.509 name type '%s' (expected subject, name or "
				    "name-prefix)", argv[2]);
	}
	c->o->verify_x509_type = type;
	return set_str(c, &c->o->verify_x509_name, argv[1]);
}

static int h_verify_client_cert(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "none"))
		c->o->verify_client_cert = BRAID_VCC_NONE;
	else if (!strcmp(argv[1], "optional"))
		c->o->verify_client_cert = BRAID_VCC_OPTIONAL;
	else if (!strcmp(argv[1], "require"))
		c->o->verify_client_cert = BRAID_VCC_REQUIRE;
	else
		return fail(c, "expected none, optional or require, got '%s'", argv[1]);
	c->o->has_vcc_opt = true;
	return 0;
}

static int h_client_cert_not_required(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->verify_client_cert = BRAID_VCC_NONE;
	c->o->client_cert_not_required = true;
	c->o->has_vcc_opt = true;
	return 0;
}

static int h_seconds(struct ctx *c, int *dst, const char *s)
{
	return parse_int(c, "seconds", s, 0, INT_MAX, dst);
}

static int h_hand_window(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return h_seconds(c, &c->o->hand_window, argv[1]);
}

static int h_tls_timeout(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return h_seconds(c, &c->o->tls_timeout, argv[1]);
}

static int h_tran_window(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return h_seconds(c, &c->o->tran_window, argv[1]);
}

static int h_reneg_sec(struct ctx *c, int argc, char **argv)
{
	int e;

	c->o->tls_parm_opt = c->def->name;
	e = h_seconds(c, &c->o->reneg_sec, argv[1]);
	if (!e && argc >= 3)
		e = h_seconds(c, &c->o->reneg_sec_min, argv[2]);
	return e;
}

static int parse_u64(struct ctx *c, const char *what, const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return fail(c, "%s '%s' is not a number", what, s);
	v = strtoull(s, &end, 10);
	if (*end)
		return fail(c, "%s '%s' is not a number", what, s);
	if (errno == ERANGE)
		return fail(c, "%s %s is out of range", what, s);
	*out = v;
	return 0;
}

static int h_reneg_bytes(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return parse_u64(c, "bytes", argv[1], &c->o->reneg_bytes);
}

static int h_reneg_pkts(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return parse_u64(c, "packets", argv[1], &c->o->reneg_pkts);
}

static int h_key_method(struct ctx *c, int argc, char **argv)
{
	int v, e;

	(void)argc;
	e = parse_int(c, "key method", argv[1], 1, 2, &v);
	if (e)
		return e;
	if (v == 1)
		return fail(c, "key-method 1 is not supported (OpenVPN 2.5+ removed it; use 2)");
	c->o->key_method = v;
	return 0;
}

static int h_tls_crypt_v2(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return fail(c, "tls-crypt-v2 is not supported by braidd yet");
}

static int h_pkcs12(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return fail(c, "PKCS#12 files are not supported by braidd yet: convert with "
		    "'openssl pkcs12 -in FILE -nodes' and use ca, cert and key");
}

static int h_auth_retry(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "none"))
		c->o->auth_retry = BRAID_AUTH_RETRY_NONE;
	else if (!strcmp(argv[1], "nointeract"))
		c->o->auth_retry = BRAID_AUTH_RETRY_NOINTERACT;
	else if (!strcmp(argv[1], "interact"))
		c->o->auth_retry = BRAID_AUTH_RETRY_INTERACT;
	else
		return fail(c, "parameter must be 'none', 'interact', or 'nointeract', got '%s'",
			    argv[1]);
	return 0;
}

static int h_pull_filter(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_pull_filter *f;
	enum braid_opt_pf_action a;

	(void)argc;
	if (!strcmp(argv[1], "accept"))
		a = BRAID_PF_ACCEPT;
	else if (!strcmp(argv[1], "ignore"))
		a = BRAID_PF_IGNORE;
	else if (!strcmp(argv[1], "reject"))
		a = BRAID_PF_REJECT;
	else
		return fail(c, "unknown type '%s' (expected accept, ignore or reject)", argv[1]);
	if (o->n_pull_filters >= BRAID_OPT_MAX_PULL_FILTERS)
		return fail(c, "too many pull filters (max %d)", BRAID_OPT_MAX_PULL_FILTERS);
	f = &o->pull_filters[o->n_pull_filters];
	f->text = strdup(argv[2]);
	if (!f->text)
		return fail(c, "out of memory");
	f->action = a;
	o->n_pull_filters++;
	return 0;
}

static int h_redirect_gateway(struct ctx *c, int argc, char **argv)
{
	unsigned int f = c->o->redirect_gw;

	if (f & BRAID_RG_ENABLE)
		braid_warn("option '%s': redirect-gateway and redirect-private given together (or "
			   "twice): flags are merged", argv[0]);
	f |= BRAID_RG_ENABLE;
	if (!strcmp(argv[0], "redirect-gateway"))
		f |= BRAID_RG_REROUTE_GW;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "local"))
			f |= BRAID_RG_LOCAL;
		else if (!strcmp(argv[i], "autolocal"))
			f |= BRAID_RG_AUTO_LOCAL;
		else if (!strcmp(argv[i], "def1"))
			f |= BRAID_RG_DEF1;
		else if (!strcmp(argv[i], "bypass-dhcp"))
			f |= BRAID_RG_BYPASS_DHCP;
		else if (!strcmp(argv[i], "bypass-dns"))
			f |= BRAID_RG_BYPASS_DNS;
		else if (!strcmp(argv[i], "block-local"))
			f |= BRAID_RG_BLOCK_LOCAL;
		else if (!strcmp(argv[i], "ipv6"))
			f |= BRAID_RG_IPV6;
		else if (!strcmp(argv[i], "!ipv4"))
			f = (f & ~(BRAID_RG_REROUTE_GW | BRAID_RG_ENABLE)) | BRAID_RG_NOT_IPV4;
		else
			return fail(c, "unknown flag '%s' (expected def1, local, autolocal, "
				    "bypass-dhcp, bypass-dns, block-local, ipv6 or !ipv4)", argv[i]);
	}
	c->o->redirect_gw = f;
	return 0;
}

static int h_dhcp_option(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_dhcp *d;

	if (o->n_dhcp_options >= BRAID_OPT_MAX_DHCP_OPTIONS)
		return fail(c, "too many dhcp-options (max %d)", BRAID_OPT_MAX_DHCP_OPTIONS);
	d = &o->dhcp_options[o->n_dhcp_options];
	d->type = strdup(argv[1]);
	d->value = argc >= 3 ? strdup(argv[2]) : NULL;
	if (!d->type || (argc >= 3 && !d->value)) {
		free(d->type);
		free(d->value);
		d->type = d->value = NULL;
		return fail(c, "out of memory");
	}
	o->n_dhcp_options++;
	return 0;
}

static int h_script(struct ctx *c, int argc, char **argv)
{
	char **dst;

	(void)argc;
	if (!strcmp(argv[0], "up"))
		dst = &c->o->up;
	else if (!strcmp(argv[0], "down"))
		dst = &c->o->down;
	else if (!strcmp(argv[0], "client-connect"))
		dst = &c->o->client_connect;
	else
		dst = &c->o->client_disconnect;
	if (!argv[1][0])
		return fail(c, "empty command");
	return set_str(c, dst, argv[1]);
}

static int h_script_security(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "level", argv[1], 0, 3, &c->o->script_security);
}

static int h_route_gateway(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "dhcp")) {
		c->o->route_gateway_dhcp = true;
		c->o->has_route_gateway = false;
		return 0;
	}
	c->o->route_gateway_dhcp = false;
	c->o->has_route_gateway = !parse_ip4(c, "gateway", argv[1], &c->o->route_gateway);
	return c->o->has_route_gateway ? 0 : -EINVAL;
}

static int h_explicit_exit_notify(struct ctx *c, int argc, char **argv)
{
	if (argc < 2) {
		c->o->explicit_exit_notify = 1;
		return 0;
	}
	return parse_int(c, "count", argv[1], 0, 86400, &c->o->explicit_exit_notify);
}

static int h_setenv(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_setenv *s;

	/* the names OpenVPN's option parser itself reads */
	if (!strcmp(argv[1], "GENERIC_CONFIG"))
		return fail(c, "this is a generic configuration and cannot directly be used");
	if (!strcmp(argv[1], "PUSH_PEER_INFO") && argc == 2) {
		o->push_peer_info = 1;
		return 0;
	}
	if (!strcmp(argv[1], "SERVER_POLL_TIMEOUT") && argc == 3)
		return parse_int(c, "seconds", argv[2], 0, INT_MAX, &o->server_poll_timeout);
	if (!strcmp(argv[1], "FORWARD_COMPATIBLE") && argc == 3 && !strcmp(argv[2], "1"))
		o->forward_compatible = true;	/* and stored, as OpenVPN does */
	if (o->n_setenv >= BRAID_OPT_MAX_SETENV)
		return fail(c, "too many setenv lines (max %d)", BRAID_OPT_MAX_SETENV);
	s = &o->setenv[o->n_setenv];
	s->name = strdup(argv[1]);
	s->value = strdup(argc >= 3 ? argv[2] : "");
	if (!s->name || !s->value) {
		free(s->name);
		free(s->value);
		s->name = s->value = NULL;
		return fail(c, "out of memory");
	}
	o->n_setenv++;
	return 0;
}

static int h_push_peer_info(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->push_peer_info = 1;
	return 0;
}

static int h_persist(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[0], "persist-key"))
		c->o->persist_key = true;
	else
		c->o->persist_tun = true;
	return 0;
}

#define VORACLE_MSG                                                                       \
	"compression is not supported (VORACLE); use 'compress' stub, 'comp-lzo no' or " \
	"'allow-compression no'"

static int h_compress(struct ctx *c, int argc, char **argv)
{
	const char *alg = argc >= 2 ? argv[1] : "stub";

	if (!strcmp(alg, "stub"))
		c->o->compress = BRAID_OPT_COMP_STUB;
	else if (!strcmp(alg, "stub-v2"))
		c->o->compress = BRAID_OPT_COMP_STUBV2;
	else if (!strcmp(alg, "migrate"))
		c->o->compress = BRAID_OPT_COMP_MIGRATE;
	else if (!strcmp(alg, "lzo") || !strcmp(alg, "lz4") || !strcmp(alg, "lz4-v2"))
		return fail(c, "'%s': " VORACLE_MSG, alg);
	else
		return fail(c, "unknown algorithm '%s' (braidd accepts stub, stub-v2 or migrate)",
			    alg);
	return 0;
}

static int h_comp_lzo(struct ctx *c, int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "no")) {
		c->o->compress = BRAID_OPT_COMP_LZO_NO;
		return 0;
	}
	if (argc < 2 || !strcmp(argv[1], "yes") || !strcmp(argv[1], "adaptive"))
		return fail(c, "'%s': " VORACLE_MSG, argc >= 2 ? argv[1] : "adaptive");
	return fail(c, "bad comp-lzo option '%s' (must be 'yes', 'no', or 'adaptive')", argv[1]);
}

static int h_allow_compression(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "no")) {
		c->o->allow_compression_no = true;
		return 0;
	}
	if (!strcmp(argv[1], "yes") || !strcmp(argv[1], "asym"))
		return fail(c, "'%s': " VORACLE_MSG, argv[1]);
	return fail(c, "bad allow-compression option '%s' (must be 'yes', 'no', or 'asym')",
		    argv[1]);
}

static int h_ignore_win(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;
}


/* Options OpenVPN 2.6 knows that real profiles carry: stored for the runtime, or accepted. */
static int h_int_field(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "value", argv[1], 0, INT_MAX, (int *)((char *)c->o + c->def->off));
}

static int h_accept(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;
}

static int h_tun_ipv6(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	braid_warn("option 'tun-ipv6' is ignored (IPv6 on the TUN device is always available)");
	return 0;
}

static int h_route_delay(struct ctx *c, int argc, char **argv)
{
	int e = 0;

	c->o->route_delay = 0;
	if (argc >= 2)
		e = parse_int(c, "seconds", argv[1], 0, 3600, &c->o->route_delay);
	if (!e && argc >= 3) {
		int w;

		e = parse_int(c, "window", argv[2], 0, 3600, &w);
	}
	return e;
}

static int h_inactive(struct ctx *c, int argc, char **argv)
{
	int e = parse_int(c, "seconds", argv[1], 0, INT_MAX, &c->o->inactive);

	if (!e && argc >= 3)
		e = parse_u64(c, "bytes", argv[2], &c->o->inactive_bytes);
	return e;
}

static int h_ns_cert_type(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "server"))
		c->o->ns_cert_type = BRAID_RCT_SERVER;
	else if (!strcmp(argv[1], "client"))
		c->o->ns_cert_type = BRAID_RCT_CLIENT;
	else
		return fail(c, "expected 'server' or 'client', got '%s'", argv[1]);
	return 0;
}

static int h_static_challenge(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (strcmp(argv[2], "0") && strcmp(argv[2], "1"))
		return fail(c, "the echo flag must be 0 or 1, got '%s'", argv[2]);
	c->o->static_challenge_echo = argv[2][0] == '1';
	return set_str(c, &c->o->static_challenge, argv[1]);
}

static int h_mute(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "count", argv[1], 0, INT_MAX, &c->o->mute);
}

/* Options of client-config-dir files: not in the main config (OpenVPN: "cannot be used in this context"). */
static int h_ccd_only(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return fail(c, "can only be used in a client-config-dir file");
}

/* Deliberately unsupported: the message says why. */
static int h_unsupported(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[0], "fragment"))
		return fail(c, "not supported: braidd does not fragment (use mssfix / a smaller "
			    "tun-mtu)");
	if (!strcmp(argv[0], "http-proxy") || !strcmp(argv[0], "socks-proxy"))
		return fail(c, "proxies are not supported by braidd");
	if (!strcmp(argv[0], "plugin"))
		return fail(c, "plugins are not supported by braidd (use scripts: up, down, "
			    "client-connect, auth-user-pass-verify)");
	if (!strcmp(argv[0], "server-bridge"))
		return fail(c, "not supported: server-bridge needs a tap device (braidd is tun only)");
	return fail(c, "not supported by braidd");
}

static int h_blob(struct ctx *c, int argc, char **argv);

/* setenv is handled in braid_options_apply (setenv opt …); plain setenv is kept as a no-op */

#define NOBLOB (-1)
#define MANY 15
#define FIELD(f) NOBLOB, offsetof(struct braid_options, f)

static int h_flag(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	*(bool *)((char *)c->o + c->def->off) = true;
	return 0;
}

static int h_string(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!argv[1][0])
		return fail(c, "empty argument");
	return set_str(c, (char **)((char *)c->o + c->def->off), argv[1]);
}

static const struct opt_def opt_table[] = {
	{ "dev", 1, 1, h_dev, false, NOBLOB, 0 },
	{ "dev-type", 1, 1, h_dev_type, false, NOBLOB, 0 },
	{ "proto", 1, 1, h_proto, false, NOBLOB, 0 },
	{ "remote", 1, 3, h_remote, false, NOBLOB, 0 },
	{ "local", 1, 1, h_local, false, NOBLOB, 0 },
	{ "lport", 1, 1, h_lport, false, NOBLOB, 0 },
	{ "rport", 1, 1, h_rport, false, NOBLOB, 0 },
	{ "port", 1, 1, h_port, false, NOBLOB, 0 },
	{ "nobind", 0, 0, h_nobind, false, NOBLOB, 0 },
	{ "float", 0, 0, h_float, false, NOBLOB, 0 },
	{ "ifconfig", 2, 2, h_ifconfig, false, NOBLOB, 0 },
	{ "ifconfig-ipv6", 2, 2, h_ifconfig6, false, NOBLOB, 0 },
	{ "route", 1, 4, h_route, false, NOBLOB, 0 },
	{ "route-ipv6", 1, 3, h_route6, false, NOBLOB, 0 },
	{ "tun-mtu", 1, 1, h_tun_mtu, false, NOBLOB, 0 },
	{ "topology", 1, 1, h_topology, false, NOBLOB, 0 },
	{ "cipher", 1, 1, h_cipher, false, NOBLOB, 0 },
	{ "data-ciphers", 1, 1, h_data_ciphers, false, NOBLOB, 0 },
	{ "ncp-ciphers", 1, 1, h_data_ciphers, false, NOBLOB, 0 },
	{ "secret", 1, 2, h_secret, true, NOBLOB, 0 },
	{ "key-direction", 1, 1, h_key_direction, false, NOBLOB, 0 },
	{ "keepalive", 2, 2, h_keepalive, false, NOBLOB, 0 },
	{ "ping", 1, 1, h_ping, false, NOBLOB, 0 },
	{ "ping-restart", 1, 1, h_ping_restart, false, NOBLOB, 0 },
	{ "ping-exit", 1, 1, h_ping_exit, false, NOBLOB, 0 },
	{ "verb", 1, 1, h_verb, false, NOBLOB, 0 },
	{ "replay-window", 1, 2, h_replay_window, false, NOBLOB, 0 },
	{ "peer-id", 1, 1, h_peer_id, false, NOBLOB, 0 },
	{ "mssfix", 0, 2, h_mssfix, false, NOBLOB, 0 },
	{ "writepid", 1, 1, h_writepid, false, NOBLOB, 0 },
	{ "log", 1, 1, h_log, false, NOBLOB, 0 },
	{ "log-append", 1, 1, h_log, false, NOBLOB, 0 },
	{ "daemon", 0, 1, h_daemon, false, NOBLOB, 0 },
	{ "ignore-unknown-option", 1, MANY, h_ignore_unknown, false, NOBLOB, 0 },
	{ "setenv", 1, 2, h_setenv, false, NOBLOB, 0 },
	/* braidd always keeps the key and the device across a ping-restart */
	{ "multipath", 0, 1, h_multipath, false, NOBLOB, 0 },
	{ "mp-path", 1, 3, h_mp_path, false, NOBLOB, 0 },
	{ "mp-backup", 1, 1, h_mp_backup, false, NOBLOB, 0 },
	{ "mp-cap", 2, 2, h_mp_cap, false, NOBLOB, 0 },
	{ "mp-scheduler", 1, 2, h_mp_scheduler, false, NOBLOB, 0 },
	{ "mp-reorder-ms", 1, 1, h_mp_reorder_ms, false, NOBLOB, 0 },
	{ "mp-path-timeout", 1, 1, h_mp_path_timeout, false, NOBLOB, 0 },
	{ "status", 1, 2, h_status, false, NOBLOB, 0 },
	{ "control-socket", 1, 1, h_control_socket, false, NOBLOB, 0 },
	{ "mp-class", 2, MANY, h_mp_class, false, NOBLOB, 0 },
	{ "persist-key", 0, 0, h_persist, false, NOBLOB, 0 },
	{ "persist-tun", 0, 0, h_persist, false, NOBLOB, 0 },
	/* role */
	{ "mode", 1, 1, h_mode, false, NOBLOB, 0 },
	{ "client", 0, 0, h_client, false, NOBLOB, 0 },
	{ "tls-client", 0, 0, h_tls_client, false, NOBLOB, 0 },
	{ "tls-server", 0, 0, h_tls_server, false, NOBLOB, 0 },
	{ "pull", 0, 0, h_pull, false, NOBLOB, 0 },
	/* transport (client) */
	{ "remote-random", 0, 0, h_remote_random, false, NOBLOB, 0 },
	{ "resolv-retry", 1, 1, h_resolv_retry, false, NOBLOB, 0 },
	{ "connect-retry", 1, 2, h_connect_retry, false, NOBLOB, 0 },
	{ "connect-retry-max", 1, 1, h_connect_retry_max, false, NOBLOB, 0 },
	{ "server-poll-timeout", 1, 1, h_server_poll_timeout, false, NOBLOB, 0 },
	{ "connect-timeout", 1, 1, h_server_poll_timeout, false, NOBLOB, 0 },
	/* TLS */
	{ "auth", 1, 1, h_auth, false, NOBLOB, 0 },
	{ "tls-version-min", 1, 2, h_tls_version_min, false, NOBLOB, 0 },
	{ "tls-version-max", 1, 1, h_tls_version_max, false, NOBLOB, 0 },
	{ "tls-cipher", 1, 1, h_string, false, FIELD(tls_cipher) },
	{ "tls-ciphersuites", 1, 1, h_string, false, FIELD(tls_ciphersuites) },
	{ "tls-groups", 1, 1, h_string, false, FIELD(tls_groups) },
	{ "remote-cert-tls", 1, 1, h_remote_cert_tls, false, NOBLOB, 0 },
	{ "verify-x509-name", 1, 2, h_verify_x509_name, false, NOBLOB, 0 },
	{ "verify-client-cert", 1, 1, h_verify_client_cert, false, NOBLOB, 0 },
	{ "client-cert-not-required", 0, 0, h_client_cert_not_required, false, NOBLOB, 0 },
	{ "hand-window", 1, 1, h_hand_window, false, NOBLOB, 0 },
	{ "tls-timeout", 1, 1, h_tls_timeout, false, NOBLOB, 0 },
	{ "tran-window", 1, 1, h_tran_window, false, NOBLOB, 0 },
	{ "reneg-sec", 1, 2, h_reneg_sec, false, NOBLOB, 0 },
	{ "reneg-bytes", 1, 1, h_reneg_bytes, false, NOBLOB, 0 },
	{ "reneg-pkts", 1, 1, h_reneg_pkts, false, NOBLOB, 0 },
	{ "key-method", 1, 1, h_key_method, false, NOBLOB, 0 },
	{ "data-ciphers-fallback", 1, 1, h_string, false, FIELD(data_ciphers_fallback) },
	{ "tls-exit", 0, 0, h_flag, false, FIELD(tls_exit) },
	/* client */
	{ "auth-retry", 1, 1, h_auth_retry, false, NOBLOB, 0 },
	{ "auth-nocache", 0, 0, h_flag, false, FIELD(auth_nocache) },
	{ "route-nopull", 0, 0, h_flag, false, FIELD(route_nopull) },
	{ "pull-filter", 2, 2, h_pull_filter, false, NOBLOB, 0 },
	{ "redirect-gateway", 0, MANY, h_redirect_gateway, false, NOBLOB, 0 },
	{ "redirect-private", 0, MANY, h_redirect_gateway, false, NOBLOB, 0 },
	{ "dhcp-option", 1, 2, h_dhcp_option, false, NOBLOB, 0 },
	{ "up", 1, 1, h_script, false, NOBLOB, 0 },
	{ "down", 1, 1, h_script, false, NOBLOB, 0 },
	{ "script-security", 1, 1, h_script_security, false, NOBLOB, 0 },
	{ "route-gateway", 1, 1, h_route_gateway, false, NOBLOB, 0 },
	{ "explicit-exit-notify", 0, 1, h_explicit_exit_notify, false, NOBLOB, 0 },
	{ "push-peer-info", 0, 0, h_push_peer_info, false, NOBLOB, 0 },
	{ "compress", 0, 1, h_compress, false, NOBLOB, 0 },
	{ "comp-lzo", 0, 1, h_comp_lzo, false, NOBLOB, 0 },
	{ "allow-compression", 1, 1, h_allow_compression, false, NOBLOB, 0 },
	/* gateway */
	{ "server", 2, 3, h_server, false, NOBLOB, 0 },
	{ "server-ipv6", 1, 1, h_server6, false, NOBLOB, 0 },
	{ "ifconfig-pool", 2, 3, h_ifconfig_pool, false, NOBLOB, 0 },
	{ "push", 1, 1, h_push, false, NOBLOB, 0 },
	{ "client-config-dir", 1, 1, h_string, false, FIELD(client_config_dir) },
	{ "ccd-exclusive", 0, 0, h_flag, false, FIELD(ccd_exclusive) },
	{ "client-to-client", 0, 0, h_flag, false, FIELD(client_to_client) },
	{ "duplicate-cn", 0, 0, h_flag, false, FIELD(duplicate_cn) },
	{ "username-as-common-name", 0, 0, h_flag, false, FIELD(username_as_common_name) },
	{ "auth-user-pass-optional", 0, 0, h_flag, false, FIELD(auth_user_pass_optional) },
	{ "max-clients", 1, 1, h_max_clients, false, NOBLOB, 0 },
	{ "auth-user-pass-verify", 2, 2, h_aupv, false, NOBLOB, 0 },
	{ "status-version", 1, 1, h_status_version, false, NOBLOB, 0 },
	{ "ifconfig-pool-persist", 1, 2, h_ifconfig_pool_persist, false, NOBLOB, 0 },
	{ "connect-freq", 2, 2, h_connect_freq, false, NOBLOB, 0 },
	{ "client-connect", 1, 1, h_script, false, NOBLOB, 0 },
	{ "client-disconnect", 1, 1, h_script, false, NOBLOB, 0 },
	{ "user", 1, 1, h_string, false, FIELD(user) },
	{ "group", 1, 1, h_string, false, FIELD(group) },
	/* management interface: stored */
	{ "management", 2, 3, h_management, false, NOBLOB, 0 },
	{ "management-hold", 0, 0, h_flag, false, FIELD(management_hold) },
	{ "management-client-auth", 0, 0, h_flag, false, FIELD(management_client_auth) },
	{ "management-query-passwords", 0, 0, h_flag, false, FIELD(management_query_passwords) },
	/* accepted / stored: common in real profiles */
	{ "tun-ipv6", 0, 0, h_tun_ipv6, false, NOBLOB, 0 },
	{ "fast-io", 0, 0, h_accept, false, NOBLOB, 0 },
	{ "tun-mtu-extra", 1, 1, h_accept, false, NOBLOB, 0 },
	{ "comp-noadapt", 0, 0, h_accept, false, NOBLOB, 0 },
	{ "mute-replay-warnings", 0, 0, h_flag, false, FIELD(mute_replay_warnings) },
	{ "mute", 1, 1, h_mute, false, NOBLOB, 0 },
	{ "sndbuf", 1, 1, h_int_field, false, FIELD(sndbuf) },
	{ "rcvbuf", 1, 1, h_int_field, false, FIELD(rcvbuf) },
	{ "ping-timer-rem", 0, 0, h_flag, false, FIELD(ping_timer_rem) },
	{ "route-delay", 0, 2, h_route_delay, false, NOBLOB, 0 },
	{ "route-metric", 1, 1, h_int_field, false, FIELD(route_metric) },
	{ "route-noexec", 0, 0, h_flag, false, FIELD(route_noexec) },
	{ "ifconfig-noexec", 0, 0, h_flag, false, FIELD(ifconfig_noexec) },
	{ "inactive", 1, 2, h_inactive, false, NOBLOB, 0 },
	{ "disable-occ", 0, 0, h_flag, false, FIELD(disable_occ) },
	{ "block-ipv6", 0, 0, h_flag, false, FIELD(block_ipv6) },
	{ "ns-cert-type", 1, 1, h_ns_cert_type, false, NOBLOB, 0 },
	{ "remote-cert-ku", 0, MANY, h_accept, false, NOBLOB, 0 },
	{ "remote-cert-eku", 1, 1, h_string, false, FIELD(remote_cert_eku) },
	{ "tls-cert-profile", 1, 1, h_string, false, FIELD(tls_cert_profile) },
	{ "static-challenge", 2, 2, h_static_challenge, false, NOBLOB, 0 },
	/* client-config-dir file options */
	{ "ifconfig-push", 1, 3, h_ccd_only, false, NOBLOB, 0 },
	{ "ifconfig-ipv6-push", 1, 2, h_ccd_only, false, NOBLOB, 0 },
	{ "iroute", 1, 2, h_ccd_only, false, NOBLOB, 0 },
	{ "iroute-ipv6", 1, 1, h_ccd_only, false, NOBLOB, 0 },
	{ "push-reset", 0, 0, h_ccd_only, false, NOBLOB, 0 },
	{ "push-remove", 1, 1, h_ccd_only, false, NOBLOB, 0 },
	{ "disable", 0, 0, h_ccd_only, false, NOBLOB, 0 },
	/* OpenVPN on Linux accepts it (it only matters on Windows) */
	{ "route-method", 1, 1, h_ignore_win, false, NOBLOB, 0 },
	/* deliberately unsupported */
	{ "fragment", 1, 2, h_unsupported, false, NOBLOB, 0 },
	{ "http-proxy", 1, 4, h_unsupported, false, NOBLOB, 0 },
	{ "socks-proxy", 1, 3, h_unsupported, false, NOBLOB, 0 },
	{ "plugin", 1, MANY, h_unsupported, false, NOBLOB, 0 },
	{ "server-bridge", 0, 4, h_unsupported, false, NOBLOB, 0 },
	/* kept for the TLS mode: a file name or an inline block */
	{ "ca", 1, 1, h_blob, true, BRAID_BLOB_CA, 0 },
	{ "cert", 1, 1, h_blob, true, BRAID_BLOB_CERT, 0 },
	{ "key", 1, 1, h_blob, true, BRAID_BLOB_KEY, 0 },
	{ "extra-certs", 1, 1, h_blob, true, BRAID_BLOB_EXTRA_CERTS, 0 },
	{ "dh", 1, 1, h_blob, true, BRAID_BLOB_DH, 0 },
	{ "tls-auth", 1, 2, h_blob, true, BRAID_BLOB_TLS_AUTH, 0 },
	{ "tls-crypt", 1, 1, h_blob, true, BRAID_BLOB_TLS_CRYPT, 0 },
	{ "tls-crypt-v2", 1, 2, h_tls_crypt_v2, true, BRAID_BLOB_TLS_CRYPT_V2, 0 },
	{ "crl-verify", 1, 2, h_blob, true, BRAID_BLOB_CRL_VERIFY, 0 },
	{ "pkcs12", 1, 1, h_pkcs12, true, BRAID_BLOB_PKCS12, 0 },
	{ "auth-user-pass", 0, 1, h_blob, true, BRAID_BLOB_AUTH_USER_PASS, 0 },
	{ "http-proxy-user-pass", 1, 1, h_blob, true, BRAID_BLOB_HTTP_PROXY_USER_PASS, 0 },
	{ "peer-fingerprint", 1, 1, h_blob, true, BRAID_BLOB_PEER_FINGERPRINT, 0 },
};

static const struct opt_def *opt_find(const char *name)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (!strcmp(opt_table[i].name, name))
			return &opt_table[i];
	return NULL;
}

static int h_blob(struct ctx *c, int argc, char **argv)
{
	const struct opt_def *d = c->def;
	int e, dir = KEY_DIR_UNSET;

	if (!c->inl && argc < 2)	/* auth-user-pass without a file */
		return fail(c, "needs a file or an inline block: braidd cannot prompt");
	if (d->blob == BRAID_BLOB_TLS_AUTH && !c->inl && argc >= 3) {
		e = parse_dir(c, argv[2], &dir);
		if (e)
			return e;
	}
	if (d->blob == BRAID_BLOB_CRL_VERIFY && !c->inl && argc >= 3 && strcmp(argv[2], "dir"))
		return fail(c, "unknown flag '%s' (expected dir)", argv[2]);
	if (!c->inl && !argv[1][0])
		return fail(c, "empty file name");
	e = set_source(c, &c->o->blobs[d->blob], c->inl ? NULL : argv[1]);
	if (e)
		return e;
	switch (d->blob) {
	case BRAID_BLOB_TLS_AUTH:	/* inline: the direction is key-direction's */
		c->o->tls_auth_dir = dir;
		break;
	case BRAID_BLOB_CRL_VERIFY:
		c->o->crl_verify_dir = !c->inl && argc >= 3;
		break;
	case BRAID_BLOB_AUTH_USER_PASS:
		c->o->has_auth_user_pass = true;
		break;
	case BRAID_BLOB_DH:
		c->o->dh_none = !c->inl && !strcmp(argv[1], "none");
		break;
	default:
		break;
	}
	return 0;
}

const char *braid_options_blob_name(enum braid_opt_blob b)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (opt_table[i].blob == (int)b)
			return opt_table[i].name;
	return "?";
}

const char *braid_options_proto_name(enum braid_opt_proto p)
{
	switch (p) {
	case BRAID_PROTO_UDP:
		return "udp";
	case BRAID_PROTO_TCP_CLIENT:
		return "tcp-client";
	case BRAID_PROTO_TCP_SERVER:
		return "tcp-server";
	}
	return "?";
}

bool braid_options_inline_ok(const char *name)
{
	const struct opt_def *d = opt_find(name);

	return d && d->inline_ok;
}

void braid_options_init(struct braid_options *o)
{
	memset(o, 0, sizeof(*o));
	o->tun_mtu = 1500;
	o->mssfix = BRAID_OPT_DEFAULT_MSSFIX;
	o->family = AF_UNSPEC;
	o->lport = o->rport = BRAID_OPT_DEFAULT_PORT;
	o->secret_dir = KEY_DIR_UNSET;
	o->key_direction = KEY_DIR_UNSET;
	o->verb = BRAID_LOG_VERB_DEFAULT;
	o->multipath = -1;
	strcpy(o->mp_sched, "edf");
	o->mp_path_timeout = 30;
	o->status_interval = 60;
	o->resolv_retry = -1;
	o->connect_retry = 1;
	o->connect_retry_max_backoff = 300;
	o->server_poll_timeout = 120;
	strcpy(o->auth_digest, "SHA1");
	o->hand_window = 60;
	o->tls_timeout = 2;
	o->reneg_sec = 3600;
	o->reneg_sec_min = -1;
	o->tran_window = 3600;
	o->key_method = 2;
	o->tls_auth_dir = KEY_DIR_UNSET;
	o->script_security = 1;
	o->max_clients = 1024;
	o->status_version = 1;
	o->ifconfig_pool_persist_sec = 600;
	o->route_delay = -1;
}

void braid_options_free(struct braid_options *o)
{
	unsigned int i;

	for (i = 0; i < o->n_remotes; i++)
		free(o->remotes[i].host);
	for (i = 0; i < o->n_ignore_unknown; i++)
		free(o->ignore_unknown[i]);
	for (i = 0; i < BRAID_BLOB_COUNT; i++)
		source_clear(&o->blobs[i]);
	source_clear(&o->secret);
	for (i = 0; i < o->n_mp_paths; i++) {
		free(o->mp_paths[i].local);
		free(o->mp_paths[i].remote);
	}
	for (i = 0; i < o->n_mp_attrs; i++) {
		free(o->mp_attrs[i].local);
		free(o->mp_attrs[i].file);
	}
	free(o->control_socket);
	free(o->status_path);
	free(o->local);
	free(o->log_path);
	free(o->writepid);
	free(o->tls_cipher);
	free(o->tls_ciphersuites);
	free(o->tls_groups);
	free(o->verify_x509_name);
	free(o->data_ciphers_fallback);
	for (i = 0; i < o->n_pull_filters; i++)
		free(o->pull_filters[i].text);
	for (i = 0; i < o->n_dhcp_options; i++) {
		free(o->dhcp_options[i].type);
		free(o->dhcp_options[i].value);
	}
	free(o->up);
	free(o->down);
	for (i = 0; i < o->n_setenv; i++) {
		free(o->setenv[i].name);
		free(o->setenv[i].value);
	}
	for (i = 0; i < o->n_push; i++)
		free(o->push[i]);
	free(o->client_config_dir);
	free(o->auth_user_pass_verify);
	free(o->ifconfig_pool_persist);
	free(o->client_connect);
	free(o->client_disconnect);
	free(o->user);
	free(o->group);
	free(o->management_host);
	free(o->management_pwfile);
	free(o->remote_cert_eku);
	free(o->tls_cert_profile);
	free(o->static_challenge);
	free(o->conn.host);
	for (i = 0; i < o->n_where; i++)
		free(o->where[i].file);
	memset(o, 0, sizeof(*o));
}

static bool ignored_unknown(const struct braid_options *o, const char *name)
{
	for (unsigned int i = 0; i < o->n_ignore_unknown; i++)
		if (!strcmp(o->ignore_unknown[i], name))
			return true;
	return false;
}

/* Options only OpenVPN for Windows knows (unknown to OpenVPN on Linux as well). */
static const char *const windows_only[] = {
	"block-outside-dns", "register-dns", "ip-win32", "dhcp-renew", "dhcp-release",
	"dhcp-pre-release", "tap-sleep", "show-net-up", "windows-driver", "allow-nonadmin",
	"win-sys", "service", "show-adapters", "show-valid-subnets", "show-net", "cryptoapicert",
};

static bool is_windows_only(const char *name)
{
	for (size_t i = 0; i < sizeof(windows_only) / sizeof(windows_only[0]); i++)
		if (!strcmp(windows_only[i], name))
			return true;
	return false;
}

static int unknown(struct braid_options *o, const char *name, const struct braid_opt_loc *loc,
		   bool ignore, char *err, size_t err_len)
{
	char where[300];

	if (loc->file)
		snprintf(where, sizeof(where), " in %s:%d", loc->file, loc->line);
	else
		where[0] = '\0';
	if (ignore || o->forward_compatible || ignored_unknown(o, name)) {
		braid_warn("Ignoring unknown option '%s'%s (%s)", name, where,
			   o->forward_compatible && !ignore && !ignored_unknown(o, name)
				   ? "setenv FORWARD_COMPATIBLE 1"
				   : "ignore-unknown-option");
		o->n_ignored++;
		return 0;
	}
	if (is_windows_only(name)) {
		if (loc->file)
			snprintf(err, err_len,
				 "%s:%d: option '%s': Windows-only option, not available on Linux "
				 "(use 'setenv opt %s' or 'ignore-unknown-option %s' in a shared profile)",
				 loc->file, loc->line, name, name, name);
		else
			snprintf(err, err_len,
				 "command line: option '%s': Windows-only option, not available on "
				 "Linux",
				 name);
		return -EINVAL;
	}
	if (loc->file)
		snprintf(err, err_len, "Unrecognized option or missing or extra parameter(s)%s: %s",
			 where, name);
	else
		snprintf(err, err_len, "Unrecognized option or missing or extra parameter(s): --%s",
			 name);
	return -EINVAL;
}

/* OpenVPN's connection options (OPT_P_CONNECTION); the others are refused inside a block. */
static const char *const connection_opts[] = {
	"remote", "proto", "port", "rport", "lport", "local", "nobind", "bind", "float",
	"connect-retry", "connect-retry-max", "connect-timeout", "server-poll-timeout",
	"explicit-exit-notify", "tun-mtu", "tun-mtu-extra", "tun-mtu-max", "link-mtu", "mssfix",
	"mtu-disc", "fragment", "key-direction", "tls-auth", "tls-crypt", "tls-crypt-v2",
	"http-proxy", "http-proxy-option", "socks-proxy", "max-packet-size",
};

static bool connection_opt(const char *name)
{
	for (size_t i = 0; i < sizeof(connection_opts) / sizeof(connection_opts[0]); i++)
		if (!strcmp(connection_opts[i], name))
			return true;
	return false;
}

int braid_options_connection_begin(struct braid_options *o, const struct braid_opt_loc *loc,
				   char *err, size_t err_len)
{
	struct ctx c = { o, loc, "connection", NULL, err, err_len, NULL };

	if (o->in_connection)
		return fail(&c, "<connection> blocks cannot be nested");
	if (o->n_remotes >= BRAID_OPT_MAX_REMOTES)
		return fail(&c, "too many remotes (max %d)", BRAID_OPT_MAX_REMOTES);
	free(o->conn.host);
	memset(&o->conn, 0, sizeof(o->conn));
	/* a block starts from the connection options given so far (OpenVPN copies them) */
	if (o->has_proto_opt) {
		o->conn.proto = o->proto;
		o->conn.family = o->family;
		o->conn.proto_tcp_generic = o->proto_tcp_generic;
		o->conn.has_proto = true;
	}
	o->conn.nobind = o->nobind;
	o->conn.from_connection = true;
	o->conn_has_remote = false;
	o->in_connection = true;
	return 0;
}

int braid_options_connection_end(struct braid_options *o, const struct braid_opt_loc *loc,
				 char *err, size_t err_len)
{
	struct ctx c = { o, loc, "connection", NULL, err, err_len, NULL };

	o->in_connection = false;
	if (!o->conn_has_remote) {
		free(o->conn.host);
		o->conn.host = NULL;
		return fail(&c, "each <connection> block must contain exactly one 'remote' directive");
	}
	o->remotes[o->n_remotes++] = o->conn;
	memset(&o->conn, 0, sizeof(o->conn));
	o->had_connection = true;
	return 0;
}

static int apply(struct braid_options *o, int argc, char **argv, const char *inline_text,
		 const struct braid_opt_loc *loc, bool ignore_unknown, char *err, size_t err_len)
{
	struct ctx c = { o, loc, argv[0], inline_text, err, err_len, NULL };
	const struct opt_def *d;
	int n = argc - 1;

	/* `setenv opt X …`: OpenVPN 2.4+ — apply X, ignore it if unknown */
	if (!strcmp(argv[0], "setenv") && argc >= 3 && !strcmp(argv[1], "opt") && !inline_text)
		return apply(o, argc - 2, argv + 2, NULL, loc, true, err, err_len);

	d = opt_find(argv[0]);
	if (o->in_connection && d && !connection_opt(argv[0]))
		return fail(&c, "cannot be used inside a <connection> block (only remote, proto, "
			    "port, rport, lport, local, nobind, float, connect-retry[-max], "
			    "connect-timeout, server-poll-timeout, explicit-exit-notify, tun-mtu, "
			    "mssfix, key-direction, tls-auth, tls-crypt)");
	if (!d)
		return unknown(o, argv[0], loc, ignore_unknown, err, err_len);
	c.def = d;
	if (inline_text) {
		if (!d->inline_ok)
			return fail(&c, "does not take an inline <%s> block", argv[0]);
		if (n != 0)
			return fail(&c, "an inline block takes no arguments");
		return d->fn(&c, argc, argv);
	}
	if (n < d->min_args || n > d->max_args) {
		/* (the argument count is checked before the handler runs) */
		if (d->min_args == d->max_args)
			return fail(&c, "expects %d argument%s, got %d", d->min_args,
				    d->min_args == 1 ? "" : "s", n);
		if (d->max_args == MANY)
			return fail(&c, "expects at least %d argument%s, got %d", d->min_args,
				    d->min_args == 1 ? "" : "s", n);
		return fail(&c, "expects %d to %d arguments, got %d", d->min_args, d->max_args, n);
	}
	return d->fn(&c, argc, argv);
}

/* Remember where `name` (a table name) was given last. */
static void note_where(struct braid_options *o, const char *name, const struct braid_opt_loc *loc)
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

int braid_options_apply(struct braid_options *o, int argc, char **argv, const char *inline_text,
			const struct braid_opt_loc *loc, char *err, size_t err_len)
{
	const struct opt_def *d;
	int r;

	if (argc < 1)
		return 0;
	r = apply(o, argc, argv, inline_text, loc, false, err, err_len);
	/* `setenv opt X` counts as X */
	d = opt_find(argc >= 3 && !strcmp(argv[0], "setenv") && !strcmp(argv[1], "opt") ? argv[2]
											 : argv[0]);
	if (!r && d)
		note_where(o, d->name, loc);
	return r;
}

/* "FILE:LINE: option 'NAME': MESSAGE" with the place NAME was given (if it was). */
__attribute__((format(printf, 5, 6))) static int lfail(const struct braid_options *o, char *err,
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
static const char *role_opt(const struct braid_options *o)
{
	if (o->client)
		return "client";
	if (o->has_server)
		return "server";
	return o->tls == BRAID_TLS_CLIENT ? "tls-client" : "tls-server";
}

__attribute__((format(printf, 3, 4))) static int ffail(char *err, size_t err_len, const char *fmt,
							 ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool mp_has_remote(const struct braid_options *o)
{
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (o->mp_paths[i].remote)
			return true;
	return false;
}

static int finalize_mp(struct braid_options *o, char *err, size_t err_len)
{
	if (o->multipath < 0)
		o->multipath = o->n_mp_paths > 0;
	for (unsigned int i = 0; i < o->n_mp_attrs; i++) {
		const struct braid_opt_mp_attr *a = &o->mp_attrs[i];
		bool found = false;

		for (unsigned int k = 0; k < o->n_mp_paths; k++) {
			if (strcmp(o->mp_paths[k].local, a->local))
				continue;
			found = true;
			if (a->backup)
				o->mp_paths[k].backup = true;
			if (a->cap_bps)
				o->mp_paths[k].cap_bps = a->cap_bps;
		}
		if (!found) {
			char where[300] = "";

			if (a->file)
				snprintf(where, sizeof(where), "%s:%d: ", a->file, a->line);
			return ffail(err, err_len,
				     "%soption '%s': no 'mp-path %s' names this local address", where,
				     a->backup ? "mp-backup" : "mp-cap", a->local);
		}
	}
	if (!o->multipath) {
		if (o->n_mp_paths)
			return ffail(err, err_len,
				     "option 'mp-path' given with 'multipath off': remove one of them");
		return 0;
	}
	if (o->nobind && !o->n_mp_paths)
		return ffail(err, err_len, "option 'multipath': 'nobind' needs 'mp-path' lines");
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (!o->mp_paths[i].remote && o->n_remotes == 0 && o->nobind)
			return ffail(err, err_len,
				     "option 'mp-path %s': no remote on the line and no 'remote': with "
				     "'nobind' the peer could never reach this path",
				     o->mp_paths[i].local);
	if (o->float_ok)
		braid_warn("option 'float' has no effect with multipath (authenticated paths are "
			   "learned and validated)");
	if (!o->replay_window)
		o->replay_window = 65536;	/* the reorder depth of several paths at full rate */
	return 0;
}

static bool has_blob(const struct braid_options *o, enum braid_opt_blob b)
{
	return o->blobs[b].path || o->blobs[b].inline_text;
}

/* `client`, `server`, `mode`, tls-client/-server and `secret`: OpenVPN's helper + checks. */
static int finalize_role(struct braid_options *o, char *err, size_t err_len)
{
	bool secret = o->secret.path || o->secret.inline_text;

	if (o->client) {
		if (o->has_server)
			return lfail(o, err, err_len, "server",
				     "'server' and 'client' cannot be used together");
		o->pull = true;
		o->opt_tls_client = true;
	}
	if (o->has_server) {
		if (secret)
			return lfail(o, err, err_len, "server",
				     "'server' and 'secret' cannot be used together "
				     "(you must use SSL/TLS keys)");
		if (o->has_ifconfig_pool && !o->server_nopool)
			return lfail(o, err, err_len, "ifconfig-pool",
				     "'server' already defines an ifconfig-pool, "
				     "so you can't also specify 'ifconfig-pool' explicitly (or add "
				     "'nopool' to 'server')");
		o->mode = BRAID_MODE_SERVER;
		o->opt_tls_server = true;
	}
	if ((int)o->opt_tls_client + (int)o->opt_tls_server + (int)secret > 1)
		return lfail(o, err, err_len, secret ? "secret" : "tls-server",
			     "specify only one of 'tls-server', 'tls-client' (or 'client'), or "
			     "'secret'");
	o->tls = o->opt_tls_client ? BRAID_TLS_CLIENT
		 : o->opt_tls_server ? BRAID_TLS_SERVER : BRAID_TLS_OFF;
	return 0;
}

/* Options that only make sense in mode server, named as OpenVPN names them. */
static int finalize_not_server(const struct braid_options *o, char *err, size_t err_len)
{
	const char *bad = NULL;

	if (o->has_ifconfig_pool || o->ifconfig_pool_persist)
		bad = "ifconfig-pool";
	else if (o->client_connect)
		bad = "client-connect";
	else if (o->client_disconnect)
		bad = "client-disconnect";
	else if (o->client_config_dir || o->ccd_exclusive)
		bad = "client-config-dir";
	else if (o->client_to_client)
		bad = "client-to-client";
	else if (o->duplicate_cn)
		bad = "duplicate-cn";
	else if (o->connect_freq_n)
		bad = "connect-freq";
	else if (o->has_vcc_opt)
		bad = "verify-client-cert";
	else if (o->username_as_common_name)
		bad = "username-as-common-name";
	else if (o->auth_user_pass_optional)
		bad = "auth-user-pass-optional";
	else if (o->auth_user_pass_verify)
		bad = "auth-user-pass-verify";
	else if (o->has_server6)
		bad = "server-ipv6";
	else if (o->n_push)
		bad = "push";
	if (bad)
		return lfail(o, err, err_len, bad, "requires 'mode server' (or 'server')");
	return 0;
}

static int finalize_server(struct braid_options *o, char *err, size_t err_len)
{
	if (o->tls != BRAID_TLS_SERVER)
		return lfail(o, err, err_len, "mode", "'mode server' requires 'tls-server'");
	if (o->pull)
		return lfail(o, err, err_len, "pull", "cannot be used with 'mode server'");
	if (o->n_remotes)
		return lfail(o, err, err_len, "remote",
			     o->remotes[0].from_connection
				     ? "<connection> cannot be used with 'mode server'"
				     : "cannot be used with 'mode server'");
	if (o->nobind)
		return lfail(o, err, err_len, "nobind", "cannot be used with 'mode server'");
	if (o->proto == BRAID_PROTO_TCP_CLIENT)
		return lfail(o, err, err_len, "proto",
			     "'mode server' supports only udp, tcp-server, "
			     "tcp4-server or tcp6-server");
	if (o->connect_freq_n && o->proto != BRAID_PROTO_UDP)
		return lfail(o, err, err_len, "connect-freq",
			     "only works with 'proto udp' (try 'max-clients')");
	if (o->redirect_gw & (BRAID_RG_ENABLE | BRAID_RG_IPV6))
		return lfail(o, err, err_len, "redirect-gateway",
			     "cannot be used with 'mode server' (however "
			     "'push \"redirect-gateway\"' is fine)");
	if (o->has_auth_user_pass)
		return lfail(o, err, err_len, "auth-user-pass",
			     "cannot be used with 'mode server' (it is a "
			     "client option)");
	if (o->ccd_exclusive && !o->client_config_dir)
		return lfail(o, err, err_len, "ccd-exclusive",
			     "must be used with 'client-config-dir'");
	if (o->has_ifconfig_pool && o->ifconfig_pool_mask.s_addr && o->topology != BRAID_TOPO_SUBNET)
		return lfail(o, err, err_len, "ifconfig-pool",
			     "the third parameter (netmask) is only valid with "
			     "'topology subnet'");
	if (o->verify_client_cert != BRAID_VCC_REQUIRE && !o->auth_user_pass_verify)
		return lfail(o, err, err_len, "verify-client-cert",
			     "'none' and 'optional' need "
			     "'auth-user-pass-verify' (else any client gets in)");
	if (o->username_as_common_name && !o->auth_user_pass_verify)
		return lfail(o, err, err_len, "username-as-common-name",
			     "needs 'auth-user-pass-verify'");
	if (o->auth_user_pass_optional && !o->auth_user_pass_verify)
		return lfail(o, err, err_len, "auth-user-pass-optional",
			     "needs 'auth-user-pass-verify'");
	if (o->has_server) {
		int bits = mask_to_prefix(o->server_mask);

		if (bits < 16)
			return lfail(o, err, err_len, "server",
				     "netmask allows for too many host addresses "
				     "(subnet must be 255.255.0.0 or higher)");
		if (bits > 29)
			return lfail(o, err, err_len, "server",
				     "with 'dev tun' it must define a subnet of "
				     "255.255.255.248 or lower");
	}
	if (o->has_server6 && o->server_nopool)
		return lfail(o, err, err_len, "server-ipv6",
			     "incompatible with the 'nopool' flag of 'server'");
	/* OpenVPN's server uses twice the pushed ping-restart itself */
	if (o->keepalive_ping)
		o->ping_restart = 2 * o->keepalive_restart;
	return 0;
}

static int finalize_tls(struct braid_options *o, char *err, size_t err_len)
{
	bool server = o->tls == BRAID_TLS_SERVER;
	bool cert = has_blob(o, BRAID_BLOB_CERT), key = has_blob(o, BRAID_BLOB_KEY);

	if (!has_blob(o, BRAID_BLOB_CA) && !has_blob(o, BRAID_BLOB_PEER_FINGERPRINT))
		return lfail(o, err, err_len, role_opt(o),
			     "You must define CA file (--ca) and/or peer fingerprint verification "
			     "(--peer-fingerprint)");
	if (o->pull) {
		if (!cert && !key && !o->has_auth_user_pass)
			return lfail(o, err, err_len, role_opt(o),
				     "No client-side authentication method is specified.  You must "
				     "use either --cert/--key or --auth-user-pass");
		if (cert != key)
			return lfail(o, err, err_len, cert ? "cert" : "key",
				     "If you use one of --cert or --key, you must use them both");
	} else {
		if (!cert)
			return lfail(o, err, err_len, role_opt(o),
				     "You must define certificate file (--cert)");
		if (!key)
			return lfail(o, err, err_len, role_opt(o),
				     "You must define private key file (--key)");
	}
	if (o->has_auth_user_pass && !o->pull)
		return lfail(o, err, err_len, "auth-user-pass", "requires 'pull' (or 'client')");
	if (has_blob(o, BRAID_BLOB_TLS_AUTH) && has_blob(o, BRAID_BLOB_TLS_CRYPT))
		return lfail(o, err, err_len, "tls-crypt",
			     "'tls-auth' and 'tls-crypt' are mutually exclusive");
	if (server && !has_blob(o, BRAID_BLOB_DH))
		return lfail(o, err, err_len, role_opt(o),
			     "You must define DH file (--dh), or 'dh none' (ECDH only)");
	if (o->tls_version_min[0] && o->tls_version_max[0] &&
	    strcmp(o->tls_version_min, o->tls_version_max) > 0)
		return lfail(o, err, err_len, "tls-version-min", "bigger than 'tls-version-max'");
	/* the runtime picks the rekey time in [min, max]: OpenVPN's server jitters by 10 % */
	if (o->reneg_sec_min < 0)
		o->reneg_sec_min = o->reneg_sec - (o->mode == BRAID_MODE_SERVER ? o->reneg_sec / 10 : 0);
	if (!o->has_topology)	/* OpenVPN 2.6's default (2.7 changes it to subnet) */
		o->topology = BRAID_TOPO_NET30;
	return 0;
}

/* Static-key (and multipath) mode: no TLS-only directive, UDP only. */
static int finalize_static(struct braid_options *o, char *err, size_t err_len)
{
	const char *tls_only = NULL;

	for (unsigned int i = 0; i < o->n_remotes; i++)
		if (o->remotes[i].has_proto && o->remotes[i].proto != BRAID_PROTO_UDP)
			return lfail(o, err, err_len, "remote",
				     "'%s': only udp is supported in static-key mode",
				     o->remotes[i].host);
	if (o->verify_x509_name)
		tls_only = "verify-x509-name";
	else if (o->tls_cipher || o->tls_ciphersuites || o->tls_groups)
		tls_only = o->tls_cipher ? "tls-cipher" : o->tls_ciphersuites ? "tls-ciphersuites"
											: "tls-groups";
	else if (o->tls_parm_opt)
		tls_only = o->tls_parm_opt;
	else if (o->remote_cert_tls)
		tls_only = "remote-cert-tls";
	else if (o->push_peer_info)
		tls_only = "push-peer-info";
	else if (o->tls_exit)
		tls_only = "tls-exit";
	else if (o->pull)
		tls_only = "pull";
	if (tls_only)
		return lfail(o, err, err_len, tls_only,
			     "can only be specified in TLS mode, i.e. with 'tls-server' or "
			     "'tls-client' (or 'client'/'server'), not with 'secret'");
	if (o->has_auth_user_pass)
		return lfail(o, err, err_len, "auth-user-pass", "requires 'pull' (or 'client')");
	/* braidd's static-key mode kept these before the TLS mode existed: a warning, as before */
	for (unsigned int i = 0; i < BRAID_BLOB_COUNT; i++)
		if (has_blob(o, (enum braid_opt_blob)i))
			braid_warn("option '%s' is ignored in static-key mode",
				   braid_options_blob_name((enum braid_opt_blob)i));
	return 0;
}

/* Both modes: data cipher default, addresses, keepalive sanity. */
static int finalize_common(struct braid_options *o, char *err, size_t err_len)
{
	if (!o->cipher[0]) {
		if (o->data_ciphers[0]) {
			size_t n = strcspn(o->data_ciphers, ":");

			memcpy(o->cipher, o->data_ciphers, n);
			o->cipher[n] = '\0';
		} else {
			strcpy(o->cipher, "AES-256-GCM");
		}
	}
	if (o->has_ifconfig) {
		bool netmask;

		if (o->has_topology)
			netmask = o->topology == BRAID_TOPO_SUBNET;
		else	/* no topology: a second argument like 255.x.x.x is a netmask */
			netmask = (ntohl(o->ifc_remote.s_addr) >> 24) == 255 &&
				  mask_to_prefix(o->ifc_remote) >= 0;
		if (netmask && mask_to_prefix(o->ifc_remote) < 0) {
			char m[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &o->ifc_remote, m, sizeof(m));
			return ffail(err, err_len,
				     "option 'ifconfig': '%s' is not a valid netmask (topology subnet)",
				     m);
		}
		o->ifc_is_netmask = netmask;
	}
	if (o->has_ifconfig6 && o->tun_mtu < 1280)
		return ffail(err, err_len,
			     "option 'ifconfig-ipv6': IPv6 needs tun-mtu >= 1280 (tun-mtu is %d)",
			     o->tun_mtu);
	if (o->nobind && !o->n_remotes && !mp_has_remote(o))
		return ffail(err, err_len,
			     "option 'nobind' without 'remote': the peer could never reach us");
	if (o->ping_restart && o->ping && o->ping_restart < o->ping)
		braid_warn("ping-restart %d is shorter than the ping interval %d", o->ping_restart,
			   o->ping);
	return 0;
}

int braid_options_finalize(struct braid_options *o, char *err, size_t err_len)
{
	int dir, r;

	if (!o->dev[0])
		return ffail(err, err_len, "option 'dev' is missing (e.g. 'dev tun')");
	if (strncmp(o->dev, "tun", 3) && !o->has_dev_type)
		return ffail(err, err_len,
			     "option 'dev': cannot tell the device type of '%s': add 'dev-type tun'",
			     o->dev);
	if (o->keepalive_ping && o->ping_opt)
		return lfail(o, err, err_len, "keepalive",
			     "conflicts with '%s': keepalive sets ping and ping-restart, use one or "
			     "the other",
			     o->ping_opt);
	r = finalize_role(o, err, err_len);
	if (r)
		return r;
	if (o->tls == BRAID_TLS_OFF && o->proto != BRAID_PROTO_UDP)
		return lfail(o, err, err_len, "proto",
			     "protocol '%s' is not supported yet (only udp, udp4, udp6) in static-key "
			     "mode",
			     o->proto_name);
	/* `tcp` is tcp-server with `server`, tcp-client with `client`, else ambiguous (OpenVPN) */
	if (o->proto_tcp_generic) {
		if (o->has_server)
			o->proto = BRAID_PROTO_TCP_SERVER;
		else if (o->client)
			o->proto = BRAID_PROTO_TCP_CLIENT;
		else
			return lfail(o, err, err_len, "proto",
				     "'tcp' is ambiguous in this context: use 'tcp-server' or "
				     "'tcp-client'");
		o->proto_tcp_generic = false;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		struct braid_opt_remote *rm = &o->remotes[i];

		if (!rm->proto_tcp_generic || o->tls == BRAID_TLS_OFF)
			continue;	/* static-key: refused below */
		if (!o->client)
			return lfail(o, err, err_len, "remote",
				     "'%s': 'tcp' is ambiguous in this context: use 'tcp-client'",
				     rm->host);
		rm->proto = BRAID_PROTO_TCP_CLIENT;
		rm->proto_tcp_generic = false;
	}
	if (o->mode == BRAID_MODE_SERVER) {
		r = finalize_server(o, err, err_len);
	} else {
		r = finalize_not_server(o, err, err_len);
	}
	if (r)
		return r;
	if (o->had_connection) {	/* OpenVPN uses only the blocks then */
		unsigned int k = 0;

		for (unsigned int i = 0; i < o->n_remotes; i++) {
			if (o->remotes[i].from_connection) {
				o->remotes[k++] = o->remotes[i];
				continue;
			}
			braid_warn("option 'remote %s' is ignored: <connection> blocks are used",
				   o->remotes[i].host);
			free(o->remotes[i].host);
		}
		o->n_remotes = k;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		struct braid_opt_remote *rm = &o->remotes[i];

		if (!rm->has_proto) {
			rm->proto = o->proto;
			rm->family = o->family;
		}
		if (!rm->from_connection)
			rm->nobind = o->nobind;
		if (rm->proto == BRAID_PROTO_TCP_SERVER && o->n_remotes > 1)
			return lfail(o, err, err_len, "remote",
				     "TCP server mode allows at most one 'remote' address");
	}
	if (o->proto == BRAID_PROTO_TCP_CLIENT && !o->n_remotes)
		return lfail(o, err, err_len, "proto", "'remote' MUST be used in TCP client mode");
	if (o->client && !o->n_remotes)
		return lfail(o, err, err_len, "client", "needs at least one 'remote'");
	if (o->cipher_unsupported[0] && o->tls == BRAID_TLS_OFF)
		return lfail(o, err, err_len, "cipher",
			     "unsupported cipher '%s' (supported: AES-256-GCM, AES-128-GCM, "
			     "CHACHA20-POLY1305)",
			     o->cipher_unsupported);
	if (o->cipher_unsupported[0])
		braid_warn("option 'cipher': '%s' is ignored: braidd uses the AEAD ciphers of "
			   "data-ciphers (the server pushes one)",
			   o->cipher_unsupported);
	if (o->ns_cert_type)
		braid_warn("option 'ns-cert-type' is deprecated and not checked by braidd: use "
			   "'remote-cert-tls %s'",
			   o->ns_cert_type == BRAID_RCT_SERVER ? "server" : "client");
	if (o->tls == BRAID_TLS_OFF) {
		if (!o->secret.path && !o->secret.inline_text)
			return ffail(err, err_len,
				     "no 'secret' given: braidd supports only the static-key "
				     "point-to-point mode so far (TLS mode with ca/cert/key is not "
				     "implemented yet)");
		r = finalize_static(o, err, err_len);
		if (r)
			return r;
		if (o->compress != BRAID_OPT_COMP_NONE)
			return lfail(o, err, err_len, "compress",
				     "compression framing is not supported in "
				     "static-key mode yet");
	} else {
		r = finalize_tls(o, err, err_len);
		if (r)
			return r;
		if (o->multipath > 0 || o->n_mp_paths)
			return lfail(o, err, err_len, o->n_mp_paths ? "mp-path" : "multipath",
				     "only the static-key point-to-point mode "
				     "supports multipath so far");
		o->multipath = 0;
		if (o->tls == BRAID_TLS_SERVER && o->mode != BRAID_MODE_SERVER)
			return lfail(o, err, err_len, "tls-server",
				     "TLS point-to-point mode ('tls-server' without 'mode server' or "
				     "'server') is not supported by braidd yet");
		if (!o->tls_mode_supported)
			return lfail(o, err, err_len, role_opt(o),
				     "TLS mode is parsed, but this braidd cannot run it yet");
		return finalize_common(o, err, err_len);
	}
	dir = o->secret_dir != KEY_DIR_UNSET ? o->secret_dir : o->key_direction;
	if (dir == KEY_DIR_UNSET || dir == BRAID_KEY_DIR_BIDIRECTIONAL)
		return ffail(err, err_len,
			     "option 'secret': an AEAD cipher needs a key direction: use "
			     "'key-direction 0' on one end and 'key-direction 1' on the other "
			     "(or 'secret FILE 0|1')");
	o->key_direction = dir;
	r = finalize_common(o, err, err_len);
	if (r)
		return r;
	return finalize_mp(o, err, err_len);
}

/* ---- canonical dump ---- */

struct dumpbuf {
	char *p;
	size_t len;	/* capacity */
	size_t used;	/* bytes that would have been written */
};

__attribute__((format(printf, 2, 3))) static void out(struct dumpbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->used < b->len ? b->p + b->used : NULL,
		      b->used < b->len ? b->len - b->used : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used += (size_t)n;
}

static const char *yn(bool v)
{
	return v ? "yes" : "no";
}

static const char *fam_name(int f)
{
	return f == AF_INET ? "4" : f == AF_INET6 ? "6" : "any";
}

static const char *str_or(const char *s)
{
	return s ? s : "-";
}

static void out_ip4(struct dumpbuf *b, const char *name, struct in_addr a)
{
	char t[INET_ADDRSTRLEN];

	out(b, "%s %s\n", name, inet_ntop(AF_INET, &a, t, sizeof(t)));
}

static void out_source(struct dumpbuf *b, const char *name, const struct braid_opt_source *s)
{
	if (s->inline_text)
		out(b, "%s inline %zu bytes\n", name, s->inline_len);
	else if (s->path)
		out(b, "%s file %s\n", name, s->path);
}

static const char *const rg_names[] = { "enable", "def1", "bypass-dhcp", "bypass-dns", "local",
					"ipv6", "!ipv4", "block-local", "autolocal", "reroute-gw" };

size_t braid_options_dump(const struct braid_options *o, char *buf, size_t len)
{
	static const char *const topo[] = { "p2p", "net30", "subnet" };
	static const char *const rct[] = { "none", "server", "client" };
	static const char *const vcc[] = { "require", "optional", "none" };
	static const char *const x509[] = { "subject", "name", "name-prefix" };
	static const char *const ar[] = { "none", "nointeract", "interact" };
	static const char *const comp[] = { "none", "stub", "stub-v2", "lzo-no", "migrate" };
	static const char *const pf[] = { "accept", "ignore", "reject" };
	struct dumpbuf b = { buf, len, 0 };
	char t[INET6_ADDRSTRLEN];
	unsigned int i;

	if (len)
		buf[0] = '\0';
	/* role */
	out(&b, "mode %s\n", o->mode == BRAID_MODE_SERVER ? "server" : "p2p");
	out(&b, "tls %s\n", o->tls == BRAID_TLS_CLIENT ? "client"
			    : o->tls == BRAID_TLS_SERVER ? "server" : "off");
	out(&b, "pull %s\n", yn(o->pull));
	/* device */
	out(&b, "dev %s\n", o->dev);
	out(&b, "topology %s%s\n", topo[o->topology], o->has_topology ? "" : " (default)");
	out(&b, "tun-mtu %d\n", o->tun_mtu);
	out(&b, "mssfix %d\n", o->mssfix);
	if (o->has_ifconfig) {
		char l[INET_ADDRSTRLEN], r[INET_ADDRSTRLEN];

		out(&b, "ifconfig %s %s%s\n", inet_ntop(AF_INET, &o->ifc_local, l, sizeof(l)),
		    inet_ntop(AF_INET, &o->ifc_remote, r, sizeof(r)),
		    o->ifc_is_netmask ? " (netmask)" : "");
	}
	if (o->has_ifconfig6) {
		char r[INET6_ADDRSTRLEN];

		out(&b, "ifconfig-ipv6 %s/%u %s\n", inet_ntop(AF_INET6, &o->ifc6_local, t, sizeof(t)),
		    o->ifc6_prefix, inet_ntop(AF_INET6, &o->ifc6_remote, r, sizeof(r)));
	}
	for (i = 0; i < o->n_routes; i++) {
		const struct braid_opt_route *r = &o->routes[i];
		char g[INET6_ADDRSTRLEN] = "-";

		if (r->has_gw)
			inet_ntop(r->family, r->gw, g, sizeof(g));
		out(&b, "route[%u] %s/%u gw %s metric %u\n", i,
		    inet_ntop(r->family, r->dst, t, sizeof(t)), r->prefix, g, r->metric);
	}
	/* transport */
	out(&b, "proto %s\n", braid_options_proto_name(o->proto));
	out(&b, "family %s\n", fam_name(o->family));
	for (i = 0; i < o->n_remotes; i++) {
		const struct braid_opt_remote *r = &o->remotes[i];

		out(&b, "remote[%u] %s port %u proto %s family %s nobind %s%s\n", i, r->host,
		    r->port ? r->port : o->rport, braid_options_proto_name(r->proto),
		    fam_name(r->family), yn(r->nobind), r->from_connection ? " (connection)" : "");
	}
	out(&b, "remote-random %s\n", yn(o->remote_random));
	out(&b, "resolv-retry %d\n", o->resolv_retry);
	out(&b, "connect-retry %d %d\n", o->connect_retry, o->connect_retry_max_backoff);
	out(&b, "connect-retry-max %d\n", o->connect_retry_max);
	out(&b, "server-poll-timeout %d\n", o->server_poll_timeout);
	out(&b, "local %s\n", str_or(o->local));
	out(&b, "lport %u\nrport %u\n", o->lport, o->rport);
	out(&b, "nobind %s\nfloat %s\n", yn(o->nobind), yn(o->float_ok));
	/* data channel */
	out(&b, "cipher %s\n", o->cipher[0] ? o->cipher : "-");
	out(&b, "data-ciphers %s\n", o->data_ciphers[0] ? o->data_ciphers : "-");
	out(&b, "data-ciphers-fallback %s\n", str_or(o->data_ciphers_fallback));
	out_source(&b, "secret", &o->secret);
	out(&b, "key-direction %d\n", o->key_direction);
	out(&b, "replay-window %u\n", o->replay_window);
	out(&b, "compress %s\n", comp[o->compress]);
	out(&b, "allow-compression-no %s\n", yn(o->allow_compression_no));
	/* TLS */
	for (i = 0; i < BRAID_BLOB_COUNT; i++)
		out_source(&b, braid_options_blob_name((enum braid_opt_blob)i), &o->blobs[i]);
	out(&b, "tls-auth-dir %d\n", o->tls_auth_dir);
	out(&b, "dh-none %s\n", yn(o->dh_none));
	out(&b, "auth %s\n", o->auth_digest);
	out(&b, "tls-version-min %s%s\n", o->tls_version_min[0] ? o->tls_version_min : "-",
	    o->tls_version_min_or_highest ? " or-highest" : "");
	out(&b, "tls-version-max %s\n", o->tls_version_max[0] ? o->tls_version_max : "-");
	out(&b, "tls-cipher %s\n", str_or(o->tls_cipher));
	out(&b, "tls-ciphersuites %s\n", str_or(o->tls_ciphersuites));
	out(&b, "tls-groups %s\n", str_or(o->tls_groups));
	out(&b, "remote-cert-tls %s\n", rct[o->remote_cert_tls]);
	out(&b, "verify-x509-name %s %s\n", str_or(o->verify_x509_name),
	    x509[o->verify_x509_type]);
	out(&b, "verify-client-cert %s\n", vcc[o->verify_client_cert]);
	out(&b, "hand-window %d\ntls-timeout %d\n", o->hand_window, o->tls_timeout);
	out(&b, "reneg-sec %d %d\n", o->reneg_sec, o->reneg_sec_min);
	out(&b, "tran-window %d\n", o->tran_window);
	out(&b, "reneg-bytes %llu\nreneg-pkts %llu\n", (unsigned long long)o->reneg_bytes,
	    (unsigned long long)o->reneg_pkts);
	out(&b, "key-method %d\n", o->key_method);
	out(&b, "tls-exit %s\n", yn(o->tls_exit));
	out(&b, "ns-cert-type %s\n", rct[o->ns_cert_type]);
	out(&b, "remote-cert-eku %s\n", str_or(o->remote_cert_eku));
	out(&b, "tls-cert-profile %s\n", str_or(o->tls_cert_profile));
	/* client */
	out(&b, "auth-user-pass %s\n", yn(o->has_auth_user_pass));
	out(&b, "auth-retry %s\n", ar[o->auth_retry]);
	out(&b, "auth-nocache %s\n", yn(o->auth_nocache));
	out(&b, "route-nopull %s\n", yn(o->route_nopull));
	for (i = 0; i < o->n_pull_filters; i++)
		out(&b, "pull-filter[%u] %s \"%s\"\n", i, pf[o->pull_filters[i].action],
		    o->pull_filters[i].text);
	out(&b, "redirect-gateway");
	for (i = 0; i < sizeof(rg_names) / sizeof(rg_names[0]); i++)
		if (o->redirect_gw & (1u << i))
			out(&b, " %s", rg_names[i]);
	out(&b, o->redirect_gw ? "\n" : " -\n");
	for (i = 0; i < o->n_dhcp_options; i++)
		out(&b, "dhcp-option[%u] %s %s\n", i, o->dhcp_options[i].type,
		    str_or(o->dhcp_options[i].value));
	out(&b, "up %s\ndown %s\n", str_or(o->up), str_or(o->down));
	out(&b, "script-security %d\n", o->script_security);
	if (o->has_route_gateway)
		out_ip4(&b, "route-gateway", o->route_gateway);
	else
		out(&b, "route-gateway %s\n", o->route_gateway_dhcp ? "dhcp" : "-");
	out(&b, "explicit-exit-notify %d\n", o->explicit_exit_notify);
	for (i = 0; i < o->n_setenv; i++)
		out(&b, "setenv[%u] %s \"%s\"\n", i, o->setenv[i].name, o->setenv[i].value);
	out(&b, "push-peer-info %s\n", yn(o->push_peer_info));
	out(&b, "static-challenge %s echo %d\n", str_or(o->static_challenge),
	    o->static_challenge_echo);
	out(&b, "route-noexec %s\nifconfig-noexec %s\nblock-ipv6 %s\n", yn(o->route_noexec),
	    yn(o->ifconfig_noexec), yn(o->block_ipv6));
	out(&b, "route-delay %d\nroute-metric %d\n", o->route_delay, o->route_metric);
	out(&b, "inactive %d %llu\n", o->inactive, (unsigned long long)o->inactive_bytes);
	out(&b, "persist-key %s\npersist-tun %s\n", yn(o->persist_key), yn(o->persist_tun));
	/* gateway */
	if (o->has_server) {
		char m[INET_ADDRSTRLEN];

		out(&b, "server %s %s%s\n", inet_ntop(AF_INET, &o->server_net, t, sizeof(t)),
		    inet_ntop(AF_INET, &o->server_mask, m, sizeof(m)),
		    o->server_nopool ? " nopool" : "");
	}
	if (o->has_server6)
		out(&b, "server-ipv6 %s/%u\n", inet_ntop(AF_INET6, &o->server6_net, t, sizeof(t)),
		    o->server6_prefix);
	if (o->has_ifconfig_pool) {
		char e[INET_ADDRSTRLEN], m[INET_ADDRSTRLEN];

		out(&b, "ifconfig-pool %s %s %s\n",
		    inet_ntop(AF_INET, &o->ifconfig_pool_start, t, sizeof(t)),
		    inet_ntop(AF_INET, &o->ifconfig_pool_end, e, sizeof(e)),
		    o->ifconfig_pool_mask.s_addr
			    ? inet_ntop(AF_INET, &o->ifconfig_pool_mask, m, sizeof(m)) : "-");
	}
	for (i = 0; i < o->n_push; i++)
		out(&b, "push[%u] \"%s\"\n", i, o->push[i]);
	out(&b, "client-config-dir %s\n", str_or(o->client_config_dir));
	out(&b, "ccd-exclusive %s\nclient-to-client %s\nduplicate-cn %s\n", yn(o->ccd_exclusive),
	    yn(o->client_to_client), yn(o->duplicate_cn));
	out(&b, "username-as-common-name %s\nauth-user-pass-optional %s\n",
	    yn(o->username_as_common_name), yn(o->auth_user_pass_optional));
	out(&b, "max-clients %d\n", o->max_clients);
	out(&b, "auth-user-pass-verify %s %s\n", str_or(o->auth_user_pass_verify),
	    o->auth_user_pass_verify_method == BRAID_AUPV_VIA_FILE ? "via-file" : "via-env");
	out(&b, "status %s %d\n", str_or(o->status_path), o->status_interval);
	out(&b, "status-version %d\n", o->status_version);
	out(&b, "ifconfig-pool-persist %s %d\n", str_or(o->ifconfig_pool_persist),
	    o->ifconfig_pool_persist_sec);
	out(&b, "keepalive %d %d\n", o->keepalive_ping, o->keepalive_restart);
	out(&b, "ping %d\nping-restart %d\nping-exit %d\n", o->ping, o->ping_restart, o->ping_exit);
	out(&b, "connect-freq %d %d\n", o->connect_freq_n, o->connect_freq_sec);
	out(&b, "client-connect %s\nclient-disconnect %s\n", str_or(o->client_connect),
	    str_or(o->client_disconnect));
	out(&b, "user %s\ngroup %s\n", str_or(o->user), str_or(o->group));
	/* management */
	if (o->management_host) {
		if (o->management_unix)
			out(&b, "management %s unix %s\n", o->management_host,
			    str_or(o->management_pwfile));
		else
			out(&b, "management %s %u %s\n", o->management_host, o->management_port,
			    str_or(o->management_pwfile));
	} else {
		out(&b, "management -\n");
	}
	out(&b, "management-hold %s\nmanagement-client-auth %s\nmanagement-query-passwords %s\n",
	    yn(o->management_hold), yn(o->management_client_auth),
	    yn(o->management_query_passwords));
	/* process */
	out(&b, "verb %d\nmute %d\nmute-replay-warnings %s\n", o->verb, o->mute,
	    yn(o->mute_replay_warnings));
	out(&b, "sndbuf %d\nrcvbuf %d\n", o->sndbuf, o->rcvbuf);
	out(&b, "ping-timer-rem %s\ndisable-occ %s\n", yn(o->ping_timer_rem), yn(o->disable_occ));
	out(&b, "log %s%s\n", str_or(o->log_path), o->log_append ? " (append)" : "");
	out(&b, "writepid %s\n", str_or(o->writepid));
	out(&b, "multipath %d\n", o->multipath);
	out(&b, "ignored-unknown %u\n", o->n_ignored);
	return b.used;
}
