// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_process.c - directives of the process and compatibility: verb, writepid, log,
 * daemon, ignore-unknown-option, control-socket, status, management, scripts
 * and script-security, persist-*, mute, Windows-only and accepted no-op
 * directives, and the ones braidd refuses (fragment, proxies, plugins, ...).
 */
#include "options_process.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "options_int.h"
#include "options_parse.h"

int opt_verb(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "level", argv[1], 0, BRAID_LOG_VERB_MAX, &c->o->verb);
}

int opt_writepid(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_set_str(c, &c->o->writepid, argv[1]);
}

int opt_log(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->log_append = !strcmp(argv[0], "log-append");
	return opt_set_str(c, &c->o->log_path, argv[1]);
}

int opt_daemon(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return opt_fail(c, "not supported: run braidd under systemd, or in the background with '&'");
}

int opt_ignore_unknown(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	for (int i = 1; i < argc; i++) {
		if (o->n_ignore_unknown >= BRAID_OPT_MAX_IGNORE)
			return opt_fail(c, "too many option names (max %d)", BRAID_OPT_MAX_IGNORE);
		o->ignore_unknown[o->n_ignore_unknown] = strdup(argv[i]);
		if (!o->ignore_unknown[o->n_ignore_unknown])
			return opt_fail(c, "out of memory");
		o->n_ignore_unknown++;
	}
	return 0;
}

int opt_control_socket(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!argv[1][0])
		return opt_fail(c, "empty socket path");
	return opt_set_str(c, &c->o->control_socket, argv[1]);
}

int opt_status(struct ctx *c, int argc, char **argv)
{
	int e;

	if (argc >= 3) {
		e = opt_parse_int(c, "interval", argv[2], 1, 86400, &c->o->status_interval);
		if (e)
			return e;
	}
	return opt_set_str(c, &c->o->status_path, argv[1]);
}

int opt_management(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	uint16_t port = 0;
	int e;

	if (!strcmp(argv[2], "unix")) {
		o->management_unix = true;
	} else {
		e = opt_parse_port(c, argv[2], &port);
		if (e)
			return e;
		o->management_unix = false;
	}
	o->management_port = port;
	e = opt_set_str(c, &o->management_host, argv[1]);
	if (!e && argc >= 4) {
		e = opt_set_str(c, &o->management_pwfile, argv[3]);
	} else if (!e) {
		free(o->management_pwfile);
		o->management_pwfile = NULL;
	}
	return e;
}

int opt_script(struct ctx *c, int argc, char **argv)
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
		return opt_fail(c, "empty command");
	return opt_set_str(c, dst, argv[1]);
}

int opt_script_security(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "level", argv[1], 0, 3, &c->o->script_security);
}

int opt_persist(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[0], "persist-key"))
		c->o->persist_key = true;
	else
		c->o->persist_tun = true;
	return 0;
}

int opt_ignore_win(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;
}

/* Options OpenVPN 2.6 knows that real profiles carry: stored for the runtime, or accepted. */
int opt_int_field(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "value", argv[1], 0, INT_MAX, (int *)((char *)c->o + c->def->off));
}

int opt_accept(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;
}

int opt_mute(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "count", argv[1], 0, INT_MAX, &c->o->mute);
}

/* Deliberately unsupported: the message says why. */
int opt_unsupported(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[0], "fragment"))
		return opt_fail(c, "not supported: braidd does not fragment (use mssfix / a smaller "
				"tun-mtu)");
	if (!strcmp(argv[0], "http-proxy") || !strcmp(argv[0], "socks-proxy"))
		return opt_fail(c, "proxies are not supported by braidd");
	if (!strcmp(argv[0], "plugin"))
		return opt_fail(c, "plugins are not supported by braidd (use scripts: up, down, "
				"client-connect, auth-user-pass-verify)");
	if (!strcmp(argv[0], "server-bridge"))
		return opt_fail(c, "not supported: server-bridge needs a tap device (braidd is tun only)");
	return opt_fail(c, "not supported by braidd");
}
