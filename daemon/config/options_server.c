// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_server.c - directives of the gateway (server): mode, tls-server, server,
 * server-ipv6, ifconfig-pool, push, max-clients, auth-user-pass-verify,
 * status-version, ifconfig-pool-persist, connect-freq, verify-client-cert,
 * client-cert-not-required, the client-config-dir-only directives; and the
 * server checks.
 */
#include "config/options_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "config/options_check.h"
#include "config/options_int.h"
#include "config/options_parse.h"

int opt_mode(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "server"))
		c->o->mode = BRAID_MODE_SERVER;
	else if (!strcmp(argv[1], "p2p"))
		c->o->mode = BRAID_MODE_P2P;
	else
		return opt_fail(c, "unknown mode '%s' (expected p2p or server)", argv[1]);
	c->o->has_mode_opt = true;
	return 0;
}

int opt_tls_server(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->opt_tls_server = true;
	return 0;
}

static int parse_ip4_nonzero(struct ctx *c, const char *what, const char *s, struct in_addr *out)
{
	int e = opt_parse_ip4(c, what, s, out);

	if (!e && !out->s_addr)
		return opt_fail(c, "%s must not be 0.0.0.0", what);
	return e;
}

int opt_server(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct in_addr net, mask;
	int e;

	e = parse_ip4_nonzero(c, "network", argv[1], &net);
	if (!e)
		e = parse_ip4_nonzero(c, "netmask", argv[2], &mask);
	if (e)
		return e;
	if (opt_mask_to_prefix(mask) < 0)
		return opt_fail(c, "netmask '%s' is not a valid netmask", argv[2]);
	if (net.s_addr & ~mask.s_addr)
		return opt_fail(c, "network %s is not aligned to its netmask %s", argv[1], argv[2]);
	if (argc >= 4 && strcmp(argv[3], "nopool"))
		return opt_fail(c, "'%s' is not a recognized flag (expected nopool)", argv[3]);
	o->has_server = true;
	o->server_net = net;
	o->server_mask = mask;
	o->server_nopool = argc >= 4;
	return 0;
}

int opt_server6(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct in6_addr net;
	uint8_t bits;
	int e;

	(void)argc;
	if (!strchr(argv[1], '/'))
		return opt_fail(c, "'%s' needs a prefix length (NET/LEN, /64 to /124)", argv[1]);
	e = opt_parse_ip6_prefix(c, "network", argv[1], 64, &net, &bits);
	if (e)
		return e;
	if (bits < 64 || bits > 124)
		return opt_fail(c, "network must be between /64 and /124 (not /%d)", bits);
	o->has_server6 = true;
	o->server6_net = net;
	o->server6_prefix = bits;
	return 0;
}

int opt_ifconfig_pool(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct in_addr s, e4, m = { 0 };
	int e;

	e = opt_parse_ip4(c, "start address", argv[1], &s);
	if (!e)
		e = opt_parse_ip4(c, "end address", argv[2], &e4);
	if (!e && argc >= 4)
		e = opt_parse_ip4(c, "netmask", argv[3], &m);
	if (e)
		return e;
	if (ntohl(s.s_addr) > ntohl(e4.s_addr))
		return opt_fail(c, "start address %s is after the end address %s", argv[1], argv[2]);
	if (ntohl(e4.s_addr) - ntohl(s.s_addr) >= 65536)
		return opt_fail(c, "range %s - %s is too large (max 65536 addresses)", argv[1], argv[2]);
	if (argc >= 4 && opt_mask_to_prefix(m) < 0)
		return opt_fail(c, "netmask '%s' is not a valid netmask", argv[3]);
	o->has_ifconfig_pool = true;
	o->ifconfig_pool_start = s;
	o->ifconfig_pool_end = e4;
	o->ifconfig_pool_mask = m;
	return 0;
}

int opt_push(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	(void)argc;
	if (o->n_push >= BRAID_OPT_MAX_PUSH)
		return opt_fail(c, "too many push options (max %d)", BRAID_OPT_MAX_PUSH);
	if (!argv[1][0])
		return opt_fail(c, "empty option text");
	if (strchr(argv[1], ','))
		return opt_fail(c, "'%s' contains a comma (pushed options are comma-separated)", argv[1]);
	o->push[o->n_push] = strdup(argv[1]);
	if (!o->push[o->n_push])
		return opt_fail(c, "out of memory");
	o->n_push++;
	return 0;
}

int opt_max_clients(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "count", argv[1], 1, 65536, &c->o->max_clients);
}

int opt_aupv(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	(void)argc;
	if (!strcmp(argv[2], "via-env"))
		o->auth_user_pass_verify_method = BRAID_AUPV_VIA_ENV;
	else if (!strcmp(argv[2], "via-file"))
		o->auth_user_pass_verify_method = BRAID_AUPV_VIA_FILE;
	else
		return opt_fail(c, "second parameter must be 'via-env' or 'via-file', got '%s'", argv[2]);
	return opt_set_str(c, &o->auth_user_pass_verify, argv[1]);
}

int opt_status_version(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "version", argv[1], 1, 3, &c->o->status_version);
}

int opt_ifconfig_pool_persist(struct ctx *c, int argc, char **argv)
{
	int e;

	if (argc >= 3) {
		e = opt_parse_int(c, "seconds", argv[2], 0, 86400 * 365, &c->o->ifconfig_pool_persist_sec);
		if (e)
			return e;
	}
	return opt_set_str(c, &c->o->ifconfig_pool_persist, argv[1]);
}

int opt_connect_freq(struct ctx *c, int argc, char **argv)
{
	int e;

	(void)argc;
	e = opt_parse_int(c, "count", argv[1], 1, 65535, &c->o->connect_freq_n);
	if (!e)
		e = opt_parse_int(c, "seconds", argv[2], 1, 86400, &c->o->connect_freq_sec);
	return e;
}

int opt_connect_freq_initial(struct ctx *c, int argc, char **argv)
{
	int e;

	(void)argc;
	e = opt_parse_int(c, "count", argv[1], 1, 1000000, &c->o->cfi_n);
	if (!e)
		e = opt_parse_int(c, "seconds", argv[2], 1, 86400, &c->o->cfi_sec);
	return e;
}

/* `workers N|auto` (issue 16): the gateway's worker threads (docs/scaling.md
 * "Workers"). N > 1: N threads, sessions steered by peer-id; `auto` (and no
 * `workers` line) is one worker per online core (gw_workers.c). */
int opt_workers(struct ctx *c, int argc, char **argv)
{
	int n, e;

	(void)argc;
	if (!strcmp(argv[1], "auto")) {
		c->o->workers = -1;
		return 0;
	}
	e = opt_parse_int(c, "count", argv[1], 1, BRAID_OPT_WORKERS_MAX, &n);
	if (e)
		return e;
	c->o->workers = n;
	return 0;
}

int opt_verify_client_cert(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "none"))
		c->o->verify_client_cert = BRAID_VCC_NONE;
	else if (!strcmp(argv[1], "optional"))
		c->o->verify_client_cert = BRAID_VCC_OPTIONAL;
	else if (!strcmp(argv[1], "require"))
		c->o->verify_client_cert = BRAID_VCC_REQUIRE;
	else
		return opt_fail(c, "expected none, optional or require, got '%s'", argv[1]);
	c->o->has_vcc_opt = true;
	return 0;
}

int opt_client_cert_not_required(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	c->o->verify_client_cert = BRAID_VCC_NONE;
	c->o->client_cert_not_required = true;
	c->o->has_vcc_opt = true;
	return 0;
}

/* Options of client-config-dir files: not in the main config (OpenVPN: "cannot be used in this context"). */
int opt_ccd_only(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return opt_fail(c, "can only be used in a client-config-dir file");
}

int opt_finalize_server(struct braid_options *o, char *err, size_t err_len)
{
	if (o->tls != BRAID_TLS_SERVER)
		return opt_lfail(o, err, err_len, "mode", "'mode server' requires 'tls-server'");
	if (o->pull)
		return opt_lfail(o, err, err_len, "pull", "cannot be used with 'mode server'");
	if (o->n_remotes)
		return opt_lfail(o, err, err_len, "remote",
				 o->remotes[0].from_connection
					 ? "<connection> cannot be used with 'mode server'"
					 : "cannot be used with 'mode server'");
	if (o->nobind)
		return opt_lfail(o, err, err_len, "nobind", "cannot be used with 'mode server'");
	if (o->proto == BRAID_PROTO_TCP_CLIENT)
		return opt_lfail(o, err, err_len, "proto",
				 "'mode server' supports only udp, tcp-server, "
				 "tcp4-server or tcp6-server");
	if (o->connect_freq_n && o->proto != BRAID_PROTO_UDP)
		return opt_lfail(o, err, err_len, "connect-freq",
				 "only works with 'proto udp' (try 'max-clients')");
	if (o->redirect_gw & (BRAID_RG_ENABLE | BRAID_RG_IPV6))
		return opt_lfail(o, err, err_len, "redirect-gateway",
				 "cannot be used with 'mode server' (however "
				 "'push \"redirect-gateway\"' is fine)");
	if (o->has_auth_user_pass)
		return opt_lfail(o, err, err_len, "auth-user-pass",
				 "cannot be used with 'mode server' (it is a "
				 "client option)");
	if (o->ccd_exclusive && !o->client_config_dir)
		return opt_lfail(o, err, err_len, "ccd-exclusive",
				 "must be used with 'client-config-dir'");
	if (o->has_ifconfig_pool && o->ifconfig_pool_mask.s_addr && o->topology != BRAID_TOPO_SUBNET)
		return opt_lfail(o, err, err_len, "ifconfig-pool",
				 "the third parameter (netmask) is only valid with "
				 "'topology subnet'");
	if (o->verify_client_cert != BRAID_VCC_REQUIRE && !o->auth_user_pass_verify)
		return opt_lfail(o, err, err_len, "verify-client-cert",
				 "'none' and 'optional' need "
				 "'auth-user-pass-verify' (else any client gets in)");
	if (o->username_as_common_name && !o->auth_user_pass_verify)
		return opt_lfail(o, err, err_len, "username-as-common-name",
				 "needs 'auth-user-pass-verify'");
	if (o->auth_user_pass_optional && !o->auth_user_pass_verify)
		return opt_lfail(o, err, err_len, "auth-user-pass-optional",
				 "needs 'auth-user-pass-verify'");
	if (o->has_server) {
		int bits = opt_mask_to_prefix(o->server_mask);

		if (bits < 16)
			return opt_lfail(o, err, err_len, "server",
					 "netmask allows for too many host addresses "
					 "(subnet must be 255.255.0.0 or higher)");
		if (bits > 29)
			return opt_lfail(o, err, err_len, "server",
					 "with 'dev tun' it must define a subnet of "
					 "255.255.255.248 or lower");
	}
	if (o->has_server6 && o->server_nopool)
		return opt_lfail(o, err, err_len, "server-ipv6",
				 "incompatible with the 'nopool' flag of 'server'");
	/* OpenVPN's server uses twice the pushed ping-restart itself */
	if (o->keepalive_ping)
		o->ping_restart = 2 * o->keepalive_restart;
	return 0;
}
