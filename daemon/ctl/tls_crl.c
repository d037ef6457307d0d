// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_crl.c - CRLs replaced in a running TLS context (tls_crl.h). OpenSSL
 * cannot take a CRL out of a store, so a new store is built: the old one's
 * certificates (the CA, read once at start, perhaps before a privilege drop)
 * plus the CRLs read now.
 */
#include "tls_crl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

static int copy_certs(X509_STORE *from, X509_STORE *to)
{
	STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(from);

	for (int i = 0; i < sk_X509_OBJECT_num(objs); i++) {
		X509 *x = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objs, i));

		if (x && X509_STORE_add_cert(to, x) != 1)
			return -ENOMEM;
	}
	return 0;
}

static int add_crls(X509_STORE *st, const char *file, const char *pem, unsigned *n,
		    char *err, size_t errlen)
{
	BIO *bio = pem ? BIO_new_mem_buf(pem, -1) : BIO_new_file(file, "r");
	X509_CRL *crl;

	if (!bio) {
		snprintf(err, errlen, "crl-verify: cannot read '%s': %s", file ? file : "<inline>",
			 strerror(errno ? errno : EIO));
		ERR_clear_error();
		return -EIO;
	}
	while ((crl = PEM_read_bio_X509_CRL(bio, NULL, NULL, NULL)) != NULL) {
		int ok = X509_STORE_add_crl(st, crl);

		X509_CRL_free(crl);
		if (ok != 1) {
			BIO_free(bio);
			ERR_clear_error();
			return -ENOMEM;
		}
		(*n)++;
	}
	ERR_clear_error();
	BIO_free(bio);
	if (!*n) {
		snprintf(err, errlen, "crl-verify: %s: no CRL found", file ? file : "<inline>");
		return -EBADMSG;
	}
	return 0;
}

int braid_tls_crl_reload(SSL_CTX *ctx, const char *file, const char *pem, unsigned *n_crl,
			 char *err, size_t errlen)
{
	X509_STORE *st = X509_STORE_new();
	int r;

	*n_crl = 0;
	if (!st)
		return -ENOMEM;
	r = copy_certs(SSL_CTX_get_cert_store(ctx), st);
	if (r) {
		snprintf(err, errlen, "crl-verify: out of memory");
		goto fail;
	}
	if (file || pem) {
		r = add_crls(st, file, pem, n_crl, err, errlen);
		if (r)
			goto fail;
		X509_STORE_set_flags(st, X509_V_FLAG_CRL_CHECK);
	}
	SSL_CTX_set_cert_store(ctx, st);	/* frees the old store */
	return 0;
fail:
	X509_STORE_free(st);
	return r;
}

bool braid_tls_crl_revoked(SSL_CTX *ctx, const char *serial_dec)
{
	STACK_OF(X509_OBJECT) *objs = X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx));
	ASN1_INTEGER *sn = NULL;
	BIGNUM *bn = NULL;
	bool hit = false;

	if (!serial_dec || !*serial_dec || !BN_dec2bn(&bn, serial_dec))
		return false;
	sn = BN_to_ASN1_INTEGER(bn, NULL);
	BN_free(bn);
	if (!sn)
		return false;
	for (int i = 0; i < sk_X509_OBJECT_num(objs) && !hit; i++) {
		X509_CRL *crl = X509_OBJECT_get0_X509_CRL(sk_X509_OBJECT_value(objs, i));
		X509_REVOKED *rev;

		if (crl && X509_CRL_get0_by_serial(crl, &rev, sn) == 1)
			hit = true;
	}
	ASN1_INTEGER_free(sn);
	ERR_clear_error();
	return hit;
}
