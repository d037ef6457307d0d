// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_cipher_names.c - IANA cipher-suite names in `tls-cipher` mapped to
 * OpenSSL's (tls_cipher_names.h); OpenSSL's own table does the mapping
 * (OPENSSL_cipher_name), so every suite the library knows is covered.
 */
#include "tls_cipher_names.h"

#include <errno.h>
#include <string.h>

#include <openssl/ssl.h>

#define NAME_MAX_LEN 128	/* the longest IANA suite name is under 64 */

static int append(char *out, size_t outlen, size_t *pos, const char *s, size_t n)
{
	if (*pos + n + 1 > outlen)
		return -E2BIG;
	memcpy(out + *pos, s, n);
	*pos += n;
	out[*pos] = '\0';
	return 0;
}

int tls_cipher_list_to_openssl(const char *in, char *out, size_t outlen, const char **bad, size_t *badlen)
{
	size_t pos = 0;
	const char *p = in;
	int r;

	if (!outlen)
		return -E2BIG;
	out[0] = '\0';
	for (;;) {
		size_t n = strcspn(p, ":");
		if (pos && (r = append(out, outlen, &pos, ":", 1)))
			return r;
		if (n > 4 && (!strncmp(p, "TLS-", 4) || !strncmp(p, "TLS_", 4))) {
			char iana[NAME_MAX_LEN];
			const char *ossl;
			if (n >= sizeof(iana))
				goto unknown;
			for (size_t i = 0; i < n; i++)
				iana[i] = p[i] == '-' ? '_' : p[i];
			iana[n] = '\0';
			ossl = OPENSSL_cipher_name(iana);
			if (!ossl || !strcmp(ossl, "(NONE)"))
				goto unknown;
			r = append(out, outlen, &pos, ossl, strlen(ossl));
		} else {
			r = append(out, outlen, &pos, p, n);
		}
		if (r)
			return r;
		if (!p[n])
			return 0;
		p += n + 1;
		continue;
unknown:
		*bad = p;
		*badlen = n;
		return -EINVAL;
	}
}
