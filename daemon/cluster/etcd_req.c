// SPDX-License-Identifier: GPL-2.0-only
/*
 * etcd_req.c - one etcd request driven by an event loop (etcd_req.h).
 */
#include "cluster/etcd_req.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cluster/http_resp.h"

#define BODY_MAX BRAID_HTTP_RESP_MAX

static void stop(struct braid_etcd_req *q)
{
	if (q->fd >= 0) {
		ev_io_stop(q->loop, &q->io);
		close(q->fd);
		q->fd = -1;
	}
	ev_timer_stop(q->loop, &q->deadline);
	free(q->resp);
	q->resp = NULL;
}

static void finish(struct braid_etcd_req *q, int r)
{
	char *body = NULL;
	size_t bl = 0;

	if (!r) {
		body = malloc(BODY_MAX);
		r = body ? braid_etcd_reply(q->resp, q->got, body, BODY_MAX, &bl) : -ENOMEM;
	}
	stop(q);
	q->done(q, r, r ? NULL : body, r ? 0 : bl);
	free(body);
}

static void io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_etcd_req *q = w->data;

	(void)loop;
	if (revents & EV_WRITE) {
		ssize_t n = send(q->fd, q->req + q->req_off, q->req_len - q->req_off, MSG_NOSIGNAL);

		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			finish(q, -errno);
			return;
		}
		if (n > 0)
			q->req_off += (size_t)n;
		if (q->req_off == q->req_len) {
			ev_io_stop(q->loop, &q->io);
			ev_io_set(&q->io, q->fd, EV_READ);
			ev_io_start(q->loop, &q->io);
		}
		return;
	}
	for (;;) {
		ssize_t n;

		if (q->got == BRAID_HTTP_RESP_MAX) {
			finish(q, -EMSGSIZE);
			return;
		}
		n = recv(q->fd, q->resp + q->got, BRAID_HTTP_RESP_MAX - q->got, 0);
		if (n == 0) {
			finish(q, 0);
			return;
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			finish(q, -errno);
			return;
		}
		q->got += (size_t)n;
	}
}

static void deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	finish(w->data, -ETIMEDOUT);
}

void braid_etcd_req_init(struct braid_etcd_req *q, struct ev_loop *loop, braid_etcd_req_done done,
			 void *arg)
{
	q->loop = loop;
	q->fd = -1;
	q->resp = NULL;
	q->done = done;
	q->arg = arg;
	ev_init(&q->io, io_cb);
	ev_init(&q->deadline, deadline_cb);
	q->io.data = q->deadline.data = q;
}

int braid_etcd_req_start(struct braid_etcd_req *q, const struct braid_etcd *e, const char *path,
			 const char *json, int timeout_ms)
{
	int r;

	if (q->fd >= 0)
		return -EBUSY;
	r = braid_etcd_request(e, path, json, q->req, sizeof(q->req), &q->req_len);
	if (r)
		return r;
	q->req_off = q->got = 0;
	q->resp = malloc(BRAID_HTTP_RESP_MAX);
	if (!q->resp)
		return -ENOMEM;
	q->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (q->fd < 0) {
		r = -errno;
		stop(q);
		return r;
	}
	if (connect(q->fd, (const struct sockaddr *)&e->addr, sizeof(e->addr)) &&
	    errno != EINPROGRESS) {
		r = -errno;
		stop(q);
		return r;
	}
	ev_io_set(&q->io, q->fd, EV_WRITE);
	ev_io_start(q->loop, &q->io);
	ev_timer_set(&q->deadline, timeout_ms / 1000.0, 0);
	ev_timer_start(q->loop, &q->deadline);
	return 0;
}

bool braid_etcd_req_busy(const struct braid_etcd_req *q)
{
	return q->fd >= 0;
}

void braid_etcd_req_cancel(struct braid_etcd_req *q)
{
	stop(q);
}
