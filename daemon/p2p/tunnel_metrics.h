/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel_metrics.h - the static-key tunnel on the metrics endpoint
 * (control/metrics.h; tunnel_metrics.c): its status JSON's numbers (the
 * "tunnel" counters, the paths of a multipath session) as samples. Opened
 * from main.c after braid_tunnel_new.
 */
#ifndef BRAID_TUNNEL_METRICS_H
#define BRAID_TUNNEL_METRICS_H

#include "p2p/tunnel.h"

struct braid_metrics;

/* With `metrics`: listen; *out NULL without it. 0 or -errno (logged). */
int braid_tunnel_metrics_open(struct braid_tunnel *t, struct braid_metrics **out);

#endif /* BRAID_TUNNEL_METRICS_H */
