/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_metrics.h - the metrics endpoint's directives (options_metrics.c):
 * metrics, metrics-max-clients; internal to the options parser.
 */
#ifndef BRAID_OPTIONS_METRICS_H
#define BRAID_OPTIONS_METRICS_H

#include <stddef.h>

#include "config/options_int.h"

int opt_metrics(struct ctx *c, int argc, char **argv);
int opt_metrics_max_clients(struct ctx *c, int argc, char **argv);

/* After all directives: metrics-max-clients needs metrics. 0 or -EINVAL with err. */
int opt_finalize_metrics(const struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_METRICS_H */
