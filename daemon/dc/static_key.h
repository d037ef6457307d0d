/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * static_key.h - OpenVPN "key2" material: static key files and key slicing.
 *
 * 256 bytes = keys[2] of { u8 cipher[64]; u8 hmac[64]; }:
 *   0..63 keys[0].cipher   64..127 keys[0].hmac
 *   128..191 keys[1].cipher   192..255 keys[1].hmac
 * The same layout holds a --secret / tls-auth / tls-crypt key file and the
 * data-channel keys derived by TLS-EKM or the OpenVPN PRF.
 *
 * Key direction selects which half is used for sending and which for
 * receiving:
 *   BRAID_KEY_DIR_BIDIRECTIONAL  send keys[0], receive keys[0]
 *   BRAID_KEY_DIR_NORMAL (0)     send keys[0], receive keys[1]   (data channel: TLS client)
 *   BRAID_KEY_DIR_INVERSE (1)    send keys[1], receive keys[0]   (data channel: TLS server)
 * An algorithm uses a prefix of its slot; an AEAD's 8-byte implicit IV is the
 * prefix of the *hmac* slot.
 */
#ifndef BRAID_DC_STATIC_KEY_H
#define BRAID_DC_STATIC_KEY_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_KEY2_LEN 256
#define BRAID_KEY_SLOT_LEN 64

enum braid_key_direction {
	BRAID_KEY_DIR_BIDIRECTIONAL = -1,
	BRAID_KEY_DIR_NORMAL = 0,
	BRAID_KEY_DIR_INVERSE = 1,
};

struct braid_key2 {
	uint8_t k[BRAID_KEY2_LEN];
};

/* One direction's slots (pointers into a braid_key2, 64 bytes each). */
struct braid_key_half {
	const uint8_t *cipher;
	const uint8_t *hmac;
};

struct braid_key_sel {
	struct braid_key_half out; /* encrypt / HMAC-send */
	struct braid_key_half in;  /* decrypt / HMAC-verify */
};

/*
 * Parse the text of a static key file or an inline <tls-auth>/<secret> block.
 * Text before the BEGIN line is ignored (comments); between BEGIN and END
 * only hex digits and whitespace; END required; exactly 256 bytes.
 * On error returns -EINVAL and writes a message such as
 * "line 7: invalid character 'x' in key data" or
 * "expected 256 bytes of key data, got 255" into err (if err_len > 0).
 */
int braid_static_key_parse(const char *text, size_t len, struct braid_key2 *out,
			   char *err, size_t err_len);

/* Read and parse a file; errors are prefixed with the path. -errno. */
int braid_static_key_load(const char *path, struct braid_key2 *out, char *err, size_t err_len);

/* "0", "1", "none"/"bidirectional" -> direction. -EINVAL otherwise. */
int braid_key_direction_parse(const char *s, int *dir);

/* Slice by direction. -EINVAL for an unknown direction. */
int braid_key2_select(const struct braid_key2 *k2, int direction, struct braid_key_sel *sel);

void braid_key2_wipe(struct braid_key2 *k2);

#endif /* BRAID_DC_STATIC_KEY_H */
