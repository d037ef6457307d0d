/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_tls.h - key and TLS directives and their checks (options_tls.c); internal to
 * the options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_TLS_H
#define BRAID_OPTIONS_TLS_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_cipher(struct ctx *c, int argc, char **argv);
int opt_data_ciphers(struct ctx *c, int argc, char **argv);
int opt_secret(struct ctx *c, int argc, char **argv);
int opt_key_direction(struct ctx *c, int argc, char **argv);
int opt_auth(struct ctx *c, int argc, char **argv);
int opt_tls_version_min(struct ctx *c, int argc, char **argv);
int opt_tls_version_max(struct ctx *c, int argc, char **argv);
int opt_remote_cert_tls(struct ctx *c, int argc, char **argv);
int opt_verify_x509_name(struct ctx *c, int argc, char **argv);
int opt_hand_window(struct ctx *c, int argc, char **argv);
int opt_tls_timeout(struct ctx *c, int argc, char **argv);
int opt_tran_window(struct ctx *c, int argc, char **argv);
int opt_reneg_sec(struct ctx *c, int argc, char **argv);
int opt_reneg_bytes(struct ctx *c, int argc, char **argv);
int opt_reneg_pkts(struct ctx *c, int argc, char **argv);
int opt_key_method(struct ctx *c, int argc, char **argv);
int opt_tls_crypt_v2(struct ctx *c, int argc, char **argv);
int opt_pkcs12(struct ctx *c, int argc, char **argv);
int opt_tls_cert_profile(struct ctx *c, int argc, char **argv);

/* A key-direction argument (0 or 1). */
int opt_parse_dir(struct ctx *c, const char *s, int *dir);

/* TLS mode: the credentials and settings each role needs. */
int opt_finalize_tls(struct braid_options *o, char *err, size_t err_len);

/*
 * Static-key (and multipath) mode: no TLS-only directive, UDP only; blob_name
 * names a blob slot in the warning about the files static-key mode ignores.
 */
int opt_finalize_static(struct braid_options *o, const char *(*blob_name)(enum braid_opt_blob),
			char *err, size_t err_len);

#endif /* BRAID_OPTIONS_TLS_H */
