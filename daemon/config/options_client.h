/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_client.h - TLS client directives (options_client.c); internal to the options
 * parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_CLIENT_H
#define BRAID_OPTIONS_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_client(struct ctx *c, int argc, char **argv);
int opt_tls_client(struct ctx *c, int argc, char **argv);
int opt_pull(struct ctx *c, int argc, char **argv);
int opt_remote_random(struct ctx *c, int argc, char **argv);
int opt_resolv_retry(struct ctx *c, int argc, char **argv);
int opt_connect_retry(struct ctx *c, int argc, char **argv);
int opt_connect_retry_max(struct ctx *c, int argc, char **argv);
int opt_server_poll_timeout(struct ctx *c, int argc, char **argv);
int opt_auth_retry(struct ctx *c, int argc, char **argv);
int opt_pull_filter(struct ctx *c, int argc, char **argv);
int opt_dns_updown(struct ctx *c, int argc, char **argv);
int opt_redirect_gateway(struct ctx *c, int argc, char **argv);
int opt_dhcp_option(struct ctx *c, int argc, char **argv);
int opt_route_gateway(struct ctx *c, int argc, char **argv);
int opt_explicit_exit_notify(struct ctx *c, int argc, char **argv);
int opt_setenv(struct ctx *c, int argc, char **argv);
int opt_push_peer_info(struct ctx *c, int argc, char **argv);

#endif /* BRAID_OPTIONS_CLIENT_H */
