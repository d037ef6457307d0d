// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - one OpenVPN 2.6 control-channel session (session.h): creation,
 * packet input, packet output and timers, the deadline and the getters.
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
 *
 * The key states and their progress live in session_key.c, the event queue
 * in session_event.c, text messages in session_text.c; the shared struct is
 * in session_int.h. Those files never include session.h: the API functions
 * whose work they do are thin wrappers at the end of this file.
 */
#include "session.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "km2.h"
#include "reliable.h"
#include "session_event.h"
#include "session_int.h"
#include "session_key.h"
#include "session_text.h"
#include "tls.h"
#include "tls_certenv.h"
#include "tls_auth.h"
#include "tls_crypt.h"

#define WIRE_MAX 2048 /* largest control packet we accept */
#define IP_UDP_HDR 28

static _Atomic unsigned long live_sessions;	/* sessions live on every gateway worker */

unsigned long braid_ctls_live_sessions(void)
{
	return live_sessions;
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
			ctls_ks_free(&s->ks[i]);
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
		ks = ctls_ks_alloc(s, 0, now_ms);
		if (!ks) {
			braid_ctls_free(s);
			return -ENOMEM;
		}
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
	ks = ctls_ks_alloc(s, 0, now_ms);
	if (!ks) {
		braid_ctls_free(s);
		return -ENOMEM;
	}
	/* both resets (msg_pid 0 each way) happened statelessly */
	ks->rel.next_tx_pid = 1;
	ks->rel.rx_expected = 1;
	ks->got_peer_reset = true;
	ctls_ks_progress(s, ks, now_ms);
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
	s->reason = BRAID_CTLS_R_OTHER;
	return ret;
}

/* drop() with the kind of rejection named */
static int drop_r(struct braid_ctls *s, enum braid_ctls_reason reason, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int drop_r(struct braid_ctls *s, enum braid_ctls_reason reason, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	s->st.rx_dropped++;
	s->reason = reason;
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
		return drop_r(s, BRAID_CTLS_R_REPLAY, ret, "%s: replayed packet (%s)",
			    s->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "tls-crypt",
			    why ? why : "replay window");
	}
	if (ret) {
		s->st.rx_auth_failed++;
		return drop_r(s, BRAID_CTLS_R_WRAP, ret, "%s: packet verification failed (%s)",
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
		return drop_r(s, BRAID_CTLS_R_MALFORMED, -EBADMSG, "empty packet");
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
		return drop_r(s, BRAID_CTLS_R_OPCODE, -EPROTO, "unknown opcode %u", op);
	if ((s->server && op == BRAID_OP_HARD_RESET_SERVER_V2) ||
	    (!s->server && op == BRAID_OP_HARD_RESET_CLIENT_V2))
		return drop(s, -EPROTO, "%s from the wrong role (we are the %s)",
			    braid_ctl_op_name(op), s->server ? "server" : "client");
	if (len > WIRE_MAX)
		return drop_r(s, BRAID_CTLS_R_MALFORMED, -EBADMSG, "control packet of %zu bytes too long", len);
	ret = braid_ctl_hdr_decode(pkt, len, &op, &kid, sid, &why);
	if (ret)
		return drop_r(s, BRAID_CTLS_R_MALFORMED, -EBADMSG, "malformed control packet: %s", why ? why : "too short");

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

	ks = ctls_ks_by_id(s, kid);
	if (!ks) {
		struct key_state *prim = ctls_ks_primary(s);
		if (s->server && op == BRAID_OP_HARD_RESET_CLIENT_V2 && !s->have_remote &&
		    !ctls_ks_negotiating(s) && !prim) {
			new_ks = true;
		} else if (op == BRAID_OP_SOFT_RESET_V1 && prim && kid == ctls_next_key_id(prim->key_id) &&
			   !ctls_ks_negotiating(s)) {
			new_ks = true;
		} else {
			return drop(s, -ESRCH, "%s for unknown key_id %u", braid_ctl_op_name(op), kid);
		}
		/* a new key state only for a packet that starts one */
		if (!p.has_msg_pid || p.msg_pid != 0)
			return drop(s, -ESRCH, "%s for unknown key_id %u", braid_ctl_op_name(op), kid);
		ks = ctls_ks_alloc(s, kid, now_ms);
		if (!ks)
			return drop(s, -ENOMEM, "no free key state for key_id %u", kid);
	}
	ret = braid_rel_recv(&ks->rel, &p, now_ms);
	if (ret) {
		if (new_ks)
			ctls_ks_release(s, ks);
		return drop(s, ret, "%s msg_pid %u outside the receive window (key_id %u)",
			    braid_ctl_op_name(op), p.msg_pid, kid);
	}
	s->st.rx_packets++;
	if (!s->have_remote) {
		memcpy(s->remote_sid, p.sid, BRAID_CTL_SID_LEN);
		s->have_remote = true;
	}
	if (new_ks && op == BRAID_OP_SOFT_RESET_V1)
		ctls_push_event(s, BRAID_CTLS_EV_SOFT_RESET, kid, false, NULL);

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
				ctls_ks_progress(s, ks, now_ms);
			if (ks->tls && braid_tls_put_ciphertext(ks->tls, msg, mlen))
				ctls_ks_fail(s, ks, "out of memory for TLS input");
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
		ctls_ks_progress(s, ks, now_ms);
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
			ctls_ks_fail(s, ks, m);
		} else if (ks->state == KS_LAME && now_ms >= ks->expire_ms) {
			ctls_push_event(s, BRAID_CTLS_EV_KEY_EXPIRED, ks->key_id, false, NULL);
			ctls_ks_release(s, ks);
		} else if (ks->state == KS_PRE_START || ks->state == KS_TLS) {
			/* a client waiting for its reset's ACK may now start TLS */
			ctls_ks_progress(s, ks, now_ms);
		}
	}
	prim = ctls_ks_primary(s);
	if (prim && !s->dead && !ctls_ks_negotiating(s) &&
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
				ctls_ks_fail(s, ks, ret == -ENOMEM ? "out of memory for a control message"
								   : "control send window overflow");
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
			ctls_set_error(s, "cannot build a control packet: %s", strerror(-ret));
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

/* ---- getters ------------------------------------------------------------------------- */

int braid_ctls_current_key_id(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks ? ks->key_id : -ENOKEY;
}

const char *braid_ctls_peer_options(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks ? ks->km->peer.options : "";
}

const char *braid_ctls_peer_info(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks ? ks->km->peer.peer_info : "";
}

const char *braid_ctls_peer_username(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks ? ks->km->peer.username : "";
}

const char *braid_ctls_peer_password(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks ? ks->km->peer.password : "";
}

const char *braid_ctls_peer_cn(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks && ks->tls ? braid_tls_peer_cn(ks->tls) : "";
}

const char *braid_ctls_peer_serial(const struct braid_ctls *s)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks && ks->tls ? braid_tls_peer_serial(ks->tls) : "";
}

size_t braid_ctls_peer_cert_env(const struct braid_ctls *s, char **v, size_t max)
{
	const struct key_state *ks = ctls_ks_primary_c(s);

	return ks && ks->tls ? braid_tls_cert_env(ks->tls, v, max) : 0;
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

enum braid_ctls_reason braid_ctls_last_reason(const struct braid_ctls *s)
{
	return s->reason;
}

void braid_ctls_stats(const struct braid_ctls *s, struct braid_ctls_stats *st)
{
	*st = s->st;
}

/* ---- API whose work is done in session_event.c, session_key.c, session_text.c --------- */

int braid_ctls_next_event(struct braid_ctls *s, struct braid_ctls_event *ev)
{
	return ctls_next_event(s, ev);
}

int braid_ctls_renegotiate(struct braid_ctls *s, int64_t now_ms)
{
	return ctls_renegotiate(s, now_ms);
}

void braid_ctls_data_counters(struct braid_ctls *s, uint64_t bytes, uint64_t pkts)
{
	s->data_bytes = bytes;
	s->data_pkts = pkts;
}

int braid_ctls_derive(struct braid_ctls *s, unsigned key_id, enum braid_ctls_kdf method,
		      struct braid_key2 *out)
{
	return ctls_derive(s, key_id, method, out);
}

int braid_ctls_text_split(char *rec, size_t len, void (*cb)(void *arg, const char *msg),
			  void *arg)
{
	return ctls_text_split(rec, len, cb, arg);
}

int braid_ctls_send_text(struct braid_ctls *s, const char *msg)
{
	struct key_state *ks = ctls_ks_primary(s);
	int ret;

	if (!ks || s->dead)
		return -EAGAIN;
	ret = ctls_text_write(ks, msg);
	if (ret == -EPROTO)
		ctls_ks_fail(s, ks, braid_tls_error(ks->tls));
	return ret;
}
