// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_timers.c - the gateway's timers (gw_timers.h): the 1 s tick
 * (hand-window, AUTH_FAILED linger, ping-restart, keepalive pings,
 * renegotiation, client-disconnect reaping, status file, pool persistence),
 * the 50 ms polling of running auth scripts, the status file and the
 * counters line (SIGUSR2, exit).
 */
#include "gateway/gw_timers.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/gateway_mp.h"
#include "gateway/gw_client.h"
#include "gateway/gw_data.h"
#include "gateway/gw_script.h"
#include "gateway/gw_statjson.h"
#include "gateway/gw_table.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_shared.h"
#include "os/heap_trim.h"
#include "util/log.h"
#include "control/ovpn_status.h"

void braid_gw_auth_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_gateway *g = w->data;

	(void)revents;
	for (uint32_t i = g->widx; i < g->max_clients && g->scripts; i += braid_gw_nw(g)) {
		struct gw_client *c = g->by_pid[i];

		if (!c || !c->as.pid)
			continue;
		braid_gw_auth_poll(c);
		if (!c->dead)
			braid_gw_ctl_run(c);
	}
	if (!g->scripts)
		ev_timer_stop(loop, w);
	braid_gw_reap(g);
}

/* The status in OpenVPN's server format: to f, or (f NULL) to the status file. */
int braid_gw_status_print(struct braid_gateway *g, FILE *f, int version, const char *title)
{
	struct braid_ovpn_status_client *cl;
	struct braid_ovpn_status_route *rt;
	char (*v4)[INET_ADDRSTRLEN], (*v6)[INET6_ADDRSTRLEN], (*rv)[INET6_ADDRSTRLEN + 4];
	unsigned nc = 0, nr = 0;
	char ftitle[128];
	int r = -ENOMEM;

	braid_gw_lock_all(g);	/* the other workers wait: their clients hold still */
	cl = calloc(g->max_clients, sizeof(*cl));
	v4 = calloc(g->max_clients, sizeof(*v4));
	v6 = calloc(g->max_clients, sizeof(*v6));
	rt = calloc(g->routes.n + 1, sizeof(*rt));
	rv = calloc(g->routes.n + 1, sizeof(*rv));
	if (!cl || !v4 || !v6 || !rt || !rv)
		goto out;
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->st != C_ACTIVE)
			continue;
		if (c->has_v4)
			braid_gw_v4str(c->v4, v4[nc], sizeof(v4[nc]));
		if (c->has_v6)
			inet_ntop(AF_INET6, &c->v6, v6[nc], sizeof(v6[nc]));
		cl[nc] = (struct braid_ovpn_status_client){
			.cn = braid_gw_cname(c), .real = c->real, .virt4 = v4[nc], .virt6 = v6[nc],
			.bytes_rx = c->rx_bytes, .bytes_tx = c->tx_bytes, .since = c->since,
			.username = c->user, .client_id = c->cid, .peer_id = braid_gw_wire_pid(c),
			.cipher = c->push.cipher,
		};
		nc++;
	}
	for (size_t i = 0; i < g->routes.n; i++) {
		const struct braid_vroute_entry *e = &g->routes.e[i];
		struct gw_client *c = e->owner < g->max_clients ? g->by_pid[e->owner] : NULL;
		size_t l;

		if (!c)
			continue;
		inet_ntop(e->family, e->addr, rv[nr], INET6_ADDRSTRLEN);
		if (e->iroute) {
			l = strlen(rv[nr]);
			snprintf(rv[nr] + l, sizeof(rv[nr]) - l, "/%u", e->prefix);
		}
		rt[nr] = (struct braid_ovpn_status_route){ .virt = rv[nr], .cn = braid_gw_cname(c),
							   .real = c->real, .last_ref = c->last_ref };
		nr++;
	}
	if (f) {
		r = braid_ovpn_status_print(f, version, title, time(NULL), cl, nc, rt, nr);
		goto out;
	}
	snprintf(ftitle, sizeof(ftitle), "braidd %s (OpenVPN 2.6 compatible gateway)",
		 BRAID_VERSION_STR);
	r = braid_ovpn_status_write(g->o->status_path, g->o->status_version, ftitle, time(NULL),
				    cl, nc, rt, nr);
	if (r)
		braid_warn("status file '%s': %s", g->o->status_path, strerror(-r));
out:
	free(cl);
	free(v4);
	free(v6);
	free(rt);
	free(rv);
	braid_gw_unlock_all(g);
	return r;
}

void braid_gw_log_stats(const struct braid_gateway *g)
{
	struct braid_gateway_stats sum;
	uint64_t rjs[BRAID_REJ__COUNT];
	const struct braid_gateway_stats *s = &sum;
	const uint64_t *rj = rjs;

	braid_gw_workers_sum(g, &sum, rjs);	/* every worker's: one gateway */
	braid_gw_status_json_write(g);	/* SIGUSR2 and exit: the JSON status file too */
	braid_info("gateway stats: clients %lu, sessions created %llu, live control sessions %lu, "
		   "cookie replies %llu, cookie rejected %llu, removed %llu, auth failed %llu, "
		   "max-clients refused %llu, connect-freq refused %llu, floats %llu, "
		   "floats refused %llu, bad source %llu, unknown peer %llu, "
		   "decrypt failures %llu, tun no route %llu, c2c %llu, tun rx %llu tx %llu, "
		   "link rx %llu tx %llu, hmac failed %llu, tls-crypt failed %llu, bad opcode %llu, "
		   "replays %llu, tcp bad length %llu, tcp unauth closed %llu, tcp refused %llu, "
		   "malformed %llu, unroutable %llu, tcp queue drops %llu, tx calls %llu, gso runs %llu, "
		   "tx dropped %llu, gro reads %llu, tun super reads %llu, tun coalesced %llu",
		   s->clients, (unsigned long long)s->sessions_created, braid_ctls_live_sessions(),
		   (unsigned long long)s->cookie_replies, (unsigned long long)s->cookie_rejected,
		   (unsigned long long)s->clients_removed, (unsigned long long)s->auth_failed,
		   (unsigned long long)s->max_clients_refused,
		   (unsigned long long)s->connect_freq_refused, (unsigned long long)s->floats,
		   (unsigned long long)s->float_refused,
		   (unsigned long long)s->bad_source, (unsigned long long)s->data_unknown_peer,
		   (unsigned long long)s->data_auth_failed, (unsigned long long)s->tun_no_route,
		   (unsigned long long)s->c2c_forwarded, (unsigned long long)s->tun_read_pkts,
		   (unsigned long long)s->tun_write_pkts, (unsigned long long)s->link_rx_pkts,
		   (unsigned long long)s->link_tx_pkts, (unsigned long long)rj[BRAID_REJ_HMAC],
		   (unsigned long long)rj[BRAID_REJ_TLS_CRYPT], (unsigned long long)rj[BRAID_REJ_OPCODE],
		   (unsigned long long)rj[BRAID_REJ_REPLAY], (unsigned long long)rj[BRAID_REJ_TCP_LENGTH],
		   (unsigned long long)rj[BRAID_REJ_TCP_CLOSED],
		   (unsigned long long)rj[BRAID_REJ_TCP_REFUSED],
		   (unsigned long long)rj[BRAID_REJ_MALFORMED],
		   (unsigned long long)rj[BRAID_REJ_UNROUTABLE],
		   (unsigned long long)rj[BRAID_REJ_TCP_QUEUE], (unsigned long long)s->link_tx_calls,
		   (unsigned long long)s->link_tx_gso, (unsigned long long)s->link_tx_dropped,
		   (unsigned long long)s->link_rx_gro, (unsigned long long)s->tun_super_reads,
		   (unsigned long long)s->tun_coalesced);
	braid_gw_workers_log(g);
	braid_gw_lock_all(g);
	braid_gw_mp_log(g);
	braid_gw_unlock_all(g);
	braid_gw_cluster_log(g);
}

/* reneg-bytes / reneg-pkts count the primary key's traffic; a packet-id near its wrap renegotiates too */
static void renegotiate_if_due(struct gw_client *c, int64_t now)
{
	struct braid_dc_key_stats ks;
	int kid = braid_dc_primary_key_id(c->dc);

	if (kid >= 0 && !braid_dc_key_stats(c->dc, (unsigned)kid, &ks))
		braid_ctls_data_counters(c->ctl, ks.tx_bytes + ks.rx_bytes,
					 ks.tx_packets + ks.rx_packets);
	if (braid_dc_needs_renegotiation(c->dc))
		braid_ctls_renegotiate(c->ctl, now);
	braid_gw_ctl_run(c);
}

/*
 * The heap's free pages back to the kernel (os/heap_trim.h): sessions that carried traffic and went idle
 * leave freed buffers in the workers' arenas. Every 30 s, when the arenas hold at least 16 MiB free.
 */
#define GW_HEAP_TRIM_MS 30000
#define GW_HEAP_TRIM_MIN ((size_t)16 << 20)

static void heap_trim(struct braid_gateway *g)
{
	struct braid_heap_trim t;

	braid_heap_trim(GW_HEAP_TRIM_MIN, &t);
	if (!t.trimmed)
		return;
	g->heap_trims++;
	if (t.rss_before_kb > t.rss_after_kb && t.rss_after_kb >= 0)
		g->heap_trimmed_kb += (uint64_t)(t.rss_before_kb - t.rss_after_kb);
	if (braid_log_enabled(4))
		braid_log(4, "heap: %zu kB free in the arenas; malloc_trim: RSS %ld -> %ld kB",
			  t.free_bytes / 1024, t.rss_before_kb, t.rss_after_kb);
}

void braid_gw_tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_gateway *g = w->data;
	struct braid_options *o = g->o;
	int64_t now = braid_gw_now_ms();
	int hand = (o->hand_window > 0 ? o->hand_window : 60) * 1000;

	(void)loop;
	(void)revents;
	braid_reject_tick(&g->rej, now);
	g->xq_link_budget = GW_XQ_LINK_PER_S;
	for (uint32_t i = g->widx; i < g->max_clients; i += braid_gw_nw(g)) {
		struct gw_client *c = g->by_pid[i];

		if (!c)
			continue;
		switch (c->st) {
		case C_AUTH:
			braid_gw_auth_poll(c);
			if (!c->dead)
				braid_gw_ctl_run(c);
			break;
		case C_HANDSHAKE:
			if (now - c->created_ms > hand)
				braid_gw_client_kill(c, "TLS key negotiation did not finish within hand-window");
			break;
		case C_DYING:
			if (now >= c->die_at_ms)
				braid_gw_client_kill(c, "authentication failed");
			break;
		case C_ACTIVE:
			if (c->as.pid || c->mgmt_wait) {	/* a script or a >CLIENT:REAUTH */
				braid_gw_auth_poll(c);
				if (c->dead)
					break;
				braid_gw_ctl_run(c);
			}
			if (c->st != C_ACTIVE || c->dead)
				break;
			/* an offer not taken up: on as a single-path client */
			if (braid_gw_mp_check(c, now) && braid_gw_sp_start(c)) {
				braid_gw_client_kill(c, "single-path data channel set-up failed");
				break;
			}
			if (o->ping_restart > 0 && now - c->last_rx_ms > (int64_t)o->ping_restart * 1000) {
				braid_gw_client_kill(c, "inactivity timeout (ping-restart)");
				break;
			}
			if (o->keepalive_ping > 0 &&
			    now - c->last_tx_ms >= (int64_t)o->keepalive_ping * 1000)
				braid_gw_send_payload(c, braid_ping_magic, BRAID_PING_LEN);
			if (c->dc && c->ctl)
				renegotiate_if_due(c, now);
			break;
		}
	}
	if (g->n_bg)
		braid_gw_bg_poll(g, false);
	if (g->widx) {	/* status files and the pool's file: worker 0's */
		braid_gw_reap(g);
		return;
	}
	if (o->status_path && now >= g->next_status_ms) {
		braid_gw_status_print(g, NULL, 0, NULL);
		g->next_status_ms = now + (o->status_interval > 0 ? o->status_interval : 60) * 1000;
	}
	if (o->status_json_path && now >= g->next_status_json_ms) {
		braid_gw_status_json_write(g);
		g->next_status_json_ms = now + (o->status_json_interval > 0 ?
						 o->status_json_interval : 10) * 1000;
	}
	if (now >= g->next_trim_ms) {
		heap_trim(g);
		g->next_trim_ms = now + GW_HEAP_TRIM_MS;
	}
	if (o->ifconfig_pool_persist && g->pool && now >= g->next_persist_ms) {
		int r;

		braid_gw_pool_lock(g);
		r = braid_pool_persist_save(g->pool, o->ifconfig_pool_persist);
		braid_gw_pool_unlock(g);

		if (r)
			braid_warn("ifconfig-pool-persist '%s': %s", o->ifconfig_pool_persist,
				   strerror(-r));
		g->next_persist_ms = now + (o->ifconfig_pool_persist_sec > 0 ?
					    o->ifconfig_pool_persist_sec : 600) * 1000;
	}
	braid_gw_reap(g);
}
