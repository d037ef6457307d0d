// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_certenv.c - the certificate variables of a verified peer (see
 * tls_certenv.h), in stock 2.6.14's formats: the subject as
 * X509_NAME_print_ex with OpenVPN's flags, decimal and colon-separated hex
 * serials, colon-separated hex digests (tests/daemon/mgmt_gateway*.sh
 * compare them with stock's for the same certificates).
 */
#include "tls_certenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#define DEPTH_MAX 8

static void hex_colon(const unsigned char *p, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && o + 4 <= cap; i++)
		o += (size_t)snprintf(out + o, cap - o, i ? ":%02x" : "%02x", p[i]);
}

static void subject(X509_NAME *nm, char *buf, size_t cap)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p;
	long n;

	buf[0] = '\0';
	if (!b)
		return;
	X509_NAME_print_ex(b, nm, 0, XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN |
				     ASN1_STRFLGS_UTF8_CONVERT | ASN1_STRFLGS_ESC_CTRL);
	n = BIO_get_mem_data(b, &p);
	if (n > 0) {
		size_t k = (size_t)n < cap - 1 ? (size_t)n : cap - 1;

		memcpy(buf, p, k);
		buf[k] = '\0';
	}
	BIO_free(b);
}

/* the printable characters of a subject field (stock replaces the others with '_') */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '_';
}

static size_t one_cert(X509 *x, int depth, char **v, size_t n, size_t max)
{
	X509_NAME *nm = X509_get_subject_name(x);
	const ASN1_INTEGER *ser = X509_get0_serialNumber(x);
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen;
	char buf[1024];
	BIGNUM *bn;

#define ENV(...) do { if (n < max && asprintf(&v[n], __VA_ARGS__) >= 0) n++; } while (0)
	for (int i = 0; nm && i < X509_NAME_entry_count(nm); i++) {
		X509_NAME_ENTRY *e = X509_NAME_get_entry(nm, i);
		int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(e));
		unsigned char *u = NULL;
		const char *sn = nid != NID_undef ? OBJ_nid2sn(nid) : NULL;

		if (!sn || ASN1_STRING_to_UTF8(&u, X509_NAME_ENTRY_get_data(e)) < 0)
			continue;
		clean((char *)u);
		ENV("X509_%d_%s=%s", depth, sn, (char *)u);
		OPENSSL_free(u);
	}
	subject(nm, buf, sizeof(buf));
	ENV("tls_id_%d=%s", depth, buf);
	bn = ser ? ASN1_INTEGER_to_BN(ser, NULL) : NULL;
	if (bn) {
		char *dec = BN_bn2dec(bn);

		if (dec)
			ENV("tls_serial_%d=%s", depth, dec);
		OPENSSL_free(dec);
		BN_free(bn);
	}
	if (ser) {
		hex_colon(ASN1_STRING_get0_data(ser), (size_t)ASN1_STRING_length(ser), buf,
			  sizeof(buf));
		ENV("tls_serial_hex_%d=%s", depth, buf);
	}
	if (X509_digest(x, EVP_sha1(), md, &mdlen)) {
		hex_colon(md, mdlen, buf, sizeof(buf));
		ENV("tls_digest_%d=%s", depth, buf);
	}
	if (X509_digest(x, EVP_sha256(), md, &mdlen)) {
		hex_colon(md, mdlen, buf, sizeof(buf));
		ENV("tls_digest_sha256_%d=%s", depth, buf);
	}
#undef ENV
	return n;
}

size_t braid_tls_cert_env(struct braid_tls *t, char **v, size_t max)
{
	SSL *ssl = t ? braid_tls_ssl(t) : NULL;
	STACK_OF(X509) *chain = ssl ? SSL_get0_verified_chain(ssl) : NULL;
	int depth = chain ? sk_X509_num(chain) : 0;
	size_t n = 0;

	if (depth > DEPTH_MAX)
		depth = DEPTH_MAX;
	for (int d = depth - 1; d >= 0; d--)	/* stock's verify callback: the CA first */
		n = one_cert(sk_X509_value(chain, d), d, v, n, max);
	return n;
}
