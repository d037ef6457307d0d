// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_statjson.c - the gateway's JSON status file (gw_statjson.h), from the
 * same counters its metrics (gw_metrics.c) and management `status` print.
 */
#include "gateway/gw_statjson.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateway/gw_client.h"	/* first: session.h before dc.h */
#include "control/metrics_snap.h"
#include "control/statfile.h"
#include "control/status.h"
#include "gateway/gateway_mp.h"
#include "gateway/gw_shared.h"
#include "os/heap_trim.h"
#include "util/log.h"

#define U(x) ((unsigned long long)(x))

static int by_cid(const void *a, const void *b)
{
	const struct gw_client *x = *(const struct gw_client *const *)a;
	const struct gw_client *y = *(const struct gw_client *const *)b;

	return x->cid < y->cid ? -1 : x->cid > y->cid;
}

static void client_json(FILE *f, const struct gw_client *c)
{
	const struct braid_dp *dp = braid_gw_mp_dp(c);
	char b[INET6_ADDRSTRLEN];

	fprintf(f, "{\"client_id\":%lu,\"peer_id\":%u,", c->cid, (unsigned)c->pid);
	if (c->g->wk)	/* `workers N`: the worker that owns it */
		fprintf(f, "\"worker\":%u,", c->g->widx);
	fputs("\"common_name\":", f);
	braid_status_json_str(f, braid_gw_cname(c));
	fputs(",\"username\":", f);
	braid_status_json_str(f, c->user);
	fputs(",\"real_address\":", f);
	braid_status_json_str(f, c->real);
	fputs(",\"virtual_address\":", f);
	if (c->has_v4) {
		braid_gw_v4str(c->v4, b, sizeof(b));
		braid_status_json_str(f, b);
	} else {
		fputs("null", f);
	}
	fputs(",\"virtual_ipv6_address\":", f);
	if (c->has_v6)
		braid_status_json_str(f, inet_ntop(AF_INET6, &c->v6, b, sizeof(b)));
	else
		fputs("null", f);
	fputs(",\"cipher\":", f);
	braid_status_json_str(f, c->push.cipher);
	fprintf(f, ",\"since\":%lld,\"rx_bytes\":%llu,\"tx_bytes\":%llu,\"tcp_super\":%s,",
		(long long)c->since, U(c->rx_bytes), U(c->tx_bytes), c->tcp_super ? "true" : "false");
	braid_status_json_session(f, dp, c->st == C_ACTIVE);
	fputs("\"state\":", f);
	braid_status_json_str(f, c->st == C_ACTIVE ? "up" : "connecting");
	braid_status_json_mp(f, dp);
	fputc('}', f);
}

int braid_gw_status_json(const struct braid_gateway *g, FILE *f)
{
	struct braid_gateway_stats sum;
	struct braid_heap_stats hs;
	uint64_t rj[BRAID_REJ__COUNT];
	const struct braid_gateway_stats *s = &sum;
	struct gw_client **live = calloc(g->max_clients ? g->max_clients : 1, sizeof(*live));
	double start, uptime = 0;
	size_t n = 0;

	if (!live)
		return -ENOMEM;
	braid_gw_workers_sum(g, &sum, rj);
	braid_gw_lock_all(g);
	braid_met_process_times(&start, &uptime);
	fprintf(f, "{\"version\":1,\"time\":%lld,\"role\":\"gateway\",\"uptime_s\":%.3f,",
		(long long)time(NULL), uptime);
	fprintf(f,
		"\"gateway\":{\"clients\":%lu,\"max_clients\":%u,\"sessions_created\":%llu,"
		"\"clients_removed\":%llu,\"auth_failed\":%llu,\"max_clients_refused\":%llu,"
		"\"connect_freq_refused\":%llu,\"floats\":%llu,\"float_refused\":%llu,"
		"\"cookie_replies\":%llu,\"cookie_rejected\":%llu,\"data_unknown_peer\":%llu,"
		"\"data_auth_failed\":%llu,\"bad_source\":%llu,\"tun_no_route\":%llu,"
		"\"c2c_forwarded\":%llu,\"tun_read_pkts\":%llu,\"tun_write_pkts\":%llu,"
		"\"link_rx_pkts\":%llu,\"link_tx_pkts\":%llu,\"gone_rx_bytes\":%llu,"
		"\"gone_tx_bytes\":%llu,\"tcp_super_tx\":%llu,\"tcp_super_rx\":%llu,"
		"\"tcp_super_rejected\":%llu},",
		s->clients, (unsigned)g->client_limit, U(s->sessions_created), U(s->clients_removed),
		U(s->auth_failed), U(s->max_clients_refused), U(s->connect_freq_refused),
		U(s->floats), U(s->float_refused), U(s->cookie_replies), U(s->cookie_rejected),
		U(s->data_unknown_peer), U(s->data_auth_failed), U(s->bad_source),
		U(s->tun_no_route), U(s->c2c_forwarded), U(s->tun_read_pkts), U(s->tun_write_pkts),
		U(s->link_rx_pkts), U(s->link_tx_pkts), U(s->gone_rx_bytes), U(s->gone_tx_bytes),
		U(s->tcp_super_tx), U(s->tcp_super_rx), U(s->tcp_super_bad));
	/* worker 0's tick trims the heap (gw_timers.c), and writes this file */
	braid_heap_stats(&hs);
	fprintf(f, "\"heap\":{\"rss_kb\":%ld,\"in_use_kb\":%zu,\"free_kb\":%zu,\"mapped_kb\":%zu,"
		"\"trims\":%llu,\"trimmed_kb\":%llu},", braid_heap_rss_kb(), hs.in_use / 1024, hs.free / 1024,
		hs.mapped / 1024, U(g->heap_trims), U(g->heap_trimmed_kb));
	braid_gw_workers_json(g, f);
	fputs("\"clients\":[", f);
	for (uint32_t i = 0; i < g->max_clients; i++)
		if (g->by_pid[i] && !g->by_pid[i]->dead)
			live[n++] = g->by_pid[i];
	qsort(live, n, sizeof(*live), by_cid);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		client_json(f, live[i]);
	}
	fputs("]}\n", f);
	braid_gw_unlock_all(g);
	free(live);
	return 0;
}

void braid_gw_status_json_write(const struct braid_gateway *g)
{
	const char *path = g->o->status_json_path;
	struct braid_statfile sf;
	int r;

	if (!path)
		return;
	r = braid_statfile_open(&sf, path);
	if (!r)
		r = braid_statfile_commit(&sf, braid_gw_status_json(g, sf.f));
	if (r)
		braid_warn("status-json: cannot write '%s': %s", path, strerror(-r));
}
