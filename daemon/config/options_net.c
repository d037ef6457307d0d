// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_net.c - directives of the device, transport and addresses: dev, dev-type,
 * proto, remote, local, ports, nobind, float, ifconfig(-ipv6), route(-ipv6),
 * tun-mtu, topology, tun-ipv6, route-delay.
 */
#include "config/options_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "config/options_int.h"
#include "config/options_parse.h"

int opt_dev(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (strlen(argv[1]) >= IFNAMSIZ)
		return opt_fail(c, "device name '%s' is too long (max %d characters)", argv[1], IFNAMSIZ - 1);
	if (strchr(argv[1], '/') || strchr(argv[1], '%') || !strcmp(argv[1], ".") ||
	    !strcmp(argv[1], ".."))
		return opt_fail(c, "'%s' is not a valid device name", argv[1]);
	if (!strncmp(argv[1], "tap", 3))
		return opt_fail(c, "tap devices are not supported yet (only tun)");
	if (!strcmp(argv[1], "null"))
		return opt_fail(c, "'dev null' is not supported (braidd needs a tun device)");
	strcpy(c->o->dev, argv[1]);
	return 0;
}

int opt_dev_type(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "tun")) {
		c->o->has_dev_type = true;
		return 0;
	}
	if (!strcmp(argv[1], "tap"))
		return opt_fail(c, "tap devices are not supported yet (only tun)");
	return opt_fail(c, "unknown device type '%s' (expected tun)", argv[1]);
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
	return opt_fail(c, "unknown protocol '%s' (expected udp, udp4, udp6, tcp, tcp4, tcp6, "
			"tcp-client, tcp-server or their 4/6 forms)", p);
}

int opt_proto(struct ctx *c, int argc, char **argv)
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

int opt_remote(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_remote *r, n = { 0 };
	int e;

	if (!o->in_connection && o->n_remotes >= BRAID_OPT_MAX_REMOTES)
		return opt_fail(c, "too many remotes (max %d)", BRAID_OPT_MAX_REMOTES);
	if (!argv[1][0])
		return opt_fail(c, "empty host name");
	if (argc >= 3) {
		e = opt_parse_port(c, argv[2], &n.port);
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
			return opt_fail(c, "out of memory");
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
		return opt_fail(c, "out of memory");
	o->n_remotes++;
	return 0;
}

int opt_local(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_set_str(c, &c->o->local, argv[1]);
}

/* lport 0 (OPNsense's export writes it): bind an ephemeral port, as stock does */
int opt_lport(struct ctx *c, int argc, char **argv)
{
	int v, r;

	(void)argc;
	r = opt_parse_int(c, "port", argv[1], 0, 65535, &v);
	if (!r)
		c->o->lport = (uint16_t)v;
	return r;
}

int opt_rport(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (c->o->in_connection)
		return opt_parse_port(c, argv[1], &c->o->conn.port);
	return opt_parse_port(c, argv[1], &c->o->rport);
}

int opt_port(struct ctx *c, int argc, char **argv)
{
	uint16_t p;
	int e = opt_parse_port(c, argv[1], &p);

	(void)argc;
	if (!e && c->o->in_connection)
		c->o->conn.port = p;
	else if (!e)
		c->o->lport = c->o->rport = p;
	return e;
}

int opt_nobind(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	if (c->o->in_connection)
		c->o->conn.nobind = true;
	else
		c->o->nobind = true;
	return 0;
}

int opt_float(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->float_ok = true;
	return 0;
}

int opt_multihome(struct ctx *c, int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "same-interface"))
		return opt_fail(c, "unknown flag '%s' (only 'same-interface')",
			       argv[1]);
	c->o->multihome = true;
	c->o->multihome_same_if = argc == 2;
	return 0;
}

int opt_ifconfig(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	(void)argc;
	e = opt_parse_ip4(c, "local address", argv[1], &o->ifc_local);
	if (!e)
		e = opt_parse_ip4(c, "remote address or netmask", argv[2], &o->ifc_remote);
	if (!e)
		o->has_ifconfig = true;
	return e;
}

int opt_ifconfig6(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	(void)argc;
	e = opt_parse_ip6_prefix(c, "address", argv[1], 64, &o->ifc6_local, &o->ifc6_prefix);
	if (!e)
		e = opt_parse_ip6(c, "remote address", argv[2], &o->ifc6_remote);
	if (!e)
		o->has_ifconfig6 = true;
	return e;
}

static int route_slot(struct ctx *c, struct braid_opt_route **out)
{
	if (c->o->n_routes >= BRAID_OPT_MAX_ROUTES)
		return opt_fail(c, "too many routes (max %d)", BRAID_OPT_MAX_ROUTES);
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
		return opt_fail(c, "gateway '%s' is not supported yet", s);
	return 0;
}

int opt_route(struct ctx *c, int argc, char **argv)
{
	struct braid_opt_route *r = NULL;
	struct in_addr net, mask, gw;
	long metric;
	bool dflt;
	int prefix = 32, e;

	e = route_slot(c, &r);
	if (e)
		return e;
	e = opt_parse_ip4(c, "network", argv[1], &net);
	if (e)
		return e;
	if (argc >= 3 && strcmp(argv[2], "default")) {
		e = opt_parse_ip4(c, "netmask", argv[2], &mask);
		if (e)
			return e;
		prefix = opt_mask_to_prefix(mask);
		if (prefix < 0)
			return opt_fail(c, "netmask '%s' is not a valid netmask", argv[2]);
	}
	mask.s_addr = prefix ? htonl(0xffffffffu << (32 - prefix)) : 0;
	if (net.s_addr & ~mask.s_addr)
		return opt_fail(c, "network %s is not aligned to its netmask (/%d)", argv[1], prefix);
	r->family = AF_INET;
	memcpy(r->dst, &net, 4);
	r->prefix = (uint8_t)prefix;
	if (argc >= 4) {
		e = route_gw_keyword(c, argv[3], &dflt);
		if (e)
			return e;
		if (!dflt) {
			e = opt_parse_ip4(c, "gateway", argv[3], &gw);
			if (e)
				return e;
			r->has_gw = true;
			memcpy(r->gw, &gw, 4);
		}
	}
	if (argc >= 5) {
		e = opt_parse_long(c, "metric", argv[4], 0, INT_MAX, &metric);
		if (e)
			return e;
		r->metric = (uint32_t)metric;
	}
	c->o->n_routes++;
	return 0;
}

int opt_route6(struct ctx *c, int argc, char **argv)
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
	e = opt_parse_ip6_prefix(c, "network", argv[1], 128, &net, &prefix);
	if (e)
		return e;
	for (int i = prefix; i < 128; i++)
		if (net.s6_addr[i / 8] & (0x80 >> (i % 8)))
			return opt_fail(c, "network %s has bits set beyond its prefix length", argv[1]);
	r->family = AF_INET6;
	memcpy(r->dst, &net, 16);
	r->prefix = prefix;
	if (argc >= 3) {
		e = route_gw_keyword(c, argv[2], &dflt);
		if (e)
			return e;
		if (!dflt) {
			e = opt_parse_ip6(c, "gateway", argv[2], &gw);
			if (e)
				return e;
			r->has_gw = true;
			memcpy(r->gw, &gw, 16);
		}
	}
	if (argc >= 4) {
		e = opt_parse_long(c, "metric", argv[3], 0, INT_MAX, &metric);
		if (e)
			return e;
		r->metric = (uint32_t)metric;
	}
	c->o->n_routes++;
	return 0;
}

int opt_tun_mtu(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "MTU", argv[1], BRAID_OPT_TUN_MTU_MIN, BRAID_OPT_TUN_MTU_MAX,
			     &c->o->tun_mtu);
}

int opt_topology(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "p2p"))
		c->o->topology = BRAID_TOPO_P2P;
	else if (!strcmp(argv[1], "net30"))
		c->o->topology = BRAID_TOPO_NET30;
	else if (!strcmp(argv[1], "subnet"))
		c->o->topology = BRAID_TOPO_SUBNET;
	else
		return opt_fail(c, "unknown topology '%s' (expected subnet, net30 or p2p)", argv[1]);
	c->o->has_topology = true;
	return 0;
}

int opt_tun_ipv6(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;	/* a no-op: braid_options_apply logs it */
}

int opt_route_delay(struct ctx *c, int argc, char **argv)
{
	int e = 0, v;

	if (argc >= 2)	/* a no-op: checked only */
		e = opt_parse_int(c, "seconds", argv[1], 0, 3600, &v);
	if (!e && argc >= 3) {
		int w;

		e = opt_parse_int(c, "window", argv[2], 0, 3600, &w);
	}
	return e;
}
