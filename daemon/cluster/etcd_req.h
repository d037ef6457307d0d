/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * etcd_req.h - one etcd request driven by an event loop (etcd_req.c): a
 * non-blocking connect, the request written when the socket is writable,
 * the reply read to EOF into a bounded buffer (BRAID_HTTP_RESP_MAX), a
 * deadline over the whole exchange, then one call of done() with the
 * reply's body. Used for the lease keepalive and for every request a
 * client's connect makes (so a slow or unreachable store never stalls the
 * gateway's loop).
 */
#ifndef BRAID_ETCD_REQ_H
#define BRAID_ETCD_REQ_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>

#include "cluster/etcd.h"

struct braid_etcd_req;

/*
 * r: 0 with the body of a 200 reply in body[0..len), else -errno
 * (-ETIMEDOUT: no whole reply before the deadline; -EMSGSIZE: a reply above
 * the bound; -EPROTO: a status other than 200; a connect or socket error).
 * The request is idle again when done() runs (it may start the next one).
 */
typedef void (*braid_etcd_req_done)(struct braid_etcd_req *q, int r, const char *body, size_t len);

struct braid_etcd_req {
	struct ev_loop *loop;
	ev_io io;
	ev_timer deadline;
	int fd;				/* -1: idle */
	char req[BRAID_ETCD_REQ_MAX];
	size_t req_len, req_off;
	char *resp;			/* BRAID_HTTP_RESP_MAX bytes while busy */
	size_t got;
	braid_etcd_req_done done;
	void *arg;			/* the owner's */
};

void braid_etcd_req_init(struct braid_etcd_req *q, struct ev_loop *loop, braid_etcd_req_done done,
			 void *arg);
/* Start a POST of json to path (idle only). 0, or -errno at once (then done() is not called). */
int braid_etcd_req_start(struct braid_etcd_req *q, const struct braid_etcd *e, const char *path,
			 const char *json, int timeout_ms);
bool braid_etcd_req_busy(const struct braid_etcd_req *q);
/* Stop an exchange under way without calling done(); idle: no-op. */
void braid_etcd_req_cancel(struct braid_etcd_req *q);

#endif /* BRAID_ETCD_REQ_H */
