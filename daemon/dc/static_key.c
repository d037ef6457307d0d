// SPDX-License-Identifier: GPL-2.0-only
/*
 * static_key.c - OpenVPN static key files and key2 slicing.
 */
#include "static_key.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

static const char key_head[] = "-----BEGIN OpenVPN Static key V1-----";
static const char key_foot[] = "-----END OpenVPN Static key V1-----";

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (err && err_len) {
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Does [p, p+n) hold exactly `word` after trimming whitespace? */
static bool line_is(const char *p, size_t n, const char *word)
{
	size_t wl = strlen(word);

	while (n && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	return n == wl && memcmp(p, word, wl) == 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int braid_static_key_parse(const char *text, size_t len, struct braid_key2 *out,
			   char *err, size_t err_len)
{
	struct braid_key2 k;
	size_t pos = 0, nbytes = 0, ndigits = 0;
	unsigned line = 0, head_line = 0;
	bool in_key = false, have_nibble = false;
	int hi = 0, ret;

	if (err && err_len)
		err[0] = '\0';
	while (pos < len) {
		const char *l = text + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos;

		pos += n + (nl ? 1 : 0);
		line++;
		if (memchr(l, '\0', n)) {
			ret = fail(err, err_len, "line %u: NUL byte in key file", line);
			goto out;
		}
		if (!in_key) {
			if (line_is(l, n, key_head)) {
				in_key = true;
				head_line = line;
			}
			continue;
		}
		if (line_is(l, n, key_foot)) {
			if (have_nibble) {
				ret = fail(err, err_len,
					   "odd number of hex digits in key data (%zu digits)",
					   ndigits);
				goto out;
			}
			if (nbytes != BRAID_KEY2_LEN) {
				ret = fail(err, err_len, "expected %d bytes of key data, got %zu",
					   BRAID_KEY2_LEN, nbytes);
				goto out;
			}
			memcpy(out, &k, sizeof(k));
			ret = 0;
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			char c = l[i];
			int v;

			if (isspace((unsigned char)c))
				continue;
			v = hexval(c);
			if (v < 0) {
				if (isprint((unsigned char)c))
					ret = fail(err, err_len,
						   "line %u: invalid character '%c' in key data", line,
						   c);
				else
					ret = fail(err, err_len,
						   "line %u: invalid byte 0x%02x in key data", line,
						   (unsigned char)c);
				goto out;
			}
			ndigits++;
			if (!have_nibble) {
				hi = v;
				have_nibble = true;
				continue;
			}
			have_nibble = false;
			if (nbytes == BRAID_KEY2_LEN) {
				ret = fail(err, err_len,
					   "line %u: more than %d bytes of key data", line,
					   BRAID_KEY2_LEN);
				goto out;
			}
			k.k[nbytes++] = (uint8_t)(hi << 4 | v);
		}
	}
	if (in_key)
		ret = fail(err, err_len, "missing '%s' after line %u", key_foot, head_line);
	else
		ret = fail(err, err_len, "no '%s' line found", key_head);
out:
	sodium_memzero(&k, sizeof(k));
	return ret;
}

int braid_static_key_load(const char *path, struct braid_key2 *out, char *err, size_t err_len)
{
	char buf[16384];
	char msg[200];
	size_t n;
	FILE *f;
	int ret;

	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		if (err && err_len)
			snprintf(err, err_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	n = fread(buf, 1, sizeof(buf), f);
	if (ferror(f)) {
		ret = -EIO;
		if (err && err_len)
			snprintf(err, err_len, "%s: read error", path);
		goto out;
	}
	if (n == sizeof(buf)) {
		ret = -EFBIG;
		if (err && err_len)
			snprintf(err, err_len, "%s: too large for a static key file", path);
		goto out;
	}
	ret = braid_static_key_parse(buf, n, out, msg, sizeof(msg));
	if (ret && err && err_len)
		snprintf(err, err_len, "%s: %s", path, msg);
out:
	sodium_memzero(buf, sizeof(buf));
	fclose(f);
	return ret;
}

int braid_key_direction_parse(const char *s, int *dir)
{
	if (!s)
		return -EINVAL;
	if (strcmp(s, "0") == 0)
		*dir = BRAID_KEY_DIR_NORMAL;
	else if (strcmp(s, "1") == 0)
		*dir = BRAID_KEY_DIR_INVERSE;
	else if (strcasecmp(s, "none") == 0 || strcasecmp(s, "bidirectional") == 0)
		*dir = BRAID_KEY_DIR_BIDIRECTIONAL;
	else
		return -EINVAL;
	return 0;
}

int braid_key2_select(const struct braid_key2 *k2, int direction, struct braid_key_sel *sel)
{
	const uint8_t *k0 = k2->k, *k1 = k2->k + 2 * BRAID_KEY_SLOT_LEN;
	const uint8_t *o, *i;

	switch (direction) {
	case BRAID_KEY_DIR_BIDIRECTIONAL:
		o = k0;
		i = k0;
		break;
	case BRAID_KEY_DIR_NORMAL:
		o = k0;
		i = k1;
		break;
	case BRAID_KEY_DIR_INVERSE:
		o = k1;
		i = k0;
		break;
	default:
		return -EINVAL;
	}
	sel->out.cipher = o;
	sel->out.hmac = o + BRAID_KEY_SLOT_LEN;
	sel->in.cipher = i;
	sel->in.hmac = i + BRAID_KEY_SLOT_LEN;
	return 0;
}

void braid_key2_wipe(struct braid_key2 *k2)
{
	sodium_memzero(k2, sizeof(*k2));
}
