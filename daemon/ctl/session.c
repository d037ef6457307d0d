// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - one OpenVPN 2.6 control-channel session (session.h).
 *
 * Per key state (key_id): reliability (reliable.c), a TLS object (tls.c),
 * the key-method-2 exchange (km2.c) and then text messages. The state
 * machine (docs/control-channel.md):
 *
 *   PRE_START  our reset (hard or soft) is queued; waiting for the peer's
 *   TLS        TLS handshake running (client: once the peer's reset arrived
 *              and ours is ACKed; server: once the peer's reset arrived)
 *   KM2        handshake done; key-method-2 messages being exchanged
 *   READY      both key-method-2 messages done: KEYS_READY, keys derivable,
 *              text messages flow
 *   LAME       replaced by a newer READY key; removed after tran-window
 */
#include "session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "kdf.h"
#include "km2.h"
#include "reliable.h"
#include "tls.h"
#include "tls_auth.h"
#include "tls_crypt.h"

#define N_KS 3        /* primary, lame duck, negotiating */
#define N_EVENTS 64
#define WIRE_MAX 2048 /* largest control packet we accept */
#define IP_UDP_HDR 28

enum ks_state { KS_FREE = 0, KS_PRE_START, KS_TLS, KS_KM2, KS_READY, KS_LAME };

struct key_state {
	enum ks_state state;
	uint8_t key_id;
	bool initiator;      /* we sent the first (soft) reset of this key */
	bool got_peer_reset;
	bool km2_sent, km2_recv;
	struct braid_reliable rel;
	struct braid_tls *tls;
	struct braid_km2 local, peer;
	int64_t start_ms, ready_ms, expire_ms;
	uint64_t ready_seq; /* order of becoming READY (newest = primary) */
};

struct ev_slot {
	enum braid_ctls_event_type type;
	uint8_t key_id;
	bool fatal;
	char *text;
};

struct braid_ctls {
	bool server;
	SSL_CTX *ssl_ctx;
	int wrap;
	struct braid_tls_auth ta;
	struct braid_tls_crypt tc;
	uint8_t local_sid[BRAID_CTL_SID_LEN], remote_sid[BRAID_CTL_SID_LEN];
	bool have_remote;
	bool dead; /* a fatal error happened */

	uint32_t hand_window_ms, tls_timeout_ms, tran_window_ms;
	int64_t reneg_ms; /* -1 = never */
	uint64_t reneg_bytes, reneg_pkts, data_bytes, data_pkts;
	int64_t reneg_at;
	size_t max_payload;

	char *options, *peer_info, *username, *password;

	struct key_state ks[N_KS];

	struct ev_slot ev[N_EVENTS];
	unsigned ev_head, ev_n;

	struct braid_ctls_stats st;
	uint64_t ready_seq;
	char err[320];
};

static unsigned long live_sessions;

unsigned long braid_ctls_live_sessions(void)
{
	return live_sessions;
}

static void set_error(struct braid_ctls *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_error(struct braid_ctls *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
}

static void push_event(struct braid_ctls *s, enum braid_ctls_event_type type, uint8_t key_id,
		       bool fatal, const char *text)
{
	struct ev_slot *e;

	if (s->ev_n == N_EVENTS) {
		/*
		 * The caller is not draining events. A TEXT is dropped (the newest);
		 * for any other event the oldest TEXT (else the oldest event) makes room,
		 * so KEYS_READY / KEY_EXPIRED / ERROR are not lost to a text flood.
		 */
		unsigned victim = 0;
		bool found = false;

		if (type == BRAID_CTLS_EV_TEXT) {
			s->st.events_dropped++;
			set_error(s, "event queue full: control message dropped");
			return;
		}
		for (unsigned i = 0; i < s->ev_n && !found; i++)
			if (s->ev[(s->ev_head + i) % N_EVENTS].type == BRAID_CTLS_EV_TEXT) {
				victim = i;
				found = true;
			}
		/* shift the queue over the victim */
		e = &s->ev[(s->ev_head + victim) % N_EVENTS];
		if (e->text) {
			OPENSSL_cleanse(e->text, strlen(e->text));
			free(e->text);
		}
		for (unsigned i = victim; i + 1 < s->ev_n; i++)
			s->ev[(s->ev_head + i) % N_EVENTS] = s->ev[(s->ev_head + i + 1) % N_EVENTS];
		s->ev_n--;
		s->st.events_dropped++;
	}
	e = &s->ev[(s->ev_head + s->ev_n) % N_EVENTS];
	e->type = type;
	e->key_id = key_id;
	e->fatal = fatal;
	e->text = text ? strdup(text) : NULL;
	s->ev_n++;
}

int braid_ctls_next_event(struct braid_ctls *s, struct braid_ctls_event *ev)
{
	struct ev_slot *e;

	if (!s->ev_n)
		return -EAGAIN;
	e = &s->ev[s->ev_head];
	ev->type = e->type;
	ev->key_id = e->key_id;
	ev->fatal = e->fatal;
	ev->text[0] = 0;
	if (e->text) {
		snprintf(ev->text, sizeof(ev->text), "%s", e->text);
		OPENSSL_cleanse(e->text, strlen(e->text));
		free(e->text);
		e->text = NULL;
	}
	s->ev_head = (s->ev_head + 1) % N_EVENTS;
	s->ev_n--;
	return 0;
}

/* ---- key states ---------------------------------------------------------------------- */

static void ks_free(struct key_state *ks)
{
	braid_tls_free(ks->tls);
	braid_km2_wipe(&ks->local);
	braid_km2_wipe(&ks->peer);
	OPENSSL_cleanse(ks, sizeof(*ks));
	ks->state = KS_FREE;
}

static struct key_state *ks_by_id(struct braid_ctls *s, uint8_t key_id)
{
	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state != KS_FREE && s->ks[i].key_id == key_id)
			return &s->ks[i];
	return NULL;
}

/* The newest READY key (data keys to send with, text goes here). */
static struct key_state *ks_primary(struct braid_ctls *s)
{
	struct key_state *p = NULL;

	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state == KS_READY && (!p || s->ks[i].ready_seq > p->ready_seq))
			p = &s->ks[i];
	return p;
}

static const struct key_state *ks_primary_c(const struct braid_ctls *s)
{
	return ks_primary((struct braid_ctls *)s);
}

/* The key state still negotiating (PRE_START..KM2), if any. */
static struct key_state *ks_negotiating(struct braid_ctls *s)
{
	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state >= KS_PRE_START && s->ks[i].state <= KS_KM2)
			return &s->ks[i];
	return NULL;
}

static struct key_state *ks_alloc(struct braid_ctls *s, uint8_t key_id, int64_t now_ms)
{
	for (unsigned i = 0; i < N_KS; i++) {
		struct key_state *ks = &s->ks[i];
		if (ks->state != KS_FREE)
			continue;
		memset(ks, 0, sizeof(*ks));
		ks->state = KS_PRE_START;
		ks->key_id = key_id;
		ks->start_ms = now_ms;
		ks->expire_ms = BRAID_CTLS_NEVER;
		braid_rel_init(&ks->rel, now_ms, s->tls_timeout_ms, s->hand_window_ms);
		s->st.key_states++;
		return ks;
	}
	return NULL;
}

static void ks_release(struct braid_ctls *s, struct key_state *ks)
{
	ks_free(ks);
	s->st.key_states--;
}

static uint8_t next_key_id(uint8_t k)
{
	return k >= BRAID_CTL_KEY_ID_MASK ? 1 : (uint8_t)(k + 1);
}

/* A key state failed. Fatal unless an older key can carry on (OpenVPN keeps the lame duck). */
static void ks_fail(struct braid_ctls *s, struct key_state *ks, const char *reason)
{
	bool fatal = ks_primary(s) == NULL || ks_primary(s) == ks;
	char msg[300];

	snprintf(msg, sizeof(msg), "key_id %u: %s", ks->key_id, reason);
	set_error(s, "%s", msg);
	push_event(s, BRAID_CTLS_EV_ERROR, ks->key_id, fatal, msg);
	if (fatal)
		s->dead = true;
	else if (s->reneg_at == BRAID_CTLS_NEVER && s->reneg_ms >= 0)
		/* a failed renegotiation is retried (OpenVPN keeps the old key meanwhile) */
		s->reneg_at = ks->start_ms + s->hand_window_ms;
	ks_release(s, ks);
}

/* ---- text messages ------------------------------------------------------------------- */

int braid_ctls_text_split(char *rec, size_t len,
			  void (*cb)(void *arg, const char *msg), void *arg)
{
	size_t i = 0;
	int bad = 0;

	rec[len] = 0;
	while (i < len) {
		size_t j = i, n;
		bool invalid = false;

		while (j < len && rec[j])
			j++;
		n = j - i;
		while (n && (rec[i + n - 1] == '\r' || rec[i + n - 1] == '\n'))
			n--;
		for (size_t k = 0; k < n; k++) {
			unsigned char c = (unsigned char)rec[i + k];
			if (c < 0x20 || c == 0x7f)
				invalid = true;
		}
		if (invalid) {
			bad++;
		} else if (n) {
			rec[i + n] = 0;
			cb(arg, rec + i);
		}
		i = j + 1;
	}
	return bad;
}

struct text_ctx {
	struct braid_ctls *s;
	uint8_t key_id;
};

static void text_cb(void *arg, const char *msg)
{
	struct text_ctx *t = arg;

	push_event(t->s, BRAID_CTLS_EV_TEXT, t->key_id, false, msg);
}

/* One record: NUL-separated messages, trailing CR/LF stripped, other control chars rejected. */
static void record_to_text(struct braid_ctls *s, struct key_state *ks, char *rec, size_t len)
{
	struct text_ctx t = { s, ks->key_id };

	if (braid_ctls_text_split(rec, len, text_cb, &t) > 0)
		set_error(s, "key_id %u: control message with invalid characters ignored",
			  ks->key_id);
}

int braid_ctls_send_text(struct braid_ctls *s, const char *msg)
{
	struct key_state *ks = ks_primary(s);
	size_t n = strlen(msg);
	uint8_t rec[BRAID_CTLS_TEXT_MAX];
	int ret;

	if (!ks || s->dead)
		return -EAGAIN;
	if (n + 1 > BRAID_CTLS_TEXT_MAX)
		return -EMSGSIZE;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
			return -EINVAL;
	memcpy(rec, msg, n + 1);
	ret = braid_tls_write_record(ks->tls, rec, n + 1);
	OPENSSL_cleanse(rec, n + 1);
	if (ret == -EPROTO)
		ks_fail(s, ks, braid_tls_error(ks->tls));
	return ret;
}

/* ---- progress of one key state ------------------------------------------------------- */

static int send_km2(struct braid_ctls *s, struct key_state *ks)
{
	uint8_t buf[BRAID_KM2_MSG_MAX];
	size_t len = 0;
	int ret;

	ret = braid_km2_randomize(&ks->local, !s->server);
	if (ret)
		return ret;
	snprintf(ks->local.options, sizeof(ks->local.options), "%s", s->options);
	if (!s->server) {
		snprintf(ks->local.username, sizeof(ks->local.username), "%s",
			 s->username ? s->username : "");
		snprintf(ks->local.password, sizeof(ks->local.password), "%s",
			 s->password ? s->password : "");
		snprintf(ks->local.peer_info, sizeof(ks->local.peer_info), "%s",
			 s->peer_info ? s->peer_info : "");
	}
	ret = braid_km2_build(&ks->local, buf, sizeof(buf), &len);
	if (!ret)
		ret = braid_tls_write_record(ks->tls, buf, len);
	OPENSSL_cleanse(buf, sizeof(buf));
	/* only the randoms are needed from now on */
	OPENSSL_cleanse(ks->local.password, sizeof(ks->local.password));
	if (!ret)
		ks->km2_sent = true;
	return ret;
}

static void became_ready(struct braid_ctls *s, struct key_state *ks, int64_t now_ms)
{
	struct key_state *old = ks_primary(s);

	braid_rel_handshake_done(&ks->rel);
	/* at most one lame duck: an older one goes now */
	for (unsigned i = 0; i < N_KS; i++) {
		struct key_state *o = &s->ks[i];
		if (o->state == KS_LAME) {
			push_event(s, BRAID_CTLS_EV_KEY_EXPIRED, o->key_id, false, NULL);
			ks_release(s, o);
		}
	}
	if (old && old != ks) {
		old->state = KS_LAME;
		old->expire_ms = now_ms + s->tran_window_ms;
		s->st.renegotiations++;
	}
	ks->state = KS_READY;
	ks->ready_ms = now_ms;
	ks->ready_seq = ++s->ready_seq;
	s->data_bytes = s->data_pkts = 0;
	s->reneg_at = s->reneg_ms < 0 ? BRAID_CTLS_NEVER : now_ms + s->reneg_ms;
	push_event(s, BRAID_CTLS_EV_KEYS_READY, ks->key_id, false, NULL);
}

static void ks_progress(struct braid_ctls *s, struct key_state *ks, int64_t now_ms)
{
	uint8_t rec[BRAID_TLS_RECORD_MAX + 1];
	size_t len;
	const char *why = NULL;
	int ret;

	if (ks->state == KS_PRE_START && ks->got_peer_reset) {
		bool ours_acked = true;
		for (unsigned i = 0; i < BRAID_REL_SEND_WINDOW; i++)
			if (ks->rel.tx[i].used && ks->rel.tx[i].msg_pid == 0)
				ours_acked = false;
		if (s->server || ours_acked) {
			ret = braid_tls_new(&ks->tls, s->ssl_ctx);
			if (ret) {
				ks_fail(s, ks, "cannot create the TLS object");
				return;
			}
			ks->state = KS_TLS;
		}
	}
	if (ks->state == KS_TLS) {
		ret = braid_tls_handshake(ks->tls);
		if (ret == -EAGAIN)
			return;
		if (ret) {
			ks_fail(s, ks, braid_tls_error(ks->tls));
			return;
		}
		ks->state = KS_KM2;
		if (!s->server && send_km2(s, ks)) {
			ks_fail(s, ks, "cannot send the key-method-2 message");
			return;
		}
	}
	if (ks->state < KS_KM2)
		return;
	for (;;) {
		ret = braid_tls_read_record(ks->tls, rec, sizeof(rec) - 1, &len);
		if (ret == -EAGAIN)
			break;
		if (ret) {
			ks_fail(s, ks, braid_tls_error(ks->tls));
			OPENSSL_cleanse(rec, sizeof(rec));
			return;
		}
		if (!ks->km2_recv) {
			ret = braid_km2_parse(rec, len, s->server, &ks->peer, &why);
			OPENSSL_cleanse(rec, sizeof(rec));
			if (ret) {
				char m[200];
				snprintf(m, sizeof(m), "bad key-method-2 message from the peer: %s",
					 why ? why : "malformed");
				ks_fail(s, ks, m);
				return;
			}
			ks->km2_recv = true;
			if (s->server && !ks->km2_sent && send_km2(s, ks)) {
				ks_fail(s, ks, "cannot send the key-method-2 message");
				return;
			}
			became_ready(s, ks, now_ms);
			continue;
		}
		record_to_text(s, ks, (char *)rec, len);
	}
}

/* ---- creation ------------------------------------------------------------------------ */

static char *dup_opt(const char *v)
{
	return v ? strdup(v) : NULL;
}

static int setup(struct braid_ctls *s, const struct braid_ctls_config *cfg, char *err,
		 size_t errlen)
{
	size_t overhead = 0;
	unsigned mtu = cfg->tls_mtu ? cfg->tls_mtu : BRAID_CTLS_TLS_MTU;
	int ret;

	s->server = cfg->server;
	s->ssl_ctx = cfg->ssl_ctx;
	s->wrap = BRAID_CTLS_WRAP_NONE; /* set once the wrap context exists */
	s->hand_window_ms = (cfg->hand_window_s ? cfg->hand_window_s : 60) * 1000u;
	s->tls_timeout_ms = (cfg->tls_timeout_s ? cfg->tls_timeout_s : 2) * 1000u;
	s->tran_window_ms = (cfg->tran_window_s ? cfg->tran_window_s : 3600) * 1000u;
	if (cfg->reneg_sec == UINT32_MAX)
		s->reneg_ms = -1;
	else
		s->reneg_ms = (int64_t)(cfg->reneg_sec ? cfg->reneg_sec : 3600) * 1000;
	s->reneg_bytes = cfg->reneg_bytes;
	s->reneg_pkts = cfg->reneg_pkts;
	s->reneg_at = BRAID_CTLS_NEVER;

	if (!cfg->ssl_ctx) {
		snprintf(err, errlen, "no TLS context");
		return -EINVAL;
	}
	switch (cfg->wrap) {
	case BRAID_CTLS_WRAP_NONE:
		break;
	case BRAID_CTLS_WRAP_AUTH:
		if (!cfg->wrap_key) {
			snprintf(err, errlen, "tls-auth: no key");
			return -EINVAL;
		}
		ret = braid_tls_auth_init(&s->ta, cfg->wrap_key, cfg->key_direction,
					  cfg->auth_digest, cfg->replay_window ? cfg->replay_window : BRAID_REPLAY_DEFAULT_WINDOW,
					  cfg->replay_time ? cfg->replay_time : BRAID_REPLAY_DEFAULT_TIME);
		if (ret) {
			snprintf(err, errlen, "tls-auth: bad digest '%s' or key direction %d",
				 cfg->auth_digest ? cfg->auth_digest : "SHA1", cfg->key_direction);
			return ret;
		}
		s->wrap = BRAID_CTLS_WRAP_AUTH;
		overhead = braid_tls_auth_overhead(&s->ta);
		break;
	case BRAID_CTLS_WRAP_CRYPT:
		if (!cfg->wrap_key) {
			snprintf(err, errlen, "tls-crypt: no key");
			return -EINVAL;
		}
		ret = braid_tls_crypt_init(&s->tc, cfg->wrap_key, cfg->server, cfg->replay_window ? cfg->replay_window : BRAID_REPLAY_DEFAULT_WINDOW,
					   cfg->replay_time ? cfg->replay_time : BRAID_REPLAY_DEFAULT_TIME);
		if (ret) {
			snprintf(err, errlen, "tls-crypt: cannot set up the key");
			return ret;
		}
		s->wrap = BRAID_CTLS_WRAP_CRYPT;
		overhead = BRAID_TLS_CRYPT_OVERHEAD;
		break;
	default:
		snprintf(err, errlen, "unknown control-channel wrap %d", cfg->wrap);
		return -EINVAL;
	}
	if (mtu < 512) {
		snprintf(err, errlen, "tls-mtu %u too small (min 512)", mtu);
		return -EINVAL;
	}
	s->max_payload = mtu - IP_UDP_HDR - overhead - BRAID_CTL_PLAIN_HDR -
			 (1 + 4 * BRAID_CTL_ACK_PIGGYBACK + BRAID_CTL_SID_LEN) - 4;
	if (s->max_payload > BRAID_REL_MAX_PAYLOAD)
		s->max_payload = BRAID_REL_MAX_PAYLOAD;
	if (cfg->options_string && strlen(cfg->options_string) >= BRAID_KM2_OPTIONS_MAX) {
		snprintf(err, errlen, "options string longer than %d bytes",
			 BRAID_KM2_OPTIONS_MAX - 1);
		return -EINVAL;
	}
	s->options = strdup(cfg->options_string ? cfg->options_string
			    : cfg->server ? "V4,dev-type tun,link-mtu 1559,tun-mtu 1500,proto UDPv4,auth SHA1,keysize 128,key-method 2,tls-server"
					  : "V4,dev-type tun,link-mtu 1559,tun-mtu 1500,proto UDPv4,auth SHA1,keysize 128,key-method 2,tls-client");
	if (!cfg->server && cfg->peer_info) {
		uint32_t proto = 0;
		if (braid_peer_info_iv_proto(cfg->peer_info, &proto) == 0 &&
		    (proto & BRAID_IV_PROTO_DYN_TLS_CRYPT)) {
			snprintf(err, errlen,
				 "peer-info announces IV_PROTO bit 9 (dyn-tls-crypt), which is not supported");
			return -EINVAL;
		}
	}
	s->peer_info = dup_opt(cfg->peer_info);
	s->username = dup_opt(cfg->username);
	s->password = dup_opt(cfg->password);
	if (!s->options || (cfg->peer_info && !s->peer_info) || (cfg->username && !s->username) ||
	    (cfg->password && !s->password)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static void wipe_str(char *p)
{
	if (p) {
		OPENSSL_cleanse(p, strlen(p));
		free(p);
	}
}

void braid_ctls_free(struct braid_ctls *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state != KS_FREE)
			ks_free(&s->ks[i]);
	while (s->ev_n) {
		struct braid_ctls_event ev;
		braid_ctls_next_event(s, &ev);
		OPENSSL_cleanse(&ev, sizeof(ev));
	}
	if (s->wrap == BRAID_CTLS_WRAP_AUTH)
		braid_tls_auth_free(&s->ta);
	else if (s->wrap == BRAID_CTLS_WRAP_CRYPT)
		braid_tls_crypt_free(&s->tc);
	wipe_str(s->options);
	wipe_str(s->peer_info);
	wipe_str(s->username);
	wipe_str(s->password);
	OPENSSL_cleanse(s, sizeof(*s));
	free(s);
	live_sessions--;
}

static int alloc_session(struct braid_ctls **out, const struct braid_ctls_config *cfg, char *err,
			 size_t errlen)
{
	struct braid_ctls *s;
	char dummy[8];
	int ret;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = 0;
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	live_sessions++;
	ret = setup(s, cfg, err, errlen);
	if (ret) {
		braid_ctls_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

int braid_ctls_new(struct braid_ctls **out, const struct braid_ctls_config *cfg, int64_t now_ms,
		   char *err, size_t errlen)
{
	struct braid_ctls *s;
	struct key_state *ks;
	int ret;

	ret = alloc_session(&s, cfg, err, errlen);
	if (ret)
		return ret;
	if (RAND_bytes(s->local_sid, sizeof(s->local_sid)) != 1) {
		braid_ctls_free(s);
		return -EIO;
	}
	if (!s->server) {
		ks = ks_alloc(s, 0, now_ms);
		braid_rel_send(&ks->rel, BRAID_OP_HARD_RESET_CLIENT_V2, NULL, 0, NULL);
		ks->initiator = true;
	}
	*out = s;
	return 0;
}

int braid_ctls_new_accepted(struct braid_ctls **out, const struct braid_ctls_config *cfg,
			    const uint8_t local_sid[BRAID_CTL_SID_LEN],
			    const uint8_t remote_sid[BRAID_CTL_SID_LEN], uint32_t wrap_tx_time,
			    int64_t now_ms, char *err, size_t errlen)
{
	struct braid_ctls *s;
	struct key_state *ks;
	int ret;

	if (!cfg->server) {
		if (err && errlen)
			snprintf(err, errlen, "only a server accepts a cookie session");
		return -EINVAL;
	}
	ret = alloc_session(&s, cfg, err, errlen);
	if (ret)
		return ret;
	memcpy(s->local_sid, local_sid, BRAID_CTL_SID_LEN);
	memcpy(s->remote_sid, remote_sid, BRAID_CTL_SID_LEN);
	s->have_remote = true;
	/* the stateless reset used replay id 1 */
	if (s->wrap == BRAID_CTLS_WRAP_AUTH)
		braid_tls_auth_set_tx(&s->ta, 2, wrap_tx_time);
	else if (s->wrap == BRAID_CTLS_WRAP_CRYPT)
		braid_tls_crypt_set_tx(&s->tc, 2, wrap_tx_time);
	ks = ks_alloc(s, 0, now_ms);
	/* both resets (msg_pid 0 each way) happened statelessly */
	ks->rel.next_tx_pid = 1;
	ks->rel.rx_expected = 1;
	ks->got_peer_reset = true;
	ks_progress(s, ks, now_ms);
	*out = s;
	return 0;
}

/* ---- input --------------------------------------------------------------------------- */

static int drop(struct braid_ctls *s, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int drop(struct braid_ctls *s, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->st.rx_dropped++;
	return ret;
}

static int unwrap(struct braid_ctls *s, const uint8_t *pkt, size_t len, int64_t now_ms,
		  uint8_t *out, size_t cap, size_t *olen)
{
	int ret;
	const char *why;

	switch (s->wrap) {
	case BRAID_CTLS_WRAP_AUTH:
		ret = braid_tls_auth_unwrap(&s->ta, pkt, len, now_ms / 1000, 0, out, cap, olen);
		why = s->ta.why;
		break;
	case BRAID_CTLS_WRAP_CRYPT:
		ret = braid_tls_crypt_unwrap(&s->tc, pkt, len, now_ms / 1000, 0, out, cap, olen);
		why = s->tc.why;
		break;
	default:
		if (len > cap)
			return -ENOBUFS;
		memcpy(out, pkt, len);
		*olen = len;
		return 0;
	}
	if (ret == -EALREADY || ret == -ESTALE) {
		s->st.rx_replay++;
		return drop(s, ret, "%s: replayed packet (%s)",
			    s->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "tls-crypt",
			    why ? why : "replay window");
	}
	if (ret) {
		s->st.rx_auth_failed++;
		return drop(s, ret, "%s: packet verification failed (%s)",
			    s->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "tls-crypt",
			    why ? why : "bad packet");
	}
	return 0;
}

int braid_ctls_input(struct braid_ctls *s, const uint8_t *pkt, size_t len, int64_t now_ms)
{
	uint8_t plain[WIRE_MAX], msg[BRAID_REL_MAX_PAYLOAD];
	struct braid_ctl_pkt p;
	struct key_state *ks;
	uint8_t op, kid, sid[BRAID_CTL_SID_LEN];
	const char *why = NULL;
	size_t plen, mlen;
	bool new_ks = false;
	int ret;

	if (s->dead)
		return drop(s, -ENOTCONN, "session failed earlier: %s", s->err);
	if (len < 1)
		return drop(s, -EBADMSG, "empty packet");
	op = pkt[0] >> BRAID_CTL_OP_SHIFT;
	if (braid_ctl_op_is_data(op))
		return drop(s, -EPROTO, "data packet (%s) given to the control channel",
			    braid_ctl_op_name(op));
	if (op == BRAID_OP_HARD_RESET_CLIENT_V1 || op == BRAID_OP_HARD_RESET_SERVER_V1)
		return drop(s, -EPROTO, "peer tried unsupported key-method 1");
	if (op == BRAID_OP_HARD_RESET_CLIENT_V3 || op == BRAID_OP_CONTROL_WKC_V1)
		return drop(s, -EOPNOTSUPP, "tls-crypt-v2 is not supported (%s)",
			    braid_ctl_op_name(op));
	if (!braid_ctl_op_is_control(op))
		return drop(s, -EPROTO, "unknown opcode %u", op);
	if ((s->server && op == BRAID_OP_HARD_RESET_SERVER_V2) ||
	    (!s->server && op == BRAID_OP_HARD_RESET_CLIENT_V2))
		return drop(s, -EPROTO, "%s from the wrong role (we are the %s)",
			    braid_ctl_op_name(op), s->server ? "server" : "client");
	if (len > WIRE_MAX)
		return drop(s, -EBADMSG, "control packet of %zu bytes too long", len);
	ret = braid_ctl_hdr_decode(pkt, len, &op, &kid, sid, &why);
	if (ret)
		return drop(s, -EBADMSG, "malformed control packet: %s", why ? why : "too short");

	/* authenticate before anything else */
	ret = unwrap(s, pkt, len, now_ms, plain, sizeof(plain), &plen);
	if (ret)
		return ret;
	ret = braid_ctl_pkt_decode(plain, plen, &p, &why);
	if (ret)
		return drop(s, ret, "malformed control packet: %s", why ? why : "?");
	if (s->have_remote && memcmp(p.sid, s->remote_sid, BRAID_CTL_SID_LEN) != 0) {
		if (s->server && op == BRAID_OP_HARD_RESET_CLIENT_V2)
			return drop(s, -ECONNRESET, "client restarted with a new session id");
		return drop(s, -ESRCH, "%s from another session id", braid_ctl_op_name(op));
	}
	if (p.n_acks && memcmp(p.ack_sid, s->local_sid, BRAID_CTL_SID_LEN) != 0)
		return drop(s, -ESRCH, "%s ACKs another session id", braid_ctl_op_name(op));
	if ((op == BRAID_OP_HARD_RESET_CLIENT_V2 || op == BRAID_OP_HARD_RESET_SERVER_V2) && kid != 0)
		return drop(s, -EPROTO, "%s with key_id %u", braid_ctl_op_name(op), kid);

	ks = ks_by_id(s, kid);
	if (!ks) {
		struct key_state *prim = ks_primary(s);
		if (s->server && op == BRAID_OP_HARD_RESET_CLIENT_V2 && !s->have_remote &&
		    !ks_negotiating(s) && !prim) {
			new_ks = true;
		} else if (op == BRAID_OP_SOFT_RESET_V1 && prim && kid == next_key_id(prim->key_id) &&
			   !ks_negotiating(s)) {
			new_ks = true;
		} else {
			return drop(s, -ESRCH, "%s for unknown key_id %u", braid_ctl_op_name(op), kid);
		}
		/* a new key state only for a packet that starts one */
		if (!p.has_msg_pid || p.msg_pid != 0)
			return drop(s, -ESRCH, "%s for unknown key_id %u", braid_ctl_op_name(op), kid);
		ks = ks_alloc(s, kid, now_ms);
		if (!ks)
			return drop(s, -ENOMEM, "no free key state for key_id %u", kid);
	}
	ret = braid_rel_recv(&ks->rel, &p, now_ms);
	if (ret) {
		if (new_ks)
			ks_release(s, ks);
		return drop(s, ret, "%s msg_pid %u outside the receive window (key_id %u)",
			    braid_ctl_op_name(op), p.msg_pid, kid);
	}
	s->st.rx_packets++;
	if (!s->have_remote) {
		memcpy(s->remote_sid, p.sid, BRAID_CTL_SID_LEN);
		s->have_remote = true;
	}
	if (new_ks && op == BRAID_OP_SOFT_RESET_V1)
		push_event(s, BRAID_CTLS_EV_SOFT_RESET, kid, false, NULL);

	/* in-order messages */
	for (;;) {
		uint8_t mop;
		ret = braid_rel_read(&ks->rel, &mop, msg, sizeof(msg), &mlen);
		if (ret)
			break;
		switch (mop) {
		case BRAID_OP_HARD_RESET_CLIENT_V2:
			if (!ks->got_peer_reset) {
				ks->got_peer_reset = true;
				braid_rel_send(&ks->rel, BRAID_OP_HARD_RESET_SERVER_V2, NULL, 0, NULL);
			}
			break;
		case BRAID_OP_HARD_RESET_SERVER_V2:
			ks->got_peer_reset = true;
			break;
		case BRAID_OP_SOFT_RESET_V1:
			if (!ks->got_peer_reset) {
				ks->got_peer_reset = true;
				if (!ks->initiator)
					braid_rel_send(&ks->rel, BRAID_OP_SOFT_RESET_V1, NULL, 0, NULL);
			}
			break;
		case BRAID_OP_CONTROL_V1:
			if (!ks->got_peer_reset) /* cannot happen: resets are msg_pid 0 */
				break;
			if (ks->state == KS_PRE_START)
				ks_progress(s, ks, now_ms);
			if (ks->tls && braid_tls_put_ciphertext(ks->tls, msg, mlen))
				ks_fail(s, ks, "out of memory for TLS input");
			break;
		default:
			break;
		}
		if (ks->state == KS_FREE)
			break;
	}
	OPENSSL_cleanse(msg, sizeof(msg));
	OPENSSL_cleanse(plain, sizeof(plain));
	if (ks->state != KS_FREE)
		ks_progress(s, ks, now_ms);
	return 0;
}

/* ---- output and timers --------------------------------------------------------------- */

static void run_timers(struct braid_ctls *s, int64_t now_ms)
{
	struct key_state *prim;
	char m[160];

	for (unsigned i = 0; i < N_KS; i++) {
		struct key_state *ks = &s->ks[i];
		if (ks->state >= KS_PRE_START && ks->state <= KS_KM2 &&
		    braid_rel_expired(&ks->rel, now_ms)) {
			snprintf(m, sizeof(m),
				 "TLS key negotiation failed to occur within %u seconds (hand-window)",
				 s->hand_window_ms / 1000);
			ks_fail(s, ks, m);
		} else if (ks->state == KS_LAME && now_ms >= ks->expire_ms) {
			push_event(s, BRAID_CTLS_EV_KEY_EXPIRED, ks->key_id, false, NULL);
			ks_release(s, ks);
		} else if (ks->state == KS_PRE_START || ks->state == KS_TLS) {
			/* a client waiting for its reset's ACK may now start TLS */
			ks_progress(s, ks, now_ms);
		}
	}
	prim = ks_primary(s);
	if (prim && !s->dead && !ks_negotiating(s) &&
	    (now_ms >= s->reneg_at || (s->reneg_bytes && s->data_bytes >= s->reneg_bytes) ||
	     (s->reneg_pkts && s->data_pkts >= s->reneg_pkts)))
		braid_ctls_renegotiate(s, now_ms);
}

static int wrap_out(struct braid_ctls *s, const uint8_t *plain, size_t len, uint8_t *buf,
		    size_t cap, size_t *olen)
{
	int64_t unix_now = (int64_t)time(NULL);

	switch (s->wrap) {
	case BRAID_CTLS_WRAP_AUTH:
		return braid_tls_auth_wrap(&s->ta, plain, len, unix_now, buf, cap, olen);
	case BRAID_CTLS_WRAP_CRYPT:
		return braid_tls_crypt_wrap(&s->tc, plain, len, unix_now, buf, cap, olen);
	default:
		if (len > cap)
			return -ENOBUFS;
		memcpy(buf, plain, len);
		*olen = len;
		return 0;
	}
}

int braid_ctls_output(struct braid_ctls *s, int64_t now_ms, uint8_t *buf, size_t cap,
		      size_t *len)
{
	uint8_t plain[WIRE_MAX], chunk[BRAID_REL_MAX_PAYLOAD];
	struct braid_ctl_pkt p;
	size_t plen, n;
	int ret;

	*len = 0;
	run_timers(s, now_ms);
	for (unsigned i = 0; i < N_KS; i++) {
		struct key_state *ks = &s->ks[i];
		if (ks->state == KS_FREE)
			continue;
		/* TLS ciphertext into CONTROL_V1 messages, as the send window allows */
		while (ks->tls && braid_tls_pending_ciphertext(ks->tls) &&
		       braid_rel_send_room(&ks->rel)) {
			braid_tls_get_ciphertext(ks->tls, chunk, s->max_payload, &n);
			if (!n)
				break;
			ret = braid_rel_send(&ks->rel, BRAID_OP_CONTROL_V1, chunk, n, NULL);
			if (ret) { /* window: cannot happen after send_room, but never lose bytes */
				ks_fail(s, ks, "control send window overflow");
				break;
			}
		}
		if (ks->state == KS_FREE)
			continue;
		memset(&p, 0, sizeof(p));
		unsigned before = (unsigned)ks->rel.n_retransmits;
		if (braid_rel_next(&ks->rel, now_ms, &p) != 0)
			continue;
		s->st.retransmits += ks->rel.n_retransmits - before;
		p.key_id = ks->key_id;
		memcpy(p.sid, s->local_sid, BRAID_CTL_SID_LEN);
		if (p.n_acks)
			memcpy(p.ack_sid, s->remote_sid, BRAID_CTL_SID_LEN);
		ret = braid_ctl_pkt_encode(&p, plain, sizeof(plain), &plen);
		if (!ret)
			ret = wrap_out(s, plain, plen, buf, cap, len);
		OPENSSL_cleanse(plain, plen < sizeof(plain) ? plen : sizeof(plain));
		if (ret) {
			*len = 0;
			set_error(s, "cannot build a control packet: %s", strerror(-ret));
			return ret;
		}
		s->st.tx_packets++;
		return 0;
	}
	return 0;
}

int64_t braid_ctls_deadline(const struct braid_ctls *s)
{
	int64_t d = BRAID_CTLS_NEVER;
	bool negotiating = false;

	for (unsigned i = 0; i < N_KS; i++) {
		const struct key_state *ks = &s->ks[i];
		int64_t k;
		if (ks->state == KS_FREE)
			continue;
		if (ks->state <= KS_KM2)
			negotiating = true;
		k = braid_rel_deadline(&ks->rel);
		if (ks->tls && braid_tls_pending_ciphertext(ks->tls) && braid_rel_send_room(&ks->rel))
			k = INT64_MIN;
		if (ks->state == KS_LAME && ks->expire_ms < k)
			k = ks->expire_ms;
		if (k < d)
			d = k;
	}
	/* a renegotiation waits for a running one (whose timers are above) */
	if (!negotiating && !s->dead && s->reneg_at < d)
		d = s->reneg_at;
	return d;
}

/* ---- renegotiation, keys, getters ---------------------------------------------------- */

int braid_ctls_renegotiate(struct braid_ctls *s, int64_t now_ms)
{
	struct key_state *prim = ks_primary(s), *ks;

	if (s->dead)
		return -ENOTCONN;
	if (ks_negotiating(s))
		return -EBUSY;
	if (!prim)
		return -EAGAIN;
	/* a lame duck with the key_id we are about to use would collide: drop it first */
	ks = ks_by_id(s, next_key_id(prim->key_id));
	if (ks) {
		push_event(s, BRAID_CTLS_EV_KEY_EXPIRED, ks->key_id, false, NULL);
		ks_release(s, ks);
	}
	ks = ks_alloc(s, next_key_id(prim->key_id), now_ms);
	if (!ks)
		return -ENOMEM;
	ks->initiator = true;
	braid_rel_send(&ks->rel, BRAID_OP_SOFT_RESET_V1, NULL, 0, NULL);
	s->reneg_at = BRAID_CTLS_NEVER;
	push_event(s, BRAID_CTLS_EV_SOFT_RESET, ks->key_id, false, NULL);
	return 0;
}

void braid_ctls_data_counters(struct braid_ctls *s, uint64_t bytes, uint64_t pkts)
{
	s->data_bytes = bytes;
	s->data_pkts = pkts;
}

int braid_ctls_derive(struct braid_ctls *s, unsigned key_id, enum braid_ctls_kdf method,
		      struct braid_key2 *out)
{
	struct key_state *ks = key_id <= 7 ? ks_by_id(s, (uint8_t)key_id) : NULL;
	struct braid_kdf_prf_in in;
	const struct braid_km2 *c, *sv;
	int ret;

	if (!ks || (ks->state != KS_READY && ks->state != KS_LAME))
		return -ENOKEY;
	if (method == BRAID_CTLS_KDF_EKM)
		return braid_tls_ekm(ks->tls, out);
	if (method != BRAID_CTLS_KDF_PRF)
		return -EINVAL;
	c = s->server ? &ks->peer : &ks->local;
	sv = s->server ? &ks->local : &ks->peer;
	memcpy(in.pre_master, c->pre_master, sizeof(in.pre_master));
	memcpy(in.client_random1, c->random1, sizeof(in.client_random1));
	memcpy(in.client_random2, c->random2, sizeof(in.client_random2));
	memcpy(in.server_random1, sv->random1, sizeof(in.server_random1));
	memcpy(in.server_random2, sv->random2, sizeof(in.server_random2));
	memcpy(in.client_sid, s->server ? s->remote_sid : s->local_sid, 8);
	memcpy(in.server_sid, s->server ? s->local_sid : s->remote_sid, 8);
	ret = braid_kdf_openvpn_prf(&in, out);
	OPENSSL_cleanse(&in, sizeof(in));
	return ret;
}

int braid_ctls_current_key_id(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks ? ks->key_id : -ENOKEY;
}

const char *braid_ctls_peer_options(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks ? ks->peer.options : "";
}

const char *braid_ctls_peer_info(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks ? ks->peer.peer_info : "";
}

const char *braid_ctls_peer_username(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks ? ks->peer.username : "";
}

const char *braid_ctls_peer_password(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks ? ks->peer.password : "";
}

const char *braid_ctls_peer_cn(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks && ks->tls ? braid_tls_peer_cn(ks->tls) : "";
}

const char *braid_ctls_peer_serial(const struct braid_ctls *s)
{
	const struct key_state *ks = ks_primary_c(s);

	return ks && ks->tls ? braid_tls_peer_serial(ks->tls) : "";
}

void braid_ctls_session_ids(const struct braid_ctls *s, uint8_t local[BRAID_CTL_SID_LEN],
			    uint8_t remote[BRAID_CTL_SID_LEN])
{
	memcpy(local, s->local_sid, BRAID_CTL_SID_LEN);
	if (s->have_remote)
		memcpy(remote, s->remote_sid, BRAID_CTL_SID_LEN);
	else
		memset(remote, 0, BRAID_CTL_SID_LEN);
}

const char *braid_ctls_last_error(const struct braid_ctls *s)
{
	return s->err;
}

void braid_ctls_stats(const struct braid_ctls *s, struct braid_ctls_stats *st)
{
	*st = s->st;
}
