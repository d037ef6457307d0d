/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.h - braidd's options model and the table of directives.
 *
 * One model, filled the same way from a config file and from the command
 * line (config.c tokenizes both, then calls braid_options_apply() per
 * directive). The table in options.c gives each directive its name, its
 * argument count and its handler. braid_options_finalize() checks the
 * combination and fills derived defaults.
 *
 * Errors are written into the caller's buffer, always prefixed with the
 * location: "FILE:LINE: option 'X': <problem>" (config file) or
 * "command line: option 'X': <problem>".
 */
#ifndef BRAID_OPTIONS_H
#define BRAID_OPTIONS_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "mpclass.h"

#define BRAID_OPT_MAX_REMOTES 16
#define BRAID_OPT_MAX_ROUTES 64
#define BRAID_OPT_MAX_IGNORE 32
#define BRAID_OPT_MAX_DEPTH 10		/* nested `config` */
#define BRAID_OPT_DEFAULT_PORT 1194
#define BRAID_OPT_TUN_MTU_MIN 576
#define BRAID_OPT_TUN_MTU_MAX 9000
#define BRAID_OPT_DEFAULT_MSSFIX 1492
#define BRAID_OPT_MAX_MP_PATHS 8	/* = BRAID_MP_MAX_PATHS */
#define BRAID_OPT_MP_SCHED_LEN 96

enum braid_opt_topology { BRAID_TOPO_P2P = 0, BRAID_TOPO_NET30, BRAID_TOPO_SUBNET };

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

struct braid_opt_remote {
	char *host;
	uint16_t port;		/* 0: rport */
};

/* `mp-path LOCAL [REMOTE [PORT]]`, with `mp-backup` / `mp-cap` folded in by finalize. */
struct braid_opt_mp_path {
	char *local;		/* numeric address the socket binds to */
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

struct braid_options {
	/* device */
	char dev[IFNAMSIZ];		/* "tun" = kernel picks tunN */
	bool has_dev_type;
	int tun_mtu;
	int mssfix;			/* 0: off */
	enum braid_opt_topology topology;
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

	/* transport */
	int family;			/* AF_UNSPEC (udp), AF_INET (udp4), AF_INET6 (udp6) */
	struct braid_opt_remote remotes[BRAID_OPT_MAX_REMOTES];
	unsigned int n_remotes;
	char *local;
	uint16_t lport, rport;
	bool nobind;
	bool float_ok;

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
	struct braid_opt_mp_path mp_paths[BRAID_OPT_MAX_MP_PATHS];
	unsigned int n_mp_paths;
	struct braid_opt_mp_attr mp_attrs[2 * BRAID_OPT_MAX_MP_PATHS];
	unsigned int n_mp_attrs;
	char mp_sched[BRAID_OPT_MP_SCHED_LEN];	/* "edf", "ratio 3:1", ... */
	uint32_t mp_reorder_ms;		/* 0: engine default */
	struct braid_mpclass_rules mp_classes;	/* `mp-class` rules, in order */
	uint32_t mp_path_timeout;	/* s a learned failed path is kept (30) */

	/* status */
	char *control_socket;		/* `control-socket PATH`; NULL = none */
	char *status_path;
	int status_interval;		/* seconds (default 1... see finalize) */

	/* keepalive */
	int ping, ping_restart, ping_exit;

	/* process */
	int verb;
	char *log_path;
	bool log_append;
	char *writepid;

	/* parsed and kept for the TLS mode */
	struct braid_opt_source blobs[BRAID_BLOB_COUNT];

	/* parser state */
	char *ignore_unknown[BRAID_OPT_MAX_IGNORE];
	unsigned int n_ignore_unknown;
	unsigned int n_ignored;		/* directives skipped by ignore-unknown-option */
	int depth;			/* `config` nesting */
};

/* Where a directive came from, for error messages. file NULL = command line. */
struct braid_opt_loc {
	const char *file;
	int line;
};

void braid_options_init(struct braid_options *o);
/* Free everything; inline key material is wiped first. */
void braid_options_free(struct braid_options *o);

/*
 * Apply one directive: argv[0] is the name (without "--"), argv[1..argc-1]
 * its arguments; inline_text is the body of a <name>…</name> block (then
 * argc == 1). 0, or -EINVAL with the message in err.
 */
int braid_options_apply(struct braid_options *o, int argc, char **argv, const char *inline_text,
			const struct braid_opt_loc *loc, char *err, size_t err_len);

/* True if `name` takes an inline <name> block. */
bool braid_options_inline_ok(const char *name);

/* After all directives: combination checks and defaults. 0 or -EINVAL + err. */
int braid_options_finalize(struct braid_options *o, char *err, size_t err_len);

/* Name of a blob slot ("ca", "tls-auth", …). */
const char *braid_options_blob_name(enum braid_opt_blob b);

#endif /* BRAID_OPTIONS_H */
