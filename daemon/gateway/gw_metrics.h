/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_metrics.h - the gateway on the metrics endpoint (control/metrics.h;
 * gw_metrics.c): the "gateway" counters of its status JSON, and per client
 * (labels client = common name, client_id = the status file's Client ID)
 * its state, bytes and, for a multipath client, its paths. At most
 * metrics-max-clients clients get series of their own (the lowest client
 * IDs: the longest connected), so a large gateway does not grow a series
 * set without bound; the rest are counted in
 * braid_gateway_clients_unlabelled and in the gateway totals.
 */
#ifndef BRAID_GW_METRICS_H
#define BRAID_GW_METRICS_H

struct braid_gateway;
struct braid_metrics;

/* With `metrics`: listen; *out NULL without it. 0 or -errno (logged). */
int gw_metrics_open(struct braid_gateway *g, struct braid_metrics **out);

#endif /* BRAID_GW_METRICS_H */
