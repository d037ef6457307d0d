// SPDX-License-Identifier: GPL-2.0-only
/*
 * payload.c - classify decrypted payloads; build ping and OCC EXIT.
 */
#include "payload.h"

#include <errno.h>
#include <string.h>

/* ping.c ping_string */
const uint8_t braid_ping_magic[BRAID_PING_LEN] = {
	0x2a, 0x18, 0x7b, 0xf3, 0x64, 0x1e, 0xb4, 0xcb,
	0x07, 0xed, 0x2d, 0x0a, 0x98, 0x1f, 0xc7, 0x48,
};

/* occ.c occ_magic */
const uint8_t braid_occ_magic[BRAID_OCC_MAGIC_LEN] = {
	0x28, 0x7f, 0x34, 0x6b, 0xd4, 0xef, 0x7a, 0x81,
	0x2d, 0x56, 0xb8, 0xd3, 0xaf, 0xc5, 0x45, 0x9c,
};

#define LZO_NO_COMPRESS 0xfa
#define LZO_COMPRESSED 0x66
#define SWAP_NO_COMPRESS 0xfb
#define SWAP_LZ4 0x69
#define V2_INDICATOR 0x50
#define V2_UNCOMPRESSED 0x00
#define V2_LZ4 0x01
/*
 * The fact sheet notes the 2.6 stub-v2 escape writer may emit 0x50 0x0A;
 * 0x0A has no other meaning, so we accept it as "uncompressed" too.
 */
#define V2_UNCOMPRESSED_ALT 0x0a

static void classify_plain(const uint8_t *p, size_t len, struct braid_payload *out)
{
	out->data = p;
	out->len = len;
	out->occ_type = -1;
	if (len == 0) {
		out->kind = BRAID_PAYLOAD_EMPTY;
	} else if (len == BRAID_PING_LEN && memcmp(p, braid_ping_magic, BRAID_PING_LEN) == 0) {
		out->kind = BRAID_PAYLOAD_PING;
	} else if (len >= BRAID_OCC_MAGIC_LEN &&
		   memcmp(p, braid_occ_magic, BRAID_OCC_MAGIC_LEN) == 0) {
		out->kind = BRAID_PAYLOAD_OCC;
		if (len > BRAID_OCC_MAGIC_LEN)
			out->occ_type = p[BRAID_OCC_MAGIC_LEN];
		out->data = p + BRAID_OCC_MAGIC_LEN + (len > BRAID_OCC_MAGIC_LEN);
		out->len = len - BRAID_OCC_MAGIC_LEN - (len > BRAID_OCC_MAGIC_LEN);
	} else if (p[0] >> 4 == 4) {
		out->kind = len >= 20 ? BRAID_PAYLOAD_IPV4 : BRAID_PAYLOAD_NOT_IP;
	} else if (p[0] >> 4 == 6) {
		out->kind = len >= 40 ? BRAID_PAYLOAD_IPV6 : BRAID_PAYLOAD_NOT_IP;
	} else {
		out->kind = BRAID_PAYLOAD_NOT_IP;
	}
}

static void set_kind(struct braid_payload *out, enum braid_payload_kind k,
		     const uint8_t *p, size_t len)
{
	out->kind = k;
	out->occ_type = -1;
	out->data = p;
	out->len = len;
}

void braid_payload_classify(enum braid_comp_framing framing, uint8_t *buf, size_t len,
			    struct braid_payload *out)
{
	if (len == 0) {
		set_kind(out, BRAID_PAYLOAD_EMPTY, buf, 0);
		return;
	}
	switch (framing) {
	case BRAID_COMP_NONE:
		break;
	case BRAID_COMP_LZO:
		if (buf[0] == LZO_COMPRESSED) {
			set_kind(out, BRAID_PAYLOAD_COMPRESSED, buf, len);
			return;
		}
		if (buf[0] != LZO_NO_COMPRESS) {
			set_kind(out, BRAID_PAYLOAD_BAD_FRAMING, buf, len);
			return;
		}
		buf++;
		len--;
		break;
	case BRAID_COMP_STUB:
		if (buf[0] == SWAP_LZ4) {
			set_kind(out, BRAID_PAYLOAD_COMPRESSED, buf, len);
			return;
		}
		if (buf[0] != SWAP_NO_COMPRESS) {
			set_kind(out, BRAID_PAYLOAD_BAD_FRAMING, buf, len);
			return;
		}
		/* The payload's first byte was moved to the end. */
		buf[0] = buf[len - 1];
		len--;
		break;
	case BRAID_COMP_STUB_V2:
		if (buf[0] != V2_INDICATOR)
			break;
		if (len >= 2 && (buf[1] == V2_UNCOMPRESSED || buf[1] == V2_UNCOMPRESSED_ALT)) {
			buf += 2;
			len -= 2;
			break;
		}
		set_kind(out, len >= 2 && buf[1] == V2_LZ4 ? BRAID_PAYLOAD_COMPRESSED :
			 BRAID_PAYLOAD_BAD_FRAMING, buf, len);
		return;
	default:
		set_kind(out, BRAID_PAYLOAD_BAD_FRAMING, buf, len);
		return;
	}
	classify_plain(buf, len, out);
}

int braid_payload_frame(enum braid_comp_framing framing, const uint8_t *in, size_t len,
			uint8_t *out, size_t cap, size_t *out_len)
{
	size_t need = len;

	if (len == 0) {
		*out_len = 0;
		return 0;
	}
	if (framing == BRAID_COMP_LZO || framing == BRAID_COMP_STUB)
		need = len + 1;
	else if (framing == BRAID_COMP_STUB_V2 && in[0] == V2_INDICATOR)
		need = len + 2;
	else if (framing != BRAID_COMP_NONE && framing != BRAID_COMP_STUB_V2)
		return -EINVAL;
	if (cap < need)
		return -ENOBUFS;

	switch (framing) {
	case BRAID_COMP_LZO:
		out[0] = LZO_NO_COMPRESS;
		memmove(out + 1, in, len);
		break;
	case BRAID_COMP_STUB:
		memmove(out, in, len);
		out[len] = out[0];
		out[0] = SWAP_NO_COMPRESS;
		break;
	case BRAID_COMP_STUB_V2:
		if (need == len + 2) {
			memmove(out + 2, in, len);
			out[0] = V2_INDICATOR;
			out[1] = V2_UNCOMPRESSED;
			break;
		}
		/* fall through */
	default:
		memmove(out, in, len);
		break;
	}
	*out_len = need;
	return 0;
}

int braid_payload_build_ping(enum braid_comp_framing framing, uint8_t *out, size_t cap,
			     size_t *out_len)
{
	return braid_payload_frame(framing, braid_ping_magic, BRAID_PING_LEN, out, cap, out_len);
}

int braid_payload_build_occ_exit(enum braid_comp_framing framing, uint8_t *out, size_t cap,
				 size_t *out_len)
{
	uint8_t msg[BRAID_OCC_MAGIC_LEN + 1];

	memcpy(msg, braid_occ_magic, BRAID_OCC_MAGIC_LEN);
	msg[BRAID_OCC_MAGIC_LEN] = BRAID_OCC_EXIT;
	return braid_payload_frame(framing, msg, sizeof(msg), out, cap, out_len);
}

const char *braid_payload_kind_str(enum braid_payload_kind k)
{
	switch (k) {
	case BRAID_PAYLOAD_IPV4:
		return "ipv4";
	case BRAID_PAYLOAD_IPV6:
		return "ipv6";
	case BRAID_PAYLOAD_PING:
		return "ping";
	case BRAID_PAYLOAD_OCC:
		return "occ";
	case BRAID_PAYLOAD_EMPTY:
		return "empty";
	case BRAID_PAYLOAD_COMPRESSED:
		return "compressed";
	case BRAID_PAYLOAD_BAD_FRAMING:
		return "bad-framing";
	case BRAID_PAYLOAD_NOT_IP:
		return "not-ip";
	}
	return "?";
}
