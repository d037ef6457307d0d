// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_auth.c - OpenVPN --tls-auth HMAC wrapping of control packets.
 */
#include "tls_auth.h"

#include <errno.h>
#include <string.h>

#include <openssl/crypto.h>

#include "pkt.h"
#include "util/wire.h"

#define REPLAY_LEN 8

int braid_tls_auth_init(struct braid_tls_auth *c, const struct braid_key2 *key, int direction,
			const char *digest, uint32_t replay_window, uint32_t replay_time)
{
	struct braid_key_sel sel;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!digest)
		digest = "SHA1";
	if (strlen(digest) >= sizeof(c->digest))
		return -EINVAL;
	ret = braid_hmac_size(digest, &c->hlen);
	if (ret)
		return ret;
	ret = braid_key2_select(key, direction, &sel);
	if (ret)
		return ret;
	strcpy(c->digest, digest);
	memcpy(c->key_out, sel.out.hmac, c->hlen);
	memcpy(c->key_in, sel.in.hmac, c->hlen);
	ret = braid_replay_init(&c->replay, replay_window, replay_time);
	if (ret)
		goto err;
	return 0;
err:
	OPENSSL_cleanse(c, sizeof(*c));
	return ret;
}

void braid_tls_auth_free(struct braid_tls_auth *c)
{
	braid_replay_free(&c->replay);
	OPENSSL_cleanse(c, sizeof(*c));
}

size_t braid_tls_auth_overhead(const struct braid_tls_auth *c)
{
	return c->hlen + REPLAY_LEN;
}

void braid_tls_auth_set_tx(struct braid_tls_auth *c, uint32_t next_pid, uint32_t time)
{
	c->tx_pid = next_pid ? next_pid - 1 : 0;
	c->tx_time = time;
}

int braid_tls_auth_wrap(struct braid_tls_auth *c, const uint8_t *plain, size_t len,
			int64_t now, uint8_t *out, size_t cap, size_t *olen)
{
	uint8_t rp[REPLAY_LEN], mac[BRAID_HMAC_MAX];
	struct braid_iov iov[2];
	size_t n, mlen;
	int ret;

	if (len < BRAID_CTL_PLAIN_HDR || !braid_ctl_op_is_control(plain[0] >> BRAID_CTL_OP_SHIFT))
		return -EINVAL;
	n = len + c->hlen + REPLAY_LEN;
	if (n > cap)
		return -ENOBUFS;
	if (c->tx_pid == 0 || c->tx_pid == UINT32_MAX) {
		/* new sequence: starts at 1 with the current time */
		if (c->tx_pid == UINT32_MAX || c->tx_time == 0)
			c->tx_time = (uint32_t)now;
		c->tx_pid = 0;
	}
	c->tx_pid++;
	wire_put_be32(rp, c->tx_pid);
	wire_put_be32(rp + 4, c->tx_time);
	iov[0] = (struct braid_iov){ rp, REPLAY_LEN };
	iov[1] = (struct braid_iov){ plain, len };
	ret = braid_hmac(c->digest, c->key_out, c->hlen, iov, 2, mac, &mlen);
	if (ret)
		return ret;
	/* out may not alias plain: build from the back */
	memcpy(out + BRAID_CTL_PLAIN_HDR + c->hlen + REPLAY_LEN, plain + BRAID_CTL_PLAIN_HDR,
	       len - BRAID_CTL_PLAIN_HDR);
	memcpy(out, plain, BRAID_CTL_PLAIN_HDR);
	memcpy(out + BRAID_CTL_PLAIN_HDR, mac, c->hlen);
	memcpy(out + BRAID_CTL_PLAIN_HDR + c->hlen, rp, REPLAY_LEN);
	*olen = n;
	return 0;
}

int braid_tls_auth_unwrap(struct braid_tls_auth *c, const uint8_t *wire, size_t len,
			  int64_t now, unsigned flags, uint8_t *out, size_t cap, size_t *olen)
{
	const size_t hdr = BRAID_CTL_PLAIN_HDR + c->hlen + REPLAY_LEN;
	uint8_t mac[BRAID_HMAC_MAX];
	struct braid_iov iov[3];
	enum braid_replay_result rr;
	size_t mlen, n;
	uint32_t pid, tm;
	int ret;

	c->why = NULL;
	if (len < 1 || !braid_ctl_op_is_control(wire[0] >> BRAID_CTL_OP_SHIFT)) {
		c->why = "not a control opcode";
		return -EPROTO;
	}
	if (len < hdr + 1) {
		c->why = "tls-auth: packet too short";
		return -EBADMSG;
	}
	n = len - c->hlen - REPLAY_LEN;
	if (n > cap)
		return -ENOBUFS;
	iov[0] = (struct braid_iov){ wire + BRAID_CTL_PLAIN_HDR + c->hlen, REPLAY_LEN };
	iov[1] = (struct braid_iov){ wire, BRAID_CTL_PLAIN_HDR };
	iov[2] = (struct braid_iov){ wire + hdr, len - hdr };
	ret = braid_hmac(c->digest, c->key_in, c->hlen, iov, 3, mac, &mlen);
	if (ret)
		return ret;
	if (CRYPTO_memcmp(mac, wire + BRAID_CTL_PLAIN_HDR, c->hlen) != 0) {
		c->why = "tls-auth: HMAC mismatch (wrong key, direction or --auth digest)";
		return -EBADMSG;
	}
	pid = wire_get_be32(wire + BRAID_CTL_PLAIN_HDR + c->hlen);
	tm = wire_get_be32(wire + BRAID_CTL_PLAIN_HDR + c->hlen + 4);
	if (!(flags & BRAID_UNWRAP_NO_REPLAY)) {
		rr = braid_replay_accept(&c->replay, tm, pid, now);
		if (rr != BRAID_REPLAY_OK) {
			c->why = braid_replay_result_str(rr);
			return rr == BRAID_REPLAY_DUPLICATE ? -EALREADY : -ESTALE;
		}
	}
	c->rx_pid = pid;
	c->rx_time = tm;
	memmove(out, wire, BRAID_CTL_PLAIN_HDR);
	memmove(out + BRAID_CTL_PLAIN_HDR, wire + hdr, len - hdr);
	*olen = n;
	return 0;
}
