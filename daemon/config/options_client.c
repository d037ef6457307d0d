// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_client.c - directives of the TLS client: client, tls-client, pull, the remote
 * list and connect-retry, server-poll-timeout, auth-retry, pull-filter,
 * redirect-gateway, dhcp-option, route-gateway, explicit-exit-notify, setenv,
 * push-peer-info, static-challenge.
 */
#include "config/options_client.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "config/options_int.h"
#include "config/options_parse.h"

int opt_client(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->client = true;
	return 0;
}

int opt_tls_client(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->opt_tls_client = true;
	return 0;
}

int opt_pull(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->pull = true;
	return 0;
}

int opt_remote_random(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->remote_random = true;
	return 0;
}

int opt_resolv_retry(struct ctx *c, int argc, char **argv)
{
	int v;

	(void)argc;
	if (!strcmp(argv[1], "infinite"))
		return 0;
	return opt_parse_int(c, "seconds", argv[1], 0, INT_MAX, &v);	/* a no-op: checked only */
}

int opt_connect_retry(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	e = opt_parse_int(c, "seconds", argv[1], 0, 65535, &o->connect_retry);
	if (!e && argc >= 3) {
		e = opt_parse_int(c, "maximum", argv[2], 0, INT_MAX, &o->connect_retry_max_backoff);
		if (!e && o->connect_retry_max_backoff < o->connect_retry)
			o->connect_retry_max_backoff = o->connect_retry;
	}
	return e;
}

int opt_connect_retry_max(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "count", argv[1], 0, INT_MAX, &c->o->connect_retry_max);
}

int opt_server_poll_timeout(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "seconds", argv[1], 0, INT_MAX, &c->o->server_poll_timeout);
}

int opt_auth_retry(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "none"))
		c->o->auth_retry = BRAID_AUTH_RETRY_NONE;
	else if (!strcmp(argv[1], "nointeract"))
		c->o->auth_retry = BRAID_AUTH_RETRY_NOINTERACT;
	else if (!strcmp(argv[1], "interact"))
		c->o->auth_retry = BRAID_AUTH_RETRY_INTERACT;
	else
		return opt_fail(c, "parameter must be 'none', 'interact', or 'nointeract', got '%s'",
				argv[1]);
	return 0;
}

int opt_pull_filter(struct ctx *c, int argc, char **argv)
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
		return opt_fail(c, "unknown type '%s' (expected accept, ignore or reject)", argv[1]);
	if (o->n_pull_filters >= BRAID_OPT_MAX_PULL_FILTERS)
		return opt_fail(c, "too many pull filters (max %d)", BRAID_OPT_MAX_PULL_FILTERS);
	f = &o->pull_filters[o->n_pull_filters];
	f->text = strdup(argv[2]);
	if (!f->text)
		return opt_fail(c, "out of memory");
	f->action = a;
	o->n_pull_filters++;
	return 0;
}

int opt_dns_updown(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "disable"))
		c->o->dns_updown = BRAID_DNS_UPDOWN_DISABLE;
	else if (!strcmp(argv[1], "force"))
		c->o->dns_updown = BRAID_DNS_UPDOWN_FORCE;
	else
		return opt_fail(c, "braidd applies pushed DNS itself (resolvconf, systemd-resolved or "
				"/etc/resolv.conf): 'disable' or 'force' expected, got '%s' (run your "
				"own program from an 'up'/'down' script instead)", argv[1]);
	return 0;
}

int opt_redirect_gateway(struct ctx *c, int argc, char **argv)
{
	unsigned int f = c->o->redirect_gw;

	if (f & BRAID_RG_ENABLE)
		braid_warn("option '%s': redirect-gateway and redirect-private given together (or "
			   "twice): flags are merged", argv[0]);
	f |= BRAID_RG_ENABLE;
	if (!strcmp(argv[0], "redirect-gateway"))
		f |= BRAID_RG_REROUTE_GW;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "autolocal") || !strncmp(argv[i], "bypass-", 7))
			braid_info("option '%s': flag '%s' has no effect in braidd (the two /1 routes "
				   "and the server's host route are all it sets)", argv[0], argv[i]);
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
		else if (!strcmp(argv[i], "block-local"))	/* a security promise braidd cannot keep */
			return opt_fail(c, "flag 'block-local' is not implemented by braidd: the local LAN "
					"would stay reachable; remove the flag");
		else if (!strcmp(argv[i], "ipv6"))
			f |= BRAID_RG_IPV6;
		else if (!strcmp(argv[i], "!ipv4"))
			f = (f & ~(BRAID_RG_REROUTE_GW | BRAID_RG_ENABLE)) | BRAID_RG_NOT_IPV4;
		else
			return opt_fail(c, "unknown flag '%s' (expected def1, local, autolocal, "
					"bypass-dhcp, bypass-dns, block-local, ipv6 or !ipv4)", argv[i]);
	}
	c->o->redirect_gw = f;
	return 0;
}

int opt_dhcp_option(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_dhcp *d;

	if (o->n_dhcp_options >= BRAID_OPT_MAX_DHCP_OPTIONS)
		return opt_fail(c, "too many dhcp-options (max %d)", BRAID_OPT_MAX_DHCP_OPTIONS);
	d = &o->dhcp_options[o->n_dhcp_options];
	d->type = strdup(argv[1]);
	d->value = argc >= 3 ? strdup(argv[2]) : NULL;
	if (!d->type || (argc >= 3 && !d->value)) {
		free(d->type);
		free(d->value);
		d->type = d->value = NULL;
		return opt_fail(c, "out of memory");
	}
	o->n_dhcp_options++;
	return 0;
}

int opt_route_gateway(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "dhcp")) {
		c->o->route_gateway_dhcp = true;
		c->o->has_route_gateway = false;
		return 0;
	}
	c->o->route_gateway_dhcp = false;
	c->o->has_route_gateway = !opt_parse_ip4(c, "gateway", argv[1], &c->o->route_gateway);
	return c->o->has_route_gateway ? 0 : -EINVAL;
}

int opt_explicit_exit_notify(struct ctx *c, int argc, char **argv)
{
	if (argc < 2) {
		c->o->explicit_exit_notify = 1;
		return 0;
	}
	return opt_parse_int(c, "count", argv[1], 0, 86400, &c->o->explicit_exit_notify);
}

int opt_setenv(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_setenv *s;

	/* the names OpenVPN's option parser itself reads */
	if (!strcmp(argv[1], "GENERIC_CONFIG"))
		return opt_fail(c, "this is a generic configuration and cannot directly be used");
	if (!strcmp(argv[1], "PUSH_PEER_INFO") && argc == 2) {
		o->push_peer_info = 1;
		return 0;
	}
	if (!strcmp(argv[1], "SERVER_POLL_TIMEOUT") && argc == 3)
		return opt_parse_int(c, "seconds", argv[2], 0, INT_MAX, &o->server_poll_timeout);
	if (!strcmp(argv[1], "FORWARD_COMPATIBLE") && argc == 3 && !strcmp(argv[2], "1"))
		o->forward_compatible = true;	/* and stored, as OpenVPN does */
	if (o->n_setenv >= BRAID_OPT_MAX_SETENV)
		return opt_fail(c, "too many setenv lines (max %d)", BRAID_OPT_MAX_SETENV);
	s = &o->setenv[o->n_setenv];
	s->name = strdup(argv[1]);
	s->value = strdup(argc >= 3 ? argv[2] : "");
	if (!s->name || !s->value) {
		free(s->name);
		free(s->value);
		s->name = s->value = NULL;
		return opt_fail(c, "out of memory");
	}
	o->n_setenv++;
	return 0;
}

int opt_push_peer_info(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->push_peer_info = 1;
	return 0;
}

