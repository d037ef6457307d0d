/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.h - the OpenMetrics / Prometheus endpoint (`metrics [ADDR [PORT
 * [allow-remote]]]`, docs/metrics.md): a small HTTP/1.1 server on the role's
 * libev loop that answers `GET /metrics` with the numbers of the status JSON.
 *
 *   metrics.c       listener, connections, responses, its own counters
 *   metrics_http.c  the request parser (fuzzed)
 *   metrics_snap.c  the families, a scrape's samples, the path rows
 *   metrics_fmt.c   the text formats
 *
 * Each connection: one request, one answer, then closed (Connection:
 * close). At most BRAID_METRICS_MAX_CONN at once (more: 503 and closed);
 * the request must be complete within BRAID_METRICS_REQ_TIMEOUT_S of the
 * accept (slow senders are dropped), the answer sent within
 * BRAID_METRICS_TX_TIMEOUT_S. Every refusal is counted
 * (braid_metrics_rejected_total{reason}) and logged at most once a second
 * per reason.
 *
 * The role gives a collect callback that adds its samples (session, paths,
 * gateway clients); the endpoint adds the process's and its own.
 */
#ifndef BRAID_METRICS_H
#define BRAID_METRICS_H

#include <ev.h>

#include "config/options_types.h"
#include "control/metrics_snap.h"

#define BRAID_METRICS_MAX_CONN 8
#define BRAID_METRICS_REQ_TIMEOUT_S 5.0
#define BRAID_METRICS_TX_TIMEOUT_S 10.0
#define BRAID_METRICS_PORT_DEFAULT 9446
#define BRAID_METRICS_MAX_CLIENTS_DEFAULT 100

struct braid_metrics;

/* Add the role's samples to m; max_clients: the gateway's per-client label cap. */
typedef void (*braid_metrics_collect_fn)(void *user, struct braid_met_snap *m,
					 unsigned max_clients);

/*
 * Open the listener of o->metrics_addr/metrics_port (nothing when the
 * option is not given: *out NULL, 0). role: "p2p", "client" or "gateway".
 * 0 or -errno (logged).
 */
int braid_metrics_new(struct braid_metrics **out, struct ev_loop *loop,
		      const struct braid_options *o, const char *role,
		      braid_metrics_collect_fn collect, void *user);
/* Close the listener and every connection. NULL is fine. */
void braid_metrics_free(struct braid_metrics *m);

#endif /* BRAID_METRICS_H */
