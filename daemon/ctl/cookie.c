// SPDX-License-Identifier: GPL-2.0-only
/*
 * cookie.c - the 2.6 UDP server's stateless session-id cookie (cookie.h).
 */
#include "cookie.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "hmac.h"
#include "pkt.h"
#include "tls_auth.h"
#include "tls_crypt.h"

#define WIRE_MAX 2048

struct braid_ctls_cookie {
	struct braid_ctls_config cfg; /* strings below are our copies */
	struct braid_key2 key;
	char *digest, *options;
	int wrap;
	struct braid_tls_auth ta;  /* verification without replay state; the reply's wrap */
	struct braid_tls_crypt tc;
	uint8_t secret[BRAID_COOKIE_SECRET_LEN];
	unsigned hand_window_s;
	struct braid_ctls_cookie_stats st;
	enum braid_ctls_reason reason;	/* of the last rejection */
};

void braid_ctls_cookie_free(struct braid_ctls_cookie *c)
{
	if (!c)
		return;
	if (c->wrap == BRAID_CTLS_WRAP_AUTH)
		braid_tls_auth_free(&c->ta);
	else if (c->wrap == BRAID_CTLS_WRAP_CRYPT)
		braid_tls_crypt_free(&c->tc);
	free(c->digest);
	free(c->options);
	OPENSSL_cleanse(c, sizeof(*c));
	free(c);
}

int braid_ctls_cookie_new(struct braid_ctls_cookie **out, const struct braid_ctls_config *cfg,
			  const uint8_t secret[BRAID_COOKIE_SECRET_LEN], char *err, size_t errlen)
{
	struct braid_ctls_cookie *c;
	int ret = -EINVAL;

	*out = NULL;
	if (!cfg->server || !cfg->ssl_ctx) {
		snprintf(err, errlen, "cookie: needs a server config with a TLS context");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cfg = *cfg;
	c->hand_window_s = cfg->hand_window_s ? cfg->hand_window_s : 60;
	if (cfg->wrap_key) {
		c->key = *cfg->wrap_key;
		c->cfg.wrap_key = &c->key;
	}
	c->digest = cfg->auth_digest ? strdup(cfg->auth_digest) : NULL;
	c->options = cfg->options_string ? strdup(cfg->options_string) : NULL;
	if ((cfg->auth_digest && !c->digest) || (cfg->options_string && !c->options)) {
		ret = -ENOMEM;
		goto fail;
	}
	c->cfg.auth_digest = c->digest;
	c->cfg.options_string = c->options;
	c->cfg.peer_info = c->cfg.username = c->cfg.password = NULL; /* client-only */
	switch (cfg->wrap) {
	case BRAID_CTLS_WRAP_NONE:
		break;
	case BRAID_CTLS_WRAP_AUTH:
		if (!cfg->wrap_key ||
		    braid_tls_auth_init(&c->ta, &c->key, cfg->key_direction, cfg->auth_digest,
					cfg->replay_window ? cfg->replay_window : BRAID_REPLAY_DEFAULT_WINDOW,
					  cfg->replay_time ? cfg->replay_time : BRAID_REPLAY_DEFAULT_TIME)) {
			snprintf(err, errlen, "cookie: tls-auth key, digest or direction invalid");
			goto fail;
		}
		break;
	case BRAID_CTLS_WRAP_CRYPT:
		if (!cfg->wrap_key ||
		    braid_tls_crypt_init(&c->tc, &c->key, true, cfg->replay_window ? cfg->replay_window : BRAID_REPLAY_DEFAULT_WINDOW,
					  cfg->replay_time ? cfg->replay_time : BRAID_REPLAY_DEFAULT_TIME)) {
			snprintf(err, errlen, "cookie: tls-crypt key invalid");
			goto fail;
		}
		break;
	default:
		snprintf(err, errlen, "cookie: unknown wrap %d", cfg->wrap);
		goto fail;
	}
	c->wrap = cfg->wrap;
	if (secret)
		memcpy(c->secret, secret, sizeof(c->secret));
	else if (RAND_bytes(c->secret, sizeof(c->secret)) != 1) {
		ret = -EIO;
		goto fail;
	}
	*out = c;
	return 0;
fail:
	braid_ctls_cookie_free(c);
	return ret;
}

static int cookie_sid(const struct braid_ctls_cookie *c, int64_t slot, const void *addr,
		      size_t addrlen, const uint8_t csid[BRAID_CTL_SID_LEN],
		      uint8_t out[BRAID_CTL_SID_LEN])
{
	uint8_t sl[4], mac[BRAID_HMAC_MAX];
	uint32_t v = (uint32_t)slot;
	struct braid_iov iov[3];
	size_t mlen;
	int ret;

	sl[0] = (uint8_t)(v >> 24);
	sl[1] = (uint8_t)(v >> 16);
	sl[2] = (uint8_t)(v >> 8);
	sl[3] = (uint8_t)v;
	iov[0] = (struct braid_iov){ sl, 4 };
	iov[1] = (struct braid_iov){ addr, addrlen };
	iov[2] = (struct braid_iov){ csid, BRAID_CTL_SID_LEN };
	ret = braid_hmac("SHA256", c->secret, sizeof(c->secret), iov, 3, mac, &mlen);
	if (!ret)
		memcpy(out, mac, BRAID_CTL_SID_LEN);
	OPENSSL_cleanse(mac, sizeof(mac));
	return ret;
}

static int64_t cookie_slot(const struct braid_ctls_cookie *c, int64_t now_s)
{
	unsigned div = (c->hand_window_s + 1) / 2;

	return now_s / (div ? div : 1);
}

/* Verify the wrap without touching any replay state, then decode. */
static int verify(struct braid_ctls_cookie *c, const uint8_t *pkt, size_t len, int64_t now_s,
		  uint8_t *plain, size_t *plen, struct braid_ctl_pkt *p, const char **why)
{
	int ret;

	if (len > WIRE_MAX) {
		*why = "packet too long";
		c->reason = BRAID_CTLS_R_MALFORMED;
		return -EBADMSG;
	}
	switch (c->wrap) {
	case BRAID_CTLS_WRAP_AUTH:
		ret = braid_tls_auth_unwrap(&c->ta, pkt, len, now_s, BRAID_UNWRAP_NO_REPLAY, plain,
					    WIRE_MAX, plen);
		if (ret) {
			*why = c->ta.why ? c->ta.why : "tls-auth verification failed";
			c->reason = BRAID_CTLS_R_WRAP;
			return -EBADMSG;
		}
		break;
	case BRAID_CTLS_WRAP_CRYPT:
		ret = braid_tls_crypt_unwrap(&c->tc, pkt, len, now_s, BRAID_UNWRAP_NO_REPLAY, plain,
					     WIRE_MAX, plen);
		if (ret) {
			*why = c->tc.why ? c->tc.why : "tls-crypt verification failed";
			c->reason = BRAID_CTLS_R_WRAP;
			return -EBADMSG;
		}
		break;
	default:
		memcpy(plain, pkt, len);
		*plen = len;
		break;
	}
	ret = braid_ctl_pkt_decode(plain, *plen, p, why);
	if (ret)
		c->reason = BRAID_CTLS_R_MALFORMED;
	return ret ? -EBADMSG : 0;
}

bool braid_ctls_cookie_is_reset(const uint8_t *pkt, size_t len)
{
	return len >= 1 && (pkt[0] >> BRAID_CTL_OP_SHIFT) == BRAID_OP_HARD_RESET_CLIENT_V2;
}

int braid_ctls_cookie_reply(struct braid_ctls_cookie *c, const uint8_t *pkt, size_t len,
			    const void *addr, size_t addrlen, int64_t now_s, uint8_t *out,
			    size_t cap, size_t *olen, const char **why)
{
	uint8_t plain[WIRE_MAX], rp[64];
	struct braid_ctl_pkt p, r;
	const char *dummy;
	size_t plen, rlen;
	int ret;

	if (!why)
		why = &dummy;
	*why = NULL;
	*olen = 0;
	c->reason = BRAID_CTLS_R_OTHER;
	if (!braid_ctls_cookie_is_reset(pkt, len)) {
		*why = "not a P_CONTROL_HARD_RESET_CLIENT_V2";
		ret = -EPROTO;
		goto out;
	}
	ret = verify(c, pkt, len, now_s, plain, &plen, &p, why);
	if (ret)
		goto out;
	if (p.key_id != 0 || p.n_acks || p.msg_pid != 0) {
		*why = "client reset with key_id, ACKs or msg_pid not 0";
		ret = -EBADMSG;
		goto out;
	}
	memset(&r, 0, sizeof(r));
	r.opcode = BRAID_OP_HARD_RESET_SERVER_V2;
	r.key_id = 0;
	ret = cookie_sid(c, cookie_slot(c, now_s), addr, addrlen, p.sid, r.sid);
	if (ret) {
		*why = "HMAC failed";
		goto out;
	}
	r.n_acks = 1;
	r.acks[0] = 0;
	memcpy(r.ack_sid, p.sid, BRAID_CTL_SID_LEN);
	r.has_msg_pid = true;
	r.msg_pid = 0;
	ret = braid_ctl_pkt_encode(&r, rp, sizeof(rp), &rlen);
	if (ret) {
		*why = "cannot encode the server reset";
		goto out;
	}
	switch (c->wrap) {
	case BRAID_CTLS_WRAP_AUTH:
		braid_tls_auth_set_tx(&c->ta, 1, (uint32_t)now_s);
		ret = braid_tls_auth_wrap(&c->ta, rp, rlen, now_s, out, cap, olen);
		break;
	case BRAID_CTLS_WRAP_CRYPT:
		braid_tls_crypt_set_tx(&c->tc, 1, (uint32_t)now_s);
		ret = braid_tls_crypt_wrap(&c->tc, rp, rlen, now_s, out, cap, olen);
		break;
	default:
		if (rlen > cap) {
			ret = -ENOBUFS;
			break;
		}
		memcpy(out, rp, rlen);
		*olen = rlen;
		break;
	}
	if (ret)
		*why = "output buffer too small";
out:
	OPENSSL_cleanse(plain, sizeof(plain));
	if (ret)
		c->st.rejected++;
	else
		c->st.replies++;
	return ret;
}

int braid_ctls_new_from_cookie(struct braid_ctls **out, struct braid_ctls_cookie *c,
			       const uint8_t *pkt, size_t len, const void *addr, size_t addrlen,
			       int64_t now_s, int64_t now_ms, const char **why)
{
	uint8_t plain[WIRE_MAX], sid[BRAID_CTL_SID_LEN];
	struct braid_ctl_pkt p;
	struct braid_ctls *s = NULL;
	const char *dummy;
	char err[160];
	size_t plen;
	bool acked = false, valid = false;
	int ret;

	if (!why)
		why = &dummy;
	*why = NULL;
	*out = NULL;
	c->reason = BRAID_CTLS_R_OTHER;
	if (len < 1 || ((pkt[0] >> BRAID_CTL_OP_SHIFT) != BRAID_OP_ACK_V1 &&
			(pkt[0] >> BRAID_CTL_OP_SHIFT) != BRAID_OP_CONTROL_V1)) {
		*why = "no session: expected P_ACK_V1 or P_CONTROL_V1 answering our reset";
		ret = -EPROTO;
		goto out;
	}
	ret = verify(c, pkt, len, now_s, plain, &plen, &p, why);
	if (ret)
		goto out;
	ret = -EBADMSG;
	if (p.key_id != 0) {
		*why = "key_id not 0 in the first packet";
		goto out;
	}
	for (unsigned i = 0; i < p.n_acks; i++)
		if (p.acks[i] == 0)
			acked = true;
	if (!acked) {
		*why = "first packet does not ACK the server reset";
		goto out;
	}
	if (p.has_msg_pid && p.msg_pid != 1) {
		*why = "first P_CONTROL_V1 must have msg_pid 1";
		goto out;
	}
	for (int64_t d = -2; d <= 1 && !valid; d++) {
		if (cookie_sid(c, cookie_slot(c, now_s) + d, addr, addrlen, p.sid, sid))
			break;
		valid = CRYPTO_memcmp(sid, p.ack_sid, BRAID_CTL_SID_LEN) == 0;
	}
	if (!valid) {
		*why = "session id cookie invalid or expired";
		goto out;
	}
	ret = braid_ctls_new_accepted(&s, &c->cfg, p.ack_sid, p.sid, (uint32_t)now_s, now_ms, err,
				      sizeof(err));
	if (ret) {
		*why = "cannot create the session";
		goto out;
	}
	ret = braid_ctls_input(s, pkt, len, now_ms);
	if (ret) {
		*why = "first packet rejected by the new session";
		braid_ctls_free(s);
		goto out;
	}
	*out = s;
out:
	OPENSSL_cleanse(plain, sizeof(plain));
	if (ret)
		c->st.rejected++;
	else
		c->st.accepted++;
	return ret;
}

void braid_ctls_cookie_stats(const struct braid_ctls_cookie *c, struct braid_ctls_cookie_stats *st)
{
	*st = c->st;
}

enum braid_ctls_reason braid_ctls_cookie_last_reason(const struct braid_ctls_cookie *c)
{
	return c->reason;
}
