// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls.c - OpenSSL 3 TLS over memory BIOs for the control channel (tls.h).
 */
#include "tls.h"
#include "tls_cipher_names.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "kdf.h"

struct braid_tls {
	SSL *ssl;
	BIO *rbio; /* ciphertext from the peer (we write, SSL reads) */
	BIO *wbio; /* ciphertext to the peer (SSL writes, we read) */
	bool done;
	bool dead;
	char cn[BRAID_TLS_CN_MAX];
	char serial[BRAID_TLS_SERIAL_MAX];
	char err[BRAID_TLS_ERR_MAX];
};

/* Verify settings kept with the SSL_CTX (ex_data) for the verify callback. */
struct tls_verify {
	enum braid_remote_cert_tls remote_cert_tls;
	enum braid_x509_name_type name_type;
	char name[256];
	char last_err[BRAID_TLS_ERR_MAX];
};

static int verify_idx = -1;
static int ssl_ctx_idx_once(void)
{
	if (verify_idx < 0)
		verify_idx = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
	return verify_idx;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The reason of the newest OpenSSL error (clears the queue). */
static const char *ossl_reason(char *buf, size_t cap)
{
	unsigned long e, last = 0;

	while ((e = ERR_get_error()) != 0)
		last = e;
	if (!last) {
		snprintf(buf, cap, "unknown error");
		return buf;
	}
	const char *r = ERR_reason_error_string(last);
	if (r)
		snprintf(buf, cap, "%s", r);
	else
		snprintf(buf, cap, "error %lu", last);
	return buf;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A BIO over the inline PEM text or the file. -ENOENT with the reason. */
static int pem_bio(const char *pem, const char *file, const char *what, BIO **out, char *err,
		   size_t errlen)
{
	struct stat st;

	if (pem) {
		*out = BIO_new_mem_buf(pem, -1);
	} else {
		if (stat(file, &st) != 0) {
			set_err(err, errlen, "%s: cannot open %s file: %s", base_name(file), what,
				strerror(errno));
			return -ENOENT;
		}
		*out = BIO_new_file(file, "r");
		if (!*out) {
			char r[128];
			set_err(err, errlen, "%s: cannot read %s file: %s", base_name(file), what,
				ossl_reason(r, sizeof(r)));
			return -ENOENT;
		}
	}
	return *out ? 0 : -ENOMEM;
}

static const char *src_name(const char *pem, const char *file, const char *inline_name)
{
	return pem ? inline_name : base_name(file);
}

static int load_ca(SSL_CTX *ctx, const struct braid_tls_config *cfg, char *err, size_t errlen)
{
	X509_STORE *store = SSL_CTX_get_cert_store(ctx);
	const char *name = src_name(cfg->ca_pem, cfg->ca_file, "<ca>");
	BIO *bio = NULL;
	X509 *x;
	int n = 0, ret;

	ret = pem_bio(cfg->ca_pem, cfg->ca_file, "CA", &bio, err, errlen);
	if (ret)
		return ret;
	while ((x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (X509_STORE_add_cert(store, x) != 1) {
			char r[128];
			X509_free(x);
			set_err(err, errlen, "%s: cannot add CA certificate: %s", name,
				ossl_reason(r, sizeof(r)));
			ret = -EBADMSG;
			goto out;
		}
		X509_free(x);
		n++;
	}
	ERR_clear_error();
	if (n == 0) {
		set_err(err, errlen, "%s: no certificates found", name);
		ret = -EBADMSG;
	}
out:
	BIO_free(bio);
	return ret;
}

static int load_cert_key(SSL_CTX *ctx, const struct braid_tls_config *cfg, char *err,
			 size_t errlen)
{
	const char *cname = src_name(cfg->cert_pem, cfg->cert_file, "<cert>");
	const char *kname = src_name(cfg->key_pem, cfg->key_file, "<key>");
	BIO *bio = NULL;
	X509 *x = NULL;
	EVP_PKEY *pk = NULL;
	char r[128];
	int ret;

	ret = pem_bio(cfg->cert_pem, cfg->cert_file, "certificate", &bio, err, errlen);
	if (ret)
		return ret;
	x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	if (!x) {
		ERR_clear_error();
		set_err(err, errlen, "%s: no certificate found", cname);
		ret = -EBADMSG;
		goto out;
	}
	if (SSL_CTX_use_certificate(ctx, x) != 1) {
		set_err(err, errlen, "%s: certificate rejected: %s", cname,
			ossl_reason(r, sizeof(r)));
		ret = -EBADMSG;
		goto out;
	}
	/* the rest of the file: intermediate certificates */
	X509 *extra;
	while ((extra = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (SSL_CTX_add_extra_chain_cert(ctx, extra) != 1) {
			X509_free(extra);
			break;
		}
	}
	ERR_clear_error();
	BIO_free(bio);
	bio = NULL;

	ret = pem_bio(cfg->key_pem, cfg->key_file, "private key", &bio, err, errlen);
	if (ret)
		goto out;
	pk = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
	if (!pk) {
		ERR_clear_error();
		set_err(err, errlen, "%s: no private key found (or it is encrypted)", kname);
		ret = -EBADMSG;
		goto out;
	}
	if (SSL_CTX_use_PrivateKey(ctx, pk) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
		ERR_clear_error();
		set_err(err, errlen, "%s: private key does not match the certificate %s", kname,
			cname);
		ret = -EBADMSG;
		goto out;
	}
	ret = 0;
out:
	EVP_PKEY_free(pk);
	X509_free(x);
	BIO_free(bio);
	return ret;
}

static int load_crl(SSL_CTX *ctx, const struct braid_tls_config *cfg, char *err, size_t errlen)
{
	X509_STORE *store = SSL_CTX_get_cert_store(ctx);
	const char *name = src_name(cfg->crl_pem, cfg->crl_file, "<crl-verify>");
	BIO *bio = NULL;
	X509_CRL *crl;
	int n = 0, ret;

	ret = pem_bio(cfg->crl_pem, cfg->crl_file, "CRL", &bio, err, errlen);
	if (ret)
		return ret;
	while ((crl = PEM_read_bio_X509_CRL(bio, NULL, NULL, NULL)) != NULL) {
		X509_STORE_add_crl(store, crl);
		X509_CRL_free(crl);
		n++;
	}
	ERR_clear_error();
	BIO_free(bio);
	if (n == 0) {
		set_err(err, errlen, "%s: no CRL found", name);
		return -EBADMSG;
	}
	X509_STORE_set_flags(store, X509_V_FLAG_CRL_CHECK);
	return 0;
}

/* OpenVPN-style subject "C=DE, O=x, CN=y". */
static void subject_string(X509_NAME *nm, char *buf, size_t cap)
{
	BIO *b = BIO_new(BIO_s_mem());
	long n;
	char *p;

	buf[0] = 0;
	if (!b)
		return;
	X509_NAME_print_ex(b, nm, 0, XN_FLAG_SEP_CPLUS_SPC | XN_FLAG_FN_SN | ASN1_STRFLGS_UTF8_CONVERT);
	n = BIO_get_mem_data(b, &p);
	if (n > 0) {
		size_t k = (size_t)n < cap - 1 ? (size_t)n : cap - 1;
		memcpy(buf, p, k);
		buf[k] = 0;
	}
	BIO_free(b);
}

static void common_name(X509 *x, char *buf, size_t cap)
{
	buf[0] = 0;
	if (X509_NAME_get_text_by_NID(X509_get_subject_name(x), NID_commonName, buf, (int)cap) < 0)
		buf[0] = 0;
}

static int verify_cb(int ok, X509_STORE_CTX *xs)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(xs, SSL_get_ex_data_X509_STORE_CTX_idx());
	SSL_CTX *ctx = ssl ? SSL_get_SSL_CTX(ssl) : NULL;
	struct tls_verify *v = ctx ? SSL_CTX_get_ex_data(ctx, verify_idx) : NULL;
	X509 *cert = X509_STORE_CTX_get_current_cert(xs);
	int depth = X509_STORE_CTX_get_error_depth(xs);
	char buf[256];

	if (!v)
		return ok;
	if (!ok) {
		common_name(cert, buf, sizeof(buf));
		snprintf(v->last_err, sizeof(v->last_err), "certificate verify failed: %s (depth %d, CN=%s)",
			 X509_verify_cert_error_string(X509_STORE_CTX_get_error(xs)), depth, buf);
		return 0;
	}
	if (depth != 0)
		return 1;
	if (v->remote_cert_tls != BRAID_REMOTE_CERT_NONE) {
		bool server = v->remote_cert_tls == BRAID_REMOTE_CERT_SERVER;
		uint32_t xku = X509_get_extended_key_usage(cert);
		uint32_t ku = X509_get_key_usage(cert);
		uint32_t want = server ? XKU_SSL_SERVER : XKU_SSL_CLIENT;

		if (!(X509_get_extension_flags(cert) & EXFLAG_XKUSAGE) || !(xku & want)) {
			snprintf(v->last_err, sizeof(v->last_err),
				 "remote-cert-tls %s: peer certificate lacks extended key usage %s",
				 server ? "server" : "client",
				 server ? "TLS Web Server Authentication" : "TLS Web Client Authentication");
			X509_STORE_CTX_set_error(xs, X509_V_ERR_INVALID_PURPOSE);
			return 0;
		}
		/* OpenVPN: KU must be present and include digitalSignature or keyAgreement (server: or keyEncipherment) */
		if ((X509_get_extension_flags(cert) & EXFLAG_KUSAGE) &&
		    !(ku & (KU_DIGITAL_SIGNATURE | KU_KEY_AGREEMENT | KU_KEY_ENCIPHERMENT))) {
			snprintf(v->last_err, sizeof(v->last_err),
				 "remote-cert-tls %s: peer certificate key usage does not allow TLS",
				 server ? "server" : "client");
			X509_STORE_CTX_set_error(xs, X509_V_ERR_INVALID_PURPOSE);
			return 0;
		}
	}
	if (v->name_type != BRAID_X509_NAME_OFF) {
		bool match;
		if (v->name_type == BRAID_X509_NAME_SUBJECT) {
			subject_string(X509_get_subject_name(cert), buf, sizeof(buf));
			match = strcmp(buf, v->name) == 0;
		} else {
			common_name(cert, buf, sizeof(buf));
			if (v->name_type == BRAID_X509_NAME_CN)
				match = strcmp(buf, v->name) == 0;
			else
				match = strncmp(buf, v->name, strlen(v->name)) == 0;
		}
		if (!match) {
			snprintf(v->last_err, sizeof(v->last_err),
				 "verify-x509-name: peer certificate '%.90s' does not match '%.90s'", buf,
				 v->name);
			X509_STORE_CTX_set_error(xs, X509_V_ERR_CERT_REJECTED);
			return 0;
		}
	}
	return 1;
}

static void free_verify(SSL_CTX *ctx)
{
	struct tls_verify *v;

	if (verify_idx < 0)
		return;
	v = SSL_CTX_get_ex_data(ctx, verify_idx);
	free(v);
	SSL_CTX_set_ex_data(ctx, verify_idx, NULL);
}

int braid_tls_ctx_new(SSL_CTX **out, const struct braid_tls_config *cfg, char *err,
		      size_t errlen)
{
	struct tls_verify *v = NULL;
	SSL_CTX *ctx;
	char r[128];
	int minv = TLS1_2_VERSION, maxv = 0, mode, ret;	/* maxv 0: the highest */

	*out = NULL;
	if (!cfg->ca_pem && !cfg->ca_file) {
		set_err(err, errlen, "no CA given (ca)");
		return -EINVAL;
	}
	if (!cfg->cert_pem && !cfg->cert_file &&
	    !(cfg->server == false && cfg->key_file == NULL && cfg->key_pem == NULL)) {
		set_err(err, errlen, "no certificate given (cert)");
		return -EINVAL;
	}
	if ((cfg->cert_pem || cfg->cert_file) && !cfg->key_pem && !cfg->key_file) {
		set_err(err, errlen, "no private key given (key)");
		return -EINVAL;
	}
	if (cfg->server && !cfg->cert_pem && !cfg->cert_file) {
		set_err(err, errlen, "a server needs a certificate (cert)");
		return -EINVAL;
	}
	if (cfg->tls_version_min) {
		if (strcmp(cfg->tls_version_min, "1.2") == 0)
			minv = TLS1_2_VERSION;
		else if (strcmp(cfg->tls_version_min, "1.3") == 0 ||
			 strcmp(cfg->tls_version_min, "or-highest") == 0)
			minv = TLS1_3_VERSION;
		else if (strcmp(cfg->tls_version_min, "1.0") == 0 ||
			 strcmp(cfg->tls_version_min, "1.1") == 0)
			minv = TLS1_2_VERSION; /* OpenVPN 2.6 with OpenSSL 3 cannot go below 1.2 at seclevel 1+ */
		else {
			set_err(err, errlen, "tls-version-min '%s' not supported (use 1.2 or 1.3)",
				cfg->tls_version_min);
			return -EINVAL;
		}
	}
	if (cfg->tls_version_max) {	/* 1.0/1.1 cannot be reached: 1.2 is braidd's minimum */
		maxv = strcmp(cfg->tls_version_max, "1.3") == 0 ? TLS1_3_VERSION : TLS1_2_VERSION;
		if (maxv < minv) {
			set_err(err, errlen, "tls-version-max %s is below tls-version-min",
				cfg->tls_version_max);
			return -EINVAL;
		}
	}
	if (cfg->verify_x509_type != BRAID_X509_NAME_OFF &&
	    (!cfg->verify_x509_name || !*cfg->verify_x509_name ||
	     strlen(cfg->verify_x509_name) >= sizeof(v->name))) {
		set_err(err, errlen, "verify-x509-name: missing or too long name");
		return -EINVAL;
	}

	ctx = SSL_CTX_new(cfg->server ? TLS_server_method() : TLS_client_method());
	if (!ctx) {
		set_err(err, errlen, "SSL_CTX_new: %s", ossl_reason(r, sizeof(r)));
		return -ENOMEM;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		ret = -ENOMEM;
		goto fail;
	}
	v->remote_cert_tls = cfg->remote_cert_tls;
	v->name_type = cfg->verify_x509_type;
	if (cfg->verify_x509_name)
		snprintf(v->name, sizeof(v->name), "%s", cfg->verify_x509_name);
	SSL_CTX_set_ex_data(ctx, ssl_ctx_idx_once(), v);

	SSL_CTX_set_min_proto_version(ctx, minv);
	SSL_CTX_set_max_proto_version(ctx, maxv);
	SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION |
				 SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_num_tickets(ctx, 0);
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);

	if (cfg->tls_cipher) {	/* IANA names (TLS-ECDHE-...) as stock accepts them: OpenSSL's spelling */
		char list[2048];
		const char *bad = "";
		size_t badlen = 0;
		int t = tls_cipher_list_to_openssl(cfg->tls_cipher, list, sizeof(list), &bad, &badlen);

		if (t == -EINVAL) {
			set_err(err, errlen, "tls-cipher '%s': '%.*s' is not a TLS 1.2 cipher suite OpenSSL knows",
				cfg->tls_cipher, (int)badlen, bad);
			ret = -EINVAL;
			goto fail;
		}
		if (t || SSL_CTX_set_cipher_list(ctx, list) != 1) {
			set_err(err, errlen, "tls-cipher '%s': %s", cfg->tls_cipher,
				t ? "the list is too long" : ossl_reason(r, sizeof(r)));
			ret = -EINVAL;
			goto fail;
		}
	}
	if (cfg->tls_ciphersuites && SSL_CTX_set_ciphersuites(ctx, cfg->tls_ciphersuites) != 1) {
		set_err(err, errlen, "tls-ciphersuites '%s': %s", cfg->tls_ciphersuites,
			ossl_reason(r, sizeof(r)));
		ret = -EINVAL;
		goto fail;
	}
	if (cfg->tls_groups && SSL_CTX_set1_groups_list(ctx, cfg->tls_groups) != 1) {
		set_err(err, errlen, "tls-groups '%s': %s", cfg->tls_groups, ossl_reason(r, sizeof(r)));
		ret = -EINVAL;
		goto fail;
	}
	ret = load_ca(ctx, cfg, err, errlen);
	if (ret)
		goto fail;
	if (cfg->cert_pem || cfg->cert_file) {
		ret = load_cert_key(ctx, cfg, err, errlen);
		if (ret)
			goto fail;
	}
	if (cfg->crl_pem || cfg->crl_file) {
		ret = load_crl(ctx, cfg, err, errlen);
		if (ret)
			goto fail;
	}
	mode = SSL_VERIFY_PEER;
	if (cfg->server) {
		if (cfg->verify_client_cert == BRAID_VERIFY_CLIENT_REQUIRE)
			mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
		else if (cfg->verify_client_cert == BRAID_VERIFY_CLIENT_NONE)
			mode = SSL_VERIFY_NONE;
	}
	SSL_CTX_set_verify(ctx, mode, verify_cb);
	*out = ctx;
	return 0;
fail:
	free_verify(ctx);
	SSL_CTX_free(ctx);
	return ret;
}

void braid_tls_ctx_free(SSL_CTX *ctx)
{
	if (!ctx)
		return;
	free_verify(ctx);
	SSL_CTX_free(ctx);
}

int braid_tls_new(struct braid_tls **out, SSL_CTX *ctx)
{
	struct braid_tls *t;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->ssl = SSL_new(ctx);
	t->rbio = BIO_new(BIO_s_mem());
	t->wbio = BIO_new(BIO_s_mem());
	if (!t->ssl || !t->rbio || !t->wbio) {
		SSL_free(t->ssl);
		BIO_free(t->rbio);
		BIO_free(t->wbio);
		free(t);
		return -ENOMEM;
	}
	BIO_set_mem_eof_return(t->rbio, -1);
	SSL_set_bio(t->ssl, t->rbio, t->wbio); /* the SSL owns both BIOs now */
	if (SSL_is_server(t->ssl))
		SSL_set_accept_state(t->ssl);
	else
		SSL_set_connect_state(t->ssl);
	*out = t;
	return 0;
}

void braid_tls_free(struct braid_tls *t)
{
	if (!t)
		return;
	SSL_free(t->ssl); /* frees the BIOs; OpenSSL cleanses its key material */
	OPENSSL_cleanse(t, sizeof(*t));
	free(t);
}

int braid_tls_put_ciphertext(struct braid_tls *t, const uint8_t *buf, size_t len)
{
	if (!len)
		return 0;
	if (len > INT32_MAX || BIO_write(t->rbio, buf, (int)len) != (int)len)
		return -ENOMEM;
	return 0;
}

size_t braid_tls_pending_ciphertext(const struct braid_tls *t)
{
	return BIO_ctrl_pending(t->wbio);
}

int braid_tls_get_ciphertext(struct braid_tls *t, uint8_t *buf, size_t cap, size_t *len)
{
	int n;

	*len = 0;
	if (!cap || !BIO_ctrl_pending(t->wbio))
		return 0;
	n = BIO_read(t->wbio, buf, cap > INT32_MAX ? INT32_MAX : (int)cap);
	if (n > 0)
		*len = (size_t)n;
	return 0;
}

/* Record the failure reason of an SSL call: the verify callback's, else OpenSSL's. */
static int tls_fail(struct braid_tls *t, const char *op, int sslerr)
{
	struct tls_verify *v = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(t->ssl), verify_idx);
	long vr = SSL_get_verify_result(t->ssl);
	char r[160];

	if (v && v->last_err[0]) {
		snprintf(t->err, sizeof(t->err), "TLS %s failed: %.200s", op, v->last_err);
		v->last_err[0] = 0;
		ERR_clear_error();
	} else if (vr != X509_V_OK && ERR_peek_error()) {
		ERR_clear_error();
		snprintf(t->err, sizeof(t->err), "TLS %s failed: certificate verify failed: %s", op,
			 X509_verify_cert_error_string(vr));
	} else if (sslerr == SSL_ERROR_SSL) {
		snprintf(t->err, sizeof(t->err), "TLS %s failed: %s", op, ossl_reason(r, sizeof(r)));
	} else {
		ERR_clear_error();
		snprintf(t->err, sizeof(t->err), "TLS %s failed: SSL error %d", op, sslerr);
	}
	t->dead = true;
	return -EPROTO;
}

static void capture_peer(struct braid_tls *t)
{
	X509 *x = SSL_get1_peer_certificate(t->ssl);
	const ASN1_INTEGER *sn;
	BIGNUM *bn;
	char *dec;

	t->cn[0] = t->serial[0] = 0;
	if (!x)
		return;
	common_name(x, t->cn, sizeof(t->cn));
	sn = X509_get0_serialNumber(x);
	bn = ASN1_INTEGER_to_BN(sn, NULL);
	if (bn) {
		dec = BN_bn2dec(bn);
		if (dec) {
			snprintf(t->serial, sizeof(t->serial), "%s", dec);
			OPENSSL_free(dec);
		}
		BN_free(bn);
	}
	X509_free(x);
}

int braid_tls_handshake(struct braid_tls *t)
{
	int rc, e;

	if (t->dead)
		return -EPROTO;
	if (t->done)
		return 0;
	rc = SSL_do_handshake(t->ssl);
	if (rc == 1) {
		t->done = true;
		capture_peer(t);
		return 0;
	}
	e = SSL_get_error(t->ssl, rc);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return -EAGAIN;
	return tls_fail(t, "handshake", e);
}

bool braid_tls_handshake_done(const struct braid_tls *t)
{
	return t->done;
}

int braid_tls_write_record(struct braid_tls *t, const uint8_t *msg, size_t len)
{
	int rc;

	if (t->dead)
		return -EPROTO;
	if (!t->done)
		return -EAGAIN;
	if (len == 0 || len > BRAID_TLS_RECORD_MAX)
		return -EMSGSIZE;
	rc = SSL_write(t->ssl, msg, (int)len);
	if (rc == (int)len)
		return 0;
	return tls_fail(t, "write", SSL_get_error(t->ssl, rc));
}

int braid_tls_read_record(struct braid_tls *t, uint8_t *buf, size_t cap, size_t *len)
{
	int rc, e;

	*len = 0;
	if (t->dead)
		return -EPROTO;
	if (!t->done)
		return -EAGAIN;
	/* SSL_peek first: SSL_read into a short buffer would split the record. */
	if (cap < BRAID_TLS_RECORD_MAX) {
		uint8_t probe[1];
		rc = SSL_peek(t->ssl, probe, 1);
		if (rc > 0 && (size_t)SSL_pending(t->ssl) > cap)
			return -ENOBUFS;
	}
	rc = SSL_read(t->ssl, buf, cap > INT32_MAX ? INT32_MAX : (int)cap);
	if (rc > 0) {
		*len = (size_t)rc;
		return 0;
	}
	e = SSL_get_error(t->ssl, rc);
	if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
		return -EAGAIN;
	if (e == SSL_ERROR_ZERO_RETURN) {
		snprintf(t->err, sizeof(t->err), "TLS peer closed the session (close_notify)");
		t->dead = true;
		return -ECONNRESET;
	}
	return tls_fail(t, "read", e);
}

const char *braid_tls_error(const struct braid_tls *t)
{
	return t->err;
}

const char *braid_tls_peer_cn(const struct braid_tls *t)
{
	return t->cn;
}

const char *braid_tls_peer_serial(const struct braid_tls *t)
{
	return t->serial;
}

const char *braid_tls_describe(const struct braid_tls *t, char *buf, size_t cap)
{
	const SSL_CIPHER *c = SSL_get_current_cipher(t->ssl);

	snprintf(buf, cap, "%s, cipher %s, peer CN=%s", SSL_get_version(t->ssl),
		 c ? SSL_CIPHER_get_name(c) : "none", t->cn[0] ? t->cn : "(none)");
	return buf;
}

SSL *braid_tls_ssl(struct braid_tls *t)
{
	return t->ssl;
}

int braid_tls_ekm(struct braid_tls *t, struct braid_key2 *out)
{
	if (!t->done)
		return -EAGAIN;
	return braid_kdf_ekm(t->ssl, out) ? -EIO : 0;
}
