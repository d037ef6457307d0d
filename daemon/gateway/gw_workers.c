// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_workers.c - the gateway's worker threads (gw_workers.h): the socket
 * group with its steering program, the TUN queues, the workers' gateways
 * (copies of worker 0's set-up with their own loop, socket, queue, tables and
 * counters), the rings' consumers, start and stop.
 */
#include "gateway/gw_workers.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway/gw_client.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_data.h"
#include "gateway/gw_io.h"
#include "gateway/gw_mgmt_ev.h"
#include "gateway/gw_mqtun.h"
#include "gateway/gw_script.h"
#include "gateway/gw_table.h"
#include "gateway/gw_timers.h"
#include "gateway/gw_udp.h"
#include "os/netlink.h"
#include "util/log.h"

static void loop_release(struct ev_loop *loop)
{
	struct gw_worker *w = ev_userdata(loop);

	pthread_mutex_unlock(&w->lk);
}

static void loop_acquire(struct ev_loop *loop)
{
	struct gw_worker *w = ev_userdata(loop);

	pthread_mutex_lock(&w->lk);
}


/* A datagram another worker had no client for: ours if its address is one of our clients'. */
static void link_taken(struct braid_gateway *g, uint8_t *m, size_t n)
{
	union braid_sockaddr from;
	struct gw_client *c;
	uint8_t *pkt = m + sizeof(from);
	uint8_t op;

	if (n < sizeof(from) + 1)
		return;
	memcpy(&from, m, sizeof(from));
	c = braid_gw_by_addr(g, &from);
	if (!c || c->dead)
		return;
	g->st.xq_link_taken++;	/* link_rx_pkts: counted by the worker that read it */
	op = pkt[0] >> BRAID_CTL_OP_SHIFT;
	if (op == BRAID_OP_DATA_V1)
		braid_gw_on_data(c, pkt, n - sizeof(from), NULL);
	else if (braid_ctl_op_is_control(op))
		braid_gw_on_control(c, pkt, n - sizeof(from));
}

/* No duplicate-cn: another worker's new session with this name drops ours. */
static void drop_cn(struct braid_gateway *g, const char *cn)
{
	for (uint32_t i = g->widx; i < g->max_clients; i += braid_gw_nw(g)) {
		struct gw_client *c = g->by_pid[i];

		if (c && !c->dead && !strcmp(c->cn, cn)) {
			braid_info("%s/%s: a new connection by this common name (another worker) drops it",
				   braid_gw_cname(c), c->real);
			braid_gw_client_kill(c, "replaced by a newer connection with the same common name");
		}
	}
}

/* An incoming ring is readable: deliver every message on it. */
static void ring_cb(struct ev_loop *loop, ev_io *io, int revents)
{
	struct braid_gw_xq *q = io->data;
	struct braid_gateway *g = ev_userdata(loop) ? ((struct gw_worker *)ev_userdata(loop))->g : NULL;
	uint8_t *m;
	ssize_t n;

	(void)revents;
	if (!g)
		return;
	m = g->buf + HEADROOM - 1;	/* the payload lands at HEADROOM, as a TUN read's */
	braid_gw_xq_ack(q);
	braid_gw_io_begin(g);	/* inner packets for our clients: sent in batches */
	while ((n = braid_gw_xq_pop(q, m, BUF_SIZE - HEADROOM + 1)) > 0) {
		if (m[0] == GW_XQ_INNER) {
			g->st.xq_received++;
			braid_gw_inner_out(g, m + 1, (size_t)n - 1, false);
		} else if (m[0] == GW_XQ_LINK) {
			link_taken(g, m + 1, (size_t)n - 1);
		} else if (m[0] == GW_XQ_DROP_CN && n > 1) {
			char cn[BRAID_TLS_CN_MAX];
			size_t l = (size_t)n - 1 < sizeof(cn) - 1 ? (size_t)n - 1 : sizeof(cn) - 1;

			memcpy(cn, m + 1, l);
			cn[l] = 0;
			drop_cn(g, cn);
		}
	}
	braid_gw_io_end(g);
	braid_gw_reap(g);
}

static void wake_cb(struct ev_loop *loop, ev_async *a, int revents)
{
	struct gw_workers *k = a->data;

	(void)revents;
	if (atomic_load(&k->stop))
		ev_break(loop, EVBREAK_ALL);
}

/* Worker 0 is about to poll: the other workers held for its last iteration go on. */
static void held_cb(struct ev_loop *loop, ev_prepare *p, int revents)
{
	(void)loop;
	(void)revents;
	braid_gw_hold_release(p->data);
}

/* Worker 0: the other workers' log lines (the management's history) and client events. */
static void w0_cb(struct ev_loop *loop, ev_async *a, int revents)
{
	(void)loop;
	(void)revents;
	braid_log_drain();
	braid_gw_mgmt_ev_drain(a->data);
}

static void log_wake(void *ctx)
{
	struct gw_workers *k = ctx;

	ev_async_send(k->w[0].g->loop, &k->w0_a);
}

static void *worker_main(void *arg)
{
	struct gw_worker *w = arg;

	pthread_mutex_lock(&w->lk);
	ev_run(w->g->loop, 0);
	pthread_mutex_unlock(&w->lk);
	return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* set-up */

int braid_gw_workers_want(const struct braid_options *o)
{
	long n;

	if (o->workers > 0)
		return o->workers;
	/* `workers auto`, and no `workers` line: one worker per online core */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > BRAID_OPT_WORKERS_MAX ? BRAID_OPT_WORKERS_MAX : (int)n;
}

/* The socket group kept across a SIGHUP restart (one process, one gateway at a time). */
static struct {
	unsigned n;
	int fd[BRAID_GW_MAX_WORKERS];
	struct braid_gw_reuseport *rp;
	union braid_sockaddr addr;
} kept;

void braid_gw_workers_kept_close(void)
{
	for (unsigned i = 0; i < kept.n; i++)
		if (kept.fd[i] >= 0)
			close(kept.fd[i]);
	braid_gw_reuseport_free(kept.rp);
	kept.rp = NULL;
	kept.n = 0;
}

void braid_gw_workers_keep(struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;

	braid_gw_workers_kept_close();
	if (!k)
		return;
	/* worker 0's socket now (its loop has stopped), the others' in clone_free after their threads */
	k->keep = true;
	kept.n = k->n;
	kept.addr = g->bind_addr;
	for (unsigned i = 0; i < BRAID_GW_MAX_WORKERS; i++)
		kept.fd[i] = -1;
	kept.fd[0] = g->fd;
	k->sock_fd[0] = -1;
	g->fd = -1;
	kept.rp = k->rp;
	k->rp = NULL;
}

/* The kept group for n workers on a: into k (true), or closed (false). */
static bool kept_take(struct gw_workers *k, unsigned n, const union braid_sockaddr *a)
{
	bool ok = kept.n == n && kept.rp && braid_sockaddr_equal(&kept.addr, a);

	for (unsigned i = 0; ok && i < n; i++)
		ok = kept.fd[i] >= 0;
	if (!ok) {
		braid_gw_workers_kept_close();
		return false;
	}
	memcpy(k->sock_fd, kept.fd, n * sizeof(kept.fd[0]));
	k->rp = kept.rp;
	kept.rp = NULL;
	kept.n = 0;
	return true;
}

int braid_gw_workers_sockets(struct braid_gateway *g, unsigned n, const union braid_sockaddr *a)
{
	struct gw_workers *k;
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->n = n;
	for (unsigned i = 0; i < BRAID_GW_MAX_WORKERS; i++)
		k->sock_fd[i] = k->tun_fd[i] = -1;
	if (kept_take(k, n, a)) {	/* SIGHUP: the group (and its program) from before the restart */
		g->wk = k;
		g->fd = k->sock_fd[0];
		g->kept_socket = true;
		return 0;
	}
	r = braid_gw_reuseport_open(&a->sa, braid_sockaddr_len(a), n, k->sock_fd);
	if (r) {
		free(k);
		return r;
	}
	r = braid_gw_reuseport_attach(k->sock_fd, n, &k->rp);
	if (r) {
		for (unsigned i = 0; i < n; i++)
			close(k->sock_fd[i]);
		free(k);
		return r;
	}
	g->wk = k;
	g->fd = k->sock_fd[0];
	return 0;
}

int braid_gw_workers_tun(struct braid_gateway *g, struct braid_tun *t)
{
	struct gw_workers *k = g->wk;
	int r;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	r = braid_gw_mqtun_open_vnet(g->o->dev, k->n, k->tun_fd, t->name, &t->vnet);
	if (r) {
		braid_err("cannot create the multiqueue tun device '%s': %s", g->o->dev, strerror(-r));
		return r;
	}
	t->ifindex = (int)if_nametoindex(t->name);
	r = t->ifindex ? braid_nl_open(&t->nl) : -errno;
	if (r) {
		for (unsigned i = 0; i < k->n; i++) {
			close(k->tun_fd[i]);
			k->tun_fd[i] = -1;
		}
		return r;
	}
	t->fd = k->tun_fd[0];
	k->tun_fd[0] = -1;	/* worker 0's: closed with its braid_tun */
	braid_info("TUN/TAP device %s opened (%u queues)", t->name, k->n);
	return 0;
}

static void clone_free(struct braid_gateway *x)
{
	if (!x)
		return;
	braid_gw_cluster_stop(x);	/* first: the lease (worker 0's, revoked next) frees the claims */
	if (x->by_pid) {
		for (uint32_t i = x->widx; i < x->max_clients; i += x->wk->n)
			if (x->by_pid[i])
				braid_gw_client_kill(x->by_pid[i], "gateway shutting down");
		braid_gw_reap(x);
	}
	if (x->n_bg)
		braid_gw_bg_poll(x, true);
	free(x->bg);
	if (x->loop)
		ev_loop_destroy(x->loop);
	if (x->fd >= 0 && x->wk->keep && x->widx < kept.n)
		kept.fd[x->widx] = x->fd;	/* SIGHUP: braid_gw_workers_keep */
	else if (x->fd >= 0)
		close(x->fd);
	if (x->tun.fd >= 0)
		close(x->tun.fd);
	braid_ctls_cookie_free(x->cookie);
	free(x->by_addr);
	free(x->buf);
	free(x->buf2);
	free(x->xbuf);
	braid_gw_io_free(x);
	free(x);
}

/* Worker w's gateway: worker 0's set-up, its own loop, socket, queue, tables and counters. */
static int clone_new(struct braid_gateway *g, unsigned w, struct braid_gateway **out)
{
	struct gw_workers *k = g->wk;
	struct braid_gateway *x;
	char err[256];
	int r;

	x = malloc(sizeof(*x));
	if (!x)
		return -ENOMEM;
	*x = *g;
	x->widx = w;
	x->loop = NULL;
	x->fd = k->sock_fd[w];
	k->sock_fd[w] = -1;
	x->tun.fd = k->tun_fd[w];
	k->tun_fd[w] = -1;
	x->tun.nl = NULL;
	x->tun_open = false;
	x->xq_link_budget = GW_XQ_LINK_PER_S;
	x->cookie = NULL;
	x->io = NULL;
	x->buf = malloc(BUF_SIZE);
	x->buf2 = malloc(BUF_SIZE);
	x->by_addr = calloc(x->n_buckets, sizeof(*x->by_addr));
	x->bg = NULL;
	x->n_bg = x->cap_bg = 0;
	x->scripts = 0;
	x->dead = NULL;
	x->mg = NULL;
	x->cluster = NULL;
	x->mptcp_endps = NULL;
	x->kept_socket = false;
	x->foreign = NULL;
	x->n_foreign = x->cap_foreign = 0;
	memset(&x->st, 0, sizeof(x->st));
	memset(&x->rej, 0, sizeof(x->rej));
	memset(&x->routes, 0, sizeof(x->routes));	/* unused: braid_gw_routes() is worker 0's */
	randombytes_buf(x->hkey, sizeof(x->hkey));
	*out = x;
	if (!x->buf || !x->buf2 || !x->by_addr)
		return -ENOMEM;
	r = braid_ctls_cookie_new(&x->cookie, &x->ccfg, NULL, err, sizeof(err));
	if (r) {
		braid_err("worker %u: control channel set-up failed: %s", w, err);
		return r;
	}
	if (x->pktinfo) {
		r = braid_pktinfo_enable(x->fd, x->family);
		if (r)
			return r;
	}
	r = braid_gw_io_init(x);
	if (r)
		return r;
	x->loop = ev_loop_new(EVFLAG_AUTO);
	if (!x->loop)
		return -ENOMEM;
	r = braid_gw_cluster_attach(x, g);	/* cluster-etcd: its requests on x's loop */
	if (r)
		return r;
	ev_io_init(&x->tun_r, braid_gw_tun_cb, x->tun.fd, EV_READ);
	ev_io_init(&x->sock_r, braid_gw_sock_cb, x->fd, EV_READ);
	x->tun_r.data = x->sock_r.data = x;
	ev_io_start(x->loop, &x->tun_r);
	if (!g->o->mgmt_hold)	/* else at `hold release` (gw_mgmt.c), with worker 0's */
		ev_io_start(x->loop, &x->sock_r);
	ev_timer_init(&x->tick, braid_gw_tick_cb, 1.0, 1.0);
	x->tick.data = x;
	ev_timer_start(x->loop, &x->tick);
	ev_init(&x->auth_t, braid_gw_auth_cb);
	x->auth_t.repeat = 0.05;
	x->auth_t.data = x;
	return 0;
}

/* Rings and their watchers, loop locks; every worker's loop exists. */
static int wire(struct gw_workers *k)
{
	unsigned n = k->n;
	int r;

	k->q = calloc((size_t)n * n, sizeof(*k->q));
	if (!k->q)
		return -ENOMEM;
	for (unsigned i = 0; i < n * n; i++)
		k->q[i].efd = -1;
	for (unsigned to = 0; to < n; to++) {
		struct gw_worker *w = &k->w[to];

		w->q_r = calloc(n, sizeof(*w->q_r));
		if (!w->q_r)
			return -ENOMEM;
		pthread_mutex_init(&w->lk, NULL);
		ev_set_userdata(w->g->loop, w);
		ev_async_init(&w->wake, wake_cb);
		w->wake.data = k;
		ev_async_start(w->g->loop, &w->wake);
		for (unsigned from = 0; from < n; from++) {
			struct braid_gw_xq *q = &k->q[from * n + to];

			if (from == to)
				continue;
			/*
			 * an inner packet is at most tun-mtu (a TUN read, a client's decrypted packet); a
			 * handed-over datagram its encapsulation more, with the address it came from
			 */
			r = braid_gw_xq_init(q, GW_XQ_SLOTS, (uint32_t)k->w[0].g->o->tun_mtu + 256 +
					     (uint32_t)sizeof(union braid_sockaddr) + 1);
			if (r)
				return r;
			ev_io_init(&w->q_r[from], ring_cb, q->efd, EV_READ);
			w->q_r[from].data = q;
			ev_io_start(w->g->loop, &w->q_r[from]);
		}
	}
	return 0;
}

int braid_gw_workers_start(struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;
	int r;

	pthread_rwlock_init(&k->rt_lk, NULL);
	pthread_mutex_init(&k->pool_lk, NULL);
	pthread_mutex_init(&k->cf_lk, NULL);
	pthread_mutex_init(&k->rej_lk, NULL);
	pthread_mutex_init(&k->ev_lk, NULL);
	pthread_mutex_init(&k->addr_lk, NULL);
	braid_gw_addrset_init(&k->addrs);
	k->ev_tail = &k->ev_head;
	atomic_store(&k->next_cid, g->next_cid);
	k->w[0].g = g;
	g->xq_link_budget = GW_XQ_LINK_PER_S;
	for (unsigned i = 1; i < k->n; i++) {
		r = clone_new(g, i, &k->w[i].g);
		if (r)
			return r;
	}
	for (unsigned i = 0; i < k->n; i++) {
		k->w[i].g->xbuf = malloc(BUF_SIZE);
		if (!k->w[i].g->xbuf)
			return -ENOMEM;
	}
	r = wire(k);
	if (r)
		return r;
	for (unsigned i = 0; i < k->n; i++) {	/* one rate limit for the rejection lines */
		k->w[i].g->rej.share = &g->rej;
		k->w[i].g->rej.share_lk = &k->rej_lk;
	}
	ev_async_init(&k->w0_a, w0_cb);
	k->w0_a.data = g;
	ev_async_start(g->loop, &k->w0_a);
	braid_log_set_wake(log_wake, k);
	ev_prepare_init(&k->held_p, held_cb);
	k->held_p.data = g;
	ev_prepare_start(g->loop, &k->held_p);
	for (unsigned i = 1; i < k->n; i++) {
		ev_set_loop_release_cb(k->w[i].g->loop, loop_release, loop_acquire);
		r = -pthread_create(&k->w[i].th, NULL, worker_main, &k->w[i]);
		if (r)
			return r;
		k->w[i].started = true;
	}
	braid_info("workers: %u, sessions steered by their peer-ids (SO_REUSEPORT + sk_reuseport), "
		   "%u TUN queues", k->n, k->n);
	return 0;
}

void braid_gw_workers_stop(struct braid_gateway *g)
{
	struct gw_workers *k = g ? g->wk : NULL;

	if (!k)
		return;
	braid_gw_hold_release(g);	/* a hold from the last iteration before the loop ended */
	if (ev_is_active(&k->held_p))
		ev_prepare_stop(g->loop, &k->held_p);
	atomic_store(&k->stop, true);
	for (unsigned i = 1; i < k->n; i++)
		if (k->w[i].started) {
			ev_async_send(k->w[i].g->loop, &k->w[i].wake);
			pthread_join(k->w[i].th, NULL);
			k->w[i].started = false;
		}
	/* single-threaded from here: worker 0 frees the others (their clients first) */
	for (unsigned i = 1; i < k->n; i++) {
		clone_free(k->w[i].g);
		k->w[i].g = NULL;
	}
	braid_log_set_wake(NULL, NULL);
	braid_gw_mgmt_ev_drain(g);	/* what the others' clients said last (printed, or freed) */
	if (ev_is_active(&k->w0_a))
		ev_async_stop(g->loop, &k->w0_a);
	g->rej.share = NULL;
	g->rej.share_lk = NULL;
	if (k->q)
		for (unsigned i = 0; i < k->n * k->n; i++)
			if (k->q[i].efd >= 0)
				braid_gw_xq_free(&k->q[i]);
	for (unsigned i = 0; i < k->n; i++)
		free(k->w[i].q_r);
	free(k->q);
	for (unsigned i = 0; i < BRAID_GW_MAX_WORKERS; i++) {
		if (k->sock_fd[i] >= 0 && k->sock_fd[i] != g->fd)
			close(k->sock_fd[i]);
		if (k->tun_fd[i] >= 0)
			close(k->tun_fd[i]);
	}
	braid_gw_reuseport_free(k->rp);
	free(g->xbuf);
	g->xbuf = NULL;
	pthread_rwlock_destroy(&k->rt_lk);
	pthread_mutex_destroy(&k->pool_lk);
	pthread_mutex_destroy(&k->cf_lk);
	pthread_mutex_destroy(&k->rej_lk);
	pthread_mutex_destroy(&k->ev_lk);
	pthread_mutex_destroy(&k->addr_lk);
	braid_gw_addrset_free(&k->addrs);
	free(k);
	g->wk = NULL;
}
