// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_mgmt.c - the management interface's directives (options_mgmt.h).
 */
#include "config/options_mgmt.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/options_check.h"
#include "config/options_parse.h"

/* management IP PORT [PWFILE] | management PATH unix [PWFILE] */
int opt_management(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	int e;

	if (!argv[1][0])
		return opt_fail(c, "empty address");
	if (!strcmp(argv[2], "unix")) {
		o->mgmt_unix = true;
		o->mgmt_port = 0;
	} else {
		o->mgmt_unix = false;
		e = opt_parse_int(c, "port", argv[2], 1, 65535, &o->mgmt_port);
		if (e)
			return e;
	}
	if (argc >= 4 && strcmp(argv[3], "stdin")) {
		e = opt_set_str(c, &o->mgmt_pwfile, argv[3]);
		if (e)
			return e;
	} else if (argc >= 4) {
		return opt_fail(c, "braidd cannot prompt for the management password: give a file");
	}
	return opt_set_str(c, &o->mgmt_addr, argv[1]);
}

int opt_management_flag(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[0], "management-hold"))
		c->o->mgmt_hold = true;
	else if (!strcmp(argv[0], "management-query-passwords"))
		c->o->mgmt_query_passwords = true;
	else if (!strcmp(argv[0], "management-query-remote"))
		c->o->mgmt_query_remote = true;
	else if (!strcmp(argv[0], "management-up-down"))
		c->o->mgmt_up_down = true;
	else if (!strcmp(argv[0], "management-client"))
		c->o->mgmt_connect_out = true;
	else
		c->o->mgmt_client_auth = true;
	return 0;
}

int opt_management_log_cache(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_int(c, "lines", argv[1], 1, 100000, &c->o->mgmt_log_cache);
}

int opt_management_client_id(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!argv[1][0])
		return opt_fail(c, "empty name");
	return opt_set_str(c, !strcmp(argv[0], "management-client-user") ?
				      &c->o->mgmt_client_user : &c->o->mgmt_client_group,
			   argv[1]);
}

int opt_finalize_mgmt(const struct braid_options *o, char *err, size_t err_len)
{
	const struct braid_opt_source *up = &o->blobs[BRAID_BLOB_AUTH_USER_PASS];
	const char *need = NULL;

	if (o->has_auth_user_pass && !up->path && !up->inline_text &&
	    !(o->mgmt_addr && o->mgmt_query_passwords)) {
		return opt_lfail(o, err, err_len, "auth-user-pass",
				 "needs a file or an inline block: braidd cannot prompt");
	}

	if (o->mgmt_addr) {
		if (!o->mgmt_unix && (o->mgmt_client_user || o->mgmt_client_group))
			return opt_lfail(o, err, err_len,
					 o->mgmt_client_user ? "management-client-user" :
							       "management-client-group",
					 "needs a unix socket ('management PATH unix')");
		if (o->mgmt_connect_out && (o->mgmt_client_user || o->mgmt_client_group))
			return opt_lfail(o, err, err_len, "management-client",
					 "connects out: management-client-user/-group check "
					 "connecting peers and cannot be combined with it");
		return 0;
	}
	if (o->mgmt_hold)
		need = "management-hold";
	else if (o->mgmt_query_passwords)
		need = "management-query-passwords";
	else if (o->mgmt_client_auth)
		need = "management-client-auth";
	else if (o->mgmt_query_remote)
		need = "management-query-remote";
	else if (o->mgmt_up_down)
		need = "management-up-down";
	else if (o->mgmt_connect_out)
		need = "management-client";
	else if (o->mgmt_log_cache)
		need = "management-log-cache";
	else if (o->mgmt_client_user)
		need = "management-client-user";
	else if (o->mgmt_client_group)
		need = "management-client-group";
	if (need)
		return opt_lfail(o, err, err_len, need,
				 "needs the management interface: add 'management IP PORT' or "
				 "'management PATH unix'");
	return 0;
}
