// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath.c - the multipath data plane on libev (see mpath.h): set-up and
 * teardown (pools, sockets, link monitor, engine, timers), session
 * restarts, the gateway's input, and the status and run-time changes of
 * the control socket. The rest is in mpath_sock.c (sockets, paths, send
 * batch), mpath_engine.c (the pump), mpath_tx.c (TUN reads), mpath_rx.c
 * (socket reads) and mpath_link.c (link events, timers).
 */
#include "dataplane/mpath.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sodium.h>

#include "os/linkmon.h"
#include "util/log.h"
#include "dataplane/mpath_bind.h"
#include "dataplane/mpath_engine.h"
#include "dataplane/mpath_int.h"
#include "dataplane/mpath_link.h"
#include "dataplane/mpath_pool.h"
#include "mp/mp_mem.h"
#include "dataplane/mpath_rx.h"
#include "dataplane/mpath_sock.h"
#include "dataplane/mpath_stats.h"
#include "dataplane/mpath_weight.h"

/* ---- engine callbacks ---- */

static void cb_tx_release(void *user, void *ref, enum braid_mp_release why)
{
	struct braid_mpath *m = user;

	(void)why;
	if (m->txb.n)	/* the batch may point into this buffer: out before reuse */
		mpath_tx_flush(m);
	tput(m, ref);
}

static void cb_rx_release(void *user, void *ref)
{
	rput(user, ref);
}

static int cb_random(void *user, uint8_t *buf, size_t len)
{
	(void)user;
	randombytes_buf(buf, len);
	return 0;
}

/* ---- setup ---- */

static int pools_init(struct braid_mpath *m)
{
	size_t buf = (size_t)m->o->tun_mtu + 256;

	m->tsize = (sizeof(struct tbuf) + buf + 15) & ~(size_t)15;
	m->rsize = (sizeof(struct rbuf) + buf + 15) & ~(size_t)15;
	m->tcount = m->cfg.queue_pkts + TX_EXTRA;
	m->rcount = m->cfg.reorder_max_pkts + RX_EXTRA;
	if (mpath_pool_init(m))
		return -ENOMEM;
	m->rxbs = RX_BUF_GRO > buf ? RX_BUF_GRO : buf;
	/* a shared socket is read by its owner: no receive batch here */
	m->rxbuf = m->shared ? NULL : malloc((size_t)RX_BATCH * m->rxbs);
	if (!m->shared && !m->rxbuf)
		return -ENOMEM;
	return 0;
}

static int mpath_create(struct braid_mpath **out, struct ev_loop *loop, const struct braid_options *o,
			struct braid_dc *dc, const struct braid_mssfix *mss,
			struct braid_tunnel_stats *st, const struct braid_mpath_hooks *hooks,
			int shared_fd, const char *name)
{
	struct braid_mpath *m;
	int r;

	/* its own pages (~34 KB, a gateway client uses a few of them: no rx batch) */
	m = mp_zalloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->loop = loop;
	m->o = o;
	snprintf(m->sched_name, sizeof(m->sched_name), "%s", o->mp_sched);
	m->dc = dc;
	m->mss = mss;
	m->tst = st;
	m->h = *hooks;
	m->nl_fd = -1;
	m->tun_fd = -1;
	m->ov = braid_dc_overhead(dc);
	braid_mp_config_init(&m->cfg);
	m->cfg.tx_release = cb_tx_release;
	m->cfg.rx_release = cb_rx_release;
	m->cfg.random = cb_random;
	m->cfg.user = m;
	m->cfg.mtu = (uint32_t)o->tun_mtu;
	/* MTU search: up to what the TUN can hand us, from 1200 (an inner
	 * packet of 1200 fits a 1280-byte IPv6 minimum link with our overhead) */
	m->cfg.pmtu_max = o->tun_mtu > BRAID_MP_MTU_PROBE_MAX ? BRAID_MP_MTU_PROBE_MAX :
			  (uint32_t)o->tun_mtu;
	if (m->cfg.pmtu_base > m->cfg.pmtu_max)
		m->cfg.pmtu_base = m->cfg.pmtu_max;
	if (o->mp_reorder_ms)
		m->cfg.reorder_cap_us = o->mp_reorder_ms * 1000u;
	/* gigabit paths: a few ms of skew between two paths are thousands of
	 * packets (4096 x ~1.5 kB = 6 MB: ~20 ms at 2.5 Gbit/s) */
	m->cfg.reorder_window = RX_REORDER_WINDOW;
	m->cfg.reorder_max_pkts = RX_REORDER_MAX;
	if (shared_fd >= 0) {
		/* one engine per gateway client: a quarter of the buffers (~8 MB instead of
		 * ~24 MB resident per client; 2048 packets are ~170 ms at 100 Mbit/s) */
		m->cfg.queue_pkts = SHARED_QUEUE;
		m->cfg.retain_pkts = SHARED_QUEUE;
		m->cfg.reorder_window = SHARED_REORDER * 2;
		m->cfg.reorder_max_pkts = SHARED_REORDER;
	}
	if (name)
		snprintf(m->name, sizeof(m->name), "%s: ", name);
	m->shared = shared_fd >= 0;
	r = pools_init(m);
	if (r)
		goto err;
	if (shared_fd >= 0) {
		r = mpath_shared_sock(m, shared_fd);
		if (r)
			goto err;
	} else {
		r = mpath_setup_paths(m);
		if (r)
			goto err;
		r = braid_linkmon_open(&m->nl_fd);
		if (r)
			braid_warn("multipath: no rtnetlink link events (%s); failures are found by "
				   "timeout", strerror(-r));
		mpath_link_scan(m, true);
	}
	r = mpath_engine_create(m);
	if (r)
		goto err;
	ev_timer_init(&m->engine_t, mpath_engine_cb, 0.0, 0.0);
	m->engine_t.data = m;
	ev_timer_init(&m->scan_t, NULL, 0.0, 0.0);	/* started by mpath_nl_cb */
	ev_timer_init(&m->housekeep_t, mpath_housekeep_cb, HOUSEKEEP_S, HOUSEKEEP_S);
	m->housekeep_t.data = m;
	ev_timer_start(loop, &m->housekeep_t);
	m->io_on = true;
	for (int i = 0; i < m->n_sock; i++)
		if (m->sock[i].in_use)
			mpath_bind_io(m, &m->sock[i], true);
	if (m->nl_fd >= 0) {
		ev_io_init(&m->nl_r, mpath_nl_cb, m->nl_fd, EV_READ);
		m->nl_r.data = m;
		ev_io_start(loop, &m->nl_r);
	}
	braid_info("%smultipath: on, scheduler %s, %d socket(s)%s, %d configured path(s)", m->name,
		   m->o->mp_sched, m->n_sock, shared_fd >= 0 ? " (shared)" : "", m->n_cfgp);
	mpath_pump(m);
	*out = m;
	return 0;
err:
	braid_mpath_free(m);
	return r;
}

int braid_mpath_new(struct braid_mpath **out, struct ev_loop *loop, const struct braid_options *o,
		    struct braid_dc *dc, const struct braid_mssfix *mss,
		    struct braid_tunnel_stats *st, const struct braid_mpath_hooks *hooks)
{
	return mpath_create(out, loop, o, dc, mss, st, hooks, -1, NULL);
}

int braid_mpath_new_shared(struct braid_mpath **out, struct ev_loop *loop,
			   const struct braid_options *o, struct braid_dc *dc,
			   const struct braid_mssfix *mss, struct braid_tunnel_stats *st,
			   const struct braid_mpath_hooks *hooks, int fd, const char *name)
{
	if (fd < 0)
		return -EBADF;
	return mpath_create(out, loop, o, dc, mss, st, hooks, fd, name);
}

void braid_mpath_set_shared_local(struct braid_mpath *m, const struct braid_pktinfo *local)
{
	m->shared_local = local;
}

void braid_mpath_input(struct braid_mpath *m, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	mpath_rx_one(m, 0, pkt, len, from, rx_clamp(m, now_us()));
	mpath_pump(m);
}

int braid_mpath_restart(struct braid_mpath *m, struct braid_dc *dc)
{
	m->dc = dc;
	return mpath_engine_renew(m);
}

/* ---- status and run-time changes ---- */

bool braid_mpath_has_peer(const struct braid_mpath *m)
{
	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used)
			return true;
	return false;
}

int braid_mpath_outer_hdr(const struct braid_mpath *m)
{
	for (int i = 0; i < m->n_sock; i++)
		if (m->sock[i].local.sa.sa_family == AF_INET6)
			return 40;
	return 20;
}

int braid_mpath_paths(const struct braid_mpath *m, struct braid_mpath_path_info *out, int max)
{
	int n = 0;

	for (int i = 0; i < MAX_EPS && n < max; i++) {
		const struct ep *e = &m->ep[i];
		struct braid_mpath_path_info *p = &out[n];

		if (!e->used)
			continue;
		memset(p, 0, sizeof(*p));
		p->index = i;
		if (m->sock[e->sock].fd >= 0 || !m->sock[e->sock].ifname[0])
			braid_sockaddr_str(&m->sock[e->sock].local, p->local, sizeof(p->local));
		snprintf(p->dev, sizeof(p->dev), "%s", m->sock[e->sock].ifname);
		snprintf(p->route, sizeof(p->route), "%s", e->route);
		p->route_ok = !e->route_bad;
		p->rebinds = m->sock[e->sock].rebinds;
		p->bind_failures = m->sock[e->sock].bind_failures;
		p->route_warnings = m->sock[e->sock].route_warnings;
		braid_sockaddr_str(&e->peer, p->remote, sizeof(p->remote));
		p->learned = e->learned;
		p->disabled = e->disabled;
		braid_mp_path_stats(m->mp, i, &p->mp);
		mpath_stats_fill(m, i, p, now_us());	/* totals, the last interval */
		n++;
	}
	return n;
}

void braid_mpath_stats(const struct braid_mpath *m, struct braid_mpath_stats *st)
{
	*st = m->st;
	braid_mp_stats(m->mp, &st->mp);
}

const char *braid_mpath_sched_name(const struct braid_mpath *m)
{
	return m->sched_name;
}

int braid_mpath_set_sched(struct braid_mpath *m, const char *spec)
{
	int r;

	if (strlen(spec) >= sizeof(m->sched_name))
		return -EINVAL;
	r = mpath_weight_sched(m, spec);
	if (r)
		return r;
	snprintf(m->sched_name, sizeof(m->sched_name), "%s", spec);
	mpath_pump(m);
	return 0;
}

int braid_mpath_set_weight(struct braid_mpath *m, const char *path, uint32_t weight)
{
	int r = mpath_weight_set(m, path, weight);

	if (!r && m->mp)
		mpath_pump(m);
	return r;
}

int braid_mpath_path_set(struct braid_mpath *m, int path, unsigned int flags, uint64_t cap_bps)
{
	int r = braid_mp_path_set(m->mp, path, flags, cap_bps);

	if (!r)
		mpath_pump(m);
	return r;
}

int braid_mpath_path_enable(struct braid_mpath *m, int path, bool on)
{
	struct msock *s;
	uint64_t now = now_us();
	char d[200];

	if (path < 0 || path >= MAX_EPS || !m->ep[path].used)
		return -ENOENT;
	s = &m->sock[m->ep[path].sock];
	if (m->ep[path].disabled == !on)
		return 0;
	m->ep[path].disabled = !on;
	if (!s->shared) {
		/* the socket's other paths and its paths re-added after a restart follow */
		s->disabled = !on;
		for (int i = 0; i < MAX_EPS; i++)
			if (i != path && m->ep[i].used && m->ep[i].sock == m->ep[path].sock &&
			    m->ep[i].disabled != !on)
				braid_mpath_path_enable(m, i, on);
	}
	braid_mp_path_link_event(m->mp, now, path, on && s->up != 0);
	braid_info("multipath: path %s %s by the operator", mpath_ep_str(m, path, d, sizeof(d)),
		   on ? "enabled" : "disabled");
	mpath_pump(m);
	return 0;
}

int braid_mpath_path_cfg_add(struct braid_mpath *m, const struct braid_opt_mp_path *p, char *err,
			     size_t errlen)
{
	return mpath_bind_cfg_add(m, p, err, errlen);
}

int braid_mpath_path_cfg_remove(struct braid_mpath *m, const char *local, char *err, size_t errlen)
{
	return mpath_bind_cfg_remove(m, local, err, errlen);
}

void braid_mpath_free(struct braid_mpath *m)
{
	if (!m)
		return;
	if (m->loop) {
		ev_timer_stop(m->loop, &m->engine_t);
		ev_timer_stop(m->loop, &m->housekeep_t);
		ev_timer_stop(m->loop, &m->scan_t);
		if (m->nl_fd >= 0)
			ev_io_stop(m->loop, &m->nl_r);
		for (int i = 0; i < m->n_sock; i++)
			if (m->sock[i].in_use)
				mpath_bind_io(m, &m->sock[i], false);
	}
	braid_mp_free(m->mp);
	for (int i = 0; i < m->n_sock; i++) {
		if (m->sock[i].in_use && !m->sock[i].shared && m->sock[i].fd >= 0)
			close(m->sock[i].fd);
		free(m->sock[i].own_local);
	}
	if (m->nl_fd >= 0)
		close(m->nl_fd);
	/* the buffers held plaintext */
	mpath_pool_free(m);
	if (m->rxbuf)
		sodium_memzero(m->rxbuf, (size_t)RX_BATCH * m->rxbs);
	free(m->rxbuf);
	if (m->tunrd)
		sodium_memzero(m->tunrd, BRAID_TUN_SUPER_MAX);
	if (m->gro)
		sodium_memzero(m->gro, sizeof(*m->gro));
	free(m->tunrd);
	free(m->gro);
	mp_zfree(m, 1, sizeof(*m));
}
