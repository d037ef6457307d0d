/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_metrics.h - the TLS client on the metrics endpoint
 * (control/metrics.h; client_metrics.c): the numbers of its status JSON
 * (braidctl status --json: the "tunnel" counters with the multipath data
 * path's, the paths of a multipath session) as samples. Opened from main.c
 * after braid_client_new.
 */
#ifndef BRAID_CLIENT_METRICS_H
#define BRAID_CLIENT_METRICS_H

struct braid_client;
struct braid_metrics;

/* With `metrics`: listen; *out NULL without it. 0 or -errno (logged). */
int client_metrics_open(struct braid_client *c, struct braid_metrics **out);

#endif /* BRAID_CLIENT_METRICS_H */
