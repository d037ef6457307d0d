/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_workers.h - the gateway's worker threads' set-up and teardown (`workers
 * N`, docs/scaling.md "Workers"): the socket group with its steering program,
 * the multiqueue TUN, the other workers' gateways, the rings' consumers, the
 * threads. What they share at run time: gw_shared.h. Called by gateway.c only.
 */
#ifndef BRAID_GATEWAY_GW_WORKERS_H
#define BRAID_GATEWAY_GW_WORKERS_H

#include "gateway/gw_shared.h"

/* The worker count asked for: `workers N`, else (auto, or no `workers` line) the online cores, at most
 * BRAID_OPT_WORKERS_MAX (docs/scaling.md "Workers"). */
int braid_gw_workers_want(const struct braid_options *o);
/* SIGHUP: the socket group (every worker's socket and the steering program) outlives this gateway and is
 * taken by the next one on the same address with as many workers; what arrives meanwhile stays queued. */
void braid_gw_workers_keep(struct braid_gateway *g);
/* Closes a group kept by braid_gw_workers_keep (the next gateway runs one worker, or on another address). */
void braid_gw_workers_kept_close(void);
/* The socket group for n workers with the steering program attached (g->wk, g->fd = worker 0's). 0 or -errno. */
int braid_gw_workers_sockets(struct braid_gateway *g, unsigned n, const union braid_sockaddr *a);
/* The multiqueue TUN device in place of braid_tun_open: worker 0's queue in t. 0 or -errno. */
int braid_gw_workers_tun(struct braid_gateway *g, struct braid_tun *t);
/* Worker 0 set up: the other workers' gateways, rings, threads. 0 or -errno. */
int braid_gw_workers_start(struct braid_gateway *g);
/* Stops and joins the threads, frees their gateways (their clients dropped) and the rings. */
void braid_gw_workers_stop(struct braid_gateway *g);

#endif /* BRAID_GATEWAY_GW_WORKERS_H */
