/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_server.h - gateway (server) directives and their checks (options_server.c);
 * internal to the options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_SERVER_H
#define BRAID_OPTIONS_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_mode(struct ctx *c, int argc, char **argv);
int opt_tls_server(struct ctx *c, int argc, char **argv);
int opt_server(struct ctx *c, int argc, char **argv);
int opt_server6(struct ctx *c, int argc, char **argv);
int opt_ifconfig_pool(struct ctx *c, int argc, char **argv);
int opt_push(struct ctx *c, int argc, char **argv);
int opt_max_clients(struct ctx *c, int argc, char **argv);
int opt_aupv(struct ctx *c, int argc, char **argv);
int opt_status_version(struct ctx *c, int argc, char **argv);
int opt_ifconfig_pool_persist(struct ctx *c, int argc, char **argv);
int opt_connect_freq(struct ctx *c, int argc, char **argv);
int opt_connect_freq_initial(struct ctx *c, int argc, char **argv);
int opt_workers(struct ctx *c, int argc, char **argv);
int opt_verify_client_cert(struct ctx *c, int argc, char **argv);
int opt_client_cert_not_required(struct ctx *c, int argc, char **argv);

/*
 * Options of client-config-dir files: not in the main config (OpenVPN: "cannot be used in
 * this context").
 */
int opt_ccd_only(struct ctx *c, int argc, char **argv);

/* Server mode (`server`, `mode server`): what a gateway needs and refuses. */
int opt_finalize_server(struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_SERVER_H */
