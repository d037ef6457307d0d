/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_net.h - device, transport and address directives (options_net.c); internal to
 * the options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_NET_H
#define BRAID_OPTIONS_NET_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_dev(struct ctx *c, int argc, char **argv);
int opt_dev_type(struct ctx *c, int argc, char **argv);
int opt_proto(struct ctx *c, int argc, char **argv);
int opt_remote(struct ctx *c, int argc, char **argv);
int opt_local(struct ctx *c, int argc, char **argv);
int opt_lport(struct ctx *c, int argc, char **argv);
int opt_rport(struct ctx *c, int argc, char **argv);
int opt_port(struct ctx *c, int argc, char **argv);
int opt_nobind(struct ctx *c, int argc, char **argv);
int opt_float(struct ctx *c, int argc, char **argv);
int opt_multihome(struct ctx *c, int argc, char **argv);
int opt_ifconfig(struct ctx *c, int argc, char **argv);
int opt_ifconfig6(struct ctx *c, int argc, char **argv);
int opt_route(struct ctx *c, int argc, char **argv);
int opt_route6(struct ctx *c, int argc, char **argv);
int opt_tun_mtu(struct ctx *c, int argc, char **argv);
int opt_topology(struct ctx *c, int argc, char **argv);
int opt_tun_ipv6(struct ctx *c, int argc, char **argv);
int opt_route_delay(struct ctx *c, int argc, char **argv);

#endif /* BRAID_OPTIONS_NET_H */
