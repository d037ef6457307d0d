// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_tls.c - directives of the keys and the TLS control channel: cipher,
 * data-ciphers, secret, key-direction, auth, tls-version-*, remote-cert-tls,
 * verify-x509-name, hand-window, tls-timeout, tran-window, reneg-*, key-method,
 * tls-crypt-v2, pkcs12, tls-cert-profile; and the checks of TLS and static-key mode
 * (the dh file is decoded there).
 */
#include "config/options_tls.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/bio.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "dc/static_key.h"
#include "util/log.h"
#include "config/options_check.h"
#include "config/options_int.h"
#include "config/options_parse.h"

int opt_cipher(struct ctx *c, int argc, char **argv)
{
	const char *n = opt_cipher_canonical(argv[1]);

	(void)argc;
	if (!n) {
		/* an error in static-key mode; in the TLS modes only the fallback (finalize decides) */
		if (strlen(argv[1]) >= sizeof(c->o->cipher_unsupported))
			return opt_fail(c, "unsupported cipher '%s'", argv[1]);
		strcpy(c->o->cipher_unsupported, argv[1]);
		c->o->cipher[0] = '\0';
		return 0;
	}
	c->o->cipher_unsupported[0] = '\0';
	strcpy(c->o->cipher, n);
	return 0;
}

/* Is name one of the ':'-separated entries of list? */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p; p += strcspn(p, ":"), p += *p == ':') {
		if (strncmp(p, name, n) == 0 && (p[n] == ':' || p[n] == '\0'))
			return true;
	}
	return false;
}

int opt_data_ciphers(struct ctx *c, int argc, char **argv)
{
	char list[sizeof(c->o->data_ciphers)] = "";
	char *copy, *tok, *save = NULL;
	size_t used = 0;

	(void)argc;
	copy = strdup(argv[1]);
	if (!copy)
		return opt_fail(c, "out of memory");
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		const char *n = opt_cipher_canonical(tok[0] == '?' ? tok + 1 : tok);

		if (!n) {
			/* OpenVPN drops unsupported entries with a warning; so do we */
			if (c->loc->file)
				braid_warn("%s:%d: option '%s': ignoring unsupported cipher '%s'",
					   c->loc->file, c->loc->line, c->name, tok);
			else
				braid_warn("command line: option '%s': ignoring unsupported cipher '%s'",
					   c->name, tok);
			continue;
		}
		if (in_list(list, n))
			continue;	/* a repeated cipher adds nothing (and could overflow the list) */
		if (used + strlen(n) + 2 > sizeof(list)) {
			free(copy);
			return opt_fail(c, "cipher list '%s' too long", argv[1]);
		}
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ":" : "", n);
	}
	free(copy);
	if (!used)
		return opt_fail(c,
				"no supported cipher in '%s' (supported: AES-256-GCM, AES-128-GCM, "
				"CHACHA20-POLY1305)",
				argv[1]);
	strcpy(c->o->data_ciphers, list);
	return 0;
}

int opt_parse_dir(struct ctx *c, const char *s, int *dir)
{
	if (braid_key_direction_parse(s, dir))
		return opt_fail(c, "key direction '%s' is not 0 or 1", s);
	return 0;
}

int opt_secret(struct ctx *c, int argc, char **argv)
{
	int e, dir = KEY_DIR_UNSET;

	if (!c->inl && argc >= 3) {
		e = opt_parse_dir(c, argv[2], &dir);
		if (e)
			return e;
	}
	e = opt_set_source(c, &c->o->secret, c->inl ? NULL : argv[1]);
	if (!e && !c->inl)
		c->o->secret_dir = dir;
	return e;
}

int opt_key_direction(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return opt_parse_dir(c, argv[1], &c->o->key_direction);
}

int opt_auth(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (strlen(argv[1]) >= sizeof(c->o->auth_digest))
		return opt_fail(c, "digest name '%s' is too long", argv[1]);
	strcpy(c->o->auth_digest, argv[1]);
	return 0;
}

static int tls_version(struct ctx *c, const char *s, char *out)
{
	if (!strcmp(s, "1.0") || !strcmp(s, "1.1") || !strcmp(s, "1.2") || !strcmp(s, "1.3")) {
		strcpy(out, s);
		return 0;
	}
	return opt_fail(c, "unknown TLS version '%s' (expected 1.0, 1.1, 1.2 or 1.3)", s);
}

int opt_tls_version_min(struct ctx *c, int argc, char **argv)
{
	int e = tls_version(c, argv[1], c->o->tls_version_min);

	if (e)
		return e;
	c->o->tls_version_min_or_highest = false;
	if (argc >= 3) {
		if (strcmp(argv[2], "or-highest"))
			return opt_fail(c, "unknown flag '%s' (expected or-highest)", argv[2]);
		c->o->tls_version_min_or_highest = true;
	}
	return 0;
}

int opt_tls_version_max(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "1.0") || !strcmp(argv[1], "1.1"))
		return opt_fail(c, "TLS %s is below braidd's minimum (TLS 1.2): use 1.2 or 1.3",
				argv[1]);
	return tls_version(c, argv[1], c->o->tls_version_max);
}

int opt_remote_cert_tls(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "server"))
		c->o->remote_cert_tls = BRAID_RCT_SERVER;
	else if (!strcmp(argv[1], "client"))
		c->o->remote_cert_tls = BRAID_RCT_CLIENT;
	else
		return opt_fail(c, "expected 'server' or 'client', got '%s'", argv[1]);
	return 0;
}

int opt_verify_x509_name(struct ctx *c, int argc, char **argv)
{
	int type = BRAID_X509_SUBJECT;

	if (!argv[1][0])
		return opt_fail(c, "empty name");
	if (argc >= 3) {
		if (!strcmp(argv[2], "subject"))
			type = BRAID_X509_SUBJECT;
		else if (!strcmp(argv[2], "name"))
			type = BRAID_X509_NAME;
		else if (!strcmp(argv[2], "name-prefix"))
			type = BRAID_X509_NAME_PREFIX;
		else
			return opt_fail(c, "unknown X.509 name type '%s' (expected subject, name or "
					"name-prefix)", argv[2]);
	}
	c->o->verify_x509_type = type;
	return opt_set_str(c, &c->o->verify_x509_name, argv[1]);
}

static int h_seconds(struct ctx *c, int *dst, const char *s)
{
	return opt_parse_int(c, "seconds", s, 0, INT_MAX, dst);
}

int opt_hand_window(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return h_seconds(c, &c->o->hand_window, argv[1]);
}

int opt_tls_timeout(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return h_seconds(c, &c->o->tls_timeout, argv[1]);
}

int opt_tran_window(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return h_seconds(c, &c->o->tran_window, argv[1]);
}

int opt_reneg_sec(struct ctx *c, int argc, char **argv)
{
	int e;

	c->o->tls_parm_opt = c->def->name;
	e = h_seconds(c, &c->o->reneg_sec, argv[1]);
	if (!e && argc >= 3)
		e = h_seconds(c, &c->o->reneg_sec_min, argv[2]);
	return e;
}

int opt_reneg_bytes(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return opt_parse_u64(c, "bytes", argv[1], &c->o->reneg_bytes);
}

int opt_reneg_pkts(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->tls_parm_opt = c->def->name;
	return opt_parse_u64(c, "packets", argv[1], &c->o->reneg_pkts);
}

int opt_key_method(struct ctx *c, int argc, char **argv)
{
	int v, e;

	(void)argc;
	e = opt_parse_int(c, "key method", argv[1], 1, 2, &v);
	if (e)
		return e;
	if (v == 1)
		return opt_fail(c, "key-method 1 is not supported (OpenVPN 2.5+ removed it; use 2)");
	return 0;
}

int opt_tls_crypt_v2(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return opt_fail(c, "tls-crypt-v2 is not supported by braidd yet");
}

int opt_pkcs12(struct ctx *c, int argc, char **argv)
{
	(void)argc, (void)argv;
	return opt_fail(c, "PKCS#12 files are not supported by braidd yet: convert with "
			"'openssl pkcs12 -in FILE -nodes' and use ca, cert and key");
}

/* `tls-cert-profile`: braidd keeps OpenSSL's level 2 ('preferred'); a stricter profile is refused. */
int opt_tls_cert_profile(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "preferred") || !strcmp(argv[1], "legacy"))
		return 0;
	if (!strcmp(argv[1], "suiteb") || !strcmp(argv[1], "insecure"))
		return opt_fail(c, "profile '%s' is not supported by braidd (it uses 'preferred', "
				"OpenSSL security level 2): remove the option",
				argv[1]);
	return opt_fail(c, "unknown profile '%s' (expected legacy, preferred, suiteb or insecure)",
			argv[1]);
}

/*
 * `dh FILE` (or <dh>): it must exist and hold PEM DH parameters, as OpenVPN
 * requires; braidd then offers ECDHE only (options_class.c).
 */
#define DH_FILE_MAX 65536	/* a PEM of 8192-bit parameters is ~1.5 kB */

static int check_dh(const struct braid_options *o, char *err, size_t err_len)
{
	const struct braid_opt_source *s = &o->blobs[BRAID_BLOB_DH];
	OSSL_DECODER_CTX *dctx = NULL;
	EVP_PKEY *params = NULL;
	BIO *bio;
	int r = 0, e;

	if (!s->inline_text) {	/* a regular file of sane size: not /dev/zero, a FIFO, ... */
		struct stat st;

		if (stat(s->path, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size > DH_FILE_MAX))
			return opt_lfail(o, err, err_len, "dh",
					 "'%s' is not a PEM file (not a regular file, or over %d "
					 "bytes)",
					 s->path, DH_FILE_MAX);
	}
	errno = 0;
	if (s->inline_text)
		bio = BIO_new_mem_buf(s->inline_text, (int)s->inline_len);
	else
		bio = BIO_new_file(s->path, "r");
	if (!bio) {
		e = errno;
		ERR_clear_error();
		return opt_lfail(o, err, err_len, "dh", "cannot read DH parameters from '%s': %s",
				 s->path ? s->path : "<dh>", strerror(e ? e : ENOMEM));
	}
	dctx = OSSL_DECODER_CTX_new_for_pkey(&params, "PEM", NULL, "DH",
					     OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS, NULL, NULL);
	if (!dctx || !OSSL_DECODER_from_bio(dctx, bio) || !params)
		r = opt_lfail(o, err, err_len, "dh",
			      "'%s' does not hold PEM DH parameters (-----BEGIN DH PARAMETERS-----; "
			      "create them with 'openssl dhparam -out dh2048.pem 2048', or use "
			      "'dh none')",
			      s->inline_text ? "<dh>" : s->path);
	ERR_clear_error();
	EVP_PKEY_free(params);
	OSSL_DECODER_CTX_free(dctx);
	BIO_free(bio);
	return r;
}

int opt_finalize_tls(struct braid_options *o, char *err, size_t err_len)
{
	bool server = o->tls == BRAID_TLS_SERVER;
	bool cert = opt_has_blob(o, BRAID_BLOB_CERT), key = opt_has_blob(o, BRAID_BLOB_KEY);

	if (!opt_has_blob(o, BRAID_BLOB_CA) && !opt_has_blob(o, BRAID_BLOB_PEER_FINGERPRINT))
		return opt_lfail(o, err, err_len, opt_role_opt(o),
				 "You must define CA file (--ca) and/or peer fingerprint verification "
				 "(--peer-fingerprint)");
	if (o->pull) {
		if (!cert && !key && !o->has_auth_user_pass)
			return opt_lfail(o, err, err_len, opt_role_opt(o),
					 "No client-side authentication method is specified.  You must "
					 "use either --cert/--key or --auth-user-pass");
		if (cert != key)
			return opt_lfail(o, err, err_len, cert ? "cert" : "key",
					 "If you use one of --cert or --key, you must use them both");
	} else {
		if (!cert)
			return opt_lfail(o, err, err_len, opt_role_opt(o),
					 "You must define certificate file (--cert)");
		if (!key)
			return opt_lfail(o, err, err_len, opt_role_opt(o),
					 "You must define private key file (--key)");
	}
	if (o->has_auth_user_pass && !o->pull)
		return opt_lfail(o, err, err_len, "auth-user-pass", "requires 'pull' (or 'client')");
	if (opt_has_blob(o, BRAID_BLOB_TLS_AUTH) && opt_has_blob(o, BRAID_BLOB_TLS_CRYPT))
		return opt_lfail(o, err, err_len, "tls-crypt",
				 "'tls-auth' and 'tls-crypt' are mutually exclusive");
	if (server && !opt_has_blob(o, BRAID_BLOB_DH))
		return opt_lfail(o, err, err_len, opt_role_opt(o),
				 "You must define DH file (--dh), or 'dh none' (ECDH only)");
	if (opt_has_blob(o, BRAID_BLOB_DH) && !o->dh_none) {
		int r = check_dh(o, err, err_len);

		if (r)
			return r;
	}
	if (o->tls_version_min[0] && o->tls_version_max[0] &&
	    strcmp(o->tls_version_min, o->tls_version_max) > 0)
		return opt_lfail(o, err, err_len, "tls-version-min", "bigger than 'tls-version-max'");
	/* OpenVPN picks the rekey time in [MIN, MAX] (its server jitters by 10 %); braidd uses MAX */
	if (o->reneg_sec_min >= 0 && o->reneg_sec_min != o->reneg_sec)
		braid_warn("option 'reneg-sec %d %d': the MIN argument is not used yet: braidd "
			   "renegotiates after MAX (%d s)",
			   o->reneg_sec, o->reneg_sec_min, o->reneg_sec);
	if (o->reneg_sec_min < 0)
		o->reneg_sec_min = o->reneg_sec - (o->mode == BRAID_MODE_SERVER ? o->reneg_sec / 10 : 0);
	if (!o->has_topology)	/* OpenVPN 2.6's default (2.7 changes it to subnet) */
		o->topology = BRAID_TOPO_NET30;
	return 0;
}

/* Static-key (and multipath) mode: no TLS-only directive, UDP only. */
int opt_finalize_static(struct braid_options *o, const char *(*blob_name)(enum braid_opt_blob),
			char *err, size_t err_len)
{
	const char *tls_only = NULL;

	for (unsigned int i = 0; i < o->n_remotes; i++)
		if (o->remotes[i].has_proto && o->remotes[i].proto != BRAID_PROTO_UDP)
			return opt_lfail(o, err, err_len, "remote",
					 "'%s': only udp is supported in static-key mode",
					 o->remotes[i].host);
	if (o->verify_x509_name)
		tls_only = "verify-x509-name";
	else if (o->tls_cipher || o->tls_ciphersuites || o->tls_groups)
		tls_only = o->tls_cipher ? "tls-cipher" : o->tls_ciphersuites ? "tls-ciphersuites"
											: "tls-groups";
	else if (o->tls_parm_opt)
		tls_only = o->tls_parm_opt;
	else if (o->remote_cert_tls)
		tls_only = "remote-cert-tls";
	else if (o->push_peer_info)
		tls_only = "push-peer-info";
	else if (o->tls_exit)
		tls_only = "tls-exit";
	else if (o->pull)
		tls_only = "pull";
	if (tls_only)
		return opt_lfail(o, err, err_len, tls_only,
				 "can only be specified in TLS mode, i.e. with 'tls-server' or "
				 "'tls-client' (or 'client'/'server'), not with 'secret'");
	if (o->has_auth_user_pass)
		return opt_lfail(o, err, err_len, "auth-user-pass", "requires 'pull' (or 'client')");
	/* braidd's static-key mode kept these before the TLS mode existed: a warning, as before */
	for (unsigned int i = 0; i < BRAID_BLOB_COUNT; i++)
		if (opt_has_blob(o, (enum braid_opt_blob)i))
			braid_warn("option '%s' is ignored in static-key mode",
				   blob_name((enum braid_opt_blob)i));
	return 0;
}
