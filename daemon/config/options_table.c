// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_table.c - the directive table (name, argument counts, handler, inline
 * block, blob slot) and its generic handlers (flags, strings, files and inline
 * blocks); finding a directive and the names the table gives (blob slots,
 * inline-capable directives). The handlers of each area are in options_*.c.
 */
#include "config/options_table.h"

#include <stddef.h>
#include <string.h>

#include "config/options_class.h"
#include "config/options_client.h"
#include "config/options_data.h"
#include "config/options_int.h"
#include "config/options_cluster.h"
#include "config/options_metrics.h"
#include "config/options_mgmt.h"
#include "config/options_mp.h"
#include "config/options_mptcp.h"
#include "config/options_net.h"
#include "config/options_parse.h"
#include "config/options_process.h"
#include "config/options_server.h"
#include "config/options_tls.h"

static int opt_blob(struct ctx *c, int argc, char **argv);

/* setenv is handled in braid_options_apply (setenv opt …); plain setenv is kept as a no-op */

#define NOBLOB (-1)
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
	{ "multihome", 0, 1, opt_multihome, false, NOBLOB, 0 },
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
	{ "syslog", 0, 1, opt_syslog, false, NOBLOB, 0 },
	{ "cd", 1, 1, opt_cd, false, NOBLOB, 0 },
	{ "suppress-timestamps", 0, 0, opt_flag, false, FIELD(suppress_timestamps) },
	{ "machine-readable-output", 0, 0, opt_flag, false, FIELD(machine_readable) },
	{ "genkey", 0, 2, opt_genkey, false, NOBLOB, 0 },
	{ "ignore-unknown-option", 1, OPT_MANY, opt_ignore_unknown, false, NOBLOB, 0 },
	{ "setenv", 1, 2, opt_setenv, false, NOBLOB, 0 },
	/* braidd always keeps the key and the device across a ping-restart */
	{ "multipath", 0, 1, opt_multipath, false, NOBLOB, 0 },
	{ "mptcp", 0, 1, opt_mptcp, false, NOBLOB, 0 },
	{ "mptcp-pm", 1, 1, opt_mptcp_pm, false, NOBLOB, 0 },
	{ "mp-path", 1, 3, opt_mp_path, false, NOBLOB, 0 },
	{ "mp-backup", 1, 1, opt_mp_backup, false, NOBLOB, 0 },
	{ "mp-cap", 2, 2, opt_mp_cap, false, NOBLOB, 0 },
	{ "mp-auto-include", 1, OPT_MANY, opt_mp_auto_pat, false, NOBLOB, 0 },
	{ "mp-auto-exclude", 1, OPT_MANY, opt_mp_auto_pat, false, NOBLOB, 0 },
	{ "mp-scheduler", 1, 1 + BRAID_OPT_MAX_MP_PATHS, opt_mp_scheduler, false, NOBLOB, 0 },
	{ "mp-reorder-ms", 1, 1, opt_mp_reorder_ms, false, NOBLOB, 0 },
	{ "mp-path-timeout", 1, 1, opt_mp_path_timeout, false, NOBLOB, 0 },
	{ "status", 1, 2, opt_status, false, NOBLOB, 0 },
	{ "status-json", 1, 2, opt_status_json, false, NOBLOB, 0 },
	{ "control-socket", 1, 1, opt_control_socket, false, NOBLOB, 0 },
	{ "mp-class", 2, OPT_MANY, opt_mp_class, false, NOBLOB, 0 },
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
	{ "dns-updown", 1, 1, opt_dns_updown, false, NOBLOB, 0 },
	{ "redirect-gateway", 0, OPT_MANY, opt_redirect_gateway, false, NOBLOB, 0 },
	{ "redirect-private", 0, OPT_MANY, opt_redirect_gateway, false, NOBLOB, 0 },
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
	{ "connect-freq-initial", 2, 2, opt_connect_freq_initial, false, NOBLOB, 0 },
	{ "workers", 1, 1, opt_workers, false, NOBLOB, 0 },
	{ "client-connect", 1, 1, opt_script, false, NOBLOB, 0 },
	{ "client-disconnect", 1, 1, opt_script, false, NOBLOB, 0 },
	{ "user", 1, 1, opt_string, false, FIELD(user) },
	{ "group", 1, 1, opt_string, false, FIELD(group) },
	{ "chroot", 1, 1, opt_string, false, FIELD(chroot_dir) },
	/* management interface (options_mgmt.c) */
	{ "management", 2, 3, opt_management, false, NOBLOB, 0 },
	{ "management-hold", 0, 0, opt_management_flag, false, NOBLOB, 0 },
	{ "management-client-auth", 0, 0, opt_management_flag, false, NOBLOB, 0 },
	{ "management-query-passwords", 0, 0, opt_management_flag, false, NOBLOB, 0 },
	{ "management-query-remote", 0, 0, opt_management_flag, false, NOBLOB, 0 },
	{ "management-log-cache", 1, 1, opt_management_log_cache, false, NOBLOB, 0 },
	{ "management-client-user", 1, 1, opt_management_client_id, false, NOBLOB, 0 },
	{ "management-client-group", 1, 1, opt_management_client_id, false, NOBLOB, 0 },
	{ "management-up-down", 0, 0, opt_management_flag, false, NOBLOB, 0 },
	{ "management-client", 0, 0, opt_management_flag, false, NOBLOB, 0 },
	{ "metrics", 0, 3, opt_metrics, false, NOBLOB, 0 },
	{ "metrics-max-clients", 1, 1, opt_metrics_max_clients, false, NOBLOB, 0 },
	{ "cluster-etcd", 1, 1, opt_cluster_etcd, false, NOBLOB, 0 },
	{ "cluster-prefix", 1, 1, opt_cluster_prefix, false, NOBLOB, 0 },
	{ "cluster-ttl", 1, 1, opt_cluster_ttl, false, NOBLOB, 0 },
	{ "cluster-gateway-id", 1, 1, opt_cluster_gw_id, false, NOBLOB, 0 },
	/* common in real profiles: applied, no-ops (options_class.c says why) or refused */
	{ "tun-ipv6", 0, 0, opt_tun_ipv6, false, NOBLOB, 0 },
	{ "fast-io", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "tun-mtu-extra", 1, 1, opt_accept, false, NOBLOB, 0 },
	{ "comp-noadapt", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "disable-dco", 0, 0, opt_dco, false, NOBLOB, 0 },
	{ "dco", 1, 1, opt_dco, false, NOBLOB, 0 },
	{ "dco-scheduler", 1, 1 + BRAID_OPT_DCO_SCHED_STEPS, opt_dco_scheduler, false, NOBLOB, 0 },
	{ "mute-replay-warnings", 0, 0, opt_flag, false, FIELD(mute_replay_warnings) },
	{ "mute", 1, 1, opt_int_check, false, NOBLOB, 0 },
	{ "sndbuf", 1, 1, opt_sockbuf, false, NOBLOB, 0 },
	{ "rcvbuf", 1, 1, opt_sockbuf, false, NOBLOB, 0 },
	{ "ping-timer-rem", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "route-delay", 0, 2, opt_route_delay, false, NOBLOB, 0 },
	{ "route-metric", 1, 1, opt_unsupported, false, NOBLOB, 0 },
	{ "route-noexec", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "ifconfig-noexec", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "inactive", 1, 2, opt_unsupported, false, NOBLOB, 0 },
	{ "disable-occ", 0, 0, opt_accept, false, NOBLOB, 0 },
	{ "block-ipv6", 0, 0, opt_unsupported, false, NOBLOB, 0 },
	{ "ns-cert-type", 1, 1, opt_unsupported, false, NOBLOB, 0 },
	{ "remote-cert-ku", 0, OPT_MANY, opt_unsupported, false, NOBLOB, 0 },
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
	{ "plugin", 1, OPT_MANY, opt_unsupported, false, NOBLOB, 0 },
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

const struct opt_def *opt_table_find(const char *name)
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

	if (!c->inl && argc < 2) {	/* auth-user-pass without a file: asked on management */
		c->o->has_auth_user_pass = true;	/* opt_finalize_mgmt checks the query is on */
		return 0;
	}
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

/* ---- the table's names ---- */

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

bool braid_options_inline_ok(const char *name)
{
	const struct opt_def *d = opt_table_find(name);

	return d && d->inline_ok;
}
