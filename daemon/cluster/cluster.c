// SPDX-License-Identifier: GPL-2.0-only
/*
 * cluster.c - a gateway's membership in a group of gateways behind one
 * address (cluster.h). Start-up and stop use etcd.c's blocking calls with a
 * short timeout (the loop is not serving yet, or no longer); the keepalive
 * and every other request (a client's revoked/, ccd/, its address claim and
 * release, a reload's revocation check) are driven by an event loop
 * (etcd_req.c), so a slow or unreachable store never stalls the gateway.
 *
 * With worker threads each worker has a handle of its own
 * (braid_cluster_attach) whose requests run on that worker's loop: the lease
 * and the gateway id are written once before the threads start, the only
 * state shared afterwards is the "lease gone" flag (an atomic), so no lock.
 */
#include "cluster/cluster.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cluster/etcd.h"
#include "cluster/etcd_req.h"
#include "util/log.h"

#define CALL_MS 1000		/* a blocking request (start, claim, release) */
#define TTL_DEFAULT 10

struct braid_cluster {
	struct ev_loop *loop;
	struct braid_cluster *home;	/* the membership's handle (worker 0's); itself there */
	struct braid_etcd etcd;
	char prefix[72];
	int ttl;
	uint64_t lease;
	unsigned id;
	void (*lost)(void *);
	void *arg;
	atomic_bool gone;		/* home's only: the lease is gone (every worker's handle reads it) */
	ev_timer every;			/* keepalive (home only) */
	struct braid_etcd_req ka;
	struct braid_cluster_op *ops;	/* requests under way (lookups, claims, releases) */
	struct braid_cluster_stats st;
};

static void ka_fail(struct braid_cluster *c, const char *why, int err)
{
	c->st.keepalive_fail++;
	braid_warn("cluster: lease keepalive failed: %s%s%s (lease ttl %d s; retrying)", why,
		   err ? ": " : "", err ? strerror(-err) : "", c->ttl);
}

static void ka_done(struct braid_etcd_req *q, int r, const char *body, size_t len)
{
	struct braid_cluster *c = q->arg;
	long ttl = 0;

	if (r) {
		ka_fail(c, r == -ETIMEDOUT ? "no reply in time" : "request", r);
		return;
	}
	r = braid_etcd_keepalive_ttl(body, len, &ttl);
	if (r) {
		ka_fail(c, "bad reply", r);
		return;
	}
	c->st.keepalives++;
	if (ttl > 0)
		return;
	braid_err("cluster: the gateway-id lease is gone (expired or revoked): gateway id %u and "
		  "its addresses may be another gateway's now; stopping", c->id);
	atomic_store(&c->gone, true);
	ev_timer_stop(c->loop, &c->every);
	if (c->lost)
		c->lost(c->arg);
}

static void ka_every_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_cluster *c = w->data;
	char j[64];
	int r;

	(void)loop;
	(void)revents;
	if (braid_etcd_req_busy(&c->ka))
		return;	/* the previous one is still under way (its deadline ends it) */
	r = braid_etcd_json_id(j, sizeof(j), c->lease);
	r = r ?: braid_etcd_req_start(&c->ka, &c->etcd, "/v3/lease/keepalive", j, c->ttl * 1000 / 3);
	if (r)
		ka_fail(c, "request", r);
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
	c->home = c;
	c->lost = lost;
	c->arg = arg;
	c->ttl = o->cluster_ttl > 0 ? o->cluster_ttl : TTL_DEFAULT;
	snprintf(c->prefix, sizeof(c->prefix), "%s", o->cluster_prefix ? o->cluster_prefix : "braid/");
	r = braid_etcd_init(&c->etcd, o->cluster_etcd);
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
	c->every.data = c;
	braid_etcd_req_init(&c->ka, loop, ka_done, c);
	ev_timer_start(loop, &c->every);
	braid_info("cluster: gateway id %u (peer-ids %u..%u), lease %" PRIx64 " ttl %d s, etcd %s, "
		   "prefix %s", c->id, c->id << BRAID_CLUSTER_LOCAL_BITS,
		   (c->id << BRAID_CLUSTER_LOCAL_BITS) | 0xffff, c->lease, c->ttl, o->cluster_etcd,
		   c->prefix);
	*out = c;
	return 0;
fail:
	free(c);
	return r;
}

int braid_cluster_attach(struct braid_cluster *home, struct ev_loop *loop,
			 struct braid_cluster **out)
{
	struct braid_cluster *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->loop = loop;
	c->home = home;
	c->etcd = home->etcd;
	snprintf(c->prefix, sizeof(c->prefix), "%s", home->prefix);
	c->ttl = home->ttl;
	c->lease = home->lease;
	c->id = home->id;
	*out = c;
	return 0;
}

/* The lease is gone (the home handle's flag). */
static bool gone(const struct braid_cluster *c)
{
	return atomic_load(&c->home->gone);
}

void braid_cluster_stop(struct braid_cluster *c)
{
	if (!c)
		return;
	while (c->ops)	/* the owners cancelled theirs (gw_cluster.c); these are releases */
		braid_cluster_op_cancel(c->ops);
	if (c->home != c) {	/* a worker's handle: the lease is the home's */
		free(c);
		return;
	}
	braid_etcd_req_cancel(&c->ka);
	ev_timer_stop(c->loop, &c->every);
	if (!gone(c)) {
		int r = braid_etcd_revoke(&c->etcd, c->lease, CALL_MS);

		if (r)
			braid_warn("cluster: revoking the lease failed (%s): gateway id %u and its "
				   "addresses are free when it expires (%d s)", strerror(-r), c->id,
				   c->ttl);
		else
			braid_info("cluster: lease revoked, gateway id %u released", c->id);
	}
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

static void log_revoked(struct braid_cluster *c, const char *serial, const char *k, char *why)
{
	c->st.revoked++;
	for (char *p = why; *p; p++)	/* the operator's text goes into our log */
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
	braid_warn("cluster: certificate serial %s is revoked (etcd %s: %s)", serial, k, why);
}

static bool serial_ok(const char *serial)
{
	return serial && serial[0] && strspn(serial, "0123456789") == strlen(serial);
}

/* ---- requests of a client's connect and disconnect, driven by the loop ---- */

enum op_kind { OP_REVOKED, OP_CCD, OP_CLAIM, OP_RELEASE };

struct braid_cluster_op {
	struct braid_etcd_req q;
	struct braid_cluster *c;
	struct braid_cluster_op *prev, *next;
	enum op_kind kind;
	char serial[64];
	char cn[256];
	char addr[64];
	char key[BRAID_ETCD_KEY_MAX];
	braid_cluster_lookup_done ldone;
	braid_cluster_claim_done cdone;
	void *arg;
};

static void op_unlink(struct braid_cluster_op *op)
{
	struct braid_cluster *c = op->c;

	if (op->prev)
		op->prev->next = op->next;
	else
		c->ops = op->next;
	if (op->next)
		op->next->prev = op->prev;
}

void braid_cluster_op_cancel(struct braid_cluster_op *op)
{
	if (!op)
		return;
	braid_etcd_req_cancel(&op->q);
	op_unlink(op);
	free(op);
}

static void op_done(struct braid_etcd_req *q, int r, const char *body, size_t len);

static struct braid_cluster_op *op_new(struct braid_cluster *c, enum op_kind kind)
{
	struct braid_cluster_op *op = calloc(1, sizeof(*op));

	if (!op)
		return NULL;
	op->c = c;
	op->kind = kind;
	braid_etcd_req_init(&op->q, c->loop, op_done, op);
	op->next = c->ops;
	if (c->ops)
		c->ops->prev = op;
	c->ops = op;
	return op;
}

/* Send the request of op's kind (its key and fields set). 0, -errno (op still linked). */
static int op_send(struct braid_cluster_op *op)
{
	struct braid_cluster *c = op->c;
	char j[BRAID_ETCD_REQ_MAX - 256], val[16];
	const char *path;
	int r;

	switch (op->kind) {
	case OP_REVOKED:
	case OP_CCD:
		r = key(c, op->key, sizeof(op->key), op->kind == OP_CCD ? "ccd" : "revoked",
			op->kind == OP_CCD ? op->cn : op->serial);
		r = r ?: braid_etcd_json_range(j, sizeof(j), op->key);
		path = "/v3/kv/range";
		break;
	case OP_CLAIM:
		snprintf(val, sizeof(val), "gw %u", c->id);
		r = key(c, op->key, sizeof(op->key), "addr", op->addr);
		r = r ?: braid_etcd_json_create(j, sizeof(j), op->key, val, c->lease);
		path = "/v3/kv/txn";
		break;
	default:
		r = key(c, op->key, sizeof(op->key), "addr", op->addr);
		r = r ?: braid_etcd_json_delete(j, sizeof(j), op->key);
		path = "/v3/kv/deleterange";
		break;
	}
	return r ?: braid_etcd_req_start(&op->q, &c->etcd, path, j, CALL_MS);
}

/* A lookup ends: tell the owner (the op is freed first: the callback may free the owner). */
static void lookup_end(struct braid_cluster_op *op, int r, bool revoked, const char *ccd)
{
	struct braid_cluster_entries e = { .revoked = revoked, .ccd = ccd };
	braid_cluster_lookup_done done = op->ldone;
	void *arg = op->arg;

	braid_cluster_op_cancel(op);
	done(arg, r, &e);
}

static void claim_end(struct braid_cluster_op *op, int r)
{
	braid_cluster_claim_done done = op->cdone;
	void *arg = op->arg;

	braid_cluster_op_cancel(op);
	done(arg, r);
}

static void op_failed(struct braid_cluster_op *op, int r)
{
	struct braid_cluster *c = op->c;

	switch (op->kind) {
	case OP_REVOKED:
	case OP_CCD:
		c->st.read_fail++;
		braid_warn("cluster: reading %s from etcd failed: %s", op->key, strerror(-r));
		lookup_end(op, r, false, NULL);
		break;
	case OP_CLAIM:
		c->st.claim_fail++;
		braid_warn("cluster: claiming %s in etcd failed: %s", op->addr, strerror(-r));
		claim_end(op, r);
		break;
	default:
		braid_warn("cluster: releasing %s in etcd failed (%s): it is free when the lease "
			   "expires", op->addr, strerror(-r));
		braid_cluster_op_cancel(op);
		break;
	}
}

static void ccd_step(struct braid_cluster_op *op)
{
	int r;

	if (!op->cn[0]) {
		lookup_end(op, 0, false, NULL);
		return;
	}
	op->kind = OP_CCD;
	r = op_send(op);
	if (r)
		op_failed(op, r);
}

static void op_done(struct braid_etcd_req *q, int r, const char *body, size_t len)
{
	struct braid_cluster_op *op = q->arg;
	struct braid_cluster *c = op->c;
	char *val = NULL;
	size_t n;
	bool found;

	if (r) {
		op_failed(op, r);
		return;
	}
	switch (op->kind) {
	case OP_REVOKED:
		val = malloc(128);
		r = val ? braid_etcd_range_value(body, len, val, 128, &n, &found) : -ENOMEM;
		if (r == -EMSGSIZE) {	/* a long reason: revoked all the same */
			found = true;
			snprintf(val, 128, "(a long text)");
		} else if (r) {
			free(val);
			op_failed(op, r);
			return;
		}
		if (found) {
			log_revoked(c, op->serial, op->key, val);
			lookup_end(op, 0, true, NULL);
		} else {
			ccd_step(op);
		}
		free(val);
		return;
	case OP_CCD:
		val = malloc(BRAID_CLUSTER_CCD_MAX);
		r = val ? braid_etcd_range_value(body, len, val, BRAID_CLUSTER_CCD_MAX, &n, &found) :
			  -ENOMEM;
		if (r == -EMSGSIZE) {
			c->st.read_fail++;
			braid_warn("cluster: %s is larger than %d bytes", op->key, BRAID_CLUSTER_CCD_MAX - 1);
			lookup_end(op, r, false, NULL);
		} else if (r) {
			op_failed(op, r);
		} else {
			if (found)
				c->st.ccd_read++;
			lookup_end(op, 0, false, found ? val : NULL);
		}
		free(val);
		return;
	case OP_CLAIM:
		r = braid_etcd_txn_created(body, len, &found);
		if (r) {
			op_failed(op, r);
			return;
		}
		if (!found) {
			c->st.claim_taken++;
			braid_info("cluster: address %s is another gateway's (etcd): taking the next",
				   op->addr);
			claim_end(op, -EEXIST);
			return;
		}
		c->st.claims++;
		claim_end(op, 0);
		return;
	default:
		c->st.releases++;
		braid_cluster_op_cancel(op);
		return;
	}
}

int braid_cluster_lookup(struct braid_cluster *c, const char *serial, const char *cn,
			 braid_cluster_lookup_done done, void *arg, struct braid_cluster_op **out)
{
	struct braid_cluster_op *op;
	int r;

	if (gone(c))
		return -ENOLINK;
	if (serial && serial[0] && !serial_ok(serial))
		return -EINVAL;
	if ((serial && strlen(serial) >= sizeof(op->serial)) || (cn && strlen(cn) >= sizeof(op->cn)))
		return -ENAMETOOLONG;
	op = op_new(c, OP_REVOKED);
	if (!op)
		return -ENOMEM;
	snprintf(op->serial, sizeof(op->serial), "%s", serial ? serial : "");
	snprintf(op->cn, sizeof(op->cn), "%s", cn ? cn : "");
	op->ldone = done;
	op->arg = arg;
	if (!op->serial[0] && !op->cn[0]) {
		braid_cluster_op_cancel(op);
		return -ENODATA;
	}
	if (!op->serial[0])
		op->kind = OP_CCD;
	r = op_send(op);
	if (r) {
		c->st.read_fail++;
		braid_cluster_op_cancel(op);
		return r;
	}
	*out = op;
	return 0;
}

int braid_cluster_claim(struct braid_cluster *c, const char *addr, braid_cluster_claim_done done,
			void *arg, struct braid_cluster_op **out)
{
	struct braid_cluster_op *op;
	int r;

	if (gone(c))
		return -ENOLINK;
	if (strlen(addr) >= sizeof(op->addr))
		return -ENAMETOOLONG;
	op = op_new(c, OP_CLAIM);
	if (!op)
		return -ENOMEM;
	snprintf(op->addr, sizeof(op->addr), "%s", addr);
	op->cdone = done;
	op->arg = arg;
	r = op_send(op);
	if (r) {
		c->st.claim_fail++;
		braid_warn("cluster: claiming %s in etcd failed: %s", addr, strerror(-r));
		braid_cluster_op_cancel(op);
		return r;
	}
	*out = op;
	return 0;
}

void braid_cluster_release(struct braid_cluster *c, const char *addr)
{
	struct braid_cluster_op *op;
	int r;

	if (gone(c))
		return;
	op = strlen(addr) < sizeof(op->addr) ? op_new(c, OP_RELEASE) : NULL;
	if (!op) {
		braid_warn("cluster: releasing %s in etcd failed: it is free when the lease expires",
			   addr);
		return;
	}
	snprintf(op->addr, sizeof(op->addr), "%s", addr);
	r = op_send(op);
	if (r)
		op_failed(op, r);
}

void braid_cluster_add_stats(const struct braid_cluster *c, struct braid_cluster_stats *st)
{
	const unsigned long long *a = (const unsigned long long *)&c->st;
	unsigned long long *s = (unsigned long long *)st;

	for (size_t i = 0; i < sizeof(*st) / sizeof(*s); i++)	/* every field is an unsigned long long */
		s[i] += a[i];
}
