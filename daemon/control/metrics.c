// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics.c - the metrics endpoint's listener and connections (metrics.h).
 */
#include "control/metrics.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "control/metrics_fmt.h"
#include "control/metrics_http.h"
#include "os/sock.h"
#include "util/log.h"

/* Why a request or a connection was refused: the verdicts of metrics_http.h, then these. */
enum {
	REJ_TIMEOUT = BRAID_HTTP_VERDICT_N,	/* no complete request in time, or the answer not read */
	REJ_TOO_MANY,			/* BRAID_METRICS_MAX_CONN connections already */
	REJ_INCOMPLETE,			/* the client closed before a complete request */
	REJ_N
};

static const char *rej_name(int r)
{
	switch (r) {
	case REJ_TIMEOUT: return "timeout";
	case REJ_TOO_MANY: return "too_many_connections";
	case REJ_INCOMPLETE: return "incomplete";
	default: return braid_http_verdict_name((enum braid_http_verdict)r);
	}
}

struct conn {
	struct braid_metrics *m;
	int fd;
	ev_io r, w;
	ev_timer t;
	char in[BRAID_HTTP_REQ_MAX];
	size_t in_len;
	char *out;
	size_t out_len, out_off;
	char peer[80];
};

struct braid_metrics {
	struct ev_loop *loop;
	int fd;
	ev_io acc;
	const char *role;
	unsigned max_clients;
	braid_metrics_collect_fn collect;
	void *user;
	struct conn *conn[BRAID_METRICS_MAX_CONN];
	uint64_t rej[REJ_N];
	ev_tstamp rej_logged[REJ_N];
	uint64_t by_code[8];		/* 200 400 404 405 414 431 503 505 */
	uint64_t code_500;
};

static const int codes[8] = { 200, 400, 404, 405, 414, 431, 503, 505 };

static void count_code(struct braid_metrics *m, int code)
{
	for (int i = 0; i < 8; i++)
		if (codes[i] == code) {
			m->by_code[i]++;
			return;
		}
	m->code_500++;
}

static void reject(struct braid_metrics *m, int kind, const char *peer, const char *what)
{
	ev_tstamp now = ev_now(m->loop);

	m->rej[kind]++;
	if (m->rej_logged[kind] && now - m->rej_logged[kind] < 1.0)
		return;
	m->rej_logged[kind] = now;
	braid_warn("metrics: %s: %s (%s, %llu so far)", peer, what, rej_name(kind),
		   (unsigned long long)m->rej[kind]);
}

static void conn_free(struct conn *k)
{
	struct braid_metrics *m = k->m;

	ev_io_stop(m->loop, &k->r);
	ev_io_stop(m->loop, &k->w);
	ev_timer_stop(m->loop, &k->t);
	close(k->fd);
	for (int i = 0; i < BRAID_METRICS_MAX_CONN; i++)
		if (m->conn[i] == k)
			m->conn[i] = NULL;
	free(k->out);
	free(k);
}

/* The process's and the endpoint's own samples. */
static void own_samples(struct braid_metrics *m, struct braid_met_snap *s)
{
	double start, up;

	braid_met_u(s, BRAID_MET_BUILD,
		    braid_met_lset(s, -1, "version", BRAID_VERSION_STR, "role", m->role, NULL), 1);
	if (!braid_met_process_times(&start, &up)) {
		braid_met_d(s, BRAID_MET_START_TIME, -1, start);
		braid_met_d(s, BRAID_MET_UPTIME, -1, up);
	}
	for (int i = 0; i < 8; i++) {
		char c[8];

		snprintf(c, sizeof(c), "%d", codes[i]);
		braid_met_u(s, BRAID_MET_HTTP_REQUESTS, braid_met_lset(s, -1, "code", c, NULL),
			    m->by_code[i]);
	}
	braid_met_u(s, BRAID_MET_HTTP_REQUESTS, braid_met_lset(s, -1, "code", "500", NULL),
		    m->code_500);
	for (int r = 1; r < REJ_N; r++)	/* 0 is "ok" */
		braid_met_u(s, BRAID_MET_HTTP_REJECTED,
			    braid_met_lset(s, -1, "reason", rej_name(r), NULL), m->rej[r]);
}

/* The whole answer into k->out; the status code. */
static int build(struct conn *k, const struct braid_http_req *q)
{
	struct braid_metrics *m = k->m;
	struct braid_met_snap s;
	char *body = NULL, *out = NULL;
	size_t blen = 0, olen = 0;
	FILE *f;
	int code = braid_http_code(q->verdict);
	const char *ct = "text/plain; charset=utf-8";

	braid_met_snap_init(&s);
	if (q->verdict == BRAID_HTTP_OK) {
		count_code(m, 200);	/* this scrape counts itself */
		m->collect(m->user, &s, m->max_clients);
		own_samples(m, &s);
		f = open_memstream(&body, &blen);
		if (f) {
			braid_met_write(f, &s, q->openmetrics);
			if (fclose(f))
				s.err = -ENOMEM;
		} else {
			s.err = -ENOMEM;
		}
		if (s.err) {
			m->by_code[0]--;
			count_code(m, 500);
			code = 500;
			free(body);
			body = NULL;
		}
		ct = q->openmetrics ? BRAID_MET_CT_OPENMETRICS : BRAID_MET_CT_PROMETHEUS;
	} else {
		count_code(m, code);
		reject(m, q->verdict, k->peer, braid_http_reason(q->verdict));
	}
	braid_met_snap_free(&s);
	if (!body) {
		f = open_memstream(&body, &blen);
		if (f) {
			fprintf(f, "%d %s\n", code, code == 500 ? "Internal Server Error" :
				braid_http_reason(q->verdict));
			fclose(f);
		}
	}
	f = open_memstream(&out, &olen);
	if (!f || !body) {
		if (f)
			fclose(f);
		free(out);
		free(body);
		return -ENOMEM;
	}
	fprintf(f, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		"Cache-Control: no-store\r\nConnection: close\r\n%s\r\n", code,
		code == 500 ? "Internal Server Error" : braid_http_reason(q->verdict), ct, blen,
		q->verdict == BRAID_HTTP_BAD_METHOD ? "Allow: GET, HEAD\r\n" : "");
	if (!q->head)
		fwrite(body, 1, blen, f);
	free(body);
	if (fclose(f)) {
		free(out);
		return -ENOMEM;
	}
	k->out = out;
	k->out_len = olen;
	return code;
}

static void write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct conn *k = w->data;

	(void)loop, (void)revents;
	while (k->out_off < k->out_len) {
		ssize_t n = send(k->fd, k->out + k->out_off, k->out_len - k->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			conn_free(k);
			return;
		}
		k->out_off += (size_t)n;
	}
	shutdown(k->fd, SHUT_WR);
	conn_free(k);
}

static void respond(struct conn *k, const struct braid_http_req *q)
{
	struct braid_metrics *m = k->m;

	ev_io_stop(m->loop, &k->r);
	if (build(k, q) < 0) {
		conn_free(k);
		return;
	}
	ev_timer_stop(m->loop, &k->t);
	ev_timer_set(&k->t, BRAID_METRICS_TX_TIMEOUT_S, 0);
	ev_timer_start(m->loop, &k->t);
	ev_io_start(m->loop, &k->w);
	write_cb(m->loop, &k->w, EV_WRITE);
}

static void read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct conn *k = w->data;
	struct braid_http_req q;
	ssize_t n;

	(void)loop, (void)revents;
	n = recv(k->fd, k->in + k->in_len, sizeof(k->in) - k->in_len, MSG_DONTWAIT);
	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		if (k->in_len)
			reject(k->m, REJ_INCOMPLETE, k->peer, "closed before a complete request");
		conn_free(k);
		return;
	}
	k->in_len += (size_t)n;
	if (braid_http_parse(k->in, k->in_len, &q)) {
		respond(k, &q);
	} else if (k->in_len == sizeof(k->in)) {	/* the parser decides before; be safe */
		memset(&q, 0, sizeof(q));
		q.verdict = BRAID_HTTP_HEADERS_TOO_LARGE;
		respond(k, &q);
	}
}

static void timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct conn *k = w->data;

	(void)loop, (void)revents;
	reject(k->m, REJ_TIMEOUT, k->peer, k->out ? "the answer was not read in time" :
	       "no complete request in time");
	conn_free(k);
}

static void accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_metrics *m = w->data;
	union braid_sockaddr pa;
	socklen_t pl = sizeof(pa);
	struct conn *k;
	char peer[80];
	int fd, slot = -1;

	(void)loop, (void)revents;
	memset(&pa, 0, sizeof(pa));
	fd = accept4(m->fd, &pa.sa, &pl, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNABORTED)
			braid_warn("metrics: accept: %s", strerror(errno));
		return;
	}
	braid_sockaddr_str(&pa, peer, sizeof(peer));
	for (int i = 0; i < BRAID_METRICS_MAX_CONN && slot < 0; i++)
		if (!m->conn[i])
			slot = i;
	k = slot >= 0 ? calloc(1, sizeof(*k)) : NULL;
	if (!k) {
		static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
					   "Connection: close\r\nRetry-After: 1\r\n\r\n";
		ssize_t sent = send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);

		(void)sent;
		count_code(m, 503);
		reject(m, REJ_TOO_MANY, peer, slot < 0 ? "too many connections" : "out of memory");
		close(fd);
		return;
	}
	k->m = m;
	k->fd = fd;
	snprintf(k->peer, sizeof(k->peer), "%s", peer);
	m->conn[slot] = k;
	ev_io_init(&k->r, read_cb, fd, EV_READ);
	ev_io_init(&k->w, write_cb, fd, EV_WRITE);
	ev_timer_init(&k->t, timer_cb, BRAID_METRICS_REQ_TIMEOUT_S, 0);
	k->r.data = k->w.data = k->t.data = k;
	ev_io_start(m->loop, &k->r);
	ev_timer_start(m->loop, &k->t);
}

static int listen_on(const struct braid_options *o, int *out)
{
	struct addrinfo hints, *ai = NULL;
	char port[8];
	int fd, one = 1, r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE;
	snprintf(port, sizeof(port), "%d", o->metrics_port);
	r = getaddrinfo(o->metrics_addr, port, &hints, &ai);
	if (r) {
		braid_err("option 'metrics': cannot resolve '%s': %s", o->metrics_addr,
			  gai_strerror(r));
		return -EINVAL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (o->metrics_remote)	/* e.g. the tunnel's address, which comes later */
		setsockopt(fd, ai->ai_family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP,
			   ai->ai_family == AF_INET6 ? IPV6_FREEBIND : IP_FREEBIND, &one,
			   sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 16)) {
		r = -errno;
		close(fd);
		goto out;
	}
	*out = fd;
	r = 0;
out:
	if (r)
		braid_err("option 'metrics': cannot listen on %s port %d: %s", o->metrics_addr,
			  o->metrics_port, strerror(-r));
	freeaddrinfo(ai);
	return r;
}

int braid_metrics_new(struct braid_metrics **out, struct ev_loop *loop,
		      const struct braid_options *o, const char *role,
		      braid_metrics_collect_fn collect, void *user)
{
	struct braid_metrics *m;
	int r;

	*out = NULL;
	if (!o->metrics_addr)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	{
		double start, up;

		braid_met_process_times(&start, &up);	/* read /proc before a chroot */
	}
	r = listen_on(o, &m->fd);
	if (r) {
		free(m);
		return r;
	}
	m->loop = loop;
	m->role = role;
	m->collect = collect;
	m->user = user;
	m->max_clients = o->metrics_max_clients >= 0 ? (unsigned)o->metrics_max_clients :
			 BRAID_METRICS_MAX_CLIENTS_DEFAULT;
	ev_io_init(&m->acc, accept_cb, m->fd, EV_READ);
	m->acc.data = m;
	ev_io_start(loop, &m->acc);
	braid_info("metrics: serving http://%s%s%s:%d/metrics%s", strchr(o->metrics_addr, ':') ?
		   "[" : "", o->metrics_addr, strchr(o->metrics_addr, ':') ? "]" : "",
		   o->metrics_port, o->metrics_remote ? " (allow-remote)" : "");
	*out = m;
	return 0;
}

void braid_metrics_free(struct braid_metrics *m)
{
	if (!m)
		return;
	for (int i = 0; i < BRAID_METRICS_MAX_CONN; i++)
		if (m->conn[i])
			conn_free(m->conn[i]);
	ev_io_stop(m->loop, &m->acc);
	close(m->fd);
	free(m);
}
