// SPDX-License-Identifier: GPL-2.0-only
/*
 * options.c - the directive table, one handler per directive, and the
 * post-parse checks. Messages name the location, the option and the problem.
 */
#include "options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
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

struct ctx {
	struct braid_options *o;
	const struct braid_opt_loc *loc;
	const char *name;
	const char *inl;	/* inline block body, or NULL */
	char *err;
	size_t err_len;
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

static int proto_family(struct ctx *c, const char *p, int *family)
{
	if (!strcmp(p, "udp"))
		*family = AF_UNSPEC;
	else if (!strcmp(p, "udp4"))
		*family = AF_INET;
	else if (!strcmp(p, "udp6"))
		*family = AF_INET6;
	else if (!strcmp(p, "tcp") || !strcmp(p, "tcp4") || !strcmp(p, "tcp6") ||
		 !strcmp(p, "tcp-client") || !strcmp(p, "tcp-server") || !strcmp(p, "tcp4-client") ||
		 !strcmp(p, "tcp6-client") || !strcmp(p, "tcp4-server") || !strcmp(p, "tcp6-server"))
		return fail(c, "protocol '%s' is not supported yet (only udp, udp4, udp6)", p);
	else
		return fail(c, "unknown protocol '%s' (expected udp, udp4 or udp6)", p);
	return 0;
}

static int h_proto(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return proto_family(c, argv[1], &c->o->family);
}

static int h_remote(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_remote *r;
	uint16_t port = 0;
	int fam, e;

	if (o->n_remotes >= BRAID_OPT_MAX_REMOTES)
		return fail(c, "too many remotes (max %d)", BRAID_OPT_MAX_REMOTES);
	if (argc >= 3) {
		e = parse_port(c, argv[2], &port);
		if (e)
			return e;
	}
	if (argc >= 4) {
		e = proto_family(c, argv[3], &fam);
		if (e)
			return e;
	}
	r = &o->remotes[o->n_remotes];
	r->host = strdup(argv[1]);
	if (!r->host)
		return fail(c, "out of memory");
	r->port = port;
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
	return parse_port(c, argv[1], &c->o->rport);
}

static int h_port(struct ctx *c, int argc, char **argv)
{
	uint16_t p;
	int e = parse_port(c, argv[1], &p);

	(void)argc;
	if (!e)
		c->o->lport = c->o->rport = p;
	return e;
}

static int h_nobind(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->nobind = true;
	return 0;
}

static int h_float(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->float_ok = true;
	return 0;
}

static int h_noop(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
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
	if (!n)
		return fail(c,
			    "unsupported cipher '%s' (supported: AES-256-GCM, AES-128-GCM, "
			    "CHACHA20-POLY1305)",
			    argv[1]);
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
	return 0;
}

static int h_ping(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "interval", argv[1], 0, 86400, &c->o->ping);
}

static int h_ping_restart(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return parse_int(c, "timeout", argv[1], 0, 86400 * 7, &c->o->ping_restart);
}

static int h_ping_exit(struct ctx *c, int argc, char **argv)
{
	(void)argc;
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

static int h_blob(struct ctx *c, int argc, char **argv);

/* setenv is handled in braid_options_apply (setenv opt …); plain setenv is kept as a no-op */

typedef int (*opt_handler)(struct ctx *c, int argc, char **argv);

struct opt_def {
	const char *name;
	int min_args, max_args;		/* arguments after the name */
	opt_handler fn;
	bool inline_ok;
	int blob;			/* enum braid_opt_blob, or -1 */
};

#define NOBLOB (-1)
#define MANY 15

static const struct opt_def opt_table[] = {
	{ "dev", 1, 1, h_dev, false, NOBLOB },
	{ "dev-type", 1, 1, h_dev_type, false, NOBLOB },
	{ "proto", 1, 1, h_proto, false, NOBLOB },
	{ "remote", 1, 3, h_remote, false, NOBLOB },
	{ "local", 1, 1, h_local, false, NOBLOB },
	{ "lport", 1, 1, h_lport, false, NOBLOB },
	{ "rport", 1, 1, h_rport, false, NOBLOB },
	{ "port", 1, 1, h_port, false, NOBLOB },
	{ "nobind", 0, 0, h_nobind, false, NOBLOB },
	{ "float", 0, 0, h_float, false, NOBLOB },
	{ "ifconfig", 2, 2, h_ifconfig, false, NOBLOB },
	{ "ifconfig-ipv6", 2, 2, h_ifconfig6, false, NOBLOB },
	{ "route", 1, 4, h_route, false, NOBLOB },
	{ "route-ipv6", 1, 3, h_route6, false, NOBLOB },
	{ "tun-mtu", 1, 1, h_tun_mtu, false, NOBLOB },
	{ "topology", 1, 1, h_topology, false, NOBLOB },
	{ "cipher", 1, 1, h_cipher, false, NOBLOB },
	{ "data-ciphers", 1, 1, h_data_ciphers, false, NOBLOB },
	{ "ncp-ciphers", 1, 1, h_data_ciphers, false, NOBLOB },
	{ "secret", 1, 2, h_secret, true, NOBLOB },
	{ "key-direction", 1, 1, h_key_direction, false, NOBLOB },
	{ "keepalive", 2, 2, h_keepalive, false, NOBLOB },
	{ "ping", 1, 1, h_ping, false, NOBLOB },
	{ "ping-restart", 1, 1, h_ping_restart, false, NOBLOB },
	{ "ping-exit", 1, 1, h_ping_exit, false, NOBLOB },
	{ "verb", 1, 1, h_verb, false, NOBLOB },
	{ "replay-window", 1, 2, h_replay_window, false, NOBLOB },
	{ "peer-id", 1, 1, h_peer_id, false, NOBLOB },
	{ "mssfix", 0, 2, h_mssfix, false, NOBLOB },
	{ "writepid", 1, 1, h_writepid, false, NOBLOB },
	{ "log", 1, 1, h_log, false, NOBLOB },
	{ "log-append", 1, 1, h_log, false, NOBLOB },
	{ "daemon", 0, 1, h_daemon, false, NOBLOB },
	{ "ignore-unknown-option", 1, MANY, h_ignore_unknown, false, NOBLOB },
	{ "setenv", 1, 2, h_noop, false, NOBLOB },
	/* braidd always keeps the key and the device across a ping-restart */
	{ "multipath", 0, 1, h_multipath, false, NOBLOB },
	{ "mp-path", 1, 3, h_mp_path, false, NOBLOB },
	{ "mp-backup", 1, 1, h_mp_backup, false, NOBLOB },
	{ "mp-cap", 2, 2, h_mp_cap, false, NOBLOB },
	{ "mp-scheduler", 1, 2, h_mp_scheduler, false, NOBLOB },
	{ "mp-reorder-ms", 1, 1, h_mp_reorder_ms, false, NOBLOB },
	{ "mp-path-timeout", 1, 1, h_mp_path_timeout, false, NOBLOB },
	{ "status", 1, 2, h_status, false, NOBLOB },
	{ "control-socket", 1, 1, h_control_socket, false, NOBLOB },
	{ "mp-class", 2, MANY, h_mp_class, false, NOBLOB },
	{ "persist-key", 0, 0, h_noop, false, NOBLOB },
	{ "persist-tun", 0, 0, h_noop, false, NOBLOB },
	/* kept for the TLS mode: a file name or an inline block */
	{ "ca", 1, 1, h_blob, true, BRAID_BLOB_CA },
	{ "cert", 1, 1, h_blob, true, BRAID_BLOB_CERT },
	{ "key", 1, 1, h_blob, true, BRAID_BLOB_KEY },
	{ "extra-certs", 1, 1, h_blob, true, BRAID_BLOB_EXTRA_CERTS },
	{ "dh", 1, 1, h_blob, true, BRAID_BLOB_DH },
	{ "tls-auth", 1, 2, h_blob, true, BRAID_BLOB_TLS_AUTH },
	{ "tls-crypt", 1, 1, h_blob, true, BRAID_BLOB_TLS_CRYPT },
	{ "tls-crypt-v2", 1, 2, h_blob, true, BRAID_BLOB_TLS_CRYPT_V2 },
	{ "crl-verify", 1, 2, h_blob, true, BRAID_BLOB_CRL_VERIFY },
	{ "pkcs12", 1, 1, h_blob, true, BRAID_BLOB_PKCS12 },
	{ "auth-user-pass", 0, 1, h_blob, true, BRAID_BLOB_AUTH_USER_PASS },
	{ "http-proxy-user-pass", 1, 1, h_blob, true, BRAID_BLOB_HTTP_PROXY_USER_PASS },
	{ "peer-fingerprint", 1, 1, h_blob, true, BRAID_BLOB_PEER_FINGERPRINT },
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
	const struct opt_def *d = opt_find(argv[0]);

	(void)argc;
	if (!c->inl && argc < 2)	/* auth-user-pass without a file: prompt (TLS mode) */
		return set_source(c, &c->o->blobs[d->blob], "");
	return set_source(c, &c->o->blobs[d->blob], c->inl ? NULL : argv[1]);
}

const char *braid_options_blob_name(enum braid_opt_blob b)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (opt_table[i].blob == (int)b)
			return opt_table[i].name;
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
	memset(o, 0, sizeof(*o));
}

static bool ignored_unknown(const struct braid_options *o, const char *name)
{
	for (unsigned int i = 0; i < o->n_ignore_unknown; i++)
		if (!strcmp(o->ignore_unknown[i], name))
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
	if (ignore || ignored_unknown(o, name)) {
		braid_warn("Ignoring unknown option '%s'%s (ignore-unknown-option)", name, where);
		o->n_ignored++;
		return 0;
	}
	if (loc->file)
		snprintf(err, err_len, "Unrecognized option or missing or extra parameter(s)%s: %s",
			 where, name);
	else
		snprintf(err, err_len, "Unrecognized option or missing or extra parameter(s): --%s",
			 name);
	return -EINVAL;
}

static int apply(struct braid_options *o, int argc, char **argv, const char *inline_text,
		 const struct braid_opt_loc *loc, bool ignore_unknown, char *err, size_t err_len)
{
	struct ctx c = { o, loc, argv[0], inline_text, err, err_len };
	const struct opt_def *d;
	int n = argc - 1;

	/* `setenv opt X …`: OpenVPN 2.4+ — apply X, ignore it if unknown */
	if (!strcmp(argv[0], "setenv") && argc >= 3 && !strcmp(argv[1], "opt") && !inline_text)
		return apply(o, argc - 2, argv + 2, NULL, loc, true, err, err_len);

	d = opt_find(argv[0]);
	if (!d)
		return unknown(o, argv[0], loc, ignore_unknown, err, err_len);
	if (inline_text) {
		if (!d->inline_ok)
			return fail(&c, "does not take an inline <%s> block", argv[0]);
		if (n != 0)
			return fail(&c, "an inline block takes no arguments");
		return d->fn(&c, argc, argv);
	}
	if (n < d->min_args || n > d->max_args) {
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

int braid_options_apply(struct braid_options *o, int argc, char **argv, const char *inline_text,
			const struct braid_opt_loc *loc, char *err, size_t err_len)
{
	if (argc < 1)
		return 0;
	return apply(o, argc, argv, inline_text, loc, false, err, err_len);
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

int braid_options_finalize(struct braid_options *o, char *err, size_t err_len)
{
	int dir, r;

	if (!o->dev[0])
		return ffail(err, err_len, "option 'dev' is missing (e.g. 'dev tun')");
	if (strncmp(o->dev, "tun", 3) && !o->has_dev_type)
		return ffail(err, err_len,
			     "option 'dev': cannot tell the device type of '%s': add 'dev-type tun'",
			     o->dev);
	if (!o->secret.path && !o->secret.inline_text)
		return ffail(err, err_len,
			     "no 'secret' given: braidd supports only the static-key point-to-point "
			     "mode so far (TLS mode with ca/cert/key is not implemented yet)");
	dir = o->secret_dir != KEY_DIR_UNSET ? o->secret_dir : o->key_direction;
	if (dir == KEY_DIR_UNSET || dir == BRAID_KEY_DIR_BIDIRECTIONAL)
		return ffail(err, err_len,
			     "option 'secret': an AEAD cipher needs a key direction: use "
			     "'key-direction 0' on one end and 'key-direction 1' on the other "
			     "(or 'secret FILE 0|1')");
	o->key_direction = dir;
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
	r = finalize_mp(o, err, err_len);
	if (r)
		return r;
	for (unsigned int i = 0; i < BRAID_BLOB_COUNT; i++)
		if (o->blobs[i].path || o->blobs[i].inline_text)
			braid_warn("option '%s' is ignored in static-key mode",
				   braid_options_blob_name((enum braid_opt_blob)i));
	return 0;
}
