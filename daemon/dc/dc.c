// SPDX-License-Identifier: GPL-2.0-only
/*
 * dc.c - the OpenVPN 2.6 AEAD data channel (P_DATA_V2 / P_DATA_V1).
 */
#include "dc.h"
#include "dclog.h"
#include "replay.h"
#include "txpid.h"
#include "util/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

struct dc_key {
	bool used;
	uint8_t key_id;
	enum braid_aead_cipher cipher;
	struct braid_aead *enc;
	struct braid_aead *dec;
	uint8_t enc_iv[BRAID_DC_IMPLICIT_IV_LEN];
	uint8_t dec_iv[BRAID_DC_IMPLICIT_IV_LEN];
	uint32_t tx_pid;        /* last packet-id sent or reserved; 0 = none yet */
	struct braid_txpid txpid; /* which reserved ids were sealed (lazy) */
	struct braid_replay replay;
	struct braid_dc_key_stats st;
};

enum { SLOT_PRIMARY, SLOT_LAME_DUCK, NSLOTS };

struct braid_dc {
	struct braid_dc_config cfg;
	struct dc_key keys[NSLOTS];
	struct braid_dc_stats st;
};

static void key_clear(struct dc_key *k)
{
	if (!k->used)
		return;
	braid_aead_free(k->enc);
	braid_aead_free(k->dec);
	braid_replay_free(&k->replay);
	braid_txpid_free(&k->txpid);
	sodium_memzero(k, sizeof(*k));
}

int braid_dc_new(struct braid_dc **out, const struct braid_dc_config *cfg)
{
	struct braid_dc *dc;

	if (cfg->peer_id != BRAID_DC_PEER_ID_NONE && cfg->peer_id > BRAID_DC_PEER_ID_MAX) {
		braid_dc_log(BRAID_DC_LOG_ERR, "peer-id %u out of range (0..16777215)", cfg->peer_id);
		return -EINVAL;
	}
	if (cfg->replay_window > BRAID_REPLAY_MAX_WINDOW ||
	    cfg->replay_time > BRAID_REPLAY_MAX_TIME) {
		braid_dc_log(BRAID_DC_LOG_ERR, "replay-window %u %u out of range (max %u %u)",
			     cfg->replay_window, cfg->replay_time, BRAID_REPLAY_MAX_WINDOW,
			     BRAID_REPLAY_MAX_TIME);
		return -EINVAL;
	}
	dc = calloc(1, sizeof(*dc));
	if (!dc)
		return -ENOMEM;
	dc->cfg = *cfg;
	if (!dc->cfg.replay_window)
		dc->cfg.replay_window = BRAID_REPLAY_DEFAULT_WINDOW;
	if (!dc->cfg.replay_time)
		dc->cfg.replay_time = BRAID_REPLAY_DEFAULT_TIME;
	if (dc->cfg.long_form && !dc->cfg.epoch)
		dc->cfg.epoch = braid_dc_epoch_next((uint32_t)time(NULL));
	*out = dc;
	return 0;
}

void braid_dc_free(struct braid_dc *dc)
{
	if (!dc)
		return;
	for (int i = 0; i < NSLOTS; i++)
		key_clear(&dc->keys[i]);
	free(dc);
}

int braid_dc_key_install(struct braid_dc *dc, unsigned key_id, const char *cipher,
			 const struct braid_key2 *k2, int direction)
{
	struct dc_key nk;
	struct braid_key_sel sel;
	enum braid_aead_cipher c;
	size_t klen;
	int ret;

	if (key_id > BRAID_DC_MAX_KEY_ID) {
		braid_dc_log(BRAID_DC_LOG_ERR, "key_id %u out of range (0..7)", key_id);
		return -EINVAL;
	}
	if (braid_key2_select(k2, direction, &sel)) {
		braid_dc_log(BRAID_DC_LOG_ERR, "invalid key direction %d", direction);
		return -EINVAL;
	}
	ret = braid_aead_cipher_from_name(cipher, &c);
	if (ret)
		return ret;
	if (dc->keys[SLOT_PRIMARY].used && dc->keys[SLOT_PRIMARY].key_id == key_id) {
		braid_dc_log(BRAID_DC_LOG_ERR, "key_id %u is already the primary key", key_id);
		return -EEXIST;
	}

	memset(&nk, 0, sizeof(nk));
	klen = braid_aead_key_len(c);
	ret = braid_aead_new(&nk.enc, c, dc->cfg.backend, sel.out.cipher, klen);
	if (ret)
		goto err;
	ret = braid_aead_new(&nk.dec, c, dc->cfg.backend, sel.in.cipher, klen);
	if (ret)
		goto err_enc;
	ret = braid_replay_init(&nk.replay, dc->cfg.replay_window, dc->cfg.replay_time);
	if (ret)
		goto err_dec;
	/* The implicit IV is the prefix of the hmac slot (fact sheet §3.4). */
	memcpy(nk.enc_iv, sel.out.hmac, BRAID_DC_IMPLICIT_IV_LEN);
	memcpy(nk.dec_iv, sel.in.hmac, BRAID_DC_IMPLICIT_IV_LEN);
	nk.cipher = c;
	nk.key_id = (uint8_t)key_id;
	nk.used = true;

	key_clear(&dc->keys[SLOT_LAME_DUCK]);
	dc->keys[SLOT_LAME_DUCK] = dc->keys[SLOT_PRIMARY];
	dc->keys[SLOT_PRIMARY] = nk;
	sodium_memzero(&nk, sizeof(nk));
	braid_dc_log(BRAID_DC_LOG_DEBUG, "data channel key_id %u installed: %s (%s)", key_id,
		     braid_aead_cipher_name(c), braid_aead_backend_name(dc->keys[0].enc));
	return 0;

err_dec:
	braid_aead_free(nk.dec);
err_enc:
	braid_aead_free(nk.enc);
err:
	sodium_memzero(&nk, sizeof(nk));
	return ret;
}

static struct dc_key *find_key(struct braid_dc *dc, unsigned key_id)
{
	for (int i = 0; i < NSLOTS; i++)
		if (dc->keys[i].used && dc->keys[i].key_id == key_id)
			return &dc->keys[i];
	return NULL;
}

int braid_dc_key_remove(struct braid_dc *dc, unsigned key_id)
{
	struct dc_key *k = find_key(dc, key_id);

	if (!k)
		return -ENOKEY;
	key_clear(k);
	if (k == &dc->keys[SLOT_PRIMARY]) {
		/* The lame duck cannot encrypt; keep it in its slot. */
		braid_dc_log(BRAID_DC_LOG_DEBUG, "primary key_id %u removed", key_id);
	}
	return 0;
}

int braid_dc_primary_key_id(const struct braid_dc *dc)
{
	return dc->keys[SLOT_PRIMARY].used ? dc->keys[SLOT_PRIMARY].key_id : -ENOKEY;
}

int braid_dc_key_stats(const struct braid_dc *dc, unsigned key_id, struct braid_dc_key_stats *st)
{
	struct dc_key *k = find_key((struct braid_dc *)dc, key_id);

	if (!k)
		return -ENOKEY;
	*st = k->st;
	st->tx_last_packet_id = k->tx_pid;
	return 0;
}

void braid_dc_stats(const struct braid_dc *dc, struct braid_dc_stats *st)
{
	*st = dc->st;
}

bool braid_dc_needs_renegotiation(const struct braid_dc *dc)
{
	const struct dc_key *k = &dc->keys[SLOT_PRIMARY];

	return k->used && k->tx_pid >= BRAID_DC_PKTID_WRAP_TRIGGER;
}

int braid_dc_key_set_next_tx_packet_id(struct braid_dc *dc, unsigned key_id, uint32_t next)
{
	struct dc_key *k = find_key(dc, key_id);

	if (!k)
		return -ENOKEY;
	if (next == 0)
		return -EINVAL;
	/* Forward: the skipped ids count as used (never reserved, never to be
	 * sealed). Backward (tests only) hands out ids again, as it always did. */
	braid_txpid_skip(&k->txpid, k->tx_pid, next - 1);
	k->tx_pid = next - 1;
	return 0;
}

uint32_t braid_dc_epoch_next(uint32_t now_s)
{
	static uint32_t last;

	/* now + 1: a process started in the same second as another one's last session (a crash
	 * and an immediate restart) still gets a newer epoch than it, so never its nonces */
	last = now_s + 1 > last ? now_s + 1 : last + 1;
	return last;
}

/* The header length of opcode op in this session's form. */
static size_t hdr_len(const struct braid_dc *dc, bool v2)
{
	return (v2 ? BRAID_DC_V2_HDR_LEN : BRAID_DC_V1_HDR_LEN) + (dc->cfg.long_form ? 4 : 0);
}

size_t braid_dc_overhead(const struct braid_dc *dc)
{
	return hdr_len(dc, dc->cfg.peer_id != BRAID_DC_PEER_ID_NONE) + BRAID_AEAD_TAG_LEN;
}

/* pkt-id || implicit IV; the long form's time is XORed into the IV's first 4 bytes. */
static void make_nonce(uint8_t nonce[BRAID_AEAD_NONCE_LEN], const uint8_t *pid_be,
		       const uint8_t iv[BRAID_DC_IMPLICIT_IV_LEN], uint32_t time)
{
	memcpy(nonce, pid_be, 4);
	memcpy(nonce + 4, iv, BRAID_DC_IMPLICIT_IV_LEN);
	nonce[4] ^= (uint8_t)(time >> 24);
	nonce[5] ^= (uint8_t)(time >> 16);
	nonce[6] ^= (uint8_t)(time >> 8);
	nonce[7] ^= (uint8_t)time;
}

/* Write the header for (k, pid) and seal pt behind it; *out_len on success. */
static int seal_packet(struct braid_dc *dc, struct dc_key *k, uint32_t pid, const uint8_t *pt,
		       size_t pt_len, uint8_t *out, size_t *out_len)
{
	bool v2 = dc->cfg.peer_id != BRAID_DC_PEER_ID_NONE;
	size_t hdr = hdr_len(dc, v2);
	uint32_t time = dc->cfg.long_form ? dc->cfg.epoch : 0;
	uint8_t nonce[BRAID_AEAD_NONCE_LEN];
	uint8_t *pid_p;
	const uint8_t *ad;
	size_t ad_len;
	int ret;

	if (v2) {
		out[0] = (uint8_t)(BRAID_OP_DATA_V2 << 3 | k->key_id);
		wire_put_be24(out + 1, dc->cfg.peer_id);
		pid_p = out + 4;
		ad = out;
		ad_len = hdr;
	} else {
		out[0] = (uint8_t)(BRAID_OP_DATA_V1 << 3 | k->key_id);
		pid_p = out + 1;
		ad = pid_p;
		ad_len = hdr - 1;
	}
	wire_put_be32(pid_p, pid);
	if (dc->cfg.long_form)
		wire_put_be32(pid_p + 4, time);
	make_nonce(nonce, pid_p, k->enc_iv, time);
	ret = braid_aead_seal(k->enc, nonce, ad, ad_len, pt, pt_len, out + hdr + BRAID_AEAD_TAG_LEN,
			      out + hdr);
	if (ret)
		return ret;
	*out_len = hdr + BRAID_AEAD_TAG_LEN + pt_len;
	return 0;
}

static bool out_too_small(const struct braid_dc *dc, size_t pt_len, size_t cap)
{
	size_t hdr = hdr_len(dc, dc->cfg.peer_id != BRAID_DC_PEER_ID_NONE);

	return cap < hdr + BRAID_AEAD_TAG_LEN || pt_len > cap - hdr - BRAID_AEAD_TAG_LEN;
}

int braid_dc_encrypt(struct braid_dc *dc, const uint8_t *pt, size_t pt_len, uint8_t *out,
		     size_t cap, size_t *out_len, uint32_t *packet_id)
{
	struct dc_key *k = &dc->keys[SLOT_PRIMARY];
	uint32_t pid;
	int ret;

	if (!k->used)
		return -ENOKEY;
	if (out_too_small(dc, pt_len, cap))
		return -ENOBUFS;
	if (k->tx_pid == UINT32_MAX)
		return -EOVERFLOW; /* OpenVPN never wraps a short-form packet-id */
	pid = k->tx_pid + 1;

	ret = seal_packet(dc, k, pid, pt, pt_len, out, out_len);
	if (ret)
		return ret;
	k->tx_pid = pid;
	/* the newest id enters the reservation window already sealed */
	braid_txpid_mark(&k->txpid, pid);
	k->st.tx_packets++;
	k->st.tx_bytes += pt_len;
	if (packet_id)
		*packet_id = pid;
	return 0;
}

int braid_dc_reserve_packet_id(struct braid_dc *dc, uint8_t *key_id, uint32_t *packet_id)
{
	struct dc_key *k = &dc->keys[SLOT_PRIMARY];
	uint32_t pid;
	int ret;

	if (!k->used)
		return -ENOKEY;
	if (k->tx_pid == UINT32_MAX)
		return -EOVERFLOW;
	ret = braid_txpid_start(&k->txpid);
	if (ret)
		return ret;
	pid = k->tx_pid + 1;
	braid_txpid_advance(&k->txpid, k->tx_pid, pid);
	k->tx_pid = pid;
	k->st.tx_reserved++;
	*key_id = k->key_id;
	*packet_id = pid;
	return 0;
}

int braid_dc_encrypt_reserved(struct braid_dc *dc, unsigned key_id, uint32_t packet_id,
			      const uint8_t *pt, size_t pt_len, uint8_t *out, size_t cap,
			      size_t *out_len)
{
	struct dc_key *k = find_key(dc, key_id);
	int ret;

	if (!k)
		return -ENOKEY;
	if (out_too_small(dc, pt_len, cap))
		return -ENOBUFS;
	/* Claimed before sealing: an id whose sealing fails is burnt, never retried. */
	ret = braid_txpid_claim(&k->txpid, k->tx_pid, packet_id);
	if (ret) {
		k->st.tx_reserve_refused++;
		braid_dc_log(BRAID_DC_LOG_DEBUG, "key_id %u packet-id %u not sealed: %s", key_id,
			     packet_id,
			     ret == -EALREADY ? "already sealed once" :
			     ret == -ESTALE ? "older than the reservation window" :
			     "never reserved");
		return ret;
	}
	ret = seal_packet(dc, k, packet_id, pt, pt_len, out, out_len);
	if (ret)
		return ret;
	k->st.tx_packets++;
	k->st.tx_bytes += pt_len;
	return 0;
}

int braid_dc_peek(const uint8_t *pkt, size_t len, uint8_t *opcode, uint8_t *key_id,
		  uint32_t *peer_id)
{
	uint8_t op;

	if (len < 1)
		return -EMSGSIZE;
	op = pkt[0] >> 3;
	if (op != BRAID_OP_DATA_V1 && op != BRAID_OP_DATA_V2)
		return -EPROTO;
	if (op == BRAID_OP_DATA_V2 && len < 4)
		return -EMSGSIZE;
	*opcode = op;
	*key_id = pkt[0] & 7;
	*peer_id = op == BRAID_OP_DATA_V2 ? wire_get_be24(pkt + 1) : BRAID_DC_PEER_ID_NONE;
	return 0;
}

int braid_dc_decrypt(struct braid_dc *dc, const uint8_t *pkt, size_t len, int64_t now,
		     uint8_t *out, size_t cap, size_t *out_len, struct braid_dc_rx_info *info)
{
	uint8_t nonce[BRAID_AEAD_NONCE_LEN];
	uint8_t op, kid;
	uint32_t peer_id, pid, time = 0;
	const uint8_t *pid_p, *ad;
	bool restarted;
	size_t hdr, ad_len, ct_len;
	enum braid_replay_result rr;
	struct dc_key *k;
	int ret;

	*out_len = 0;
	ret = braid_dc_peek(pkt, len, &op, &kid, &peer_id);
	if (ret == -EPROTO) {
		dc->st.rx_bad_opcode++;
		return ret;
	}
	hdr = hdr_len(dc, op == BRAID_OP_DATA_V2);
	if (ret || len < hdr + BRAID_AEAD_TAG_LEN) {
		dc->st.rx_truncated++;
		return -EMSGSIZE;
	}
	if (op == BRAID_OP_DATA_V2 && peer_id != dc->cfg.peer_id) {
		dc->st.rx_bad_peer_id++;
		return -ENXIO;
	}
	k = find_key(dc, kid);
	if (!k) {
		dc->st.rx_unknown_key++;
		return -ENOKEY;
	}
	ct_len = len - hdr - BRAID_AEAD_TAG_LEN;
	if (cap < ct_len)
		return -ENOBUFS;

	if (op == BRAID_OP_DATA_V2) {
		pid_p = pkt + 4;
		ad = pkt;
		ad_len = hdr;
	} else {
		pid_p = pkt + 1;
		ad = pid_p;
		ad_len = hdr - 1;
	}
	pid = wire_get_be32(pid_p);
	if (dc->cfg.long_form)
		time = wire_get_be32(pid_p + 4);
	make_nonce(nonce, pid_p, k->dec_iv, time);
	ret = braid_aead_open(k->dec, nonce, ad, ad_len, pkt + hdr + BRAID_AEAD_TAG_LEN, ct_len,
			      pkt + hdr, out);
	if (ret == -EBADMSG) {
		k->st.rx_auth_failures++;
		return ret;
	}
	if (ret)
		return ret;

	/*
	 * Only an authenticated packet may advance the replay window. Long form: a newer time than
	 * the sequence's is the peer's restart (a new epoch), an older one a replay.
	 */
	restarted = dc->cfg.long_form && k->replay.pkt_time && time > k->replay.pkt_time;
	rr = braid_replay_accept(&k->replay, time, pid, now);
	if (rr != BRAID_REPLAY_OK) {
		k->st.rx_replays++;
		return rr == BRAID_REPLAY_DUPLICATE ? -EALREADY : -ESTALE;
	}
	k->st.rx_packets++;
	k->st.rx_bytes += ct_len;
	*out_len = ct_len;
	if (info) {
		info->packet_id = pid;
		info->key_id = kid;
		info->opcode = op;
		info->peer_restarted = rr == BRAID_REPLAY_OK && restarted;
		info->time = time;
	}
	return 0;
}
