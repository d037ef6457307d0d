// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_process.c - directives of the process and compatibility: verb, writepid, log,
 * daemon, syslog, cd, genkey, ignore-unknown-option, control-socket, status, management, scripts
 * and script-security, Windows-only and accepted no-op directives, the
 * checks of user/group/chroot, and the ones braidd refuses (fragment,
 * proxies, plugins, management, ...; options_class.c classifies them all).
 */
#include "config/options_process.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "config/options_check.h"
#include "config/options_int.h"
#include "config/options_parse.h"

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

/* `daemon [NAME]`: main.c forks once the options are read; logs go to syslog as NAME unless `log`. */
int opt_daemon(struct ctx *c, int argc, char **argv)
{
	c->o->daemon = true;
	if (argc < 2)
		return 0;
	if (!argv[1][0])
		return opt_fail(c, "empty program name");
	return opt_set_str(c, &c->o->syslog_ident, argv[1]);
}

/* `syslog [NAME]`: log to syslog as NAME (default braidd), stay in the foreground. */
int opt_syslog(struct ctx *c, int argc, char **argv)
{
	c->o->use_syslog = true;
	if (argc < 2)
		return 0;
	if (!argv[1][0])
		return opt_fail(c, "empty program name");
	return opt_set_str(c, &c->o->syslog_ident, argv[1]);
}

/*
 * `cd DIR`: as OpenVPN, the directory changes when the directive is read, so
 * the files named after it (`config`, keys, scripts, ccd) are relative to DIR.
 */
int opt_cd(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!argv[1][0])
		return opt_fail(c, "empty directory");
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	/* the config fuzzers must not move their own working directory (corpus, artifacts) */
	if (access(argv[1], X_OK))
#else
	if (chdir(argv[1]))
#endif
		return opt_fail(c, "cannot change directory to '%s': %s", argv[1], strerror(errno));
	return opt_set_str(c, &c->o->cd_dir, argv[1]);
}

/*
 * `genkey [TYPE] [FILE]`: TYPE secret, tls-auth or tls-crypt (the same static
 * key file, main_genkey.c); none = secret, the file then from a later `secret
 * FILE` (OpenVPN's deprecated `--genkey --secret FILE`). No FILE = stdout.
 */
int opt_genkey(struct ctx *c, int argc, char **argv)
{
	static const char *const types[] = { "secret", "tls-auth", "tls-crypt" };
	const char *t = argc >= 2 ? argv[1] : "secret";
	bool known = false;
	int e;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		known |= !strcmp(t, types[i]);
	if (!known && (!strncmp(t, "tls-crypt-v2", 12) || !strcmp(t, "auth-token")))
		return opt_fail(c, "key type '%s' is not supported by braidd (no tls-crypt-v2, no "
				"auth-token); use 'openvpn --genkey %s'", t, t);
	if (!known)
		return opt_fail(c, "unknown key type '%s' (expected secret, tls-auth or tls-crypt)", t);
	e = opt_set_str(c, &c->o->genkey_type, t);
	if (e || argc < 3)
		return e;
	if (!argv[2][0])
		return opt_fail(c, "empty file name");
	return opt_set_str(c, &c->o->genkey_file, argv[2]);
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

/* `status-json FILE [SECONDS]`: Braid's JSON status file in every role (default every 10 s). */
int opt_status_json(struct ctx *c, int argc, char **argv)
{
	int e;

	if (argc >= 3) {
		e = opt_parse_int(c, "interval", argv[2], 1, 86400, &c->o->status_json_interval);
		if (e)
			return e;
	}
	return opt_set_str(c, &c->o->status_json_path, argv[1]);
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

int opt_ignore_win(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;
}

/* A no-op with a number (mute): the value is checked, then dropped. */
int opt_int_check(struct ctx *c, int argc, char **argv)
{
	int v;

	(void)argc;
	return opt_parse_int(c, "value", argv[1], 0, INT_MAX, &v);
}

int opt_accept(struct ctx *c, int argc, char **argv)
{
	(void)c, (void)argc, (void)argv;
	return 0;
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
	if (!strcmp(argv[0], "route-metric"))
		return opt_fail(c, "not applied by braidd yet: remove it and give the metric on each "
				"route ('route NETWORK NETMASK GATEWAY METRIC')");
	if (!strcmp(argv[0], "route-noexec") || !strcmp(argv[0], "ifconfig-noexec"))
		return opt_fail(c, "braidd always configures the TUN device, its addresses and routes "
				"itself; remove the option (to skip pushed routes use 'route-nopull' or "
				"'pull-filter ignore \"route\"')");
	if (!strcmp(argv[0], "inactive"))
		return opt_fail(c, "not implemented in braidd yet: the tunnel would never end on "
				"inactivity; remove the option ('ping-exit' ends a dead tunnel)");
	if (!strcmp(argv[0], "block-ipv6"))
		return opt_fail(c, "not implemented in braidd: IPv6 traffic would not be blocked; "
				"remove the option, or route IPv6 into the tunnel ('redirect-gateway "
				"ipv6' from an IPv6-capable server)");
	if (!strcmp(argv[0], "ns-cert-type"))
		return opt_fail(c, "the Netscape certificate type is not checked by braidd (OpenVPN "
				"deprecated it): use 'remote-cert-tls server' (or client)");
	if (!strcmp(argv[0], "remote-cert-ku") || !strcmp(argv[0], "remote-cert-eku"))
		return opt_fail(c, "not checked by braidd yet: use 'remote-cert-tls server' (or "
				"client), which checks the key usage and the extended key usage");
	if (!strcmp(argv[0], "static-challenge"))
		return opt_fail(c, "braidd cannot prompt for a challenge response; remove the option");
	if (!strcmp(argv[0], "extra-certs"))
		return opt_fail(c, "not supported by braidd: append the intermediate certificates to "
				"the 'cert' file (braidd sends the rest of that file as the chain)");
	if (!strcmp(argv[0], "http-proxy-user-pass"))
		return opt_fail(c, "proxies are not supported by braidd");
	if (!strcmp(argv[0], "push-remove"))
		return opt_fail(c, "not supported by braidd (in client-config-dir files neither): use "
				"'push-reset' and then 'push' the options the client should get");
	if (!strcmp(argv[0], "peer-fingerprint"))
		return opt_fail(c, "not supported by braidd yet: verify the peer with 'ca' (and "
				"'remote-cert-tls' / 'verify-x509-name')");
	return opt_fail(c, "not supported by braidd");
}

/*
 * `user`, `group`, `chroot`: resolved now, so a typo fails at start with its
 * line, not after the set-up (privdrop.c drops at its end). `user` alone also
 * takes the user's primary group (OpenVPN would keep gid 0).
 */
int opt_finalize_process(struct braid_options *o, char *err, size_t err_len)
{
	struct stat st;

	if (o->group) {
		struct group *gr = getgrnam(o->group);

		if (!gr)
			return opt_lfail(o, err, err_len, "group",
					 "unknown group '%s' (no such entry in the group database)",
					 o->group);
		o->run_gid = gr->gr_gid;
	}
	if (o->user) {
		struct passwd *pw = getpwnam(o->user);

		if (!pw)
			return opt_lfail(o, err, err_len, "user",
					 "unknown user '%s' (no such entry in the password database)",
					 o->user);
		o->run_uid = pw->pw_uid;
		if (!o->group)
			o->run_gid = pw->pw_gid;
		if (!pw->pw_uid)
			braid_warn("option 'user %s': uid 0, braidd keeps running as root", o->user);
	}
	if (o->chroot_dir && (stat(o->chroot_dir, &st) || !S_ISDIR(st.st_mode)))
		return opt_lfail(o, err, err_len, "chroot", "'%s' is not a directory",
				 o->chroot_dir);
	return 0;
}
