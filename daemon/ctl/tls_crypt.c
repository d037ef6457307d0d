// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_crypt.c - OpenVPN --tls-crypt (AES-256-CTR + HMAC-SHA256) and the
 * tls-crypt-v2 client key file.
 */
#include "tls_crypt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "hmac.h"
#include "pkt.h"
#include "util/wire.h"

int braid_tls_crypt_init(struct braid_tls_crypt *c, const struct braid_key2 *key, bool server,
			 uint32_t replay_window, uint32_t replay_time)
{
	struct braid_key_sel sel;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = braid_key2_select(key, server ? BRAID_KEY_DIR_NORMAL : BRAID_KEY_DIR_INVERSE, &sel);
	if (ret)
		return ret;
	memcpy(c->ke_out, sel.out.cipher, BRAID_TLS_CRYPT_KEY_LEN);
	memcpy(c->ka_out, sel.out.hmac, BRAID_TLS_CRYPT_KEY_LEN);
	memcpy(c->ke_in, sel.in.cipher, BRAID_TLS_CRYPT_KEY_LEN);
	memcpy(c->ka_in, sel.in.hmac, BRAID_TLS_CRYPT_KEY_LEN);
	ret = braid_replay_init(&c->replay, replay_window, replay_time);
	if (ret)
		goto err;
	return 0;
err:
	OPENSSL_cleanse(c, sizeof(*c));
	return ret;
}

void braid_tls_crypt_free(struct braid_tls_crypt *c)
{
	braid_replay_free(&c->replay);
	OPENSSL_cleanse(c, sizeof(*c));
}

void braid_tls_crypt_set_tx(struct braid_tls_crypt *c, uint32_t next_pid, uint32_t time)
{
	c->tx_pid = next_pid ? next_pid - 1 : 0;
	c->tx_time = time;
}

/* AES-256-CTR with a 16-byte IV (the full counter block); in may equal out. */
static int aes_ctr(const uint8_t key[32], const uint8_t iv[16], const uint8_t *in, size_t len,
		   uint8_t *out)
{
	EVP_CIPHER_CTX *ctx;
	int n = 0, m = 0, ret = -EIO;

	if (len > INT32_MAX)
		return -EINVAL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	if (EVP_EncryptInit_ex2(ctx, EVP_aes_256_ctr(), key, iv, NULL) &&
	    EVP_EncryptUpdate(ctx, out, &n, in, (int)len) &&
	    EVP_EncryptFinal_ex(ctx, out + n, &m) && (size_t)(n + m) == len)
		ret = 0;
	EVP_CIPHER_CTX_free(ctx);
	return ret;
}

int braid_tls_crypt_wrap(struct braid_tls_crypt *c, const uint8_t *plain, size_t len,
			 int64_t now, uint8_t *out, size_t cap, size_t *olen)
{
	const size_t hdr = BRAID_TLS_CRYPT_HDR_LEN;
	uint8_t tag[BRAID_HMAC_MAX];
	struct braid_iov iov[2];
	size_t n, tlen, ilen;
	int ret;

	if (len < BRAID_CTL_PLAIN_HDR || !braid_ctl_op_is_control(plain[0] >> BRAID_CTL_OP_SHIFT))
		return -EINVAL;
	ilen = len - BRAID_CTL_PLAIN_HDR;
	n = hdr + BRAID_TLS_CRYPT_TAG_LEN + ilen;
	if (n > cap)
		return -ENOBUFS;
	if (c->tx_pid == 0 || c->tx_pid == UINT32_MAX) {
		if (c->tx_pid == UINT32_MAX || c->tx_time == 0)
			c->tx_time = (uint32_t)now;
		c->tx_pid = 0;
	}
	c->tx_pid++;
	memcpy(out, plain, BRAID_CTL_PLAIN_HDR);
	wire_put_be32(out + BRAID_CTL_PLAIN_HDR, c->tx_pid);
	wire_put_be32(out + BRAID_CTL_PLAIN_HDR + 4, c->tx_time);
	iov[0] = (struct braid_iov){ out, hdr };
	iov[1] = (struct braid_iov){ plain + BRAID_CTL_PLAIN_HDR, ilen };
	ret = braid_hmac("SHA256", c->ka_out, BRAID_TLS_CRYPT_KEY_LEN, iov, 2, tag, &tlen);
	if (ret)
		return ret;
	memcpy(out + hdr, tag, BRAID_TLS_CRYPT_TAG_LEN);
	ret = aes_ctr(c->ke_out, tag, plain + BRAID_CTL_PLAIN_HDR, ilen,
		      out + hdr + BRAID_TLS_CRYPT_TAG_LEN);
	if (ret)
		return ret;
	*olen = n;
	return 0;
}

int braid_tls_crypt_unwrap(struct braid_tls_crypt *c, const uint8_t *wire, size_t len,
			   int64_t now, unsigned flags, uint8_t *out, size_t cap, size_t *olen)
{
	const size_t hdr = BRAID_TLS_CRYPT_HDR_LEN, off = hdr + BRAID_TLS_CRYPT_TAG_LEN;
	uint8_t head[BRAID_TLS_CRYPT_HDR_LEN], tag[BRAID_TLS_CRYPT_TAG_LEN], mac[BRAID_HMAC_MAX];
	enum braid_replay_result rr;
	struct braid_iov iov[2];
	size_t ilen, mlen;
	uint32_t pid, tm;
	int ret;

	c->why = NULL;
	if (len < 1 || !braid_ctl_op_is_control(wire[0] >> BRAID_CTL_OP_SHIFT)) {
		c->why = "not a control opcode";
		return -EPROTO;
	}
	if (len < off + 1) {
		c->why = "tls-crypt: packet too short";
		return -EBADMSG;
	}
	ilen = len - off;
	if (BRAID_CTL_PLAIN_HDR + ilen > cap)
		return -ENOBUFS;
	/* copies: out may be wire */
	memcpy(head, wire, hdr);
	memcpy(tag, wire + hdr, BRAID_TLS_CRYPT_TAG_LEN);
	ret = aes_ctr(c->ke_in, tag, wire + off, ilen, out + BRAID_CTL_PLAIN_HDR);
	if (ret)
		goto out;
	iov[0] = (struct braid_iov){ head, hdr };
	iov[1] = (struct braid_iov){ out + BRAID_CTL_PLAIN_HDR, ilen };
	ret = braid_hmac("SHA256", c->ka_in, BRAID_TLS_CRYPT_KEY_LEN, iov, 2, mac, &mlen);
	if (ret)
		goto out;
	if (CRYPTO_memcmp(mac, tag, BRAID_TLS_CRYPT_TAG_LEN) != 0) {
		c->why = "tls-crypt: authentication tag mismatch (wrong key or role)";
		ret = -EBADMSG;
		goto out;
	}
	pid = wire_get_be32(head + BRAID_CTL_PLAIN_HDR);
	tm = wire_get_be32(head + BRAID_CTL_PLAIN_HDR + 4);
	if (!(flags & BRAID_UNWRAP_NO_REPLAY)) {
		rr = braid_replay_accept(&c->replay, tm, pid, now);
		if (rr != BRAID_REPLAY_OK) {
			c->why = braid_replay_result_str(rr);
			ret = rr == BRAID_REPLAY_DUPLICATE ? -EALREADY : -ESTALE;
			goto out;
		}
	}
	c->rx_pid = pid;
	c->rx_time = tm;
	memcpy(out, head, BRAID_CTL_PLAIN_HDR);
	*olen = BRAID_CTL_PLAIN_HDR + ilen;
	return 0;
out:
	/* never hand out unauthenticated plaintext */
	OPENSSL_cleanse(out + BRAID_CTL_PLAIN_HDR, ilen);
	return ret;
}

static const char v2c_head[] = "-----BEGIN OpenVPN tls-crypt-v2 client key-----";
static const char v2c_foot[] = "-----END OpenVPN tls-crypt-v2 client key-----";

static int v2_fail(char *err, size_t err_len, const char *msg)
{
	if (err && err_len)
		snprintf(err, err_len, "%s", msg);
	return -EINVAL;
}

int braid_tls_crypt_v2_client_key_parse(const char *text, size_t len,
					struct braid_tls_crypt_v2_client_key *out, char *err,
					size_t err_len)
{
	const size_t maxb64 = (BRAID_KEY2_LEN + BRAID_TLS_CRYPT_V2_WKC_MAX) / 3 * 4 + 8;
	const char *h, *f, *end = text + len;
	char b64[(BRAID_KEY2_LEN + BRAID_TLS_CRYPT_V2_WKC_MAX) / 3 * 4 + 8];
	uint8_t raw[(BRAID_KEY2_LEN + BRAID_TLS_CRYPT_V2_WKC_MAX) / 3 * 3 + 8];
	size_t nb = 0, pad = 0, nraw, wlen;
	int n, ret;

	if (memchr(text, '\0', len))
		return v2_fail(err, err_len, "tls-crypt-v2 client key: NUL byte in key text");
	h = memmem(text, len, v2c_head, sizeof(v2c_head) - 1);
	if (!h)
		return v2_fail(err, err_len, "tls-crypt-v2 client key: no BEGIN line found");
	h += sizeof(v2c_head) - 1;
	f = memmem(h, (size_t)(end - h), v2c_foot, sizeof(v2c_foot) - 1);
	if (!f)
		return v2_fail(err, err_len, "tls-crypt-v2 client key: no END line found");
	for (const char *p = h; p < f; p++) {
		if (isspace((unsigned char)*p))
			continue;
		if (!isalnum((unsigned char)*p) && *p != '+' && *p != '/' && *p != '=') {
			ret = v2_fail(err, err_len, "tls-crypt-v2 client key: invalid base64 character");
			goto out;
		}
		if (nb == maxb64) {
			ret = v2_fail(err, err_len, "tls-crypt-v2 client key: too long");
			goto out;
		}
		b64[nb++] = *p;
	}
	if (nb == 0 || nb % 4) {
		ret = v2_fail(err, err_len, "tls-crypt-v2 client key: base64 length not a multiple of 4");
		goto out;
	}
	if (b64[nb - 1] == '=')
		pad++;
	if (b64[nb - 2] == '=')
		pad++;
	n = EVP_DecodeBlock(raw, (const unsigned char *)b64, (int)nb);
	if (n < 0 || (size_t)n < pad) {
		ret = v2_fail(err, err_len, "tls-crypt-v2 client key: bad base64");
		goto out;
	}
	nraw = (size_t)n - pad;
	if (nraw < BRAID_KEY2_LEN + 32 + BRAID_KEY2_LEN + 2) {
		ret = v2_fail(err, err_len, "tls-crypt-v2 client key: too short for Kc and WKc");
		goto out;
	}
	wlen = nraw - BRAID_KEY2_LEN;
	if (wlen > BRAID_TLS_CRYPT_V2_WKC_MAX) {
		ret = v2_fail(err, err_len, "tls-crypt-v2 client key: WKc longer than 1024 bytes");
		goto out;
	}
	if (wire_get_be16(raw + nraw - 2) != wlen) {
		ret = v2_fail(err, err_len,
			      "tls-crypt-v2 client key: WKc length field does not match its size");
		goto out;
	}
	memcpy(out->kc.k, raw, BRAID_KEY2_LEN);
	memcpy(out->wkc, raw + BRAID_KEY2_LEN, wlen);
	out->wkc_len = wlen;
	ret = 0;
out:
	OPENSSL_cleanse(b64, sizeof(b64));
	OPENSSL_cleanse(raw, sizeof(raw));
	return ret;
}

void braid_tls_crypt_v2_client_key_wipe(struct braid_tls_crypt_v2_client_key *k)
{
	OPENSSL_cleanse(k, sizeof(*k));
}

int braid_tls_crypt_v2_unsupported(char *err, size_t err_len)
{
	if (err && err_len)
		snprintf(err, err_len,
			 "tls-crypt-v2 is not supported yet (the client key parses, but the "
			 "P_CONTROL_HARD_RESET_CLIENT_V3 / WKc exchange is not implemented)");
	return -EOPNOTSUPP;
}
