// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cipher_names.c - `tls-cipher` in IANA spelling (tls_cipher_names.c):
 * OpenVPN's dashed and IANA's underscored names become OpenSSL's, OpenSSL's
 * names and keywords pass unchanged, unknown TLS- names and overlong lists
 * are refused, and the translated list is one OpenSSL accepts.
 */
#include <errno.h>
#include <string.h>

#include <openssl/ssl.h>

#include "tls_cipher_names.h"
#include "check.h"

static const char *tr(const char *in, char *out, size_t outlen, int *rc)
{
	const char *bad = NULL;
	size_t badlen = 0;

	*rc = tls_cipher_list_to_openssl(in, out, outlen, &bad, &badlen);
	if (*rc == -EINVAL) {
		static char b[128];
		snprintf(b, sizeof(b), "%.*s", (int)badlen, bad);
		return b;
	}
	return out;
}

int main(void)
{
	char out[512];
	int rc;

	CHECK_STR(tr("TLS-ECDHE-RSA-WITH-AES-256-GCM-SHA384", out, sizeof(out), &rc), "ECDHE-RSA-AES256-GCM-SHA384");
	CHECK_EQ(rc, 0);
	CHECK_STR(tr("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256:TLS-DHE-RSA-WITH-AES-128-GCM-SHA256", out,
		     sizeof(out), &rc), "ECDHE-ECDSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256");
	CHECK_EQ(rc, 0);
	/* OpenSSL's spelling, keywords, operators: unchanged */
	CHECK_STR(tr("ECDHE-RSA-AES256-GCM-SHA384:HIGH:!aNULL:@SECLEVEL=1", out, sizeof(out), &rc),
		  "ECDHE-RSA-AES256-GCM-SHA384:HIGH:!aNULL:@SECLEVEL=1");
	CHECK_EQ(rc, 0);
	CHECK_STR(tr("DEFAULT:TLS-ECDHE-RSA-WITH-AES-128-GCM-SHA256", out, sizeof(out), &rc),
		  "DEFAULT:ECDHE-RSA-AES128-GCM-SHA256");
	/* an IANA-looking name OpenSSL does not know: refused, named */
	CHECK_STR(tr("HIGH:TLS-FOO-WITH-BAR:LOW", out, sizeof(out), &rc), "TLS-FOO-WITH-BAR");
	CHECK_EQ(rc, -EINVAL);
	/* the output buffer is bounded */
	tr("TLS-ECDHE-RSA-WITH-AES-256-GCM-SHA384", out, 10, &rc);
	CHECK_EQ(rc, -E2BIG);
	CHECK_EQ((int)strlen(out) < 10, 1);

	/* OpenSSL takes the translation (stock's tls-cipher line from OpenVPN Access Server profiles) */
	SSL_CTX *ctx = SSL_CTX_new(TLS_method());
	tr("TLS-ECDHE-ECDSA-WITH-AES-256-GCM-SHA384:TLS-ECDHE-RSA-WITH-AES-256-GCM-SHA384", out, sizeof(out), &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(SSL_CTX_set_cipher_list(ctx, out), 1);
	SSL_CTX_free(ctx);
	CHECK_DONE();
}
