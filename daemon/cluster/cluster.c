// SPDX-License-Identifier: GPL-2.0-only
/*
 * cluster.c - a gateway's membership in a group of gateways behind one
 * address (cluster.h). Start-up and claims use etcd.c's blocking calls with
 * a short timeout (the store is local or on a private network, one request
 * per client connect); the keepalive, which runs all the time, is driven by
 * the event loop: a non-blocking connect, the request written when the
 * socket is writable, the reply read to EOF into a bounded buffer, a
 * deadline timer over the whole exchange.
 */
#include "cluster/cluster.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cluster/etcd.h"
#include "util/log.h"

#define CALL_MS 1000		/* a blocking request (start, claim, release) */
#define TTL_DEFAULT 10

struct braid_cluster {
	struct ev_loop *loop;
	struct braid_etcd etcd;
	char prefix[72];
	int ttl;
	uint64_t lease;
	unsigned id;
	void (*lost)(void *);
	void *arg;
	bool gone;
	/* keepalive in flight */
	ev_timer every, deadline;
	ev_io io;
	int fd;
	char req[BRAID_ETCD_REQ_MAX];
	size_t req_len, req_off;
	char *resp;
	size_t got;
	struct braid_cluster_stats st;
};

static void ka_close(struct braid_cluster *c)
{
	if (c->fd >= 0) {
		ev_io_stop(c->loop, &c->io);
		close(c->fd);
		c->fd = -1;
	}
	ev_timer_stop(c->loop, &c->deadline);
}

static void ka_fail(struct braid_cluster *c, const char *why, int err)
{
	c->st.keepalive_fail++;
	braid_warn("cluster: lease keepalive failed: %s%s%s (lease ttl %d s; retrying)", why,
		   err ? ": " : "", err ? strerror(-err) : "", c->ttl);
	ka_close(c);
}

static void ka_done(struct braid_cluster *c)
{
	char body[4096];
	size_t bl;
	long ttl = 0;
	int r = braid_etcd_reply(c->resp, c->got, body, sizeof(body), &bl);

	r = r ?: braid_etcd_keepalive_ttl(body, bl, &ttl);
	if (r) {
		ka_fail(c, "bad reply", r);
		return;
	}
	ka_close(c);
	c->st.keepalives++;
	if (ttl > 0)
		return;
	braid_err("cluster: the gateway-id lease is gone (expired or revoked): gateway id %u and "
		  "its addresses may be another gateway's now; stopping", c->id);
	c->gone = true;
	ev_timer_stop(c->loop, &c->every);
	if (c->lost)
		c->lost(c->arg);
}

static void ka_io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_cluster *c = w->data;

	(void)loop;
	if (revents & EV_WRITE) {
		ssize_t n = send(c->fd, c->req + c->req_off, c->req_len - c->req_off, MSG_NOSIGNAL);

		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			ka_fail(c, "send", -errno);
			return;
		}
		if (n > 0)
			c->req_off += (size_t)n;
		if (c->req_off == c->req_len) {
			ev_io_stop(c->loop, &c->io);
			ev_io_set(&c->io, c->fd, EV_READ);
			ev_io_start(c->loop, &c->io);
		}
		return;
	}
	for (;;) {
		ssize_t n;

		if (c->got == BRAID_HTTP_RESP_MAX) {
			ka_fail(c, "reply too long", -EMSGSIZE);
			return;
		}
		n = recv(c->fd, c->resp + c->got, BRAID_HTTP_RESP_MAX - c->got, 0);
		if (n == 0) {
			ka_done(c);
			return;
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			ka_fail(c, "recv", -errno);
			return;
		}
		c->got += (size_t)n;
	}
}

static void ka_deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	ka_fail(w->data, "no reply in time", -ETIMEDOUT);
}

static void ka_every_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_cluster *c = w->data;
	char j[64];
	int r;

	(void)loop;
	(void)revents;
	if (c->fd >= 0)
		return;	/* the previous one is still under way (its deadline ends it) */
	r = braid_etcd_json_id(j, sizeof(j), c->lease);
	r = r ?: braid_etcd_request(&c->etcd, "/v3/lease/keepalive", j, c->req, sizeof(c->req),
				    &c->req_len);
	if (r) {
		ka_fail(c, "request", r);
		return;
	}
	c->req_off = c->got = 0;
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		ka_fail(c, "socket", -errno);
		return;
	}
	if (connect(c->fd, (const struct sockaddr *)&c->etcd.addr, sizeof(c->etcd.addr)) &&
	    errno != EINPROGRESS) {
		ka_fail(c, "connect", -errno);
		return;
	}
	ev_io_set(&c->io, c->fd, EV_WRITE);
	ev_io_start(c->loop, &c->io);
	ev_timer_set(&c->deadline, c->ttl / 3.0, 0);
	ev_timer_start(c->loop, &c->deadline);
}

/* PREFIX KIND/WHAT into buf; -ENAMETOOLONG rather than a cut key (which could name another entry). */
static int key(const struct braid_cluster *c, char *buf, size_t cap, const char *kind,
	       const char *what)
{
	int n = snprintf(buf, cap, "%s%s/%s", c->prefix, kind, what);

	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

static int take_id(struct braid_cluster *c, unsigned want)
{
	char host[64] = "?", val[128], k[BRAID_ETCD_KEY_MAX], idt[8];

	gethostname(host, sizeof(host) - 1);
	snprintf(val, sizeof(val), "%s pid %d", host, (int)getpid());
	for (unsigned id = want ? want : 1; id <= (want ? want : BRAID_CLUSTER_GW_MAX); id++) {
		bool created;
		int r;

		snprintf(idt, sizeof(idt), "%u", id);
		r = key(c, k, sizeof(k), "gw", idt);
		r = r ?: braid_etcd_create(&c->etcd, k, val, c->lease, CALL_MS, &created);
		if (r)
			return r;
		if (created) {
			c->id = id;
			return 0;
		}
	}
	return want ? -EADDRINUSE : -ENOSPC;
}

int braid_cluster_start(struct braid_cluster **out, struct ev_loop *loop,
			const struct braid_options *o, void (*lost)(void *), void *arg)
{
	struct braid_cluster *c = calloc(1, sizeof(*c));
	int r;

	if (!c)
		return -ENOMEM;
	c->loop = loop;
	c->fd = -1;
	c->lost = lost;
	c->arg = arg;
	c->ttl = o->cluster_ttl > 0 ? o->cluster_ttl : TTL_DEFAULT;
	snprintf(c->prefix, sizeof(c->prefix), "%s", o->cluster_prefix ? o->cluster_prefix : "braid/");
	c->resp = malloc(BRAID_HTTP_RESP_MAX);
	r = c->resp ? braid_etcd_init(&c->etcd, o->cluster_etcd) : -ENOMEM;
	if (r) {
		braid_err("cluster: cluster-etcd '%s': %s", o->cluster_etcd, strerror(-r));
		goto fail;
	}
	r = braid_etcd_grant(&c->etcd, c->ttl, CALL_MS, &c->lease);
	if (r) {
		braid_err("cluster: cannot get a lease from etcd at %s: %s", o->cluster_etcd,
			  strerror(-r));
		goto fail;
	}
	r = take_id(c, (unsigned)o->cluster_gw_id);
	if (r) {
		braid_err("cluster: cannot take a gateway id in etcd at %s: %s", o->cluster_etcd,
			  r == -ENOSPC ? "all 254 ids are taken" :
			  r == -EADDRINUSE ? "cluster-gateway-id is another live gateway's" :
			  strerror(-r));
		braid_etcd_revoke(&c->etcd, c->lease, CALL_MS);
		goto fail;
	}
	ev_timer_init(&c->every, ka_every_cb, c->ttl / 3.0, c->ttl / 3.0);
	ev_init(&c->deadline, ka_deadline_cb);
	ev_init(&c->io, ka_io_cb);
	c->every.data = c->deadline.data = c->io.data = c;
	ev_timer_start(loop, &c->every);
	braid_info("cluster: gateway id %u (peer-ids %u..%u), lease %" PRIx64 " ttl %d s, etcd %s, "
		   "prefix %s", c->id, c->id << BRAID_CLUSTER_LOCAL_BITS,
		   (c->id << BRAID_CLUSTER_LOCAL_BITS) | 0xffff, c->lease, c->ttl, o->cluster_etcd,
		   c->prefix);
	*out = c;
	return 0;
fail:
	free(c->resp);
	free(c);
	return r;
}

void braid_cluster_stop(struct braid_cluster *c)
{
	if (!c)
		return;
	ka_close(c);
	ev_timer_stop(c->loop, &c->every);
	if (!c->gone) {
		int r = braid_etcd_revoke(&c->etcd, c->lease, CALL_MS);

		if (r)
			braid_warn("cluster: revoking the lease failed (%s): gateway id %u and its "
				   "addresses are free when it expires (%d s)", strerror(-r), c->id,
				   c->ttl);
		else
			braid_info("cluster: lease revoked, gateway id %u released", c->id);
	}
	free(c->resp);
	free(c);
}

unsigned braid_cluster_gw_id(const struct braid_cluster *c)
{
	return c->id;
}

uint32_t braid_cluster_pid_base(const struct braid_cluster *c)
{
	return (uint32_t)c->id << BRAID_CLUSTER_LOCAL_BITS;
}

int braid_cluster_claim(struct braid_cluster *c, const char *addr)
{
	char k[BRAID_ETCD_KEY_MAX], val[16];
	bool created;
	int r;

	if (c->gone)
		return -ENOLINK;
	snprintf(val, sizeof(val), "gw %u", c->id);
	r = key(c, k, sizeof(k), "addr", addr);
	r = r ?: braid_etcd_create(&c->etcd, k, val, c->lease, CALL_MS, &created);
	if (r) {
		c->st.claim_fail++;
		braid_warn("cluster: claiming %s in etcd failed: %s", addr, strerror(-r));
		return r;
	}
	if (!created) {
		c->st.claim_taken++;
		braid_info("cluster: address %s is another gateway's (etcd): taking the next", addr);
		return -EEXIST;
	}
	c->st.claims++;
	return 0;
}

void braid_cluster_release(struct braid_cluster *c, const char *addr)
{
	char k[BRAID_ETCD_KEY_MAX];
	int r;

	if (c->gone)
		return;
	r = key(c, k, sizeof(k), "addr", addr);
	r = r ?: braid_etcd_delete(&c->etcd, k, CALL_MS);
	if (r)
		braid_warn("cluster: releasing %s in etcd failed (%s): it is free when the lease "
			   "expires", addr, strerror(-r));
	else
		c->st.releases++;
}

int braid_cluster_revoked(struct braid_cluster *c, const char *serial)
{
	char k[BRAID_ETCD_KEY_MAX], why[128];
	size_t n;
	bool found;
	int r;

	if (c->gone)
		return -ENOLINK;
	if (!serial || !serial[0] || strspn(serial, "0123456789") != strlen(serial))
		return -EINVAL;
	r = key(c, k, sizeof(k), "revoked", serial);
	r = r ?: braid_etcd_get(&c->etcd, k, CALL_MS, why, sizeof(why), &n, &found);
	if (r == -EMSGSIZE) {	/* a long reason: revoked all the same */
		found = true;
		snprintf(why, sizeof(why), "(a long text)");
	} else if (r) {
		c->st.read_fail++;
		braid_warn("cluster: reading %s from etcd failed: %s", k, strerror(-r));
		return r;
	}
	if (!found)
		return 0;
	c->st.revoked++;
	for (char *p = why; *p; p++)	/* the operator's text goes into our log */
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
	braid_warn("cluster: certificate serial %s is revoked (etcd %s: %s)", serial, k, why);
	return 1;
}

int braid_cluster_ccd(struct braid_cluster *c, const char *cn, char *buf, size_t cap, bool *found)
{
	char k[BRAID_ETCD_KEY_MAX];
	size_t n;
	int r;

	if (c->gone)
		return -ENOLINK;
	r = key(c, k, sizeof(k), "ccd", cn);
	r = r ?: braid_etcd_get(&c->etcd, k, CALL_MS, buf, cap, &n, found);
	if (r) {
		c->st.read_fail++;
		braid_warn("cluster: reading %s from etcd failed: %s", k, strerror(-r));
		return r;
	}
	if (*found)
		c->st.ccd_read++;
	return 0;
}

void braid_cluster_get_stats(const struct braid_cluster *c, struct braid_cluster_stats *st)
{
	*st = c->st;
}
