// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - braidd: options, logging, pid file, then one tunnel (p2p, TLS
 * client or gateway) until a SIGTERM/SIGINT; the privilege drop of
 * user/group/chroot comes between the gateway's or the p2p mode's set-up
 * (TUN open, sockets bound) and its event loop (the TLS client drops after
 * its first connection, client_setup.c). `--genkey` writes a key and exits
 * (main_genkey.c); `daemon` forks once the options are read; systemd's
 * notification socket is opened before any drop (os/sdnotify.c). SIGHUP:
 * the role returns BRAID_RUN_RELOAD, and main frees it, reads the
 * configuration again and starts it anew (OpenVPN's full restart); the
 * reload signal (SIGRTMIN+1, session/reload.h) is the live reload, which
 * keeps every session (the roles' *_reload.c). Exit
 * codes: 0 normal end, 1 configuration or startup error (a failed drop
 * included; a configuration that no longer parses at SIGHUP too).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "client/client.h"
#include "client/client_reload.h"
#include "client/client_metrics.h"
#include "config/config.h"
#include "config/options_class.h"
#include "config/options_reload.h"
#include "gateway/gateway.h"
#include "gateway/gw_metrics.h"
#include "gateway/gw_mgmt.h"
#include "gateway/gw_reload.h"
#include "main_genkey.h"
#include "os/sdnotify.h"
#include "dc/dclog.h"
#include "util/log.h"
#include "config/options.h"
#include "session/privdrop.h"
#include "session/reload.h"
#include "p2p/tunnel.h"
#include "p2p/tunnel_metrics.h"
#include "p2p/tunnel_mgmt.h"
#include "p2p/tunnel_reload.h"
#include "control/metrics.h"
#include "control/mgmt.h"
#include "dataplane/dco_sched.h"
#include "dataplane/dco_select.h"


static void usage(void)
{
	printf("Usage: braidd --config FILE [--option args ...]\n"
	       "       braidd FILE\n"
	       "       braidd --genkey secret|tls-auth|tls-crypt [FILE]\n"
	       "       braidd --test-config --config FILE [--option args ...]\n"
	       "Options are OpenVPN's, in a config file or on the command line with '--'\n"
	       "(--help-options lists every directive braidd reads).\n"
	       "Point-to-point static-key mode: see braidd(8).\n");
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fprintf(f, "%d\n", (int)getpid());
	if (fclose(f))
		return -errno;
	return 0;
}

/* The data-channel library logs through braidd's logger. */
static void dc_sink(int level, const char *msg, void *ctx)
{
	int l;

	(void)ctx;
	switch (level) {
	case BRAID_DC_LOG_ERR:
		l = BRAID_LOG_ERR;
		break;
	case BRAID_DC_LOG_WARN:
		l = BRAID_LOG_WARN;
		break;
	case BRAID_DC_LOG_INFO:
		l = BRAID_LOG_INFO;
		break;
	default:
		l = BRAID_LOG_DEBUG;
		break;
	}
	if (braid_log_enabled(l))
		braid_log(l, "%s", msg);
}


/* Read the command line and the config file it names (at start and again at SIGHUP). 0 or -errno (logged). */
static int parse_options(struct braid_options *o, int argc, char **argv)
{
	char err[1024];
	int r;

	braid_options_init(o);
	r = braid_config_parse_argv(o, argc, argv, err, sizeof(err));
	if (r) {
		braid_err("%s", err);
		return r;
	}
	braid_log_set_verb(o->verb);
	return 0;
}

/* Check the options read and apply the log format they ask for. 0 or -errno (logged). */
static int finish_options(struct braid_options *o)
{
	char err[1024];
	int r;

	braid_log_set_format(!o->suppress_timestamps, o->machine_readable);
	if (o->mgmt_addr || o->control_socket)
		braid_log_keep_early(64);	/* the management log history starts here */
	o->tls_mode_supported = true;
	r = braid_options_finalize(o, err, sizeof(err));
	if (r) {
		braid_err("%s", err);
		return r;
	}
	return 0;
}

/*
 * `braidd --test-config --config FILE [--option ...]`: read and check the
 * options as at start (nothing opened, no file the options name is read);
 * "configuration OK: MODE" and 0, or the error and 1.
 */
static int test_config(int argc, char **argv)
{
	struct braid_options o;
	char err[1024];
	int r;

	argv[0] = "braidd";
	if (argc < 2) {
		usage();
		return 1;
	}
	braid_options_init(&o);
	r = braid_config_parse_argv(&o, argc, argv, err, sizeof(err));
	if (!r) {
		o.tls_mode_supported = true;
		r = braid_options_finalize(&o, err, sizeof(err));
	}
	if (r)
		fprintf(stderr, "%s\n", err);
	else
		printf("configuration OK: %s\n", o.mode == BRAID_MODE_SERVER ? "gateway" :
		       o.tls == BRAID_TLS_CLIENT ? "TLS client" : "static-key point-to-point");
	braid_options_free(&o);
	return r ? 1 : 0;
}

/* Set up the role the options name and run it: its exit code, or BRAID_RUN_RELOAD. */
static int run_role(struct braid_options *o)
{
	struct braid_tunnel *t = NULL;
	struct braid_mgmt *mg = NULL;		/* p2p: the management interface */
	struct braid_metrics *met = NULL;	/* `metrics` endpoint (control/metrics.h) */
	int code;

	if (braid_dco_select(o))	/* `dco`: the data plane's backend, one log line on a fallback */
		return 1;
	if (o->tls == BRAID_TLS_CLIENT) {
		struct braid_client *c = NULL;

		if (braid_client_new(&c, o))
			return 1;
		if (client_metrics_open(c, &met)) {
			braid_client_free(c);
			return 1;
		}
		client_reload_listen(c);
		code = braid_client_run(c);	/* it drops privileges once its first connection is up */
		client_reload_unlisten(c);
		braid_metrics_free(met);
		braid_client_free(c);
		return code;
	}
	if (o->mode == BRAID_MODE_SERVER) {
		struct braid_gateway *g = NULL;

		if (braid_gateway_new(&g, o))
			return 1;
		if (gw_mgmt_open(g) || gw_metrics_open(g, &met) || braid_privdrop_apply(o)) {
			braid_metrics_free(met);
			gw_mgmt_close(g);
			braid_gateway_free(g);
			return 1;
		}
		gw_reload_listen(g);
		gw_mgmt_hold(g);	/* management-hold: nothing served until `hold release` */
		code = braid_gateway_run(g);
		gw_reload_unlisten(g);
		braid_metrics_free(met);
		gw_mgmt_close(g);
		braid_gateway_free(g);
		return code;
	}
	if (o->tls == BRAID_TLS_SERVER) {
		braid_err("point-to-point 'tls-server' (without 'mode server') is not available in "
			  "this build");
		return 1;
	}
	if (braid_tunnel_new(&t, o))
		return 1;
	if (braid_tunnel_mgmt_open(t, &mg) || braid_tunnel_metrics_open(t, &met) ||
	    braid_privdrop_apply(o)) {
		braid_metrics_free(met);
		braid_tunnel_mgmt_close(t, mg);
		braid_tunnel_free(t);
		return 1;
	}
	braid_tunnel_reload_listen(t);
	code = braid_tunnel_run(t);
	braid_tunnel_reload_unlisten(t);
	braid_metrics_free(met);
	braid_tunnel_mgmt_close(t, mg);
	braid_tunnel_free(t);
	return code;
}

int main(int argc, char **argv)
{
	struct braid_options o;
	int r, code = 1;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--help-options")) {	/* completion, the man page test */
		printf("config parser\n");
		for (size_t i = 0; braid_options_table_name(i); i++) {
			const char *n = braid_options_table_name(i);
			const struct braid_opt_class_entry *e = braid_options_class(n);

			printf("%s %s\n", n, braid_options_class_name(e ? e->cls : BRAID_OPTC_NONE));
		}
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--version")) {
		printf("braidd %s (OpenVPN 2.6 compatible data channel)\n", BRAID_VERSION_STR);
		return 0;
	}
	if (argc < 2) {
		usage();
		return 1;
	}
	braid_dc_log_set(dc_sink, NULL);
	if (!strcmp(argv[1], "--test-config"))	/* parse and check only: the docs' examples, before a reload */
		return test_config(argc - 1, argv + 1);
	if (sodium_init() < 0) {
		braid_err("libsodium initialisation failed");
		return 1;
	}
	braid_reload_set_args(argc, argv);	/* the live reload reads the same command line */
	signal(BRAID_RELOAD_SIGNAL, SIG_IGN);	/* until a role listens for it: never fatal */
	if (parse_options(&o, argc, argv))
		goto out_opts;
	if (o.genkey_type) {	/* `--genkey TYPE [FILE]`: nothing else runs */
		r = braid_genkey_write(o.genkey_type, o.genkey_file);
		if (r)
			braid_err("option 'genkey': cannot write '%s': %s",
				  o.genkey_file ? o.genkey_file : "stdout", strerror(-r));
		code = r ? 1 : 0;
		goto out_opts;
	}
	braid_log_detect_journal();
	if (finish_options(&o))
		goto out_opts;
	if (o.log_path) {
		r = braid_log_open_file(o.log_path, o.log_append);
		if (r) {
			braid_err("option 'log': cannot open '%s': %s", o.log_path, strerror(-r));
			goto out_opts;
		}
	}
	if ((o.daemon || o.use_syslog) && !o.log_path)
		braid_log_open_syslog(o.syslog_ident ? o.syslog_ident : "braidd");
	/* as OpenVPN with --cd: the working directory stays (relative ccd, scripts, CRL) */
	if (o.daemon && daemon(1, 0)) {
		braid_err("option 'daemon': cannot fork into the background: %s", strerror(errno));
		goto out_log;
	}
	braid_sd_init();
	braid_info("braidd %s starting%s%s", BRAID_VERSION_STR, o.cd_dir ? " in " : "",
		   o.cd_dir ? o.cd_dir : "");
	if (o.n_ignored)
		braid_info("%u unknown option(s) ignored (ignore-unknown-option)", o.n_ignored);
	if (o.writepid) {
		r = write_pidfile(o.writepid);
		if (r) {
			braid_err("option 'writepid': cannot write '%s': %s", o.writepid, strerror(-r));
			goto out_pid;
		}
	}
	for (;;) {
		code = run_role(&o);
		if (code != BRAID_RUN_RELOAD)
			break;
		/* SIGHUP: everything was closed; the configuration is read again (the log stays open) */
		braid_sd_reloading("restarting (SIGHUP)");
		if (o.writepid)
			unlink(o.writepid);
		braid_options_free(&o);
		if (parse_options(&o, argc, argv) || finish_options(&o)) {
			braid_err("SIGHUP: the configuration no longer parses; exiting");
			code = 1;
			goto out_pid;
		}
		braid_info("SIGHUP: configuration read again; restarting");
		if (!o.mgmt_addr && !o.control_socket)
			braid_mgmt_shutdown();	/* else the next role takes the interface over */
		if (o.writepid && (r = write_pidfile(o.writepid))) {
			braid_err("option 'writepid': cannot write '%s': %s", o.writepid, strerror(-r));
			code = 1;
			goto out_pid;
		}
	}
	braid_info("exiting with status %d", code);
out_pid:
	braid_mgmt_shutdown();	/* the management interface kept across reloads */
	braid_dco_sched_unload();
	braid_sd_stopping("exiting with status %d", code);
	braid_sd_close();
	if (o.writepid)
		unlink(o.writepid);
out_log:
	braid_log_close();
out_opts:
	braid_options_free(&o);
	return code;
}
