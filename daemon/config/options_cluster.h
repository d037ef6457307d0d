/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_cluster.h - the directives of many gateways behind one address
 * (options_cluster.c): cluster-etcd, cluster-prefix, cluster-ttl; internal
 * to the options parser.
 */
#ifndef BRAID_OPTIONS_CLUSTER_H
#define BRAID_OPTIONS_CLUSTER_H

#include <stddef.h>

#include "config/options_int.h"

int opt_cluster_etcd(struct ctx *c, int argc, char **argv);
int opt_cluster_prefix(struct ctx *c, int argc, char **argv);
int opt_cluster_ttl(struct ctx *c, int argc, char **argv);
int opt_cluster_gw_id(struct ctx *c, int argc, char **argv);

/* After all directives: the others need cluster-etcd, which needs mode server. 0 or -EINVAL with err. */
int opt_finalize_cluster(const struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_CLUSTER_H */
