// SPDX-License-Identifier: GPL-2.0-only
/*
 * client.c - the TLS client: session <-> socket <-> dc, push handling,
 * remote failover and restarts (see client.h).
 */
#include "client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <sodium.h>

#include "ctl/km2.h"
#include "ctl/session.h"
#include "ctl/tls.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "dc/static_key.h"
#include "log.h"
#include "mssfix.h"
#include "netlink.h"
#include "push.h"
#include "script.h"
#include "sock.h"
#include "tcplink.h"
#include "tun.h"

#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)
#define CTL_BUF 2048
#define TICK_S 0.25
#define PUSH_REQUEST_INTERVAL 5.0
#define EXIT_NOTIFY_WAIT 1.0
#define RX_BATCH 64
#define TUN_BATCH 64
#define DEFAULT_CIPHERS "AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305"

enum { SIG_TERM, SIG_INT, SIG_HUP, SIG_USR1, SIG_USR2, SIG_N };

enum cstate {
	CS_IDLE,		/* waiting for the connect-retry timer */
	CS_TCP_CONNECTING,
	CS_TLS,			/* control channel up to KEYS_READY */
	CS_PUSH,		/* keys ready, waiting for PUSH_REPLY */
	CS_UP,			/* data channel running */
};

struct client_stats {
	uint64_t tun_read_pkts, tun_read_bytes, tun_write_pkts, tun_write_bytes;
	uint64_t link_tx_pkts, link_tx_bytes, link_rx_pkts, link_rx_bytes;
	uint64_t rx_auth_failures, rx_replays, rx_malformed, rx_ctl_dropped;
	uint64_t pings_tx, pings_rx, restarts, renegotiations, keys_removed;
	uint64_t tx_dropped;
	uint64_t auth_read_bytes;	/* data packets that authenticated (OpenVPN's "Auth read bytes") */
};

struct braid_client {
	struct ev_loop *loop;
	struct braid_options *o;
	SSL_CTX *ssl;
	struct braid_key2 wrap_key;
	int wrap, wrap_dir;
	char *user, *pass;
	char *token;			/* pushed auth-token: the password of later authentications */
	char peer_info[1024];
	char occ[BRAID_KM2_OPTIONS_MAX];
	bool prf_only;

	struct braid_tun tun;
	bool tun_open;

	unsigned int order[BRAID_OPT_MAX_REMOTES];
	unsigned int cur;		/* index into order[] */
	unsigned int failures;		/* attempts without success since the last good one */
	bool tcp;
	int ufd;
	struct braid_tcplink tl;
	union braid_sockaddr remote;
	ev_tstamp connect_start;

	struct braid_ctls *s;
	struct braid_dc *dc;
	struct braid_push_list pl;
	struct braid_pushed pushed;
	bool have_push;
	struct braid_push_net pnet;
	bool up_ran;
	bool ever_up;
	enum braid_comp_framing framing;
	bool use_ekm;
	char cipher[32];
	int ping, ping_restart, tun_mtu;
	struct braid_mssfix mss;

	enum cstate st;
	ev_tstamp t_keys, last_push_req, last_rx, last_tx;
	ev_tstamp exit_deadline;
	bool exit_notify_sent;
	ev_tstamp occ_exit_next;	/* OCC EXIT: repeated once a second until exit_deadline */

	ev_io tun_r, sock_r, sock_w;
	ev_timer ctl_t, tick, retry_t;
	ev_signal sig[SIG_N];

	double next_pause;		/* >= 0: the server's AUTH_FAILED,TEMP backoff for the next pause */
	ev_tstamp pending_until;	/* AUTH_PENDING,timeout N: the push may take that long */
	ev_timer status_t;

	bool exit_req, stats_req;
	int exit_code;
	const char *restart_reason;
	bool advance;			/* the restart moves to the next remote */

	struct client_stats stt;
	uint64_t rx_at_start, ctl_ok, ctl_ok_at_start;	/* for the hand-window hint */
	ev_tstamp last_auth_log;
	uint8_t *pkt, *plain, *framed;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t mono_sec(void)
{
	return now_ms() / 1000;
}

static void request_restart(struct braid_client *c, const char *why, bool advance)
{
	if (c->restart_reason || c->exit_req)
		return;
	c->restart_reason = why;
	c->advance = advance;
	ev_break(c->loop, EVBREAK_ONE);
}

static void request_exit(struct braid_client *c, int code)
{
	c->exit_req = true;
	c->exit_code = code;
	ev_break(c->loop, EVBREAK_ONE);
}

/* ---- set-up helpers ---- */

static void free_secret(char **p)
{
	if (*p) {
		sodium_memzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

static const char *blob_path(const struct braid_opt_source *s)
{
	return s->inline_text ? NULL : s->path;
}

static int load_wrap_key(struct braid_client *c)
{
	struct braid_options *o = c->o;
	struct braid_opt_source *ta = &o->blobs[BRAID_BLOB_TLS_AUTH];
	struct braid_opt_source *tc = &o->blobs[BRAID_BLOB_TLS_CRYPT];
	struct braid_opt_source *src = NULL;
	const char *name = NULL;
	char err[512];
	int r;

	c->wrap = BRAID_CTLS_WRAP_NONE;
	if (tc->path || tc->inline_text) {
		src = tc;
		name = "tls-crypt";
		c->wrap = BRAID_CTLS_WRAP_CRYPT;
	} else if (ta->path || ta->inline_text) {
		src = ta;
		name = "tls-auth";
		c->wrap = BRAID_CTLS_WRAP_AUTH;
	}
	if (!src)
		return 0;
	if (src->inline_text)
		r = braid_static_key_parse(src->inline_text, src->inline_len, &c->wrap_key, err,
					   sizeof(err));
	else
		r = braid_static_key_load(src->path, &c->wrap_key, err, sizeof(err));
	if (r) {
		braid_err("option '%s': %s%s", name, src->inline_text ? "inline block: " : "", err);
		return r;
	}
	if (c->wrap == BRAID_CTLS_WRAP_AUTH) {
		int dir = o->tls_auth_dir != -2 ? o->tls_auth_dir : o->key_direction;

		c->wrap_dir = dir == -2 ? BRAID_KEY_DIR_BIDIRECTIONAL : dir;
	} else {
		c->wrap_dir = BRAID_KEY_DIR_INVERSE;	/* tls-crypt client */
	}
	return 0;
}

static int load_user_pass(struct braid_client *c)
{
	struct braid_opt_source *s = &c->o->blobs[BRAID_BLOB_AUTH_USER_PASS];
	char *text = NULL, *nl, *pass;
	size_t size = 0;
	int r = 0;

	if (!c->o->has_auth_user_pass && !s->path && !s->inline_text)
		return 0;
	if (s->inline_text) {
		size = s->inline_len + 1;
		text = calloc(1, size);
		if (!text)
			return -ENOMEM;
		memcpy(text, s->inline_text, s->inline_len);
	} else if (s->path) {
		FILE *f = fopen(s->path, "re");
		size_t len;

		if (!f) {
			r = -errno;
			braid_err("option 'auth-user-pass': cannot read '%s': %s", s->path,
				  strerror(-r));
			return r;
		}
		size = 2048;
		text = calloc(1, size);
		if (!text) {
			fclose(f);
			return -ENOMEM;
		}
		len = fread(text, 1, size - 1, f);
		fclose(f);
		text[len] = '\0';
	} else {
		braid_err("option 'auth-user-pass' needs a file or an inline block: braidd cannot "
			  "prompt");
		return -EINVAL;
	}
	nl = strchr(text, '\n');
	if (!nl || nl == text) {
		braid_err("option 'auth-user-pass': expected the username on the first line and the "
			  "password on the second");
		r = -EINVAL;
		goto out;
	}
	*nl = '\0';
	if (nl[-1] == '\r')
		nl[-1] = '\0';
	pass = nl + 1;
	pass[strcspn(pass, "\r\n")] = '\0';
	if (!*pass) {
		braid_err("option 'auth-user-pass': the password (second line) is empty");
		r = -EINVAL;
		goto out;
	}
	c->user = strdup(text);
	c->pass = strdup(pass);
	if (!c->user || !c->pass)
		r = -ENOMEM;
out:
	sodium_memzero(text, size);	/* the password was in there */
	free(text);
	return r;
}

static int make_tls_ctx(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const struct braid_opt_source *b = o->blobs;
	struct braid_tls_config cfg = {
		.server = false,
		.ca_file = blob_path(&b[BRAID_BLOB_CA]),
		.ca_pem = b[BRAID_BLOB_CA].inline_text,
		.cert_file = blob_path(&b[BRAID_BLOB_CERT]),
		.cert_pem = b[BRAID_BLOB_CERT].inline_text,
		.key_file = blob_path(&b[BRAID_BLOB_KEY]),
		.key_pem = b[BRAID_BLOB_KEY].inline_text,
		.crl_file = blob_path(&b[BRAID_BLOB_CRL_VERIFY]),
		.crl_pem = b[BRAID_BLOB_CRL_VERIFY].inline_text,
		.tls_version_min = o->tls_version_min[0] ? o->tls_version_min : NULL,
		.tls_cipher = o->tls_cipher,
		.tls_ciphersuites = o->tls_ciphersuites,
		.tls_groups = o->tls_groups,
		.remote_cert_tls = o->remote_cert_tls == BRAID_RCT_SERVER ? BRAID_REMOTE_CERT_SERVER :
				   o->remote_cert_tls == BRAID_RCT_CLIENT ? BRAID_REMOTE_CERT_CLIENT :
									    BRAID_REMOTE_CERT_NONE,
		.verify_x509_name = o->verify_x509_name,
	};
	char err[512];
	int r;

	if (o->verify_x509_name)
		cfg.verify_x509_type = o->verify_x509_type == BRAID_X509_NAME ? BRAID_X509_NAME_CN :
				       o->verify_x509_type == BRAID_X509_NAME_PREFIX ?
									  BRAID_X509_NAME_CN_PREFIX :
									  BRAID_X509_NAME_SUBJECT;
	r = braid_tls_ctx_new(&c->ssl, &cfg, err, sizeof(err));
	if (r)
		braid_err("TLS set-up failed: %s", err);
	return r;
}

static const char *data_ciphers(const struct braid_options *o)
{
	return o->data_ciphers[0] ? o->data_ciphers : DEFAULT_CIPHERS;
}

static bool cipher_allowed(const struct braid_options *o, const char *cipher)
{
	const char *l = data_ciphers(o);
	size_t n = strlen(cipher);

	while (*l) {
		size_t k = strcspn(l, ":");

		if (k == n && !strncasecmp(l, cipher, n))
			return true;
		l += k;
		if (*l == ':')
			l++;
	}
	return false;
}

static int build_peer_info(struct braid_client *c)
{
	uint32_t proto = BRAID_IV_PROTO_DATA_V2 | BRAID_IV_PROTO_REQUEST_PUSH |
			 BRAID_IV_PROTO_AUTH_PENDING_KW | BRAID_IV_PROTO_CC_EXIT_NOTIFY |
			 BRAID_IV_PROTO_AUTH_FAIL_TEMP;
	const char *kd = getenv("BRAIDD_KEY_DERIVATION");
	char num[16], mtu[16];
	char *pi = c->peer_info;
	size_t cap = sizeof(c->peer_info);
	int r = 0;

	c->prf_only = kd && !strcmp(kd, "prf");
	if (!c->prf_only)
		proto |= BRAID_IV_PROTO_TLS_KEY_EXPORT;
	snprintf(num, sizeof(num), "%u", proto);
	snprintf(mtu, sizeof(mtu), "%d", 1600);
	pi[0] = '\0';
	r = r ? r : braid_peer_info_add(pi, cap, "IV_VER", "2.6.14");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_PLAT", "linux");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_TCPNL", "1");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_MTU", mtu);
	r = r ? r : braid_peer_info_add(pi, cap, "IV_NCP", "2");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_CIPHERS", data_ciphers(c->o));
	r = r ? r : braid_peer_info_add(pi, cap, "IV_PROTO", num);
	r = r ? r : braid_peer_info_add(pi, cap, "IV_LZO_STUB", "1");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_COMP_STUB", "1");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_COMP_STUBv2", "1");
	/* setenv IV_GUI_VER / IV_SSO always; with push-peer-info also the platform, TLS library and UV_* */
	for (unsigned int i = 0; !r && i < c->o->n_setenv; i++) {
		const struct braid_opt_setenv *e = &c->o->setenv[i];

		if (!e->value)
			continue;
		if (!strcmp(e->name, "IV_GUI_VER") || !strcmp(e->name, "IV_SSO") ||
		    (c->o->push_peer_info && !strncmp(e->name, "UV_", 3)))
			r = braid_peer_info_add(pi, cap, e->name, e->value);
	}
	if (!r && c->o->push_peer_info) {
		struct utsname u;

		if (!uname(&u))
			r = braid_peer_info_add(pi, cap, "IV_PLAT_VER", u.release);
		r = r ? r : braid_peer_info_add(pi, cap, "IV_SSL", OpenSSL_version(OPENSSL_VERSION));
	}
	r = r ? r : braid_peer_info_add_braid_mp(pi, cap);
	if (r)
		braid_err("cannot build peer-info: %s", strerror(-r));
	if (c->prf_only)
		braid_info("key derivation: TLS_KEY_EXPORT not announced (BRAIDD_KEY_DERIVATION=prf)");
	return r;
}

static void build_occ(struct braid_client *c, bool tcp, int family)
{
	const struct braid_options *o = c->o;
	int mtu = o->tun_mtu ? o->tun_mtu : 1500;
	const char *proto = tcp ? (family == AF_INET6 ? "TCPv6_CLIENT" : "TCPv4_CLIENT")
				: (family == AF_INET6 ? "UDPv6" : "UDPv4");
	int n;

	n = snprintf(c->occ, sizeof(c->occ), "V4,dev-type tun,link-mtu %d,tun-mtu %d,proto %s",
		     mtu + (tcp ? 43 : 41), mtu, proto);
	if (o->compress == BRAID_OPT_COMP_LZO_NO || o->compress == BRAID_OPT_COMP_STUB ||
	    o->compress == BRAID_OPT_COMP_STUBV2)
		n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",comp-lzo");
	if (c->wrap == BRAID_CTLS_WRAP_AUTH && c->wrap_dir != BRAID_KEY_DIR_BIDIRECTIONAL)
		n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",keydir %d", c->wrap_dir);
	n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",auth %s,keysize 128",
		      o->auth_digest[0] ? o->auth_digest : "SHA1");
	if (c->wrap == BRAID_CTLS_WRAP_AUTH)
		n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",tls-auth");
	snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",key-method 2,tls-client");
}

/* ---- transport ---- */

static int link_send(struct braid_client *c, const uint8_t *pkt, size_t len)
{
	int r;

	if (c->tcp) {
		r = braid_tcplink_send(&c->tl, pkt, len);
		if (r == 0 && braid_tcplink_want_write(&c->tl))
			ev_io_start(c->loop, &c->sock_w);
		if (r && r != -ENOBUFS)
			request_restart(c, "connection-reset", false);
	} else {
		if (send(c->ufd, pkt, len, 0) < 0)
			r = -errno;
		else
			r = 0;
	}
	if (r) {
		c->stt.tx_dropped++;
		return r;
	}
	c->stt.link_tx_pkts++;
	c->stt.link_tx_bytes += len;
	c->last_tx = ev_now(c->loop);
	return 0;
}

static void close_link(struct braid_client *c)
{
	ev_io_stop(c->loop, &c->sock_r);
	ev_io_stop(c->loop, &c->sock_w);
	if (c->tcp)
		braid_tcplink_close(&c->tl);
	if (c->ufd >= 0) {
		close(c->ufd);
		c->ufd = -1;
	}
}

/* ---- control session ---- */

static void handle_event(struct braid_client *c, struct braid_ctls_event *ev);

static void pump(struct braid_client *c)
{
	struct braid_ctls_event *ev;
	uint8_t buf[CTL_BUF];
	int64_t dl;
	size_t len;

	if (!c->s)
		return;
	ev = malloc(sizeof(*ev));
	if (!ev)
		return;
	for (int guard = 0; guard < 64 && c->s; guard++) {
		bool any = false;

		while (c->s && braid_ctls_output(c->s, now_ms(), buf, sizeof(buf), &len) == 0 && len) {
			link_send(c, buf, len);
			any = true;
		}
		while (c->s && braid_ctls_next_event(c->s, ev) == 0) {
			handle_event(c, ev);
			any = true;
		}
		if (!any)
			break;
	}
	free(ev);
	ev_timer_stop(c->loop, &c->ctl_t);
	if (!c->s)
		return;
	dl = braid_ctls_deadline(c->s);
	if (dl != BRAID_CTLS_NEVER) {
		double d = (double)(dl - now_ms()) / 1000.0;

		ev_timer_set(&c->ctl_t, d > 0.001 ? d : 0.001, 0.);
		ev_timer_start(c->loop, &c->ctl_t);
	}
}

static void ctl_timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	pump(w->data);
}

static int new_session(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	struct braid_ctls_config cfg = {
		.server = false,
		.ssl_ctx = c->ssl,
		.wrap = c->wrap,
		.wrap_key = c->wrap != BRAID_CTLS_WRAP_NONE ? &c->wrap_key : NULL,
		.key_direction = c->wrap_dir,
		.auth_digest = o->auth_digest[0] ? o->auth_digest : NULL,
		.tcp = c->tcp,
		.hand_window_s = o->hand_window > 0 ? (unsigned)o->hand_window : 60,
		.tls_timeout_s = o->tls_timeout > 0 ? (unsigned)o->tls_timeout : 2,
		.reneg_sec = o->reneg_sec > 0 ? (unsigned)o->reneg_sec : UINT32_MAX,
		.tran_window_s = o->tran_window > 0 ? (unsigned)o->tran_window : 60,
		.reneg_bytes = o->reneg_bytes,
		.reneg_pkts = o->reneg_pkts,
		.replay_window = 64,
		.replay_time = 15,
		.options_string = c->occ,
		.peer_info = c->peer_info,
		.username = c->user,
		.password = c->token ? c->token : c->pass,
	};
	char err[256];
	int r;

	build_occ(c, c->tcp, c->remote.sa.sa_family);
	cfg.options_string = c->occ;
	r = braid_ctls_new(&c->s, &cfg, now_ms(), err, sizeof(err));
	if (r) {
		braid_err("cannot start the control session: %s", err);
		return r;
	}
	c->st = CS_TLS;
	c->pending_until = 0;
	c->rx_at_start = c->stt.link_rx_pkts;
	c->ctl_ok_at_start = c->ctl_ok;
	c->connect_start = ev_now(c->loop);
	c->last_rx = c->last_tx = ev_now(c->loop);
	pump(c);
	return 0;
}

/* ---- data channel ---- */

static void send_payload(struct braid_client *c, const uint8_t *pl, size_t len)
{
	size_t out_len;
	int r;

	if (!c->dc || c->st != CS_UP)
		return;
	r = braid_dc_encrypt(c->dc, pl, len, c->pkt, BUF_SIZE, &out_len, NULL);
	if (r) {
		if (r == -EOVERFLOW)
			request_restart(c, "packet-id-exhausted", false);
		return;
	}
	link_send(c, c->pkt, out_len);
}

static void send_ping(struct braid_client *c)
{
	uint8_t ping[BRAID_PING_LEN + 2];
	size_t len;

	if (!braid_payload_build_ping(c->framing, ping, sizeof(ping), &len)) {
		send_payload(c, ping, len);
		c->stt.pings_tx++;
	}
}

static void tun_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;

	(void)loop, (void)revents;
	for (int i = 0; i < TUN_BATCH; i++) {
		ssize_t len;
		size_t flen;

		if (c->tcp && braid_tcplink_pending(&c->tl) > BRAID_TCPLINK_WQ_MAX / 2) {
			/* the TCP socket is full: wait for it to drain */
			ev_io_stop(c->loop, &c->tun_r);
			ev_io_start(c->loop, &c->sock_w);
			return;
		}
		len = read(c->tun.fd, c->plain, BUF_SIZE - 64);
		if (len < 0)
			return;
		c->stt.tun_read_pkts++;
		c->stt.tun_read_bytes += (uint64_t)len;
		if (c->st != CS_UP || len < 1)
			continue;
		braid_mssfix_apply(&c->mss, c->plain, (size_t)len);
		if (braid_payload_frame(c->framing, c->plain, (size_t)len, c->framed, BUF_SIZE,
					&flen))
			continue;
		send_payload(c, c->framed, flen);
	}
}

static void rx_data(struct braid_client *c, const uint8_t *pkt, size_t len)
{
	struct braid_payload pl;
	size_t plen;
	int r;

	if (!c->dc) {
		c->stt.rx_malformed++;
		return;
	}
	r = braid_dc_decrypt(c->dc, pkt, len, mono_sec(), c->plain, BUF_SIZE, &plen, NULL);
	if (r == -EBADMSG) {
		c->stt.rx_auth_failures++;
		if (ev_now(c->loop) - c->last_auth_log >= 1.0) {
			c->last_auth_log = ev_now(c->loop);
			braid_warn("data packet authentication failed (%llu so far)",
				   (unsigned long long)c->stt.rx_auth_failures);
		}
		if (c->tcp)	/* OpenVPN: fatal on a stream */
			request_restart(c, "decryption-error", false);
		return;
	}
	if (r == -EALREADY || r == -ESTALE) {
		c->stt.rx_replays++;
		return;
	}
	if (r) {
		c->stt.rx_malformed++;
		return;
	}
	c->last_rx = ev_now(c->loop);
	c->stt.auth_read_bytes += len;
	braid_payload_classify(c->framing, c->plain, plen, &pl);
	switch (pl.kind) {
	case BRAID_PAYLOAD_IPV4:
	case BRAID_PAYLOAD_IPV6: {
		uint8_t *ip = c->plain + (pl.data - c->plain);

		braid_mssfix_apply(&c->mss, ip, pl.len);
		if (write(c->tun.fd, ip, pl.len) >= 0) {
			c->stt.tun_write_pkts++;
			c->stt.tun_write_bytes += pl.len;
		}
		break;
	}
	case BRAID_PAYLOAD_PING:
		c->stt.pings_rx++;
		break;
	case BRAID_PAYLOAD_OCC:
		if (pl.occ_type == BRAID_OCC_EXIT) {
			braid_info("server sent an exit notification (OCC EXIT): restarting");
			request_restart(c, "remote-exit", true);
		}
		break;
	default:
		c->stt.rx_malformed++;
		braid_dbg("authenticated payload dropped: %s", braid_payload_kind_str(pl.kind));
		break;
	}
}

static void rx_packet(struct braid_client *c, const uint8_t *pkt, size_t len)
{
	uint8_t op;
	int r;

	c->stt.link_rx_pkts++;
	c->stt.link_rx_bytes += len;
	if (!len)
		return;
	op = pkt[0] >> 3;
	if (op == BRAID_OP_DATA_V1 || op == BRAID_OP_DATA_V2) {
		rx_data(c, pkt, len);
		return;
	}
	if (!c->s)
		return;
	r = braid_ctls_input(c->s, pkt, len, now_ms());
	if (r) {
		c->stt.rx_ctl_dropped++;
		if (r == -EBADMSG && c->wrap != BRAID_CTLS_WRAP_NONE) {
			if (ev_now(c->loop) - c->last_auth_log >= 1.0) {
				c->last_auth_log = ev_now(c->loop);
				braid_warn("%s verification failed: control packet dropped (%s); "
					   "wrong key or key-direction?",
					   c->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "tls-crypt",
					   braid_ctls_last_error(c->s));
			}
		} else {
			braid_dbg("control packet dropped: %s", braid_ctls_last_error(c->s));
		}
		return;
	}
	c->ctl_ok++;
	c->last_rx = ev_now(c->loop);
}

static void sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;
	const uint8_t *p;
	size_t len;
	int r;

	(void)loop, (void)revents;
	if (c->tcp) {
		r = braid_tcplink_read(&c->tl);
		if (r) {
			braid_warn("TCP connection to the server %s: %s", r == -ECONNRESET ?
				   "closed by the peer" : "failed", r == -ECONNRESET ? "EOF" :
				   strerror(-r));
			request_restart(c, "connection-reset", false);
			return;
		}
		while ((r = braid_tcplink_next(&c->tl, &p, &len)) == 0) {
			rx_packet(c, p, len);
			if (c->restart_reason || c->exit_req)
				return;
		}
		if (r == -EBADMSG) {
			braid_warn("TCP stream from the server is corrupt (packet length 0)");
			request_restart(c, "connection-reset", false);
			return;
		}
	} else {
		for (int i = 0; i < RX_BATCH; i++) {
			ssize_t n = recv(c->ufd, c->pkt, BUF_SIZE, MSG_DONTWAIT);

			if (n < 0) {
				if (errno == ECONNREFUSED)
					braid_dbg("UDP: connection refused (ICMP) by the server");
				break;
			}
			rx_packet(c, c->pkt, (size_t)n);
			if (c->restart_reason || c->exit_req)
				return;
		}
	}
	pump(c);
}

static int open_session_socket(struct braid_client *c);

static void sock_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;
	int r;

	(void)loop, (void)revents;
	if (c->st == CS_TCP_CONNECTING) {
		char a[128];

		r = braid_tcplink_connect_done(&c->tl);
		if (r == -EINPROGRESS)
			return;
		if (r) {
			braid_warn("TCP connect to %s failed: %s",
				   braid_sockaddr_str(&c->remote, a, sizeof(a)), strerror(-r));
			request_restart(c, "connection-failed", true);
			return;
		}
		braid_info("TCP connection established with %s",
			   braid_sockaddr_str(&c->remote, a, sizeof(a)));
		ev_io_stop(c->loop, &c->sock_w);
		ev_io_start(c->loop, &c->sock_r);
		if (new_session(c))
			request_exit(c, 1);	/* a configuration problem: retrying cannot help */
		return;
	}
	r = braid_tcplink_flush(&c->tl);
	if (r == -EAGAIN)
		return;
	ev_io_stop(c->loop, &c->sock_w);
	if (r) {
		braid_warn("TCP write to the server failed: %s", strerror(-r));
		request_restart(c, "connection-reset", false);
		return;
	}
	if (!ev_is_active(&c->tun_r) && c->tun_open)
		ev_io_start(c->loop, &c->tun_r);
}

/* ---- push ---- */

/* As OpenVPN: routes and addresses go first, then the `down` script runs. */
static void teardown_net(struct braid_client *c)
{
	if (c->tun_open)
		braid_push_unapply(&c->pnet, c->tun.nl);
	if (c->up_ran && c->o->down) {
		struct braid_script_env env = { 0 };

		if (!braid_script_env_tunnel(&env, c->o, "down", c->tun.name, c->tun_mtu,
					     &c->pushed, &c->remote))
			braid_script_run("down", c->o->down, c->o, c->tun.name, c->tun_mtu,
					 &c->pushed, &env);
		braid_script_env_free(&env);
	}
	c->up_ran = false;
}

static int process_push(struct braid_client *c)
{
	struct braid_options *o = c->o;
	struct braid_pushed *p = &c->pushed;
	struct braid_dc_config dcc = { .replay_window = o->replay_window,
				       .replay_time = o->has_replay_time ? o->replay_time : 0,
				       .backend = BRAID_AEAD_BACKEND_AUTO };
	struct braid_key2 k2;
	char err[512], a[128];
	int key_id, r;

	r = braid_push_filter(&c->pl, o->pull_filters, o->n_pull_filters, o->route_nopull, err,
			      sizeof(err));
	if (r) {
		braid_err("%s: restarting", err);
		request_restart(c, "pull-filter-reject", false);
		return r;
	}
	braid_pushed_free(p);
	r = braid_push_parse(&c->pl, p, err, sizeof(err));
	if (r) {
		braid_err("bad PUSH_REPLY: %s", err);
		request_restart(c, "bad-push", false);
		return r;
	}
	c->have_push = true;
	if (p->auth_token && c->user) {
		char *t = strdup(p->auth_token);

		if (t) {
			free_secret(&c->token);
			c->token = t;
			braid_info("auth-token received: used instead of the password from now on");
		}
	}
	/* NCP: the pushed cipher must be one of ours; without one, the configured cipher */
	if (p->cipher[0]) {
		if (!cipher_allowed(o, p->cipher)) {
			braid_err("pushed cipher '%s' is not in data-ciphers '%s': cannot continue",
				  p->cipher, data_ciphers(o));
			request_exit(c, 1);
			return -EPROTO;
		}
		snprintf(c->cipher, sizeof(c->cipher), "%s", p->cipher);
	} else if (o->data_ciphers_fallback) {
		snprintf(c->cipher, sizeof(c->cipher), "%s", o->data_ciphers_fallback);
	} else if (o->cipher[0]) {
		snprintf(c->cipher, sizeof(c->cipher), "%s", o->cipher);
	} else {
		braid_err("the server pushed no cipher and no data-ciphers-fallback is set");
		request_exit(c, 1);
		return -EPROTO;
	}
	c->use_ekm = p->tls_ekm && !c->prf_only;
	c->framing = BRAID_COMP_NONE;
	if (p->has_comp)
		c->framing = p->comp == BRAID_PUSH_COMP_LZO_NO ? BRAID_COMP_LZO :
			     p->comp == BRAID_PUSH_COMP_STUB ? BRAID_COMP_STUB :
			     p->comp == BRAID_PUSH_COMP_STUB_V2 ? BRAID_COMP_STUB_V2 :
								 BRAID_COMP_NONE;
	else if (o->compress == BRAID_OPT_COMP_LZO_NO)
		c->framing = BRAID_COMP_LZO;
	else if (o->compress == BRAID_OPT_COMP_STUB)
		c->framing = BRAID_COMP_STUB;
	else if (o->compress == BRAID_OPT_COMP_STUBV2)
		c->framing = BRAID_COMP_STUB_V2;
	c->ping = p->ping >= 0 ? p->ping : o->ping;
	c->ping_restart = p->ping_restart >= 0 ? p->ping_restart : o->ping_restart;
	if (p->tun_mtu)
		c->tun_mtu = p->tun_mtu;
	dcc.peer_id = p->has_peer_id ? p->peer_id : BRAID_DC_PEER_ID_NONE;

	key_id = braid_ctls_current_key_id(c->s);
	if (key_id < 0) {
		braid_err("PUSH_REPLY before the keys are ready");
		request_restart(c, "protocol-error", false);
		return -EPROTO;
	}
	r = braid_ctls_derive(c->s, (unsigned)key_id,
			      c->use_ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
	if (r) {
		braid_err("data-channel key derivation failed: %s", strerror(-r));
		request_restart(c, "key-derivation", false);
		return r;
	}
	braid_dc_free(c->dc);
	c->dc = NULL;
	r = braid_dc_new(&c->dc, &dcc);
	if (!r)
		r = braid_dc_key_install(c->dc, (unsigned)key_id, c->cipher, &k2,
					 BRAID_KEY_DIR_NORMAL);
	braid_key2_wipe(&k2);
	if (r) {
		braid_err("cannot install data-channel keys (cipher %s): %s", c->cipher,
			  strerror(-r));
		request_exit(c, 1);
		return r;
	}
	braid_info("Data Channel: cipher '%s', peer-id %s, key-derivation %s, key_id %d%s",
		   c->cipher, p->has_peer_id ? "pushed" : "none (P_DATA_V1)",
		   c->use_ekm ? "TLS-EKM" : "OpenVPN PRF", key_id,
		   c->framing != BRAID_COMP_NONE ? ", compression stub framing" : "");
	if (p->has_peer_id)
		braid_info("peer-id %u (P_DATA_V2)", p->peer_id);

	/* the device: MTU, addresses, routes (configured ones, then pushed ones) */
	r = braid_nl_link_set(c->tun.nl, c->tun.ifindex, c->tun_mtu, true);
	if (r) {
		braid_err("%s: cannot set mtu %d: %s", c->tun.name, c->tun_mtu, strerror(-r));
		request_exit(c, 1);
		return r;
	}
	for (unsigned int i = 0; i < o->n_routes && p->n_routes < BRAID_PUSH_MAX_ROUTES; i++)
		p->routes[p->n_routes++] = o->routes[i];
	if (!p->has_ifconfig && o->has_ifconfig) {
		p->has_ifconfig = true;
		p->ifc_local = o->ifc_local;
		p->ifc_remote = o->ifc_remote;
		if (o->ifc_is_netmask)
			p->topology = BRAID_TOPO_SUBNET;
	}
	if (o->redirect_gw & BRAID_RG_ENABLE) {
		p->redirect = true;
		p->redirect_flags |= o->redirect_gw;
	}
	/* OpenVPN's order: addresses, the `up` script, then routes */
	r = braid_push_apply(&c->pnet, c->tun.nl, c->tun.ifindex, c->tun.name, p, &c->remote,
			     BRAID_PUSH_APPLY_ADDRS);
	if (r) {
		request_restart(c, "ifconfig-error", false);
		return r;
	}
	braid_mssfix_init(&c->mss, o->mssfix, c->remote.sa.sa_family == AF_INET ? 20 : 40,
			  (int)braid_dc_overhead(c->dc) + (c->tcp ? 2 : 0), c->tun_mtu);
	if (o->up) {
		struct braid_script_env env = { 0 };

		r = braid_script_env_tunnel(&env, o, "up", c->tun.name, c->tun_mtu, p, &c->remote);
		if (!r)
			r = braid_script_run("up", o->up, o, c->tun.name, c->tun_mtu, p, &env);
		braid_script_env_free(&env);
		if (r) {
			braid_err("up script failed: exiting");
			request_exit(c, 1);
			return r;
		}
		c->up_ran = true;
	}
	r = braid_push_apply(&c->pnet, c->tun.nl, c->tun.ifindex, c->tun.name, p, &c->remote,
			     BRAID_PUSH_APPLY_ROUTES);
	if (r) {
		request_restart(c, "route-error", false);
		return r;
	}
	c->st = CS_UP;
	c->failures = 0;
	c->ever_up = true;
	c->last_rx = c->last_tx = ev_now(c->loop);
	braid_info("Initialization Sequence Completed (server %s)",
		   braid_sockaddr_str(&c->remote, a, sizeof(a)));
	return 0;
}

static void handle_text(struct braid_client *c, const char *msg)
{
	struct braid_ctl_msg m;
	char err[256];
	int r;

	braid_ctl_msg_parse(msg, &m);
	switch (m.kind) {
	case BRAID_MSG_PUSH_REPLY:
		if (c->st == CS_UP) {
			braid_dbg("PUSH_REPLY after the configuration: ignored");
			return;
		}
		if (c->st != CS_PUSH) {
			braid_warn("PUSH_REPLY before the keys are ready: ignored");
			return;
		}
		r = braid_push_accumulate(&c->pl, msg, err, sizeof(err));
		if (r < 0) {
			braid_err("bad PUSH_REPLY: %s", err);
			request_restart(c, "bad-push", false);
			return;
		}
		if (r == 0) {
			braid_info("PUSH: received part %u of a continued reply", c->pl.parts);
			return;
		}
		braid_info("PUSH: received control message with %u option(s) in %u part(s)",
			   c->pl.n, c->pl.parts);
		process_push(c);
		break;
	case BRAID_MSG_AUTH_FAILED:
		braid_err("AUTH: Received control message: %s", msg);
		if (c->token) {
			/* the token expired or was refused: the next attempt uses the password */
			free_secret(&c->token);
			braid_info("auth-token refused: retrying with the password");
			request_restart(c, "auth-token-refused", false);
		} else if (m.temp) {
			if (m.backoff >= 0)
				c->next_pause = m.backoff;
			request_restart(c, "auth-temp-failure (server temporary reject)",
					m.advance != 0);
		} else if (c->o->auth_retry == BRAID_AUTH_RETRY_NONE) {
			braid_err("authentication failed (auth-retry none): exiting");
			request_exit(c, 1);
		} else {
			request_restart(c, "auth-failure", false);
		}
		break;
	case BRAID_MSG_AUTH_PENDING:
		if (m.timeout > 0)
			c->pending_until = ev_now(c->loop) + m.timeout;
		braid_info("authentication pending at the server (%s)%s", msg,
			   m.timeout > 0 ? ": waiting for the reply up to that timeout" : "");
		break;
	case BRAID_MSG_RESTART:
		braid_info("server sent RESTART (%s): restarting", msg);
		request_restart(c, "server-pushed-connection-reset", m.next_remote);
		break;
	case BRAID_MSG_HALT:
		braid_info("server sent HALT (%s): exiting", msg);
		request_exit(c, 0);
		break;
	case BRAID_MSG_EXIT:
		braid_info("server sent EXIT (cc-exit): restarting");
		request_restart(c, "remote-exit", true);
		break;
	case BRAID_MSG_INFO:
		braid_info("control message from the server: %s", msg);
		break;
	default:
		braid_warn("unknown control message from the server ignored: '%.64s'", msg);
		break;
	}
}

static void handle_event(struct braid_client *c, struct braid_ctls_event *ev)
{
	char a[128];
	int r;

	switch (ev->type) {
	case BRAID_CTLS_EV_KEYS_READY:
		if (c->st == CS_TLS) {
			braid_info("Peer Connection Initiated with %s (key_id %u)",
				   braid_sockaddr_str(&c->remote, a, sizeof(a)), ev->key_id);
			c->st = CS_PUSH;
			c->t_keys = ev_now(c->loop);
			braid_push_list_clear(&c->pl);
			r = braid_ctls_send_text(c->s, "PUSH_REQUEST");
			if (r)
				braid_warn("cannot send PUSH_REQUEST: %s", strerror(-r));
			c->last_push_req = ev_now(c->loop);
		} else if (c->st == CS_UP && c->dc) {
			struct braid_key2 k2;

			r = braid_ctls_derive(c->s, ev->key_id,
					      c->use_ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
			if (!r)
				r = braid_dc_key_install(c->dc, ev->key_id, c->cipher, &k2,
							 BRAID_KEY_DIR_NORMAL);
			braid_key2_wipe(&k2);
			if (r && r != -EEXIST) {
				braid_err("renegotiation: cannot install key_id %u: %s", ev->key_id,
					  strerror(-r));
				request_restart(c, "key-install", false);
				return;
			}
			c->stt.renegotiations++;
			braid_info("renegotiation complete: data channel now on key_id %u (the "
				   "previous key kept as lame duck)", ev->key_id);
		}
		break;
	case BRAID_CTLS_EV_TEXT:
		handle_text(c, ev->text);
		break;
	case BRAID_CTLS_EV_KEY_EXPIRED:
		if (c->dc && braid_dc_key_remove(c->dc, ev->key_id) == 0) {
			c->stt.keys_removed++;
			braid_info("lame-duck key_id %u removed (transition window over)",
				   ev->key_id);
		}
		break;
	case BRAID_CTLS_EV_SOFT_RESET:
		braid_info("renegotiation started: key_id %u", ev->key_id);
		break;
	case BRAID_CTLS_EV_ERROR:
		if (ev->fatal) {
			if (c->st == CS_TLS && c->stt.link_rx_pkts == c->rx_at_start)
				braid_err("TLS Error: %s; no packet came back from the server: check its "
					  "address and port, and the tls-auth/tls-crypt key and "
					  "key-direction", ev->text);
			else if (c->st == CS_TLS && c->ctl_ok_at_start == c->ctl_ok)
				braid_err("TLS Error: %s; every packet from the server was dropped: "
					  "wrong tls-auth/tls-crypt key or key-direction?", ev->text);
			else
				braid_err("TLS Error: %s", ev->text);
			if (c->o->tls_exit) {
				braid_err("exiting on a TLS error (tls-exit)");
				request_exit(c, 1);
				return;
			}
			request_restart(c, "tls-error", c->st != CS_UP);
		} else {
			braid_warn("control channel: %s", ev->text);
		}
		break;
	default:
		break;
	}
}

/* ---- connection management ---- */

static int open_session_socket(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const struct braid_opt_remote *rm = &o->remotes[c->order[c->cur]];
	uint16_t port = rm->port ? rm->port : (o->rport ? o->rport : BRAID_OPT_DEFAULT_PORT);
	int family = rm->family != AF_UNSPEC ? rm->family : o->family;
	union braid_sockaddr local, *lp = NULL;
	char err[300], a[128];
	int r;

	c->tcp = rm->proto == BRAID_PROTO_TCP_CLIENT;
	r = braid_sock_resolve(rm->host, port, family, false, &c->remote, err, sizeof(err));
	if (r) {
		braid_err("remote %s: %s", rm->host, err);
		return r;
	}
	/*
	 * As OpenVPN: `local` binds (to lport unless nobind); otherwise a UDP client binds the wildcard
	 * address on lport (1194) unless nobind, and a TCP client does not bind.
	 */
	if (o->local) {
		r = braid_sock_resolve(o->local, rm->nobind ? 0 : o->lport, c->remote.sa.sa_family,
				       true, &local, err, sizeof(err));
		if (r) {
			braid_err("local: %s", err);
			return r;
		}
		lp = &local;
	} else if (!c->tcp && !rm->nobind) {
		memset(&local, 0, sizeof(local));
		local.sa.sa_family = c->remote.sa.sa_family;
		if (local.sa.sa_family == AF_INET)
			local.in.sin_port = htons(o->lport);
		else
			local.in6.sin6_port = htons(o->lport);
		lp = &local;
	}
	if (c->tcp) {
		braid_tcplink_init(&c->tl);
		r = braid_tcplink_connect(&c->tl, &c->remote, lp);
		if (r) {
			braid_err("TCP connect to %s: %s",
				  braid_sockaddr_str(&c->remote, a, sizeof(a)), strerror(-r));
			return r;
		}
		braid_info("Attempting to establish TCP connection with %s",
			   braid_sockaddr_str(&c->remote, a, sizeof(a)));
		c->st = CS_TCP_CONNECTING;
		c->connect_start = ev_now(c->loop);
		ev_io_set(&c->sock_r, c->tl.fd, EV_READ);
		ev_io_set(&c->sock_w, c->tl.fd, EV_WRITE);
		ev_io_start(c->loop, &c->sock_w);
		return 0;
	}
	r = braid_sock_open_udp(c->remote.sa.sa_family, lp, false, &c->ufd);
	if (r) {
		braid_err("cannot open a UDP socket%s%s: %s", lp ? " on " : "",
			  lp ? braid_sockaddr_str(lp, a, sizeof(a)) : "", strerror(-r));
		return r;
	}
	if (lp)
		braid_info("UDP link local (bound): %s", braid_sockaddr_str(lp, a, sizeof(a)));
	if (connect(c->ufd, &c->remote.sa, braid_sockaddr_len(&c->remote)) < 0) {
		r = -errno;
		braid_err("UDP connect to %s: %s", braid_sockaddr_str(&c->remote, a, sizeof(a)),
			  strerror(-r));
		close(c->ufd);
		c->ufd = -1;
		return r;
	}
	braid_info("UDP link remote: %s", braid_sockaddr_str(&c->remote, a, sizeof(a)));
	ev_io_set(&c->sock_r, c->ufd, EV_READ);
	ev_io_set(&c->sock_w, c->ufd, EV_WRITE);
	ev_io_start(c->loop, &c->sock_r);
	if (new_session(c))
		request_exit(c, 1);	/* a configuration problem: retrying cannot help */
	return 0;
}

static void start_connect(struct braid_client *c)
{
	int r = open_session_socket(c);

	if (r && !c->exit_req)
		request_restart(c, "connection-failed", true);
}

static void retry_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	start_connect(w->data);
}

static void teardown_session(struct braid_client *c)
{
	ev_timer_stop(c->loop, &c->ctl_t);
	braid_ctls_free(c->s);
	c->s = NULL;
	braid_dc_free(c->dc);
	c->dc = NULL;
	teardown_net(c);
	braid_push_list_clear(&c->pl);
	braid_pushed_free(&c->pushed);
	c->have_push = false;
	close_link(c);
	if (c->tun_open && !ev_is_active(&c->tun_r))
		ev_io_start(c->loop, &c->tun_r);
	c->st = CS_IDLE;
}

static void do_restart(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const char *why = c->restart_reason;
	bool was_up = c->st == CS_UP;
	double delay;

	c->restart_reason = NULL;
	c->stt.restarts++;
	braid_info("SIGUSR1[soft,%s] received, process restarting", why);
	teardown_session(c);
	if (c->advance || !was_up) {
		c->failures++;
		c->cur = (c->cur + 1) % o->n_remotes;
	}
	if (o->connect_retry_max > 0 && c->failures >= (unsigned)o->connect_retry_max *
							  o->n_remotes) {
		braid_err("All connections have been connect-retry-max (%d) times unsuccessful, "
			  "exiting", o->connect_retry_max);
		c->exit_req = true;
		c->exit_code = 1;
		return;
	}
	/*
	 * OpenVPN's socket_restart_pause: connect-retry seconds; after 5 unsuccessful rounds over the
	 * remote list the pause doubles with each further round, up to the connect-retry maximum.
	 */
	delay = o->connect_retry > 0 ? o->connect_retry : 1;
	if (c->failures) {
		int backoff = (int)(c->failures / o->n_remotes) - 4;
		int max = o->connect_retry_max_backoff > 0 ? o->connect_retry_max_backoff : 300;

		if (backoff > 0)
			delay = delay * (double)(1u << (backoff < 15 ? backoff : 15));
		if (delay > max)
			delay = max;
	}
	if (c->next_pause >= 0) {
		delay = c->next_pause;	/* the server asked for this backoff */
		c->next_pause = -1;
	}
	braid_info("Restart pause, %.0f second(s); then remote %s", delay,
		   o->remotes[c->order[c->cur]].host);
	ev_timer_set(&c->retry_t, delay, 0.);
	ev_timer_start(c->loop, &c->retry_t);
}

/* ---- timers and signals ---- */

static void send_occ_exit(struct braid_client *c);

static void tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_client *c = w->data;
	const struct braid_options *o = c->o;
	ev_tstamp now = ev_now(loop);
	int hw = o->hand_window > 0 ? o->hand_window : 60;

	(void)revents;
	if (c->exit_deadline && now >= c->exit_deadline) {
		request_exit(c, 0);
		return;
	}
	if (c->occ_exit_next && now >= c->occ_exit_next) {
		send_occ_exit(c);
		c->occ_exit_next = now + 1.0;
	}
	switch (c->st) {
	case CS_TCP_CONNECTING: {
		int spt = o->server_poll_timeout > 0 ? o->server_poll_timeout : 120;

		if (now - c->connect_start >= spt) {
			braid_warn("TCP connect timed out after %d s (server-poll-timeout)", spt);
			request_restart(c, "server-poll-timeout", true);
		}
		break;
	}
	case CS_TLS:
		if (c->stt.link_rx_pkts == c->rx_at_start && o->server_poll_timeout > 0 &&
		    now - c->connect_start >= o->server_poll_timeout && o->server_poll_timeout < hw) {
			braid_warn("no answer from the server within %d s (server-poll-timeout)",
				   o->server_poll_timeout);
			request_restart(c, "server-poll-timeout", true);
		}
		break;
	case CS_PUSH:
		if (now - c->t_keys >= hw && now >= c->pending_until) {
			braid_err("no PUSH_REPLY within hand-window (%d s)", hw);
			request_restart(c, "no-push-reply", true);
		} else if (now - c->last_push_req >= PUSH_REQUEST_INTERVAL) {
			if (!braid_ctls_send_text(c->s, "PUSH_REQUEST"))
				braid_info("PUSH_REQUEST sent again (no reply yet)");
			c->last_push_req = now;
			pump(c);
		}
		break;
	case CS_UP:
		if (c->ping > 0 && now - c->last_tx >= c->ping)
			send_ping(c);
		if (o->ping_exit > 0 && now - c->last_rx >= o->ping_exit) {
			braid_info("Inactivity timeout (--ping-exit), exiting");
			request_exit(c, 0);
		} else if (c->ping_restart > 0 && now - c->last_rx >= c->ping_restart) {
			braid_info("Inactivity timeout (--ping-restart), restarting");
			request_restart(c, "ping-restart", false);
		}
		if (c->dc && c->s) {
			struct braid_dc_key_stats ks;
			int kid = braid_dc_primary_key_id(c->dc);

			if (kid >= 0 && !braid_dc_key_stats(c->dc, (unsigned)kid, &ks))
				braid_ctls_data_counters(c->s, ks.tx_bytes + ks.rx_bytes,
							 ks.tx_packets + ks.rx_packets);
			if (braid_dc_needs_renegotiation(c->dc))
				braid_ctls_renegotiate(c->s, now_ms());
			pump(c);
		}
		break;
	default:
		break;
	}
}

static void send_occ_exit(struct braid_client *c)
{
	uint8_t occ[BRAID_OCC_MAGIC_LEN + 4];
	size_t len;

	if (!braid_payload_build_occ_exit(c->framing, occ, sizeof(occ), &len))
		send_payload(c, occ, len);
}

/*
 * explicit-exit-notify N: with cc-exit the reliable control message EXIT, then 1 s for it to go out;
 * else (UDP) an OCC EXIT data packet once a second for N seconds, as OpenVPN's exit timer does.
 */
static void exit_notify(struct braid_client *c)
{
	int n = c->have_push && c->pushed.explicit_exit_notify >= 0 ?
			c->pushed.explicit_exit_notify : c->o->explicit_exit_notify;

	if (c->st != CS_UP || n <= 0 || c->exit_notify_sent)
		return;
	c->exit_notify_sent = true;
	if (c->pushed.cc_exit && c->s) {
		if (!braid_ctls_send_text(c->s, "EXIT")) {
			braid_info("SIGTERM: sending exit notification to the server (control "
				   "message EXIT)");
			pump(c);
		}
		c->exit_deadline = ev_now(c->loop) + EXIT_NOTIFY_WAIT;
	} else if (!c->tcp) {
		braid_info("SIGTERM: sending exit notification to the server (OCC EXIT, %d s)", n);
		send_occ_exit(c);
		c->occ_exit_next = ev_now(c->loop) + 1.0;
		c->exit_deadline = ev_now(c->loop) + n;
	}
}

static void signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct braid_client *c = w->data;

	(void)loop, (void)revents;
	switch (w->signum) {
	case SIGTERM:
	case SIGINT:
		braid_info("%s[hard,] received, process exiting",
			   w->signum == SIGTERM ? "SIGTERM" : "SIGINT");
		exit_notify(c);
		if (!c->exit_deadline || c->exit_req)
			request_exit(c, 0);
		return;	/* else the tick ends the process after the notification went out */
	case SIGHUP:
	case SIGUSR1:
		request_restart(c, w->signum == SIGHUP ? "SIGHUP" : "SIGUSR1", false);
		return;
	case SIGUSR2:
		c->stats_req = true;
		ev_break(c->loop, EVBREAK_ONE);
		return;
	}
}

/* `status FILE [N]`: OpenVPN's client status format, rewritten every N seconds (and at exit). */
static void write_status(const struct braid_client *c)
{
	const struct client_stats *s = &c->stt;
	char tmp[4096 + 8], when[32];
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	if (!c->o->status_path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", c->o->status_path);
	f = fopen(tmp, "we");
	if (!f) {
		braid_warn("status: cannot write '%s': %s", tmp, strerror(errno));
		return;
	}
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "OpenVPN STATISTICS\nUpdated,%s\nTUN/TAP read bytes,%llu\nTUN/TAP write bytes,%llu\n"
		   "TCP/UDP read bytes,%llu\nTCP/UDP write bytes,%llu\nAuth read bytes,%llu\nEND\n",
		when, (unsigned long long)s->tun_read_bytes, (unsigned long long)s->tun_write_bytes,
		(unsigned long long)s->link_rx_bytes, (unsigned long long)s->link_tx_bytes,
		(unsigned long long)s->auth_read_bytes);
	if (fclose(f) || rename(tmp, c->o->status_path))
		braid_warn("status: cannot write '%s': %s", c->o->status_path, strerror(errno));
}

static void status_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	write_status(w->data);
}

static void log_stats(const struct braid_client *c, const char *what)
{
	const struct client_stats *s = &c->stt;

	braid_info("%s: tun_read=%llu/%lluB tun_write=%llu/%lluB link_tx=%llu/%lluB "
		   "link_rx=%llu/%lluB auth_failures=%llu replays=%llu malformed=%llu "
		   "ctl_dropped=%llu pings_tx=%llu pings_rx=%llu restarts=%llu "
		   "renegotiations=%llu keys_removed=%llu",
		   what, (unsigned long long)s->tun_read_pkts, (unsigned long long)s->tun_read_bytes,
		   (unsigned long long)s->tun_write_pkts, (unsigned long long)s->tun_write_bytes,
		   (unsigned long long)s->link_tx_pkts, (unsigned long long)s->link_tx_bytes,
		   (unsigned long long)s->link_rx_pkts, (unsigned long long)s->link_rx_bytes,
		   (unsigned long long)s->rx_auth_failures, (unsigned long long)s->rx_replays,
		   (unsigned long long)s->rx_malformed, (unsigned long long)s->rx_ctl_dropped,
		   (unsigned long long)s->pings_tx, (unsigned long long)s->pings_rx,
		   (unsigned long long)s->restarts, (unsigned long long)s->renegotiations,
		   (unsigned long long)s->keys_removed);
}

int braid_client_run(struct braid_client *c)
{
	start_connect(c);
	for (;;) {
		if (!c->exit_req && !c->restart_reason)
			ev_run(c->loop, 0);
		if (c->stats_req) {
			c->stats_req = false;
			log_stats(c, "stats");
			write_status(c);
		}
		if (c->exit_req)
			break;
		if (c->restart_reason)
			do_restart(c);
		if (c->exit_req)
			break;
	}
	log_stats(c, "final stats");
	write_status(c);
	return c->exit_code;
}

int braid_client_new(struct braid_client **out, struct braid_options *o)
{
	static const int signums[SIG_N] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 };
	struct braid_client *c;
	int r;

	if (!o->n_remotes) {
		braid_err("TLS client mode needs at least one 'remote'");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->o = o;
	c->ufd = -1;
	c->tun.fd = -1;
	braid_tcplink_init(&c->tl);
	c->tun_mtu = o->tun_mtu ? o->tun_mtu : 1500;
	c->next_pause = -1;
	c->pkt = malloc(BUF_SIZE);
	c->plain = malloc(BUF_SIZE);
	c->framed = malloc(BUF_SIZE);
	if (!c->pkt || !c->plain || !c->framed) {
		r = -ENOMEM;
		goto err_free;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++)
		c->order[i] = i;
	if (o->remote_random) {
		char list[BRAID_OPT_MAX_REMOTES * 4] = "";
		size_t off = 0;

		for (unsigned int i = o->n_remotes - 1; i > 0; i--) {
			unsigned int j = randombytes_uniform(i + 1), t = c->order[i];

			c->order[i] = c->order[j];
			c->order[j] = t;
		}
		for (unsigned int i = 0; i < o->n_remotes; i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, " %u", c->order[i] + 1);
		braid_info("remote-random: remotes in the order%s", list);
	}
	r = load_wrap_key(c);
	if (r)
		goto err_free;
	r = load_user_pass(c);
	if (r)
		goto err_key;
	r = make_tls_ctx(c);
	if (r)
		goto err_key;
	r = build_peer_info(c);
	if (r)
		goto err_tls;
	r = braid_tun_open(&c->tun, o);
	if (r)
		goto err_tls;
	c->tun_open = true;
	c->loop = ev_default_loop(EVFLAG_AUTO);
	if (!c->loop) {
		braid_err("cannot initialise the event loop");
		r = -ENOMEM;
		goto err_tun;
	}
	ev_io_init(&c->tun_r, tun_read_cb, c->tun.fd, EV_READ);
	ev_io_init(&c->sock_r, sock_read_cb, -1, EV_READ);
	ev_io_init(&c->sock_w, sock_write_cb, -1, EV_WRITE);
	ev_timer_init(&c->ctl_t, ctl_timer_cb, 1., 0.);
	ev_timer_init(&c->tick, tick_cb, TICK_S, TICK_S);
	ev_timer_init(&c->retry_t, retry_cb, 1., 0.);
	c->tun_r.data = c->sock_r.data = c->sock_w.data = c;
	c->ctl_t.data = c->tick.data = c->retry_t.data = c;
	ev_io_start(c->loop, &c->tun_r);
	ev_timer_start(c->loop, &c->tick);
	if (o->status_path) {
		double iv = o->status_interval > 0 ? o->status_interval : 60;

		ev_timer_init(&c->status_t, status_cb, iv, iv);
		c->status_t.data = c;
		ev_timer_start(c->loop, &c->status_t);
	}
	for (int i = 0; i < SIG_N; i++) {
		ev_signal_init(&c->sig[i], signal_cb, signums[i]);
		c->sig[i].data = c;
		ev_signal_start(c->loop, &c->sig[i]);
	}
	braid_info("TLS client: %u remote(s)%s, %s, data-ciphers %s", o->n_remotes,
		   o->remote_random ? " (remote-random)" : "",
		   c->wrap == BRAID_CTLS_WRAP_CRYPT ? "tls-crypt" :
		   c->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "no tls-auth/tls-crypt",
		   data_ciphers(o));
	*out = c;
	return 0;

err_tun:
	braid_tun_close(&c->tun, o);
err_tls:
	braid_tls_ctx_free(c->ssl);
err_key:
	braid_key2_wipe(&c->wrap_key);
	if (c->pass) {
		sodium_memzero(c->pass, strlen(c->pass));
		free(c->pass);
	}
	free(c->user);
err_free:
	free(c->framed);
	free(c->plain);
	free(c->pkt);
	free(c);
	return r;
}

void braid_client_free(struct braid_client *c)
{
	if (!c)
		return;
	if (c->loop) {
		teardown_session(c);
		ev_io_stop(c->loop, &c->tun_r);
		ev_timer_stop(c->loop, &c->tick);
		ev_timer_stop(c->loop, &c->retry_t);
		if (c->o->status_path)
			ev_timer_stop(c->loop, &c->status_t);
		for (int i = 0; i < SIG_N; i++)
			ev_signal_stop(c->loop, &c->sig[i]);
		ev_loop_destroy(c->loop);
	}
	if (c->tun_open)
		braid_tun_close(&c->tun, c->o);
	braid_tls_ctx_free(c->ssl);
	braid_key2_wipe(&c->wrap_key);
	free_secret(&c->pass);
	free_secret(&c->token);
	free(c->user);
	sodium_memzero(c->plain, BUF_SIZE);
	sodium_memzero(c->framed, BUF_SIZE);
	sodium_memzero(c->pkt, BUF_SIZE);
	free(c->framed);
	free(c->plain);
	free(c->pkt);
	free(c);
}
