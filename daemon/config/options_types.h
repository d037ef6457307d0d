/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_types.h - the options model: struct braid_options, its enums, limits and
 * parts, and where a directive came from (struct braid_opt_loc). Types only; it
 * includes nothing of the options family, so the handler files (options_*.c) and
 * options_int.h can use the model without reaching up to options.h.
 */
#ifndef BRAID_OPTIONS_TYPES_H
#define BRAID_OPTIONS_TYPES_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "config/mpclass.h"

#define BRAID_OPT_MAX_REMOTES 16
#define BRAID_OPT_MAX_ROUTES 64
#define BRAID_OPT_MAX_IGNORE 32
#define BRAID_OPT_MAX_DEPTH 10		/* nested `config` */
#define BRAID_OPT_DEFAULT_PORT 1194
#define BRAID_OPT_TUN_MTU_MIN 576
#define BRAID_OPT_TUN_MTU_MAX 9000
#define BRAID_OPT_WORKERS_MAX 64	/* `workers N`: BRAID_GW_MAX_WORKERS */
#define BRAID_OPT_DEFAULT_MSSFIX 1492
#define BRAID_OPT_MAX_MP_PATHS 8	/* = BRAID_MP_MAX_PATHS */
#define BRAID_OPT_MP_SCHED_LEN 200	/* "ratio" + 8 x " IFNAME=1000000" */
#define BRAID_OPT_DCO_SCHED_STEPS 16	/* = BRAID_SCHED_STEPS (bpf/braid_sched.h) */
#define BRAID_OPT_MAX_PULL_FILTERS 32
#define BRAID_OPT_MAX_DHCP_OPTIONS 32
#define BRAID_OPT_MAX_PUSH 128
#define BRAID_OPT_MAX_SETENV 64
#define BRAID_OPT_MAX_WHERE 192		/* distinct directives whose location is kept */

enum braid_opt_topology { BRAID_TOPO_P2P = 0, BRAID_TOPO_NET30, BRAID_TOPO_SUBNET };

/* Role: `mode server` (or implied by `server`); p2p otherwise. */
enum braid_opt_mode { BRAID_MODE_P2P = 0, BRAID_MODE_SERVER };
/* TLS role: `tls-client` (or `client`), `tls-server` (or `server`); OFF = static key. */
enum braid_opt_tls { BRAID_TLS_OFF = 0, BRAID_TLS_CLIENT, BRAID_TLS_SERVER };

/* `dco`: the kernel data plane (kmod/braid_dco) when present (auto), required (on) or never (off) */
enum braid_dco_mode { BRAID_DCO_AUTO = 0, BRAID_DCO_ON, BRAID_DCO_OFF };
/* Transport after finalize (`proto tcp` resolves to TCP_CLIENT or TCP_SERVER). */
enum braid_opt_proto { BRAID_PROTO_UDP = 0, BRAID_PROTO_TCP_CLIENT, BRAID_PROTO_TCP_SERVER };
/* `remote-cert-tls server|client`. */
enum braid_opt_rct { BRAID_RCT_NONE = 0, BRAID_RCT_SERVER, BRAID_RCT_CLIENT };
/* `verify-client-cert none|optional|require` (server). */
enum braid_opt_vcc { BRAID_VCC_REQUIRE = 0, BRAID_VCC_OPTIONAL, BRAID_VCC_NONE };
/* `verify-x509-name NAME [subject|name|name-prefix]` (default subject). */
enum braid_opt_x509 { BRAID_X509_SUBJECT = 0, BRAID_X509_NAME, BRAID_X509_NAME_PREFIX };
/* `auth-retry none|nointeract|interact`. */
enum braid_opt_auth_retry { BRAID_AUTH_RETRY_NONE = 0, BRAID_AUTH_RETRY_NOINTERACT,
			    BRAID_AUTH_RETRY_INTERACT };
/* `auth-user-pass-verify CMD via-env|via-file`. */
enum braid_opt_aupv { BRAID_AUPV_VIA_ENV = 0, BRAID_AUPV_VIA_FILE };
/*
 * Compression framing only (real compression is refused, VORACLE):
 * STUB = `compress` / `compress stub`, STUBV2 = `compress stub-v2`,
 * LZO_NO = `comp-lzo no`, MIGRATE = `compress migrate` (server).
 */
enum braid_opt_comp { BRAID_OPT_COMP_NONE = 0, BRAID_OPT_COMP_STUB, BRAID_OPT_COMP_STUBV2, BRAID_OPT_COMP_LZO_NO,
		      BRAID_OPT_COMP_MIGRATE };

/* `redirect-gateway` / `redirect-private` flags (bitmask redirect_gw). */
#define BRAID_RG_ENABLE		(1u << 0)	/* redirect-gateway given (IPv4 unless !ipv4) */
#define BRAID_RG_DEF1		(1u << 1)
#define BRAID_RG_BYPASS_DHCP	(1u << 2)
#define BRAID_RG_BYPASS_DNS	(1u << 3)
#define BRAID_RG_LOCAL		(1u << 4)
#define BRAID_RG_IPV6		(1u << 5)
#define BRAID_RG_NOT_IPV4	(1u << 6)	/* !ipv4 */
#define BRAID_RG_BLOCK_LOCAL	(1u << 7)
#define BRAID_RG_AUTO_LOCAL	(1u << 8)
#define BRAID_RG_REROUTE_GW	(1u << 9)	/* redirect-gateway (not redirect-private), IPv4 */

/* `dns-updown` (OpenVPN 2.7's name): who puts pushed DNS settings into the host's resolver. */
enum braid_opt_dns_updown {
	BRAID_DNS_UPDOWN_AUTO = 0,	/* braidd (os/dns.c), unless an `up` script is configured */
	BRAID_DNS_UPDOWN_DISABLE,	/* nobody: `dns-updown disable` */
	BRAID_DNS_UPDOWN_FORCE,		/* braidd, even with an `up` script */
};

/* `pull-filter accept|ignore|reject "text"`, in order. */
enum braid_opt_pf_action { BRAID_PF_ACCEPT = 0, BRAID_PF_IGNORE, BRAID_PF_REJECT };
struct braid_opt_pull_filter {
	enum braid_opt_pf_action action;
	char *text;			/* prefix matched against each pushed option */
};

/* `dhcp-option TYPE [VALUE]` (TYPE as written: DNS, DNS6, DOMAIN, DOMAIN-SEARCH, ...). */
struct braid_opt_dhcp {
	char *type;
	char *value;			/* NULL for value-less types (DISABLE-NBT) */
};

/* `setenv NAME VALUE` (setenv opt is applied as an option instead). */
struct braid_opt_setenv {
	char *name;
	char *value;
};

/* Inline blocks kept for the TLS mode to come (`<ca>` … or a file name). */
enum braid_opt_blob {
	BRAID_BLOB_CA,
	BRAID_BLOB_CERT,
	BRAID_BLOB_KEY,
	BRAID_BLOB_EXTRA_CERTS,
	BRAID_BLOB_DH,
	BRAID_BLOB_TLS_AUTH,
	BRAID_BLOB_TLS_CRYPT,
	BRAID_BLOB_TLS_CRYPT_V2,
	BRAID_BLOB_CRL_VERIFY,
	BRAID_BLOB_PKCS12,
	BRAID_BLOB_AUTH_USER_PASS,
	BRAID_BLOB_HTTP_PROXY_USER_PASS,
	BRAID_BLOB_PEER_FINGERPRINT,
	BRAID_BLOB_COUNT
};

/* A file argument or an inline block (exactly one of the two is set). */
struct braid_opt_source {
	char *path;
	char *inline_text;
	size_t inline_len;
};

/* One `remote` line or one `<connection>` block. */
struct braid_opt_remote {
	char *host;
	uint16_t port;		/* 0: rport */
	enum braid_opt_proto proto;	/* after finalize: the line's proto, else the global one */
	int family;		/* AF_UNSPEC / AF_INET / AF_INET6, likewise */
	bool has_proto;		/* proto given on the line / in the block */
	bool from_connection;	/* a <connection> block */
	bool nobind;		/* <connection>: nobind inside the block (else the global one) */
	bool proto_tcp_generic;	/* parser state: `tcp` on the line, resolved by finalize */
};

/* What an mp-path LOCAL names. */
#define BRAID_MP_LOCAL_ADDR 0	/* a numeric address */
#define BRAID_MP_LOCAL_IF 1	/* an interface name: its address, followed through rtnetlink */
#define BRAID_MP_LOCAL_AUTO 2	/* `auto`: every interface with a route to the peer */
/* `mptcp` values (the same numbers as os/mptcp.h enum braid_mptcp_mode) */
#define BRAID_OPT_MPTCP_OFF 0
#define BRAID_OPT_MPTCP_ON 1
#define BRAID_OPT_MPTCP_AUTO 2
#define BRAID_OPT_MAX_MP_AUTO_PAT 8	/* mp-auto-include / mp-auto-exclude patterns each */

/* `mp-path LOCAL [REMOTE [PORT]]`, with `mp-backup` / `mp-cap` folded in by finalize. */
struct braid_opt_mp_path {
	char *local;		/* numeric address, interface name or "auto" (kind) */
	int kind;		/* BRAID_MP_LOCAL_ADDR / _IF / _AUTO */
	char *remote;		/* NULL: every `remote` (client) or learn peers (server) */
	uint16_t port;		/* 0: rport */
	bool backup;		/* mp-backup LOCAL */
	uint64_t cap_bps;	/* mp-cap LOCAL MBIT; 0 = none */
};

/* `mp-backup LOCAL` / `mp-cap LOCAL MBIT` before finalize (may precede their mp-path). */
struct braid_opt_mp_attr {
	char *local;
	bool backup;
	uint64_t cap_bps;
	int line;		/* for the error if no mp-path matches */
	char *file;
};

struct braid_opt_route {
	int family;		/* AF_INET / AF_INET6 */
	uint8_t dst[16];
	uint8_t prefix;
	bool has_gw;
	uint8_t gw[16];
	uint32_t metric;	/* 0: none */
};

/* Where a directive was last given, for finalize's messages (file NULL = command line). */
struct braid_opt_where {
	const char *name;	/* the table's static name */
	char *file;
	int line;
};

struct braid_options {
	/* device */
	char dev[IFNAMSIZ];		/* "tun" = kernel picks tunN */
	bool has_dev_type;
	int tun_mtu;
	int mssfix;			/* 0: off */
	enum braid_opt_topology topology;	/* TLS modes: net30 unless given (OpenVPN 2.6) */
	bool has_topology;

	/* addresses on the device */
	bool has_ifconfig;
	struct in_addr ifc_local;
	struct in_addr ifc_remote;	/* p2p/net30 peer, or the netmask (subnet) */
	bool ifc_is_netmask;
	bool has_ifconfig6;
	struct in6_addr ifc6_local;
	uint8_t ifc6_prefix;
	struct in6_addr ifc6_remote;
	struct braid_opt_route routes[BRAID_OPT_MAX_ROUTES];
	unsigned int n_routes;

	/* role */
	enum braid_opt_mode mode;
	enum braid_opt_tls tls;
	bool pull;
	bool client;			/* `client` given */
	bool tls_mode_supported;	/* caller sets this before finalize once it can run TLS */

	/* transport */
	enum braid_opt_proto proto;
	int family;			/* AF_UNSPEC (udp/tcp), AF_INET (udp4/tcp4), AF_INET6 (…6) */
	struct braid_opt_remote remotes[BRAID_OPT_MAX_REMOTES];
	unsigned int n_remotes;
	bool remote_random;
	int connect_retry;		/* 1 (doubles per failed round up to the max) */
	int connect_retry_max_backoff;	/* second arg of connect-retry, 300 */
	int connect_retry_max;		/* 0 = unlimited */
	int server_poll_timeout;	/* 120 (also connect-timeout) */
	char *local;
	uint16_t lport, rport;
	bool nobind;
	bool float_ok;
	bool multihome;			/* gateway UDP: answer from the address the client talks to */
	bool multihome_same_if;		/* multihome same-interface: and out of the interface it came in on */

	/* data channel */
	char cipher[32];		/* "" until finalize */
	char data_ciphers[128];
	struct braid_opt_source secret;
	int secret_dir;			/* from `secret FILE DIR`; BRAID_KEY_DIR_* or -2 = unset */
	int key_direction;		/* `key-direction`; -2 = unset */
	uint32_t peer_id;
	uint32_t replay_window;		/* 0: default 64 */
	uint32_t replay_time;		/* 0: default 15; use has_replay_time */
	bool has_replay_time;

	/* multipath (Braid point-to-point mode; docs/braidd.md "Multipath") */
	int multipath;			/* -1 unset (on iff mp-path given), 0 off, 1 on */
	bool mp_refuse;			/* TLS client: `multipath off` (IV_BRAID_MP not announced) */
	/* MPTCP transport (`mptcp on|off|auto`, docs/braidd.md "MPTCP"; os/mptcp.h modes) */
	int mptcp;			/* BRAID_OPT_MPTCP_*: off (0), on, auto */
	bool mptcp_paths;		/* TCP over MPTCP: mp-path lines name MPTCP endpoints */
	int mptcp_pm;			/* `mptcp-pm`: 0 the namespace's net.mptcp.pm_type, 1 kernel, 2 userspace */
	int sndbuf, rcvbuf;		/* TCP socket buffers, bytes; 0 = the kernel's */
	struct braid_opt_mp_path mp_paths[BRAID_OPT_MAX_MP_PATHS];
	unsigned int n_mp_paths;
	struct braid_opt_mp_attr mp_attrs[2 * BRAID_OPT_MAX_MP_PATHS];
	unsigned int n_mp_attrs;
	char *mp_auto_incl[BRAID_OPT_MAX_MP_AUTO_PAT];	/* mp-auto-include: interface globs */
	unsigned int n_mp_auto_incl;
	char *mp_auto_excl[BRAID_OPT_MAX_MP_AUTO_PAT];	/* mp-auto-exclude */
	unsigned int n_mp_auto_excl;
	char mp_sched[BRAID_OPT_MP_SCHED_LEN];	/* "edf", "ratio 3:1", ... */
	uint32_t mp_reorder_ms;		/* 0: engine default */
	struct braid_mpclass_rules mp_classes;	/* `mp-class` rules, in order */
	uint32_t mp_path_timeout;	/* s a learned failed path is kept (30) */

	/* TLS (control channel) */
	char auth_digest[32];		/* `auth`, default "SHA1" */
	char tls_version_min[8];	/* "" = library default; "1.2", "1.3" */
	bool tls_version_min_or_highest;
	char tls_version_max[8];
	char *tls_cipher, *tls_ciphersuites, *tls_groups;
	enum braid_opt_rct remote_cert_tls;
	char *verify_x509_name;
	int verify_x509_type;		/* enum braid_opt_x509 */
	enum braid_opt_vcc verify_client_cert;
	bool client_cert_not_required;	/* old spelling of verify-client-cert none */
	int hand_window;		/* 60 */
	int tls_timeout;		/* 2 */
	int reneg_sec;			/* `reneg-sec MAX [MIN]`: MAX, 3600 (0 = off) */
	int reneg_sec_min;		/* finalize: MIN of `reneg-sec MAX MIN`, else MAX (server: 90 %) */
	int tran_window;		/* 3600 (OpenVPN 2.6's default) */
	uint64_t reneg_bytes, reneg_pkts;	/* 0 = off */
	int tls_auth_dir;		/* `tls-auth FILE DIR`; -2 = unset (then key-direction) */
	bool dh_none;			/* `dh none` (ECDH only; blobs[BRAID_BLOB_DH].path is "none") */
	char *data_ciphers_fallback;
	bool tls_exit;

	/* client */
	bool has_auth_user_pass;	/* file or inline in blobs[BRAID_BLOB_AUTH_USER_PASS] */
	int auth_retry;			/* enum braid_opt_auth_retry */
	bool route_nopull;
	enum braid_opt_dns_updown dns_updown;	/* `dns-updown`: pushed DNS into the resolver */
	struct braid_opt_pull_filter pull_filters[BRAID_OPT_MAX_PULL_FILTERS];
	unsigned int n_pull_filters;
	unsigned int redirect_gw;	/* BRAID_RG_* */
	struct braid_opt_dhcp dhcp_options[BRAID_OPT_MAX_DHCP_OPTIONS];
	unsigned int n_dhcp_options;
	char *up, *down;
	int script_security;		/* 1 */
	bool has_route_gateway;
	bool route_gateway_dhcp;	/* `route-gateway dhcp` */
	struct in_addr route_gateway;
	int explicit_exit_notify;	/* 0 = off */
	struct braid_opt_setenv setenv[BRAID_OPT_MAX_SETENV];
	unsigned int n_setenv;
	int push_peer_info;		/* bool */
	enum braid_opt_comp compress;

	/* other OpenVPN 2.6 options real profiles carry (stored for the runtime) */
	char cipher_unsupported[32];	/* `cipher X` braidd cannot run: error (static) / ignored (TLS) */
	bool mute_replay_warnings;
	int dco;			/* enum braid_dco_mode: `dco auto|on|off` (default auto) */
	/* `dco-scheduler FILE [STEP ...]`: the eBPF path scheduler braidd attaches (dataplane/dco_sched.h) */
	char *dco_sched_file;
	char *dco_sched_steps[BRAID_OPT_DCO_SCHED_STEPS];
	unsigned int n_dco_sched_steps;

	/* gateway (mode server) */
	bool has_server;
	struct in_addr server_net, server_mask;
	bool server_nopool;
	bool has_server6;
	struct in6_addr server6_net;
	uint8_t server6_prefix;
	bool has_ifconfig_pool;
	struct in_addr ifconfig_pool_start, ifconfig_pool_end, ifconfig_pool_mask;
	char *push[BRAID_OPT_MAX_PUSH];	/* `push "…"`, in order */
	unsigned int n_push;
	char *client_config_dir;
	bool ccd_exclusive, client_to_client, duplicate_cn, username_as_common_name;
	bool auth_user_pass_optional;	/* `auth-user-pass-optional` */
	int max_clients;		/* 1024 */
	char *auth_user_pass_verify;
	int auth_user_pass_verify_method;	/* enum braid_opt_aupv */
	int status_version;		/* 1..3 (default 1) */
	char *ifconfig_pool_persist;
	int ifconfig_pool_persist_sec;	/* 600 */
	int keepalive_ping, keepalive_restart;	/* `keepalive N M` as written (0 = none) */
	int connect_freq_n, connect_freq_sec;	/* `connect-freq N SEC`; 0 = none */
	int cfi_n, cfi_sec;	/* `connect-freq-initial N SEC`: stateless replies; 0 = none */
	int workers;		/* `workers N|auto`: 0 not given (= auto), -1 auto, else N */
	char *client_connect, *client_disconnect;

	/* privileges (privdrop.c): resolved by finalize */
	char *user, *group, *chroot_dir;
	uid_t run_uid;			/* user's uid (user given) */
	gid_t run_gid;			/* group's gid, else the user's primary group */

	/* status */
	char *control_socket;		/* `control-socket PATH`; NULL = none */
	char *status_path;
	int status_interval;		/* seconds (default 60) */
	char *status_json_path;		/* `status-json FILE [S]`: the JSON status file (control/status.h) */
	int status_json_interval;	/* seconds (default 10) */

	/* management interface (control/mgmt.h; options_mgmt.c) */
	char *mgmt_addr;		/* `management IP PORT [PW]` / `management PATH unix [PW]` */
	int mgmt_port;
	bool mgmt_unix;
	char *mgmt_pwfile;
	char *mgmt_client_user, *mgmt_client_group;
	bool mgmt_hold, mgmt_query_passwords, mgmt_client_auth, mgmt_query_remote;
	bool mgmt_up_down, mgmt_connect_out;	/* management-up-down, management-client */
	int mgmt_log_cache;		/* 0: the default (250) */

	/* metrics endpoint (control/metrics.h; options_metrics.c) */
	char *metrics_addr;		/* `metrics [ADDR [PORT [allow-remote]]]`; NULL = off */
	int metrics_port;
	bool metrics_remote;		/* allow-remote: a non-loopback address is accepted */
	int metrics_max_clients;	/* `metrics-max-clients N`; -1: the default (100) */

	/* many gateways behind one address (cluster/; options_cluster.c) */
	char *cluster_etcd;		/* `cluster-etcd http://HOST:PORT`; NULL = off */
	char *cluster_prefix;		/* `cluster-prefix P`; NULL: "braid/" */
	int cluster_ttl;		/* `cluster-ttl SECONDS`, the lease's TTL; 0: 10 */
	int cluster_gw_id;		/* `cluster-gateway-id N` (1..254); 0: the lowest free */

	/* keepalive */
	int ping, ping_restart, ping_exit;

	/* process */
	int verb;
	char *log_path;
	bool log_append;
	char *writepid;
	char *cd_dir;			/* `cd DIR`: chdir'd when read, as OpenVPN */
	bool suppress_timestamps;	/* `suppress-timestamps` */
	bool machine_readable;		/* `machine-readable-output` */
	bool daemon;			/* `daemon [NAME]`: fork into the background */
	bool use_syslog;		/* `syslog [NAME]` */
	char *syslog_ident;		/* NAME of daemon/syslog; NULL = "braidd" */
	char *genkey_type, *genkey_file;	/* `genkey TYPE [FILE]`: write a key, exit */

	/* parsed and kept for the TLS mode */
	struct braid_opt_source blobs[BRAID_BLOB_COUNT];

	/* parser state */
	struct braid_opt_where where[BRAID_OPT_MAX_WHERE];
	unsigned int n_where;
	bool in_connection;		/* inside a <connection> block */
	struct braid_opt_remote conn;	/* the block's entry being built */
	bool conn_has_remote;
	bool had_connection;		/* a <connection> block was seen */
	bool opt_tls_client, opt_tls_server;	/* `tls-client` / `tls-server` given */
	bool has_mode_opt;		/* `mode` given */
	bool has_vcc_opt;		/* verify-client-cert / client-cert-not-required given */
	const char *ping_opt;		/* last of ping / ping-restart / ping-exit given */
	const char *tls_parm_opt;	/* last TLS-only timing option given (static name) */
	bool proto_tcp_generic;		/* `proto tcp` (resolved by finalize) */
	bool has_proto_opt;		/* `proto` given (for the static-key check) */
	char proto_name[16];		/* as written */
	char *ignore_unknown[BRAID_OPT_MAX_IGNORE];
	unsigned int n_ignore_unknown;
	unsigned int n_ignored;		/* directives skipped by ignore-unknown-option */
	bool forward_compatible;	/* `setenv FORWARD_COMPATIBLE 1`: unknown options warn */
	int depth;			/* `config` nesting */
	char config_path[256];		/* the first configuration file read ("" none): scripts' `config` */
};

/* Where a directive came from, for error messages. file NULL = command line. */
struct braid_opt_loc {
	const char *file;
	int line;
};

#endif /* BRAID_OPTIONS_TYPES_H */
