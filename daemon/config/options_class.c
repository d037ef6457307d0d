// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_class.c - the class of every accepted directive and of every
 * pushed option (options_class.h). For an applied option, `what` names the
 * fields (or identifiers) the run time reads, outside daemon/options*.c; the
 * unit test greps the sources for them. For a no-op or a checked option it is
 * the reason, as docs/braidd.md "Options without effect" shows it.
 */
#include "config/options_class.h"

#include <string.h>

#define A BRAID_OPTC_APPLIED
#define C BRAID_OPTC_CHECKED
#define N BRAID_OPTC_NOOP
#define R BRAID_OPTC_REFUSED
#define CCD BRAID_OPTC_CCD
#define P BRAID_OPTC_PARSER

static const struct braid_opt_class_entry classes[] = {
	/* device, addresses, transport */
	{ "dev", A, "dev" },
	{ "dev-type", N, "braidd is tun only: 'dev-type tun' is accepted, tap is refused" },
	{ "proto", A, "proto" },
	{ "remote", A, "remotes" },
	{ "local", A, "local" },
	{ "lport", A, "lport" },
	{ "rport", A, "rport" },
	{ "port", A, "lport rport" },
	{ "nobind", A, "nobind" },
	{ "float", A, "float_ok" },
	{ "multihome", A, "multihome multihome_same_if" },
	{ "mptcp", A, "mptcp mptcp_paths" },
	{ "mptcp-pm", A, "mptcp_pm" },
	{ "ifconfig", A, "has_ifconfig ifc_local ifc_remote" },
	{ "ifconfig-ipv6", A, "has_ifconfig6 ifc6_local" },
	{ "route", A, "routes n_routes" },
	{ "route-ipv6", A, "routes n_routes" },
	{ "tun-mtu", A, "tun_mtu" },
	{ "topology", A, "topology" },
	/* data channel */
	{ "cipher", A, "cipher" },
	{ "data-ciphers", A, "data_ciphers" },
	{ "ncp-ciphers", A, "data_ciphers" },
	{ "secret", A, "secret key_direction" },
	{ "key-direction", A, "key_direction" },
	{ "keepalive", A, "keepalive_ping keepalive_restart ping ping_restart" },
	{ "ping", A, "ping" },
	{ "ping-restart", A, "ping_restart" },
	{ "ping-exit", A, "ping_exit" },
	{ "verb", A, "verb" },
	{ "replay-window", A, "replay_window" },
	{ "peer-id", A, "peer_id" },
	{ "mssfix", A, "mssfix" },
	/* process */
	{ "writepid", A, "writepid" },
	{ "log", A, "log_path" },
	{ "log-append", A, "log_path log_append" },
	{ "daemon", A, "daemon syslog_ident" },
	{ "syslog", A, "use_syslog syslog_ident" },
	{ "cd", A, "cd_dir" },
	{ "suppress-timestamps", A, "suppress_timestamps" },
	{ "machine-readable-output", A, "machine_readable" },
	{ "genkey", A, "genkey_type genkey_file" },
	{ "ignore-unknown-option", P, NULL },
	{ "setenv", A, "n_setenv setenv" },
	{ "status", A, "status_path status_interval" },
	{ "status-json", A, "status_json_path status_json_interval" },
	{ "control-socket", A, "control_socket" },
	{ "persist-key", N,
	  "braidd keeps the keys across session restarts (SIGUSR1, ping-restart; SIGHUP too once "
	  "privileges are dropped); SIGHUP's full restart otherwise reads them again with the config" },
	{ "persist-tun", N,
	  "braidd keeps the TUN device open across session restarts (SIGUSR1, ping-restart; SIGHUP "
	  "too once privileges are dropped); SIGHUP's full restart otherwise opens it again" },
	{ "user", A, "user run_uid" },
	{ "group", A, "group run_gid" },
	{ "chroot", A, "chroot_dir" },
	/* multipath */
	{ "multipath", A, "multipath" },
	{ "mp-path", A, "mp_paths n_mp_paths" },
	{ "mp-backup", A, "mp_paths .backup" },
	{ "mp-cap", A, "mp_paths .cap_bps" },
	{ "mp-auto-include", A, "mp_auto_incl" },
	{ "mp-auto-exclude", A, "mp_auto_excl" },
	{ "mp-scheduler", A, "mp_sched" },
	{ "mp-reorder-ms", A, "mp_reorder_ms" },
	{ "mp-path-timeout", A, "mp_path_timeout" },
	{ "mp-class", A, "mp_classes" },
	/* role */
	{ "mode", A, "mode" },
	{ "client", A, "tls" },
	{ "tls-client", A, "tls" },
	{ "tls-server", A, "tls" },
	{ "pull", C,
	  "required with 'tls-client' ('client' implies it): braidd's TLS client always pulls; "
	  "'tls-client' without 'pull' is refused" },
	/* transport (client) */
	{ "remote-random", A, "remote_random" },
	{ "resolv-retry", N,
	  "braidd resolves the remote again at every connection attempt and never gives up "
	  "(connect-retry paces it): 'resolv-retry infinite'" },
	{ "connect-retry", A, "connect_retry connect_retry_max_backoff" },
	{ "connect-retry-max", A, "connect_retry_max" },
	{ "server-poll-timeout", A, "server_poll_timeout" },
	{ "connect-timeout", A, "server_poll_timeout" },
	/* TLS */
	{ "auth", A, "auth_digest" },
	{ "tls-version-min", A, "tls_version_min" },
	{ "tls-version-max", A, "tls_version_max" },
	{ "tls-cipher", A, "tls_cipher" },
	{ "tls-ciphersuites", A, "tls_ciphersuites" },
	{ "tls-groups", A, "tls_groups" },
	{ "remote-cert-tls", A, "remote_cert_tls" },
	{ "verify-x509-name", A, "verify_x509_name verify_x509_type" },
	{ "verify-client-cert", A, "verify_client_cert" },
	{ "client-cert-not-required", A, "client_cert_not_required" },
	{ "hand-window", A, "hand_window" },
	{ "tls-timeout", A, "tls_timeout" },
	{ "tran-window", A, "tran_window" },
	{ "reneg-sec", A, "reneg_sec" },
	{ "reneg-bytes", A, "reneg_bytes" },
	{ "reneg-pkts", A, "reneg_pkts" },
	{ "key-method", C, "2 is the only key method of OpenVPN 2.5+: 'key-method 1' is refused" },
	{ "data-ciphers-fallback", A, "data_ciphers_fallback" },
	{ "tls-exit", A, "tls_exit" },
	/* client */
	{ "auth-retry", A, "auth_retry" },
	{ "auth-nocache", N,
	  "braidd reads the credentials from the auth-user-pass file or inline block (it never "
	  "prompts) and needs them again at every reconnect; they are wiped at exit" },
	{ "route-nopull", A, "route_nopull" },
	{ "pull-filter", A, "pull_filters n_pull_filters" },
	{ "dns-updown", A, "dns_updown" },
	{ "redirect-gateway", A, "redirect_gw" },
	{ "redirect-private", A, "redirect_gw" },
	{ "dhcp-option", A, "dhcp_options n_dhcp_options" },
	{ "up", A, "up" },
	{ "down", A, "down" },
	{ "script-security", A, "script_security" },
	{ "route-gateway", A, "has_route_gateway route_gateway" },
	{ "explicit-exit-notify", A, "explicit_exit_notify" },
	{ "push-peer-info", A, "push_peer_info" },
	{ "compress", A, "compress" },
	{ "comp-lzo", A, "compress" },
	{ "allow-compression", C,
	  "braidd never compresses: 'allow-compression no' is what it does anyway; 'yes' and "
	  "'asym' are refused (VORACLE)" },
	/* gateway */
	{ "server", A, "has_server server_net server_mask" },
	{ "server-ipv6", A, "has_server6 server6_net" },
	{ "ifconfig-pool", A, "has_ifconfig_pool ifconfig_pool_start ifconfig_pool_end" },
	{ "push", A, "push n_push" },
	{ "client-config-dir", A, "client_config_dir" },
	{ "ccd-exclusive", A, "ccd_exclusive" },
	{ "client-to-client", A, "client_to_client" },
	{ "duplicate-cn", A, "duplicate_cn" },
	{ "username-as-common-name", A, "username_as_common_name" },
	{ "auth-user-pass-optional", A, "auth_user_pass_optional" },
	{ "max-clients", A, "max_clients" },
	{ "auth-user-pass-verify", A, "auth_user_pass_verify" },
	{ "status-version", A, "status_version" },
	{ "ifconfig-pool-persist", A, "ifconfig_pool_persist" },
	{ "connect-freq", A, "connect_freq_n connect_freq_sec" },
	{ "connect-freq-initial", A, "cfi_n cfi_sec" },
	{ "workers", A, "workers" },
	{ "client-connect", A, "client_connect" },
	{ "client-disconnect", A, "client_disconnect" },
	/* management interface (control/mgmt*.c) */
	{ "management", A, "mgmt_addr mgmt_port mgmt_unix mgmt_pwfile" },
	{ "management-hold", A, "mgmt_hold" },
	{ "management-client-auth", A, "mgmt_client_auth" },
	{ "management-query-passwords", A, "mgmt_query_passwords" },
	{ "management-query-remote", A, "mgmt_query_remote" },
	{ "management-log-cache", A, "mgmt_log_cache" },
	{ "management-client-user", A, "mgmt_client_user" },
	{ "management-client-group", A, "mgmt_client_group" },
	{ "management-up-down", A, "mgmt_up_down" },
	{ "management-client", A, "mgmt_connect_out" },
	/* metrics endpoint (control/metrics*.c) */
	{ "metrics", A, "metrics_addr metrics_port metrics_remote" },
	{ "metrics-max-clients", A, "metrics_max_clients" },
	/* many gateways behind one address (cluster/) */
	{ "cluster-etcd", A, "cluster_etcd" },
	{ "cluster-prefix", A, "cluster_prefix" },
	{ "cluster-ttl", A, "cluster_ttl" },
	{ "cluster-gateway-id", A, "cluster_gw_id" },
	/* compatibility */
	{ "tun-ipv6", N, "IPv6 on the TUN device is always available (OpenVPN 2.4+ ignores it too)" },
	{ "fast-io", N, "braidd's socket I/O is always non-blocking and batched" },
	{ "tun-mtu-extra", N, "only meaningful for tap devices; braidd is tun only" },
	{ "comp-noadapt", N, "braidd never compresses, so there is nothing to adapt" },
	{ "disable-dco", A, "dco" },
	{ "dco", A, "dco" },
	{ "dco-scheduler", A, "dco_sched_file dco_sched_steps" },
	{ "mute-replay-warnings", A, "mute_replay_warnings" },
	{ "mute", N,
	  "braidd logs per-packet events only at verb 5 and above and rate-limits its rejection "
	  "lines, so no message repeats at verb 3-4" },
	{ "sndbuf", A, "sndbuf" },
	{ "rcvbuf", A, "rcvbuf" },
	{ "ping-timer-rem", N,
	  "braidd always behaves so: ping-restart/ping-exit only time out once a peer is known" },
	{ "route-delay", N,
	  "braidd adds routes synchronously over rtnetlink right after the addresses; there is no "
	  "device to wait for" },
	{ "route-metric", R, NULL },
	{ "route-noexec", R, NULL },
	{ "ifconfig-noexec", R, NULL },
	{ "inactive", R, NULL },
	{ "disable-occ", N,
	  "braidd never warns about an options-string (OCC) mismatch, so there is nothing to "
	  "disable" },
	{ "block-ipv6", R, NULL },
	{ "ns-cert-type", R, NULL },
	{ "remote-cert-ku", R, NULL },
	{ "remote-cert-eku", R, NULL },
	{ "tls-cert-profile", C,
	  "'preferred' (OpenSSL security level 2, braidd's setting) and 'legacy' (a weaker "
	  "profile: braidd stays at 'preferred') are accepted; 'suiteb' and 'insecure' are refused" },
	{ "static-challenge", R, NULL },
	/* client-config-dir files */
	{ "ifconfig-push", CCD, NULL },
	{ "ifconfig-ipv6-push", CCD, NULL },
	{ "iroute", CCD, NULL },
	{ "iroute-ipv6", CCD, NULL },
	{ "push-reset", CCD, NULL },
	{ "push-remove", R, NULL },
	{ "disable", CCD, NULL },
	{ "route-method", N, "Windows only (OpenVPN on Linux accepts and ignores it too)" },
	/* deliberately unsupported */
	{ "fragment", R, NULL },
	{ "http-proxy", R, NULL },
	{ "socks-proxy", R, NULL },
	{ "plugin", R, NULL },
	{ "server-bridge", R, NULL },
	/* files and inline blocks */
	{ "ca", A, "BRAID_BLOB_CA" },
	{ "cert", A, "BRAID_BLOB_CERT" },
	{ "key", A, "BRAID_BLOB_KEY" },
	{ "extra-certs", R, NULL },
	{ "dh", C,
	  "the file must exist and hold PEM DH parameters, as in OpenVPN; braidd offers ECDHE key "
	  "exchange only (TLS 1.3 and ECDHE suites), so the parameters are not used" },
	{ "tls-auth", A, "BRAID_BLOB_TLS_AUTH tls_auth_dir" },
	{ "tls-crypt", A, "BRAID_BLOB_TLS_CRYPT" },
	{ "tls-crypt-v2", R, NULL },
	{ "crl-verify", A, "BRAID_BLOB_CRL_VERIFY" },
	{ "pkcs12", R, NULL },
	{ "auth-user-pass", A, "BRAID_BLOB_AUTH_USER_PASS has_auth_user_pass" },
	{ "http-proxy-user-pass", R, NULL },
	{ "peer-fingerprint", R, NULL },
};

static const struct braid_opt_class_entry push_classes[] = {
	{ "topology", A, "topology" },
	{ "ifconfig", A, "has_ifconfig ifc_local" },
	{ "ifconfig-ipv6", A, "has_ifconfig6 ifc6_local" },
	{ "route-gateway", A, "has_route_gateway route_gateway" },
	{ "route", A, "routes n_routes" },
	{ "route-ipv6", A, "routes n_routes" },
	{ "redirect-gateway", A, "redirect redirect_flags" },
	{ "redirect-private", A, "redirect redirect_flags" },
	{ "dhcp-option", A, "dhcp n_dhcp" },
	{ "peer-id", A, "has_peer_id peer_id" },
	{ "braid-mp", A, "braid_mp braid_mp_window" },
	{ "braid-tcp-super", A, "braid_tcp_super" },
	{ "cipher", A, "cipher" },
	{ "protocol-flags", A, "cc_exit tls_ekm" },
	{ "key-derivation", A, "tls_ekm" },
	{ "tun-mtu", A, "tun_mtu" },
	{ "ping", A, "ping" },
	{ "ping-restart", A, "ping_restart" },
	{ "explicit-exit-notify", A, "explicit_exit_notify" },
	{ "comp-lzo", A, "comp" },
	{ "compress", A, "comp" },
	{ "auth-token", A, "auth_token" },
	{ "echo", N, "messages for a GUI: braidd has no GUI channel yet (logged at verb 5)" },
	{ "block-outside-dns", N, "Windows only" },
	{ "register-dns", N, "Windows only" },
	{ "dns", A, "dns n_dns dns_search n_dns_search" },
	{ "auth-token-user", N, "braidd sends the auth-token with the configured username" },
	{ "inactive", N, "the server's own inactivity timer ends the session; the client keeps none" },
	{ "route-metric", N, "pushed routes keep the metric given on each route (default 0)" },
	{ "setenv", N, "braidd passes no pushed variables to its scripts" },
	{ "setenv-safe", N, "braidd passes no pushed variables to its scripts" },
	{ "ping-exit", N, "the client keeps its own ping-exit (the pushed ping-restart applies)" },
	{ "route-delay", N, "routes are added synchronously over rtnetlink" },
	{ "tun-ipv6", N, "IPv6 on the TUN device is always available" },
};

const struct braid_opt_class_entry *braid_options_classes(size_t *n)
{
	*n = sizeof(classes) / sizeof(classes[0]);
	return classes;
}

const struct braid_opt_class_entry *braid_options_class(const char *name)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(classes[i].name, name))
			return &classes[i];
	return NULL;
}

const struct braid_opt_class_entry *braid_push_classes(size_t *n)
{
	*n = sizeof(push_classes) / sizeof(push_classes[0]);
	return push_classes;
}

const struct braid_opt_class_entry *braid_push_class(const char *name)
{
	for (size_t i = 0; i < sizeof(push_classes) / sizeof(push_classes[0]); i++)
		if (!strcmp(push_classes[i].name, name))
			return &push_classes[i];
	return NULL;
}

const char *braid_options_class_name(enum braid_opt_class c)
{
	switch (c) {
	case BRAID_OPTC_APPLIED:
		return "applied";
	case BRAID_OPTC_CHECKED:
		return "checked";
	case BRAID_OPTC_NOOP:
		return "no-op";
	case BRAID_OPTC_REFUSED:
		return "refused";
	case BRAID_OPTC_CCD:
		return "ccd";
	case BRAID_OPTC_PARSER:
		return "parser";
	case BRAID_OPTC_NONE:
		break;
	}
	return "unclassified";
}
