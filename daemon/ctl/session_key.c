// SPDX-License-Identifier: GPL-2.0-only
/*
 * session_key.c - the key states of a session (session_key.h): allocation,
 * lookup, failure, progress through TLS and key-method-2 to READY and lame
 * duck, renegotiation and key derivation (for session.c).
 */
#include "session_key.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "kdf.h"
#include "km2.h"
#include "reliable.h"
#include "session_event.h"
#include "session_text.h"
#include "tls.h"

/* ---- key states ---------------------------------------------------------------------- */

void ctls_ks_free(struct key_state *ks)
{
	braid_rel_free(&ks->rel);
	braid_tls_free(ks->tls);
	if (ks->km) {
		braid_km2_wipe(&ks->km->local);
		braid_km2_wipe(&ks->km->peer);
		free(ks->km);
	}
	OPENSSL_cleanse(ks, sizeof(*ks));
	ks->state = KS_FREE;
}

struct key_state *ctls_ks_by_id(struct braid_ctls *s, uint8_t key_id)
{
	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state != KS_FREE && s->ks[i].key_id == key_id)
			return &s->ks[i];
	return NULL;
}

/* The newest READY key (data keys to send with, text goes here). */
struct key_state *ctls_ks_primary(struct braid_ctls *s)
{
	struct key_state *p = NULL;

	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state == KS_READY && (!p || s->ks[i].ready_seq > p->ready_seq))
			p = &s->ks[i];
	return p;
}

const struct key_state *ctls_ks_primary_c(const struct braid_ctls *s)
{
	return ctls_ks_primary((struct braid_ctls *)s);
}

/* The key state still negotiating (PRE_START..KM2), if any. */
struct key_state *ctls_ks_negotiating(struct braid_ctls *s)
{
	for (unsigned i = 0; i < N_KS; i++)
		if (s->ks[i].state >= KS_PRE_START && s->ks[i].state <= KS_KM2)
			return &s->ks[i];
	return NULL;
}

struct key_state *ctls_ks_alloc(struct braid_ctls *s, uint8_t key_id, int64_t now_ms)
{
	for (unsigned i = 0; i < N_KS; i++) {
		struct key_state *ks = &s->ks[i];
		if (ks->state != KS_FREE)
			continue;
		memset(ks, 0, sizeof(*ks));
		ks->km = calloc(1, sizeof(*ks->km));
		if (!ks->km)
			return NULL;
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

void ctls_ks_release(struct braid_ctls *s, struct key_state *ks)
{
	ctls_ks_free(ks);
	s->st.key_states--;
}

uint8_t ctls_next_key_id(uint8_t k)
{
	return k >= BRAID_CTL_KEY_ID_MASK ? 1 : (uint8_t)(k + 1);
}

/* A key state failed. Fatal unless an older key can carry on (OpenVPN keeps the lame duck). */
void ctls_ks_fail(struct braid_ctls *s, struct key_state *ks, const char *reason)
{
	bool fatal = ctls_ks_primary(s) == NULL || ctls_ks_primary(s) == ks;
	char msg[300];

	snprintf(msg, sizeof(msg), "key_id %u: %s", ks->key_id, reason);
	ctls_set_error(s, "%s", msg);
	ctls_push_event(s, BRAID_CTLS_EV_ERROR, ks->key_id, fatal, msg);
	if (fatal)
		s->dead = true;
	else if (s->reneg_at == BRAID_CTLS_NEVER && s->reneg_ms >= 0)
		/* a failed renegotiation is retried (OpenVPN keeps the old key meanwhile) */
		s->reneg_at = ks->start_ms + s->hand_window_ms;
	ctls_ks_release(s, ks);
}

/* ---- progress of one key state ------------------------------------------------------- */

static int send_km2(struct braid_ctls *s, struct key_state *ks)
{
	uint8_t buf[BRAID_KM2_MSG_MAX];
	size_t len = 0;
	int ret;

	ret = braid_km2_randomize(&ks->km->local, !s->server);
	if (ret)
		return ret;
	snprintf(ks->km->local.options, sizeof(ks->km->local.options), "%s", s->options);
	if (!s->server) {
		snprintf(ks->km->local.username, sizeof(ks->km->local.username), "%s",
			 s->username ? s->username : "");
		snprintf(ks->km->local.password, sizeof(ks->km->local.password), "%s",
			 s->password ? s->password : "");
		snprintf(ks->km->local.peer_info, sizeof(ks->km->local.peer_info), "%s",
			 s->peer_info ? s->peer_info : "");
	}
	ret = braid_km2_build(&ks->km->local, buf, sizeof(buf), &len);
	if (!ret)
		ret = braid_tls_write_record(ks->tls, buf, len);
	OPENSSL_cleanse(buf, sizeof(buf));
	/* only the randoms are needed from now on */
	OPENSSL_cleanse(ks->km->local.password, sizeof(ks->km->local.password));
	if (!ret)
		ks->km2_sent = true;
	return ret;
}

static void became_ready(struct braid_ctls *s, struct key_state *ks, int64_t now_ms)
{
	struct key_state *old = ctls_ks_primary(s);

	braid_rel_handshake_done(&ks->rel);
	/* at most one lame duck: an older one goes now */
	for (unsigned i = 0; i < N_KS; i++) {
		struct key_state *o = &s->ks[i];
		if (o->state == KS_LAME) {
			ctls_push_event(s, BRAID_CTLS_EV_KEY_EXPIRED, o->key_id, false, NULL);
			ctls_ks_release(s, o);
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
	ctls_push_event(s, BRAID_CTLS_EV_KEYS_READY, ks->key_id, false, NULL);
}

void ctls_ks_progress(struct braid_ctls *s, struct key_state *ks, int64_t now_ms)
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
				ctls_ks_fail(s, ks, "cannot create the TLS object");
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
			ctls_ks_fail(s, ks, braid_tls_error(ks->tls));
			return;
		}
		ks->state = KS_KM2;
		if (!s->server && send_km2(s, ks)) {
			ctls_ks_fail(s, ks, "cannot send the key-method-2 message");
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
			ctls_ks_fail(s, ks, braid_tls_error(ks->tls));
			OPENSSL_cleanse(rec, sizeof(rec));
			return;
		}
		if (!ks->km2_recv) {
			ret = braid_km2_parse(rec, len, s->server, &ks->km->peer, &why);
			OPENSSL_cleanse(rec, sizeof(rec));
			if (ret) {
				char m[200];
				snprintf(m, sizeof(m), "bad key-method-2 message from the peer: %s",
					 why ? why : "malformed");
				ctls_ks_fail(s, ks, m);
				return;
			}
			ks->km2_recv = true;
			if (s->server && !ks->km2_sent && send_km2(s, ks)) {
				ctls_ks_fail(s, ks, "cannot send the key-method-2 message");
				return;
			}
			became_ready(s, ks, now_ms);
			continue;
		}
		ctls_record_to_text(s, ks, (char *)rec, len);
	}
}

/* ---- renegotiation and keys ---------------------------------------------------------- */

int ctls_renegotiate(struct braid_ctls *s, int64_t now_ms)
{
	struct key_state *prim = ctls_ks_primary(s), *ks;

	if (s->dead)
		return -ENOTCONN;
	if (ctls_ks_negotiating(s))
		return -EBUSY;
	if (!prim)
		return -EAGAIN;
	/* a lame duck with the key_id we are about to use would collide: drop it first */
	ks = ctls_ks_by_id(s, ctls_next_key_id(prim->key_id));
	if (ks) {
		ctls_push_event(s, BRAID_CTLS_EV_KEY_EXPIRED, ks->key_id, false, NULL);
		ctls_ks_release(s, ks);
	}
	ks = ctls_ks_alloc(s, ctls_next_key_id(prim->key_id), now_ms);
	if (!ks)
		return -ENOMEM;
	ks->initiator = true;
	braid_rel_send(&ks->rel, BRAID_OP_SOFT_RESET_V1, NULL, 0, NULL);
	s->reneg_at = BRAID_CTLS_NEVER;
	ctls_push_event(s, BRAID_CTLS_EV_SOFT_RESET, ks->key_id, false, NULL);
	return 0;
}

int ctls_derive(struct braid_ctls *s, unsigned key_id, enum braid_ctls_kdf method,
		struct braid_key2 *out)
{
	struct key_state *ks = key_id <= 7 ? ctls_ks_by_id(s, (uint8_t)key_id) : NULL;
	struct braid_kdf_prf_in in;
	const struct braid_km2 *c, *sv;
	int ret;

	if (!ks || (ks->state != KS_READY && ks->state != KS_LAME))
		return -ENOKEY;
	if (method == BRAID_CTLS_KDF_EKM)
		return braid_tls_ekm(ks->tls, out);
	if (method != BRAID_CTLS_KDF_PRF)
		return -EINVAL;
	c = s->server ? &ks->km->peer : &ks->km->local;
	sv = s->server ? &ks->km->local : &ks->km->peer;
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
