// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_cluster.c - the directives of many gateways behind one address
 * (options_cluster.h; the run time is daemon/cluster/, docs/scaling.md).
 *
 * `cluster-etcd http://HOST:PORT`: the etcd (v3 JSON gateway, plain HTTP)
 * where this gateway leases its gateway id and claims each client address.
 * HOST is a numeric IPv4 address or localhost (the store runs beside the
 * gateway or on a private network; no TLS, no name lookups in the loop).
 * `cluster-prefix P`: the key prefix (default "braid/"), 1..64 characters
 * of [A-Za-z0-9/_.-]. `cluster-ttl SECONDS` (2..300, default 10): the lease,
 * so a dead gateway's id and addresses are free after that long.
 * `cluster-gateway-id N` (1..254): take this id (the balancer's table maps
 * ids to gateways); without it the lowest free one.
 */
#include "config/options_cluster.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/options_parse.h"

int opt_cluster_etcd(struct ctx *c, int argc, char **argv)
{
	const char *u = argv[1], *colon;
	char host[64], portbuf[8];
	struct in_addr a;
	size_t hl, pl;
	int port, e;

	(void)argc;
	if (strncmp(u, "http://", 7))
		return opt_fail(c, "'%s': expected http://HOST:PORT (plain HTTP: etcd's v3 JSON gateway)",
				u);
	u += 7;
	colon = strchr(u, ':');
	if (!colon || colon == u || (size_t)(colon - u) >= sizeof(host))
		return opt_fail(c, "expected http://HOST:PORT with a numeric IPv4 HOST or localhost");
	hl = (size_t)(colon - u);
	memcpy(host, u, hl);
	host[hl] = 0;
	if (strcmp(host, "localhost") && inet_pton(AF_INET, host, &a) != 1)
		return opt_fail(c, "'%s' is not a numeric IPv4 address or localhost", host);
	if (strchr(colon + 1, '/') && strcmp(strchr(colon + 1, '/'), "/"))
		return opt_fail(c, "no path after the port, please");
	pl = strcspn(colon + 1, "/");
	if (!pl || pl >= sizeof(portbuf))
		return opt_fail(c, "expected http://HOST:PORT: bad port");
	memcpy(portbuf, colon + 1, pl);
	portbuf[pl] = 0;
	e = opt_parse_int(c, "port", portbuf, 1, 65535, &port);
	if (e)
		return e;
	return opt_set_str(c, &c->o->cluster_etcd, argv[1]);
}

int opt_cluster_prefix(struct ctx *c, int argc, char **argv)
{
	const char *p = argv[1];
	size_t n = strlen(p);

	(void)argc;
	if (!n || n > 64 || strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				      "0123456789/_.-") != n)
		return opt_fail(c, "'%s': 1..64 characters of A-Z a-z 0-9 / _ . -", p);
	return opt_set_str(c, &c->o->cluster_prefix, p);
}

int opt_cluster_ttl(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "seconds", argv[1], 2, 300, &c->o->cluster_ttl);
}

int opt_cluster_gw_id(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "id", argv[1], 1, 254, &c->o->cluster_gw_id);
}

int opt_finalize_cluster(const struct braid_options *o, char *err, size_t err_len)
{
	if ((o->cluster_prefix || o->cluster_ttl || o->cluster_gw_id) && !o->cluster_etcd) {
		snprintf(err, err_len, "options 'cluster-prefix', 'cluster-ttl' and "
			 "'cluster-gateway-id' need 'cluster-etcd'");
		return -EINVAL;
	}
	if (o->cluster_etcd && o->mode != BRAID_MODE_SERVER) {
		snprintf(err, err_len, "option 'cluster-etcd' is for a gateway ('mode server' or 'server')");
		return -EINVAL;
	}
	return 0;
}
