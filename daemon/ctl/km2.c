// SPDX-License-Identifier: GPL-2.0-only
/*
 * km2.c - key-method-2 message build/parse and peer-info variables.
 */
#include "km2.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "util/wire.h"

#define KM2_HEAD 5

int braid_km2_randomize(struct braid_km2 *m, bool from_client)
{
	m->from_client = from_client;
	if (from_client && RAND_bytes(m->pre_master, sizeof(m->pre_master)) != 1)
		return -EIO;
	if (!from_client)
		memset(m->pre_master, 0, sizeof(m->pre_master));
	if (RAND_bytes(m->random1, sizeof(m->random1)) != 1 ||
	    RAND_bytes(m->random2, sizeof(m->random2)) != 1)
		return -EIO;
	return 0;
}

static int put_str(const char *s, size_t max, uint8_t *out, size_t cap, size_t *pos)
{
	size_t n = strnlen(s, max + 1);

	if (n > max)
		return -EINVAL;
	if (cap - *pos < 2 + (n ? n + 1 : 0))
		return -ENOBUFS;
	wire_put_be16(out + *pos, (uint16_t)(n ? n + 1 : 0));
	*pos += 2;
	if (n) {
		memcpy(out + *pos, s, n + 1);
		*pos += n + 1;
	}
	return 0;
}

int braid_km2_build(const struct braid_km2 *m, uint8_t *out, size_t cap, size_t *len)
{
	size_t pos = 0;
	int ret;

	if (cap < KM2_HEAD + (m->from_client ? BRAID_KDF_PRE_MASTER_LEN : 0) + 2 * BRAID_KDF_RANDOM_LEN)
		return -ENOBUFS;
	wire_put_be32(out, 0);
	out[4] = 2;
	pos = KM2_HEAD;
	if (m->from_client) {
		memcpy(out + pos, m->pre_master, BRAID_KDF_PRE_MASTER_LEN);
		pos += BRAID_KDF_PRE_MASTER_LEN;
	}
	memcpy(out + pos, m->random1, BRAID_KDF_RANDOM_LEN);
	pos += BRAID_KDF_RANDOM_LEN;
	memcpy(out + pos, m->random2, BRAID_KDF_RANDOM_LEN);
	pos += BRAID_KDF_RANDOM_LEN;
	ret = put_str(m->options, BRAID_KM2_OPTIONS_MAX - 1, out, cap, &pos);
	if (!ret)
		ret = put_str(m->username, BRAID_KM2_FIELD_MAX, out, cap, &pos);
	if (!ret)
		ret = put_str(m->password, BRAID_KM2_FIELD_MAX, out, cap, &pos);
	if (!ret)
		ret = put_str(m->peer_info, BRAID_KM2_FIELD_MAX, out, cap, &pos);
	if (ret) {
		OPENSSL_cleanse(out, pos < cap ? pos : cap);
		return ret;
	}
	*len = pos;
	return 0;
}

/* u16 len | bytes (last one NUL). Missing at the very end = empty if optional. */
static int get_str(const uint8_t *buf, size_t len, size_t *pos, char *dst, size_t dcap,
		   bool optional, const char **why, const char *name_trunc,
		   const char *name_long)
{
	size_t n;

	dst[0] = '\0';
	if (*pos == len && optional)
		return 0;
	if (len - *pos < 2) {
		*why = name_trunc;
		return -EBADMSG;
	}
	n = wire_get_be16(buf + *pos);
	*pos += 2;
	if (n == 0)
		return 0;
	if (len - *pos < n) {
		*why = name_trunc;
		return -EBADMSG;
	}
	if (n > dcap) {
		*why = name_long;
		return -EBADMSG;
	}
	if (buf[*pos + n - 1] != '\0') {
		*why = "key-method-2: string field not NUL-terminated";
		return -EBADMSG;
	}
	memcpy(dst, buf + *pos, n);
	*pos += n;
	return 0;
}

int braid_km2_parse(const uint8_t *buf, size_t len, bool from_client, struct braid_km2 *m,
		    const char **why)
{
	const char *dummy;
	size_t pos;
	int ret;

	if (!why)
		why = &dummy;
	memset(m, 0, sizeof(*m));
	m->from_client = from_client;
	if (len < KM2_HEAD + (from_client ? BRAID_KDF_PRE_MASTER_LEN : 0) + 2 * BRAID_KDF_RANDOM_LEN) {
		*why = "key-method-2: message too short";
		return -EBADMSG;
	}
	if (wire_get_be32(buf) != 0) {
		*why = "key-method-2: leading u32 is not zero";
		return -EBADMSG;
	}
	if ((buf[4] & 0x0f) != 2) {
		*why = "key-method-2: unsupported key method";
		return -EBADMSG;
	}
	pos = KM2_HEAD;
	if (from_client) {
		memcpy(m->pre_master, buf + pos, BRAID_KDF_PRE_MASTER_LEN);
		pos += BRAID_KDF_PRE_MASTER_LEN;
	}
	memcpy(m->random1, buf + pos, BRAID_KDF_RANDOM_LEN);
	pos += BRAID_KDF_RANDOM_LEN;
	memcpy(m->random2, buf + pos, BRAID_KDF_RANDOM_LEN);
	pos += BRAID_KDF_RANDOM_LEN;
	ret = get_str(buf, len, &pos, m->options, sizeof(m->options), false, why,
		      "key-method-2: truncated options string", "key-method-2: options string too long");
	if (!ret)
		ret = get_str(buf, len, &pos, m->username, sizeof(m->username), true, why,
			      "key-method-2: truncated username", "key-method-2: username too long");
	if (!ret)
		ret = get_str(buf, len, &pos, m->password, sizeof(m->password), true, why,
			      "key-method-2: truncated password", "key-method-2: password too long");
	if (!ret)
		ret = get_str(buf, len, &pos, m->peer_info, sizeof(m->peer_info), true, why,
			      "key-method-2: truncated peer-info", "key-method-2: peer-info too long");
	if (!ret && pos != len) {
		*why = "key-method-2: trailing bytes after peer-info";
		ret = -EBADMSG;
	}
	if (ret)
		braid_km2_wipe(m);
	return ret;
}

void braid_km2_wipe(struct braid_km2 *m)
{
	OPENSSL_cleanse(m, sizeof(*m));
}

static bool name_ok(const char *name)
{
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

int braid_peer_info_get(const char *pi, const char *name, char *val, size_t cap)
{
	size_t nl = strlen(name);
	const char *p = pi;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);

		if (ll > nl && memcmp(p, name, nl) == 0 && p[nl] == '=') {
			size_t vl = ll - nl - 1;

			if (vl + 1 > cap)
				return -ENOBUFS;
			memcpy(val, p + nl + 1, vl);
			val[vl] = '\0';
			return 0;
		}
		p = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

int braid_peer_info_add(char *buf, size_t cap, const char *name, const char *val)
{
	size_t cur = strnlen(buf, cap), need;

	if (!name_ok(name) || strchr(val, '\n') || cur == cap)
		return -EINVAL;
	need = strlen(name) + 1 + strlen(val) + 1;
	if (cap - cur < need + 1)
		return -ENOBUFS;
	snprintf(buf + cur, cap - cur, "%s=%s\n", name, val);
	return 0;
}

int braid_peer_info_iv_proto(const char *pi, uint32_t *proto)
{
	char v[16], *end;
	unsigned long x;
	int ret;

	ret = braid_peer_info_get(pi, "IV_PROTO", v, sizeof(v));
	if (ret)
		return ret == -ENOBUFS ? -EINVAL : ret;
	if (v[0] < '0' || v[0] > '9')
		return -EINVAL;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || *end || x > UINT32_MAX)
		return -EINVAL;
	*proto = (uint32_t)x;
	return 0;
}

const char *braid_mp_version_knob(void)
{
	const char *k = getenv(BRAID_MP_VERSION_ENV);

	return k && *k ? k : NULL;
}

unsigned braid_mp_version_parse(const char *s)
{
	char *end;
	unsigned long x;

	if (!s || s[0] < '1' || s[0] > '9')
		return 0;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x > 0xffff)
		return 0;
	return (unsigned)x;
}

unsigned braid_mp_version_max(void)
{
	unsigned v = braid_mp_version_parse(braid_mp_version_knob());

	return v ? v : BRAID_MP_VERSION;
}

int braid_peer_info_add_braid_mp(char *buf, size_t cap)
{
	const char *k = braid_mp_version_knob();
	char v[12];

	snprintf(v, sizeof(v), "%u", braid_mp_version_max());
	/* the test knob's text goes out verbatim (a garbage announcement), within reason */
	return braid_peer_info_add(buf, cap, BRAID_PEER_INFO_MP,
				   k && !braid_mp_version_parse(k) && strlen(k) < 64 ? k : v);
}

unsigned braid_peer_info_braid_mp(const char *pi)
{
	char v[12];

	if (braid_peer_info_get(pi, BRAID_PEER_INFO_MP, v, sizeof(v)))
		return 0;
	return braid_mp_version_parse(v);
}
