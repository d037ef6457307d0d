// SPDX-License-Identifier: GPL-2.0-only
/*
 * options.c - the directive table and its generic handlers (flags, strings, files and
 * inline blocks), init/free, applying one directive (unknown options,
 * <connection> blocks, setenv opt) and the post-parse checks that span areas
 * (role, common); the checks of one area live with its handlers.
 * Messages name the location, the option and the problem.
 */
#include "config/options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dc/static_key.h"
#include "util/log.h"
#include "config/options_class.h"
#include "config/options_client.h"
#include "config/options_data.h"
#include "config/options_int.h"
#include "config/options_mp.h"
#include "config/options_net.h"
#include "config/options_parse.h"
#include "config/options_process.h"
#include "config/options_server.h"
#include "config/options_tls.h"

/* ---- the directive table and its generic handlers ---- */

static int opt_blob(struct ctx *c, int argc, char **argv);

/* setenv is handled in braid_options_apply (setenv opt …); plain setenv is kept as a no-op */

#define NOBLOB (-1)
#define MANY 15
#define FIELD(f) NOBLOB, offsetof(struct braid_options, f)

static int opt_flag(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	*(bool *)((char *)c->o + c->def->off) = true;
	return 0;
}

static int opt_string(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!argv[1][0])
		return opt_fail(c, "empty argument");
	return opt_set_str(c, (char **)((char *)c->o + c->def->off), argv[1]);
}

static const struct opt_def opt_table[] = {
	{ "dev", 1, 1, opt_dev, false, NOBLOB, 0 },
	{ "dev-type", 1, 1, opt_dev_type, false, NOBLOB, 0 },
	{ "proto", 1, 1, opt_proto, false, NOBLOB, 0 },
	{ "remote", 1, 3, opt_remote, false, NOBLOB, 0 },
	{ "local", 1, 1, opt_local, false, NOBLOB, 0 },
	{ "lport", 1, 1, opt_lport, false, NOBLOB, 0 },
	{ "rport", 1, 1, opt_rport, false, NOBLOB, 0 },
	{ "port", 1, 1, opt_port, false, NOBLOB, 0 },
	{ "nobind", 0, 0, opt_nobind, false, NOBLOB, 0 },
	{ "float", 0, 0, opt_float, false, NOBLOB, 0 },
	{ "ifconfig", 2, 2, opt_ifconfig, false, NOBLOB, 0 },
	{ "ifconfig-ipv6", 2, 2, opt_ifconfig6, false, NOBLOB, 0 },
	{ "route", 1, 4, opt_route, false, NOBLOB, 0 },
	{ "route-ipv6", 1, 3, opt_route6, false, NOBLOB, 0 },
	{ "tun-mtu", 1, 1, opt_tun_mtu, false, NOBLOB, 0 },
	{ "topology", 1, 1, opt_topology, false, NOBLOB, 0 },
	{ "cipher", 1, 1, opt_cipher, false, NOBLOB, 0 },
	{ "data-ciphers", 1, 1, opt_data_ciphers, false, NOBLOB, 0 },
	{ "ncp-ciphers", 1, 1, opt_data_ciphers, false, NOBLOB, 0 },
	{ "secret", 1, 2, opt_secret, true, NOBLOB, 0 },
	{ "key-direction", 1, 1, opt_key_direction, false, NOBLOB, 0 },
	{ "keepalive", 2, 2, opt_keepalive, false, NOBLOB, 0 },
	{ "ping", 1, 1, opt_ping, false, NOBLOB, 0 },
	{ "ping-restart", 1, 1, opt_ping_restart, false, NOBLOB, 0 },
	{ "ping-exit", 1, 1, opt_ping_exit, false, NOBLOB, 0 },
	{ "verb", 1, 1, opt_verb, false, NOBLOB, 0 },
	{ "replay-window", 1, 2, opt_replay_window, false, NOBLOB, 0 },
	{ "peer-id", 1, 1, opt_peer_id, false, NOBLOB, 0 },
	{ "mssfix", 0, 2, opt_mssfix, false, NOBLOB, 0 },
	{ "writepid", 1, 1, opt_writepid, false, NOBLOB, 0 },
	{ "log", 1, 1, opt_log, false, NOBLOB, 0 },
	{ "log-append", 1, 1, opt_log, false, NOBLOB, 0 },
	{ "daemon", 0, 1, opt_daemon, false, NOBLOB, 0 },
	{ "ignore-unknown-option", 1, MANY, opt_ignore_unknown, false, NOBLOB, 0 },
	{ "setenv", 1, 2, opt_setenv, false, NOBLOB, 0 },
	/* braidd always keeps the key and the device across a ping-restart */
	{ "multipath", 0, 1, opt_multipath, false, NOBLOB, 0 },
	{ "mp-path", 1, 3, opt_mp_path, false, NOBLOB, 0 },
	{ "mp-backup", 1, 1, opt_mp_backup, false, NOBLOB, 0 },
	{ "mp-cap", 2, 2, opt_mp_cap, false, NOBLOB, 0 },
	{ "mp-scheduler", 1, 2, opt_mp_scheduler, false, NOBLOB, 0 },
	{ "mp-reorder-ms", 1, 1, opt_mp_reorder_ms, false, NOBLOB, 0 },
	{ "mp-path-timeout", 1, 1, opt_mp_path_timeout, false, NOBLOB, 0 },
	{ "status", 1, 2, opt_status, false, NOBLOB, 0 },
	{ "control-socket", 1, 1, opt_control_socket, false, NOBLOB, 0 },
	{ "mp-class", 2, MANY, opt_mp_class, false, NOBLOB, 0 },
	{ "persist-key", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "persist-tun", 0, 0, opt_accept, false, NOBLOB, 0 },
	/* role */
	{ "mode", 1, 1, opt_mode, false, NOBLOB, 0 },
	{ "client", 0, 0, opt_client, false, NOBLOB, 0 },
	{ "tls-client", 0, 0, opt_tls_client, false, NOBLOB, 0 },
	{ "tls-server", 0, 0, opt_tls_server, false, NOBLOB, 0 },
	{ "pull", 0, 0, opt_pull, false, NOBLOB, 0 },
	/* transport (client) */
	{ "remote-random", 0, 0, opt_remote_random, false, NOBLOB, 0 },
	{ "resolv-retry", 1, 1, opt_resolv_retry, false, NOBLOB, 0 },
	{ "connect-retry", 1, 2, opt_connect_retry, false, NOBLOB, 0 },
	{ "connect-retry-max", 1, 1, opt_connect_retry_max, false, NOBLOB, 0 },
	{ "server-poll-timeout", 1, 1, opt_server_poll_timeout, false, NOBLOB, 0 },
	{ "connect-timeout", 1, 1, opt_server_poll_timeout, false, NOBLOB, 0 },
	/* TLS */
	{ "auth", 1, 1, opt_auth, false, NOBLOB, 0 },
	{ "tls-version-min", 1, 2, opt_tls_version_min, false, NOBLOB, 0 },
	{ "tls-version-max", 1, 1, opt_tls_version_max, false, NOBLOB, 0 },
	{ "tls-cipher", 1, 1, opt_string, false, FIELD(tls_cipher) },
	{ "tls-ciphersuites", 1, 1, opt_string, false, FIELD(tls_ciphersuites) },
	{ "tls-groups", 1, 1, opt_string, false, FIELD(tls_groups) },
	{ "remote-cert-tls", 1, 1, opt_remote_cert_tls, false, NOBLOB, 0 },
	{ "verify-x509-name", 1, 2, opt_verify_x509_name, false, NOBLOB, 0 },
	{ "verify-client-cert", 1, 1, opt_verify_client_cert, false, NOBLOB, 0 },
	{ "client-cert-not-required", 0, 0, opt_client_cert_not_required, false, NOBLOB, 0 },
	{ "hand-window", 1, 1, opt_hand_window, false, NOBLOB, 0 },
	{ "tls-timeout", 1, 1, opt_tls_timeout, false, NOBLOB, 0 },
	{ "tran-window", 1, 1, opt_tran_window, false, NOBLOB, 0 },
	{ "reneg-sec", 1, 2, opt_reneg_sec, false, NOBLOB, 0 },
	{ "reneg-bytes", 1, 1, opt_reneg_bytes, false, NOBLOB, 0 },
	{ "reneg-pkts", 1, 1, opt_reneg_pkts, false, NOBLOB, 0 },
	{ "key-method", 1, 1, opt_key_method, false, NOBLOB, 0 },
	{ "data-ciphers-fallback", 1, 1, opt_string, false, FIELD(data_ciphers_fallback) },
	{ "tls-exit", 0, 0, opt_flag, false, FIELD(tls_exit) },
	/* client */
	{ "auth-retry", 1, 1, opt_auth_retry, false, NOBLOB, 0 },
	{ "auth-nocache", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "route-nopull", 0, 0, opt_flag, false, FIELD(route_nopull) },
	{ "pull-filter", 2, 2, opt_pull_filter, false, NOBLOB, 0 },
	{ "redirect-gateway", 0, MANY, opt_redirect_gateway, false, NOBLOB, 0 },
	{ "redirect-private", 0, MANY, opt_redirect_gateway, false, NOBLOB, 0 },
	{ "dhcp-option", 1, 2, opt_dhcp_option, false, NOBLOB, 0 },
	{ "up", 1, 1, opt_script, false, NOBLOB, 0 },
	{ "down", 1, 1, opt_script, false, NOBLOB, 0 },
	{ "script-security", 1, 1, opt_script_security, false, NOBLOB, 0 },
	{ "route-gateway", 1, 1, opt_route_gateway, false, NOBLOB, 0 },
	{ "explicit-exit-notify", 0, 1, opt_explicit_exit_notify, false, NOBLOB, 0 },
	{ "push-peer-info", 0, 0, opt_push_peer_info, false, NOBLOB, 0 },
	{ "compress", 0, 1, opt_compress, false, NOBLOB, 0 },
	{ "comp-lzo", 0, 1, opt_comp_lzo, false, NOBLOB, 0 },
	{ "allow-compression", 1, 1, opt_allow_compression, false, NOBLOB, 0 },
	/* gateway */
	{ "server", 2, 3, opt_server, false, NOBLOB, 0 },
	{ "server-ipv6", 1, 1, opt_server6, false, NOBLOB, 0 },
	{ "ifconfig-pool", 2, 3, opt_ifconfig_pool, false, NOBLOB, 0 },
	{ "push", 1, 1, opt_push, false, NOBLOB, 0 },
	{ "client-config-dir", 1, 1, opt_string, false, FIELD(client_config_dir) },
	{ "ccd-exclusive", 0, 0, opt_flag, false, FIELD(ccd_exclusive) },
	{ "client-to-client", 0, 0, opt_flag, false, FIELD(client_to_client) },
	{ "duplicate-cn", 0, 0, opt_flag, false, FIELD(duplicate_cn) },
	{ "username-as-common-name", 0, 0, opt_flag, false, FIELD(username_as_common_name) },
	{ "auth-user-pass-optional", 0, 0, opt_flag, false, FIELD(auth_user_pass_optional) },
	{ "max-clients", 1, 1, opt_max_clients, false, NOBLOB, 0 },
	{ "auth-user-pass-verify", 2, 2, opt_aupv, false, NOBLOB, 0 },
	{ "status-version", 1, 1, opt_status_version, false, NOBLOB, 0 },
	{ "ifconfig-pool-persist", 1, 2, opt_ifconfig_pool_persist, false, NOBLOB, 0 },
	{ "connect-freq", 2, 2, opt_connect_freq, false, NOBLOB, 0 },
	{ "client-connect", 1, 1, opt_script, false, NOBLOB, 0 },
	{ "client-disconnect", 1, 1, opt_script, false, NOBLOB, 0 },
	{ "user", 1, 1, opt_string, false, FIELD(user) },
	{ "group", 1, 1, opt_string, false, FIELD(group) },
	{ "chroot", 1, 1, opt_string, false, FIELD(chroot_dir) },
	/* management interface: refused until it is implemented */
	{ "management", 2, 3, opt_unsupported, false, NOBLOB, 0 },
	{ "management-hold", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "management-client-auth", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "management-query-passwords", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	/* common in real profiles: applied, no-ops (options_class.c says why) or refused */
	{ "tun-ipv6", 0, 0, opt_tun_ipv6, false, NOBLOB, 0 },
	{ "fast-io", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "tun-mtu-extra", 1, 1, opt_accept, false, NOBLOB, 0 },
	{ "comp-noadapt", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "mute-replay-warnings", 0, 0, opt_flag, false, FIELD(mute_replay_warnings) },
	{ "mute", 1, 1, opt_int_check, false, NOBLOB, 0 },
	{ "sndbuf", 1, 1, opt_int_check, false, NOBLOB, 0 },
	{ "rcvbuf", 1, 1, opt_int_check, false, NOBLOB, 0 },
	{ "ping-timer-rem", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "route-delay", 0, 2, opt_route_delay, false, NOBLOB, 0 },
	{ "route-metric", 1, 1, opt_unsupported, false, NOBLOB, 0 },
	{ "route-noexec", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "ifconfig-noexec", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "inactive", 1, 2, opt_unsupported, false, NOBLOB, 0 },
	{ "disable-occ", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "block-ipv6", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "ns-cert-type", 1, 1, opt_unsupported, false, NOBLOB, 0 },
	{ "remote-cert-ku", 0, MANY, opt_unsupported, false, NOBLOB, 0 },
	{ "remote-cert-eku", 1, 1, opt_unsupported, false, NOBLOB, 0 },
	{ "tls-cert-profile", 1, 1, opt_tls_cert_profile, false, NOBLOB, 0 },
	{ "static-challenge", 2, 2, opt_unsupported, false, NOBLOB, 0 },
	/* client-config-dir file options */
	{ "ifconfig-push", 1, 3, opt_ccd_only, false, NOBLOB, 0 },
	{ "ifconfig-ipv6-push", 1, 2, opt_ccd_only, false, NOBLOB, 0 },
	{ "iroute", 1, 2, opt_ccd_only, false, NOBLOB, 0 },
	{ "iroute-ipv6", 1, 1, opt_ccd_only, false, NOBLOB, 0 },
	{ "push-reset", 0, 0, opt_ccd_only, false, NOBLOB, 0 },
	{ "push-remove", 1, 1, opt_unsupported, false, NOBLOB, 0 },
	{ "disable", 0, 0, opt_ccd_only, false, NOBLOB, 0 },
	/* OpenVPN on Linux accepts it (it only matters on Windows) */
	{ "route-method", 1, 1, opt_ignore_win, false, NOBLOB, 0 },
	/* deliberately unsupported */
	{ "fragment", 1, 2, opt_unsupported, false, NOBLOB, 0 },
	{ "http-proxy", 1, 4, opt_unsupported, false, NOBLOB, 0 },
	{ "socks-proxy", 1, 3, opt_unsupported, false, NOBLOB, 0 },
	{ "plugin", 1, MANY, opt_unsupported, false, NOBLOB, 0 },
	{ "server-bridge", 0, 4, opt_unsupported, false, NOBLOB, 0 },
	/* kept for the TLS mode: a file name or an inline block */
	{ "ca", 1, 1, opt_blob, true, BRAID_BLOB_CA, 0 },
	{ "cert", 1, 1, opt_blob, true, BRAID_BLOB_CERT, 0 },
	{ "key", 1, 1, opt_blob, true, BRAID_BLOB_KEY, 0 },
	{ "extra-certs", 1, 1, opt_unsupported, true, BRAID_BLOB_EXTRA_CERTS, 0 },
	{ "dh", 1, 1, opt_blob, true, BRAID_BLOB_DH, 0 },
	{ "tls-auth", 1, 2, opt_blob, true, BRAID_BLOB_TLS_AUTH, 0 },
	{ "tls-crypt", 1, 1, opt_blob, true, BRAID_BLOB_TLS_CRYPT, 0 },
	{ "tls-crypt-v2", 1, 2, opt_tls_crypt_v2, true, BRAID_BLOB_TLS_CRYPT_V2, 0 },
	{ "crl-verify", 1, 2, opt_blob, true, BRAID_BLOB_CRL_VERIFY, 0 },
	{ "pkcs12", 1, 1, opt_pkcs12, true, BRAID_BLOB_PKCS12, 0 },
	{ "auth-user-pass", 0, 1, opt_blob, true, BRAID_BLOB_AUTH_USER_PASS, 0 },
	{ "http-proxy-user-pass", 1, 1, opt_unsupported, true, BRAID_BLOB_HTTP_PROXY_USER_PASS, 0 },
	{ "peer-fingerprint", 1, 1, opt_unsupported, true, BRAID_BLOB_PEER_FINGERPRINT, 0 },
};

static const struct opt_def *opt_find(const char *name)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (!strcmp(opt_table[i].name, name))
			return &opt_table[i];
	return NULL;
}

static int opt_blob(struct ctx *c, int argc, char **argv)
{
	const struct opt_def *d = c->def;
	int e, dir = KEY_DIR_UNSET;

	if (!c->inl && argc < 2)	/* auth-user-pass without a file */
		return opt_fail(c, "needs a file or an inline block: braidd cannot prompt");
	if (d->blob == BRAID_BLOB_TLS_AUTH && !c->inl && argc >= 3) {
		e = opt_parse_dir(c, argv[2], &dir);
		if (e)
			return e;
	}
	if (d->blob == BRAID_BLOB_CRL_VERIFY && !c->inl && argc >= 3 && strcmp(argv[2], "dir"))
		return opt_fail(c, "unknown flag '%s' (expected dir)", argv[2]);
	if (d->blob == BRAID_BLOB_CRL_VERIFY && !c->inl && argc >= 3)
		return opt_fail(c, "a directory of CRLs ('dir') is not supported by braidd: give one "
				"CRL file (PEM, several CRLs may be concatenated)");
	if (!c->inl && !argv[1][0])
		return opt_fail(c, "empty file name");
	e = opt_set_source(c, &c->o->blobs[d->blob], c->inl ? NULL : argv[1]);
	if (e)
		return e;
	switch (d->blob) {
	case BRAID_BLOB_TLS_AUTH:	/* inline: the direction is key-direction's */
		c->o->tls_auth_dir = dir;
		break;
	case BRAID_BLOB_AUTH_USER_PASS:
		c->o->has_auth_user_pass = true;
		break;
	case BRAID_BLOB_DH:
		c->o->dh_none = !c->inl && !strcmp(argv[1], "none");
		break;
	default:
		break;
	}
	return 0;
}

/* ---- names, init, free ---- */

size_t braid_options_table_size(void)
{
	return sizeof(opt_table) / sizeof(opt_table[0]);
}

const char *braid_options_table_name(size_t i)
{
	return i < braid_options_table_size() ? opt_table[i].name : NULL;
}

const char *braid_options_blob_name(enum braid_opt_blob b)
{
	for (size_t i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++)
		if (opt_table[i].blob == (int)b)
			return opt_table[i].name;
	return "?";
}

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

bool braid_options_inline_ok(const char *name)
{
	const struct opt_def *d = opt_find(name);

	return d && d->inline_ok;
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
	for (i = 0; i < o->n_mp_attrs; i++) {
		free(o->mp_attrs[i].local);
		free(o->mp_attrs[i].file);
	}
	free(o->control_socket);
	free(o->status_path);
	free(o->local);
	free(o->log_path);
	free(o->writepid);
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

	d = opt_find(argv[0]);
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
		if (d->max_args == MANY)
			return opt_fail(&c, "expects at least %d argument%s, got %d", d->min_args,
					d->min_args == 1 ? "" : "s", n);
		return opt_fail(&c, "expects %d to %d arguments, got %d", d->min_args, d->max_args, n);
	}
	return d->fn(&c, argc, argv);
}

/* Remember where `name` (a table name) was given last. */
static void note_where(struct braid_options *o, const char *name, const struct braid_opt_loc *loc)
{
	struct braid_opt_where *w = NULL;
	char *f = NULL;

	for (unsigned int i = 0; i < o->n_where; i++)
		if (o->where[i].name == name)
			w = &o->where[i];
	if (!w) {
		if (o->n_where >= BRAID_OPT_MAX_WHERE)
			return;
		w = &o->where[o->n_where++];
		w->name = name;
		w->file = NULL;
	}
	if (loc && loc->file)
		f = strdup(loc->file);	/* NULL on ENOMEM: the message loses the file only */
	free(w->file);
	w->file = f;
	w->line = loc && loc->file ? loc->line : 0;
}

static const struct braid_opt_where *find_where(const struct braid_options *o, const char *name)
{
	for (unsigned int i = 0; i < o->n_where; i++)
		if (!strcmp(o->where[i].name, name))
			return &o->where[i];
	return NULL;
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
	d = opt_find(argc >= 3 && !strcmp(argv[0], "setenv") && !strcmp(argv[1], "opt") ? argv[2]
											 : argv[0]);
	if (!r && d)
		note_where(o, d->name, loc);
	if (!r && d)
		log_noop(d->name, loc);
	return r;
}

/* ---- post-parse checks (each area's own are in its options_*.c) ---- */

/* "FILE:LINE: option 'NAME': MESSAGE" with the place NAME was given (if it was). */
__attribute__((format(printf, 5, 6))) int opt_lfail(const struct braid_options *o, char *err,
						    size_t err_len, const char *name,
						    const char *fmt, ...)
{
	const struct braid_opt_where *w = find_where(o, name);
	char msg[512], where[300] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (w && w->file)
		snprintf(where, sizeof(where), "%s:%d: ", w->file, w->line);
	else if (w)
		snprintf(where, sizeof(where), "command line: ");
	snprintf(err, err_len, "%soption '%s': %s", where, name, msg);
	return -EINVAL;
}

/* The directive that chose the TLS role (for messages about the role's needs). */
const char *opt_role_opt(const struct braid_options *o)
{
	if (o->client)
		return "client";
	if (o->has_server)
		return "server";
	return o->tls == BRAID_TLS_CLIENT ? "tls-client" : "tls-server";
}

__attribute__((format(printf, 3, 4))) int opt_ffail(char *err, size_t err_len, const char *fmt,
						    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

bool opt_has_blob(const struct braid_options *o, enum braid_opt_blob b)
{
	return o->blobs[b].path || o->blobs[b].inline_text;
}

/* `client`, `server`, `mode`, tls-client/-server and `secret`: OpenVPN's helper + checks. */
static int finalize_role(struct braid_options *o, char *err, size_t err_len)
{
	bool secret = o->secret.path || o->secret.inline_text;

	if (o->client) {
		if (o->has_server)
			return opt_lfail(o, err, err_len, "server",
					 "'server' and 'client' cannot be used together");
		o->pull = true;
		o->opt_tls_client = true;
	}
	if (o->has_server) {
		if (secret)
			return opt_lfail(o, err, err_len, "server",
					 "'server' and 'secret' cannot be used together "
					 "(you must use SSL/TLS keys)");
		if (o->has_ifconfig_pool && !o->server_nopool)
			return opt_lfail(o, err, err_len, "ifconfig-pool",
					 "'server' already defines an ifconfig-pool, "
					 "so you can't also specify 'ifconfig-pool' explicitly (or add "
					 "'nopool' to 'server')");
		o->mode = BRAID_MODE_SERVER;
		o->opt_tls_server = true;
	}
	if ((int)o->opt_tls_client + (int)o->opt_tls_server + (int)secret > 1)
		return opt_lfail(o, err, err_len, secret ? "secret" : "tls-server",
				 "specify only one of 'tls-server', 'tls-client' (or 'client'), or "
				 "'secret'");
	o->tls = o->opt_tls_client ? BRAID_TLS_CLIENT
		 : o->opt_tls_server ? BRAID_TLS_SERVER : BRAID_TLS_OFF;
	return 0;
}

/* Options that only make sense in mode server, named as OpenVPN names them. */
static int finalize_not_server(const struct braid_options *o, char *err, size_t err_len)
{
	const char *bad = NULL;

	if (o->has_ifconfig_pool || o->ifconfig_pool_persist)
		bad = "ifconfig-pool";
	else if (o->client_connect)
		bad = "client-connect";
	else if (o->client_disconnect)
		bad = "client-disconnect";
	else if (o->client_config_dir || o->ccd_exclusive)
		bad = "client-config-dir";
	else if (o->client_to_client)
		bad = "client-to-client";
	else if (o->duplicate_cn)
		bad = "duplicate-cn";
	else if (o->connect_freq_n)
		bad = "connect-freq";
	else if (o->has_vcc_opt)
		bad = "verify-client-cert";
	else if (o->username_as_common_name)
		bad = "username-as-common-name";
	else if (o->auth_user_pass_optional)
		bad = "auth-user-pass-optional";
	else if (o->auth_user_pass_verify)
		bad = "auth-user-pass-verify";
	else if (o->has_server6)
		bad = "server-ipv6";
	else if (o->n_push)
		bad = "push";
	if (bad)
		return opt_lfail(o, err, err_len, bad, "requires 'mode server' (or 'server')");
	return 0;
}

/* Both modes: data cipher default, addresses, keepalive sanity. */
static int finalize_common(struct braid_options *o, char *err, size_t err_len)
{
	if (!o->cipher[0]) {
		if (o->data_ciphers[0]) {
			size_t n = strcspn(o->data_ciphers, ":");

			memcpy(o->cipher, o->data_ciphers, n);
			o->cipher[n] = '\0';
		} else {
			strcpy(o->cipher, "AES-256-GCM");
		}
	}
	if (o->has_ifconfig) {
		bool netmask;

		if (o->has_topology)
			netmask = o->topology == BRAID_TOPO_SUBNET;
		else	/* no topology: a second argument like 255.x.x.x is a netmask */
			netmask = (ntohl(o->ifc_remote.s_addr) >> 24) == 255 &&
				  opt_mask_to_prefix(o->ifc_remote) >= 0;
		if (netmask && opt_mask_to_prefix(o->ifc_remote) < 0) {
			char m[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &o->ifc_remote, m, sizeof(m));
			return opt_ffail(err, err_len,
					 "option 'ifconfig': '%s' is not a valid netmask (topology subnet)",
					 m);
		}
		o->ifc_is_netmask = netmask;
	}
	if (o->has_ifconfig6 && o->tun_mtu < 1280)
		return opt_ffail(err, err_len,
				 "option 'ifconfig-ipv6': IPv6 needs tun-mtu >= 1280 (tun-mtu is %d)",
				 o->tun_mtu);
	if (o->nobind && !o->n_remotes && !opt_mp_has_remote(o))
		return opt_ffail(err, err_len,
				 "option 'nobind' without 'remote': the peer could never reach us");
	if (o->ping_restart && o->ping && o->ping_restart < o->ping)
		braid_warn("ping-restart %d is shorter than the ping interval %d", o->ping_restart,
			   o->ping);
	return 0;
}

int braid_options_finalize(struct braid_options *o, char *err, size_t err_len)
{
	int dir, r;

	if (!o->dev[0])
		return opt_ffail(err, err_len, "option 'dev' is missing (e.g. 'dev tun')");
	if (strncmp(o->dev, "tun", 3) && !o->has_dev_type)
		return opt_ffail(err, err_len,
				 "option 'dev': cannot tell the device type of '%s': add 'dev-type tun'",
				 o->dev);
	if (o->keepalive_ping && o->ping_opt)
		return opt_lfail(o, err, err_len, "keepalive",
				 "conflicts with '%s': keepalive sets ping and ping-restart, use one or "
				 "the other",
				 o->ping_opt);
	r = finalize_role(o, err, err_len);
	if (!r)
		r = opt_finalize_process(o, err, err_len);
	if (r)
		return r;
	if (o->tls == BRAID_TLS_OFF && o->proto != BRAID_PROTO_UDP)
		return opt_lfail(o, err, err_len, "proto",
				 "protocol '%s' is not supported yet (only udp, udp4, udp6) in static-key "
				 "mode",
				 o->proto_name);
	/* `tcp` is tcp-server with `server`, tcp-client with `client`, else ambiguous (OpenVPN) */
	if (o->proto_tcp_generic) {
		if (o->has_server)
			o->proto = BRAID_PROTO_TCP_SERVER;
		else if (o->client)
			o->proto = BRAID_PROTO_TCP_CLIENT;
		else
			return opt_lfail(o, err, err_len, "proto",
					 "'tcp' is ambiguous in this context: use 'tcp-server' or "
					 "'tcp-client'");
		o->proto_tcp_generic = false;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		struct braid_opt_remote *rm = &o->remotes[i];

		if (!rm->proto_tcp_generic || o->tls == BRAID_TLS_OFF)
			continue;	/* static-key: refused below */
		if (!o->client)
			return opt_lfail(o, err, err_len, "remote",
					 "'%s': 'tcp' is ambiguous in this context: use 'tcp-client'",
					 rm->host);
		rm->proto = BRAID_PROTO_TCP_CLIENT;
		rm->proto_tcp_generic = false;
	}
	if (o->mode == BRAID_MODE_SERVER) {
		r = opt_finalize_server(o, err, err_len);
	} else {
		r = finalize_not_server(o, err, err_len);
	}
	if (r)
		return r;
	if (o->had_connection) {	/* OpenVPN uses only the blocks then */
		unsigned int k = 0;

		for (unsigned int i = 0; i < o->n_remotes; i++) {
			if (o->remotes[i].from_connection) {
				o->remotes[k++] = o->remotes[i];
				continue;
			}
			braid_warn("option 'remote %s' is ignored: <connection> blocks are used",
				   o->remotes[i].host);
			free(o->remotes[i].host);
		}
		o->n_remotes = k;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		struct braid_opt_remote *rm = &o->remotes[i];

		if (!rm->has_proto) {
			rm->proto = o->proto;
			rm->family = o->family;
		}
		if (!rm->from_connection)
			rm->nobind = o->nobind;
		if (rm->proto == BRAID_PROTO_TCP_SERVER && o->n_remotes > 1)
			return opt_lfail(o, err, err_len, "remote",
					 "TCP server mode allows at most one 'remote' address");
	}
	if (o->proto == BRAID_PROTO_TCP_CLIENT && !o->n_remotes)
		return opt_lfail(o, err, err_len, "proto", "'remote' MUST be used in TCP client mode");
	if (o->client && !o->n_remotes)
		return opt_lfail(o, err, err_len, "client", "needs at least one 'remote'");
	if (o->cipher_unsupported[0] && o->tls == BRAID_TLS_OFF)
		return opt_lfail(o, err, err_len, "cipher",
				 "unsupported cipher '%s' (supported: AES-256-GCM, AES-128-GCM, "
				 "CHACHA20-POLY1305)",
				 o->cipher_unsupported);
	if (o->cipher_unsupported[0])
		braid_warn("option 'cipher': '%s' is ignored: braidd uses the AEAD ciphers of "
			   "data-ciphers (the server pushes one)",
			   o->cipher_unsupported);
	if (o->tls == BRAID_TLS_OFF) {
		if (!o->secret.path && !o->secret.inline_text)
			return opt_ffail(err, err_len,
					 "neither 'secret' nor a TLS role given (braidd never runs "
					 "unencrypted): add 'client' (or 'tls-client' + 'pull'), 'server "
					 "NET MASK', or 'secret FILE' for the static-key point-to-point mode");
		r = opt_finalize_static(o, err, err_len);
		if (r)
			return r;
		if (o->compress != BRAID_OPT_COMP_NONE)
			return opt_lfail(o, err, err_len, "compress",
					 "compression framing is not supported in "
					 "static-key mode yet");
	} else {
		r = opt_finalize_tls(o, err, err_len);
		if (r)
			return r;
		r = opt_finalize_mp_tls(o, err, err_len);
		if (r)
			return r;
		if (o->tls == BRAID_TLS_SERVER && o->mode != BRAID_MODE_SERVER)
			return opt_lfail(o, err, err_len, "tls-server",
					 "TLS point-to-point mode ('tls-server' without 'mode server' or "
					 "'server') is not supported by braidd yet");
		if (o->tls == BRAID_TLS_CLIENT && !o->pull)	/* the client always pulls */
			return opt_lfail(o, err, err_len, "tls-client",
					 "TLS point-to-point mode ('tls-client' without 'pull') is not "
					 "supported by braidd yet: add 'pull' (or use 'client') against a "
					 "server that pushes the addresses");
		if (!o->tls_mode_supported)
			return opt_lfail(o, err, err_len, opt_role_opt(o),
					 "TLS mode is parsed, but this braidd cannot run it yet");
		return finalize_common(o, err, err_len);
	}
	dir = o->secret_dir != KEY_DIR_UNSET ? o->secret_dir : o->key_direction;
	if (dir == KEY_DIR_UNSET || dir == BRAID_KEY_DIR_BIDIRECTIONAL)
		return opt_ffail(err, err_len,
				 "option 'secret': an AEAD cipher needs a key direction: use "
				 "'key-direction 0' on one end and 'key-direction 1' on the other "
				 "(or 'secret FILE 0|1')");
	o->key_direction = dir;
	r = finalize_common(o, err, err_len);
	if (r)
		return r;
	return opt_finalize_mp(o, err, err_len);
}
