// SPDX-License-Identifier: GPL-2.0-only
/*
 * options.c - init/free of the options model and applying one directive: the
 * table lookup and argument count, unknown and Windows-only options,
 * ignore-unknown-option, setenv opt, <connection> blocks, and the log line of a
 * documented no-op. The table is in options_table.c, the post-parse checks in
 * options_finalize.c. Messages name the location, the option and the problem.
 */
#include "config/options.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "config/options_check.h"
#include "config/options_class.h"
#include "config/options_int.h"
#include "config/options_parse.h"

/* ---- names, init, free ---- */

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
	o->status_json_interval = 10;
	o->metrics_max_clients = -1;	/* control/metrics.h's default */
	o->connect_retry = 1;
	o->connect_retry_max_backoff = 300;
	o->server_poll_timeout = 120;
	strcpy(o->auth_digest, "SHA1");
	o->hand_window = 60;
	o->tls_timeout = 2;
	o->reneg_sec = 3600;
	o->reneg_sec_min = -1;
	o->tran_window = 3600;
	o->tls_auth_dir = KEY_DIR_UNSET;
	o->script_security = 1;
	o->max_clients = 1024;
	o->status_version = 1;
	o->ifconfig_pool_persist_sec = 600;
}

void braid_options_free(struct braid_options *o)
{
	unsigned int i;

	for (i = 0; i < o->n_remotes; i++)
		free(o->remotes[i].host);
	for (i = 0; i < o->n_ignore_unknown; i++)
		free(o->ignore_unknown[i]);
	for (i = 0; i < BRAID_BLOB_COUNT; i++)
		opt_source_clear(&o->blobs[i]);
	opt_source_clear(&o->secret);
	for (i = 0; i < o->n_mp_paths; i++) {
		free(o->mp_paths[i].local);
		free(o->mp_paths[i].remote);
	}
	for (i = 0; i < o->n_mp_auto_incl; i++)
		free(o->mp_auto_incl[i]);
	for (i = 0; i < o->n_mp_auto_excl; i++)
		free(o->mp_auto_excl[i]);
	for (i = 0; i < o->n_mp_attrs; i++) {
		free(o->mp_attrs[i].local);
		free(o->mp_attrs[i].file);
	}
	free(o->dco_sched_file);
	for (i = 0; i < o->n_dco_sched_steps; i++)
		free(o->dco_sched_steps[i]);
	free(o->control_socket);
	free(o->mgmt_addr);
	free(o->metrics_addr);
	free(o->cluster_etcd);
	free(o->cluster_prefix);
	free(o->mgmt_pwfile);
	free(o->mgmt_client_user);
	free(o->mgmt_client_group);
	free(o->status_path);
	free(o->status_json_path);
	free(o->local);
	free(o->log_path);
	free(o->writepid);
	free(o->cd_dir);
	free(o->syslog_ident);
	free(o->genkey_type);
	free(o->genkey_file);
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
	free(o->chroot_dir);
	free(o->conn.host);
	for (i = 0; i < o->n_where; i++)
		free(o->where[i].file);
	memset(o, 0, sizeof(*o));
}

/* ---- applying one directive ---- */

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
		return opt_fail(&c, "<connection> blocks cannot be nested");
	if (o->n_remotes >= BRAID_OPT_MAX_REMOTES)
		return opt_fail(&c, "too many remotes (max %d)", BRAID_OPT_MAX_REMOTES);
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
		return opt_fail(&c, "each <connection> block must contain exactly one 'remote' directive");
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

	d = opt_table_find(argv[0]);
	if (o->in_connection && d && !connection_opt(argv[0]))
		return opt_fail(&c, "cannot be used inside a <connection> block (only remote, proto, "
				"port, rport, lport, local, nobind, float, connect-retry[-max], "
				"connect-timeout, server-poll-timeout, explicit-exit-notify, tun-mtu, "
				"mssfix, key-direction, tls-auth, tls-crypt)");
	if (!d)
		return unknown(o, argv[0], loc, ignore_unknown, err, err_len);
	c.def = d;
	if (inline_text) {
		if (!d->inline_ok)
			return opt_fail(&c, "does not take an inline <%s> block", argv[0]);
		if (n != 0)
			return opt_fail(&c, "an inline block takes no arguments");
		return d->fn(&c, argc, argv);
	}
	if (n < d->min_args || n > d->max_args) {
		/* (the argument count is checked before the handler runs) */
		if (d->min_args == d->max_args)
			return opt_fail(&c, "expects %d argument%s, got %d", d->min_args,
					d->min_args == 1 ? "" : "s", n);
		if (d->max_args == OPT_MANY)
			return opt_fail(&c, "expects at least %d argument%s, got %d", d->min_args,
					d->min_args == 1 ? "" : "s", n);
		return opt_fail(&c, "expects %d to %d arguments, got %d", d->min_args, d->max_args, n);
	}
	return d->fn(&c, argc, argv);
}


/* A documented no-op is never silent: one line with the reason (options_class.c). */
static void log_noop(const char *name, const struct braid_opt_loc *loc)
{
	const struct braid_opt_class_entry *e = braid_options_class(name);

	if (!e || e->cls != BRAID_OPTC_NOOP)
		return;
	if (loc && loc->file)
		braid_info("%s:%d: option '%s' has no effect in braidd: %s", loc->file, loc->line,
			   name, e->what);
	else
		braid_info("command line: option '%s' has no effect in braidd: %s", name, e->what);
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
	d = opt_table_find(argc >= 3 && !strcmp(argv[0], "setenv") && !strcmp(argv[1], "opt")
				   ? argv[2] : argv[0]);
	if (!r && d)
		opt_note_where(o, d->name, loc);
	if (!r && d)
		log_noop(d->name, loc);
	return r;
}
