// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_metrics.c - the metrics endpoint's directives (options_metrics.h).
 *
 * `metrics [ADDR [PORT [allow-remote]]]`: ADDR defaults to 127.0.0.1, PORT
 * to 9446. The endpoint has no authentication, so an address that is not a
 * loopback one (127.0.0.0/8, ::1, localhost) is refused unless the third
 * word says `allow-remote` (docs/metrics.md: then a firewall decides who
 * scrapes).
 */
#include "config/options_metrics.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/options_parse.h"

#define METRICS_PORT_DEFAULT 9446	/* = BRAID_METRICS_PORT_DEFAULT (control/metrics.h) */

static bool loopback(const char *a)
{
	unsigned char b[16];

	if (!strcmp(a, "localhost"))
		return true;
	if (inet_pton(AF_INET, a, b) == 1)
		return b[0] == 127;
	if (inet_pton(AF_INET6, a, b) == 1) {
		static const unsigned char one[16] = { [15] = 1 };
		static const unsigned char v4m[12] = { [10] = 0xff, [11] = 0xff };

		return !memcmp(b, one, 16) || (!memcmp(b, v4m, 12) && b[12] == 127);
	}
	return false;
}

int opt_metrics(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	const char *addr = argc >= 2 ? argv[1] : "127.0.0.1";
	int e;

	if (!addr[0])
		return opt_fail(c, "empty address");
	o->metrics_port = METRICS_PORT_DEFAULT;
	if (argc >= 3) {
		e = opt_parse_int(c, "port", argv[2], 1, 65535, &o->metrics_port);
		if (e)
			return e;
	}
	o->metrics_remote = false;
	if (argc >= 4) {
		if (strcmp(argv[3], "allow-remote"))
			return opt_fail(c, "unknown word '%s' (expected 'allow-remote')", argv[3]);
		o->metrics_remote = true;
	}
	if (!o->metrics_remote && !loopback(addr))
		return opt_fail(c, "%s is not a loopback address: the endpoint has no "
				"authentication; add 'allow-remote' to serve it there (and let a "
				"firewall decide who may scrape it)", addr);
	return opt_set_str(c, &o->metrics_addr, addr);
}

int opt_metrics_max_clients(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "clients", argv[1], 0, 100000, &c->o->metrics_max_clients);
}

int opt_finalize_metrics(const struct braid_options *o, char *err, size_t err_len)
{
	if (o->metrics_max_clients >= 0 && !o->metrics_addr) {
		snprintf(err, err_len, "option 'metrics-max-clients' needs 'metrics'");
		return -EINVAL;
	}
	return 0;
}
