/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_table.h - inside the gateway: the client table. Clients by peer-id
 * (g->by_pid) and UDP clients by source address (g->by_addr, SipHash
 * buckets); creation, removal (everything other clients could need is
 * released at once) and freeing at the next reap. The event callbacks a new
 * client needs come from the files above (struct gw_client_cbs).
 */
#ifndef BRAID_GW_TABLE_H
#define BRAID_GW_TABLE_H

#include <stddef.h>

#include "gateway/gw_types.h"

/* A new client's event callbacks (the table calls none of them itself). */
struct gw_client_cbs {
	void (*ctl)(struct ev_loop *loop, ev_timer *w, int revents);		/* control timer */
	void (*tcp_read)(struct ev_loop *loop, ev_io *w, int revents);		/* TCP only */
	void (*tcp_write)(struct ev_loop *loop, ev_io *w, int revents);	/* TCP only */
};

/* Clients connected now (any state), of every worker. */
unsigned long braid_gw_n_clients(const struct braid_gateway *g);

/* c->ip, c->port, c->real from c->addr. */
void braid_gw_addr_strings(struct gw_client *c);
/* The bytes the cookie HMAC covers: the sockaddr with every padding byte zero; returns their length. */
size_t braid_gw_cookie_addr(const union braid_sockaddr *a, union braid_sockaddr *out);

/* The UDP clients' address hash. */
void braid_gw_addr_insert(struct braid_gateway *g, struct gw_client *c);
void braid_gw_addr_remove(struct braid_gateway *g, struct gw_client *c);
struct gw_client *braid_gw_by_addr(struct braid_gateway *g, const union braid_sockaddr *a);

/* A client in the first free peer-id slot (tcp_fd < 0: UDP). 0, -ENOSPC (max-clients) or -errno. */
int braid_gw_client_new(struct braid_gateway *g, const union braid_sockaddr *from, int tcp_fd,
			const struct gw_client_cbs *cb, struct gw_client **out);
/* Remove now: peer-id, routes, pool entry freed at once; memory at the next braid_gw_reap. */
void braid_gw_client_kill(struct gw_client *c, const char *why);
void braid_gw_reap(struct braid_gateway *g);

#endif /* BRAID_GW_TABLE_H */
