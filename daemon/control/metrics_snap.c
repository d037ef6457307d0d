// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics_snap.c - the metric families and a scrape's samples
 * (metrics_snap.h).
 */
#include "control/metrics_snap.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define C BRAID_MET_COUNTER
#define G BRAID_MET_GAUGE

/* The names mirror the status JSON's fields (docs/metrics.md): braid_tunnel_X_total is
 * "tunnel":{"X"}, braid_path_X_total is paths[].X, and so on; units in base units. */
static const struct braid_met_family fam[BRAID_MET_N] = {
	[BRAID_MET_BUILD] = { "braid_build", BRAID_MET_INFO, NULL,
			      "braidd's version and the role it runs" },
	[BRAID_MET_START_TIME] = { "braid_start_time_seconds", G, "seconds",
				   "start of the process, Unix time" },
	[BRAID_MET_UPTIME] = { "braid_uptime_seconds", G, "seconds",
			       "seconds since the process started (status JSON uptime_s)" },
	[BRAID_MET_SESSION_UP] = { "braid_session_up", G, NULL,
				   "1 while the session carries data (TLS client: state up; "
				   "gateway: client active; static-key: a peer answered)" },
	[BRAID_MET_SESSION_MULTIPATH] = { "braid_session_multipath", G, NULL,
					  "1 for a multipath session (status JSON multipath)" },
	[BRAID_MET_SESSION_PATHS] = { "braid_session_paths", G, NULL,
				      "paths of the session (status JSON paths[])" },
	[BRAID_MET_SESSION_PATHS_UP] = { "braid_session_paths_up", G, NULL,
					 "paths in state active or standby" },
	[BRAID_MET_SESSION_FAILOVERS] = { "braid_session_failovers", C, NULL,
					  "path failures whose traffic moved to the other paths "
					  "(status JSON failovers: the sum of the paths' failures)" },
	[BRAID_MET_SESSION_SINCE] = { "braid_session_since_seconds", G, "seconds",
				      "the client connected at this Unix time (gateway clients[].since)" },
	[BRAID_MET_TUN_READ_PKTS] = { "braid_tunnel_tun_read_pkts", C, NULL,
				      "packets read from the TUN (tunnel.tun_read_pkts)" },
	[BRAID_MET_TUN_READ_BYTES] = { "braid_tunnel_tun_read_bytes", C, NULL,
				       "bytes read from the TUN (tunnel.tun_read_bytes)" },
	[BRAID_MET_TUN_WRITE_PKTS] = { "braid_tunnel_tun_write_pkts", C, NULL,
				       "packets written to the TUN (tunnel.tun_write_pkts)" },
	[BRAID_MET_TUN_WRITE_BYTES] = { "braid_tunnel_tun_write_bytes", C, NULL,
					"bytes written to the TUN (tunnel.tun_write_bytes)" },
	[BRAID_MET_LINK_TX_PKTS] = { "braid_tunnel_link_tx_pkts", C, NULL,
				     "datagrams sent, all paths (tunnel.link_tx_pkts)" },
	[BRAID_MET_LINK_TX_BYTES] = { "braid_tunnel_link_tx_bytes", C, NULL,
				      "bytes sent on the link, all paths (tunnel.link_tx_bytes)" },
	[BRAID_MET_LINK_RX_PKTS] = { "braid_tunnel_link_rx_pkts", C, NULL,
				     "datagrams received, all paths (tunnel.link_rx_pkts)" },
	[BRAID_MET_LINK_RX_BYTES] = { "braid_tunnel_link_rx_bytes", C, NULL,
				      "bytes received on the link, all paths (tunnel.link_rx_bytes)" },
	[BRAID_MET_AUTH_FAILURES] = { "braid_tunnel_auth_failures", C, NULL,
				      "data packets that failed authentication (tunnel.auth_failures)" },
	[BRAID_MET_REPLAYS] = { "braid_tunnel_replays", C, NULL,
				"replayed or too old data packets (tunnel.replays)" },
	[BRAID_MET_MALFORMED] = { "braid_tunnel_malformed", C, NULL,
				  "malformed data packets (tunnel.malformed)" },
	[BRAID_MET_PINGS_TX] = { "braid_tunnel_pings_tx", C, NULL,
				 "keepalive pings sent (tunnel.pings_tx)" },
	[BRAID_MET_PINGS_RX] = { "braid_tunnel_pings_rx", C, NULL,
				 "keepalive pings received (tunnel.pings_rx)" },
	[BRAID_MET_RESTARTS] = { "braid_tunnel_restarts", C, NULL,
				 "session restarts: reconnects, ping-restart, SIGUSR1 (tunnel.restarts)" },
	[BRAID_MET_RENEGOTIATIONS] = { "braid_tunnel_renegotiations", C, NULL,
				       "TLS renegotiations (tunnel.renegotiations)" },
	[BRAID_MET_CLIENT_RX_BYTES] = { "braid_client_rx_bytes", C, NULL,
					"bytes received from the client (clients[].rx_bytes)" },
	[BRAID_MET_CLIENT_TX_BYTES] = { "braid_client_tx_bytes", C, NULL,
					"bytes sent to the client (clients[].tx_bytes)" },
	[BRAID_MET_GW_CLIENTS] = { "braid_gateway_clients", G, NULL,
				   "clients connected (gateway.clients)" },
	[BRAID_MET_GW_MAX_CLIENTS] = { "braid_gateway_max_clients", G, NULL,
				       "max-clients (gateway.max_clients)" },
	[BRAID_MET_GW_CLIENTS_UNLABELLED] = { "braid_gateway_clients_unlabelled", G, NULL,
					      "clients over metrics-max-clients: in the gateway "
					      "totals, without series of their own" },
	[BRAID_MET_GW_SESSIONS_CREATED] = { "braid_gateway_sessions_created", C, NULL,
					    "control sessions created (gateway.sessions_created)" },
	[BRAID_MET_GW_CLIENTS_REMOVED] = { "braid_gateway_clients_removed", C, NULL,
					   "clients removed (gateway.clients_removed)" },
	[BRAID_MET_GW_AUTH_FAILED] = { "braid_gateway_auth_failed", C, NULL,
				       "authentications refused (gateway.auth_failed)" },
	[BRAID_MET_GW_MAX_CLIENTS_REFUSED] = { "braid_gateway_max_clients_refused", C, NULL,
					       "clients refused by max-clients "
					       "(gateway.max_clients_refused)" },
	[BRAID_MET_GW_CONNECT_FREQ_REFUSED] = { "braid_gateway_connect_freq_refused", C, NULL,
						"connections refused by connect-freq "
						"(gateway.connect_freq_refused)" },
	[BRAID_MET_GW_FLOATS] = { "braid_gateway_floats", C, NULL,
				  "clients that floated to a new address (gateway.floats)" },
	[BRAID_MET_GW_DATA_AUTH_FAILED] = { "braid_gateway_data_auth_failed", C, NULL,
					    "data packets that failed authentication "
					    "(gateway.data_auth_failed)" },
	[BRAID_MET_GW_TUN_READ_PKTS] = { "braid_gateway_tun_read_pkts", C, NULL,
					 "packets read from the TUN (gateway.tun_read_pkts)" },
	[BRAID_MET_GW_TUN_WRITE_PKTS] = { "braid_gateway_tun_write_pkts", C, NULL,
					  "packets written to the TUN (gateway.tun_write_pkts)" },
	[BRAID_MET_GW_LINK_RX_PKTS] = { "braid_gateway_link_rx_pkts", C, NULL,
					"datagrams received (gateway.link_rx_pkts)" },
	[BRAID_MET_GW_LINK_TX_PKTS] = { "braid_gateway_link_tx_pkts", C, NULL,
					"datagrams sent (gateway.link_tx_pkts)" },
	[BRAID_MET_PATH_STATE] = { "braid_path_state", G, NULL,
				   "1 for the path's state (label state: probing, validated, active, "
				   "standby, degraded, failed), 0 for the others (paths[].state)" },
	[BRAID_MET_PATH_BACKUP] = { "braid_path_backup", G, NULL,
				    "1 for a backup path (paths[].backup)" },
	[BRAID_MET_PATH_RTT] = { "braid_path_rtt_seconds", G, "seconds",
				 "smoothed RTT while current; absent when not known now "
				 "(paths[].rtt_ms / 1000)" },
	[BRAID_MET_PATH_SRTT] = { "braid_path_srtt_seconds", G, "seconds",
				  "the RTT estimator, kept while the path is failed "
				  "(paths[].srtt_ms / 1000)" },
	[BRAID_MET_PATH_MIN_RTT] = { "braid_path_min_rtt_seconds", G, "seconds",
				     "lowest RTT seen (paths[].min_rtt_ms / 1000)" },
	[BRAID_MET_PATH_LOSS] = { "braid_path_loss_ratio", G, "ratio",
				  "data packets lost / sent in the last interval; absent when none "
				  "was sent (paths[].loss_iv_pct / 100)" },
	[BRAID_MET_PATH_TX_RATE] = { "braid_path_tx_bits_per_second", G, "bits_per_second",
				     "throughput sent in the last interval, as on the wire "
				     "(paths[].tx_mbit * 1e6)" },
	[BRAID_MET_PATH_RX_RATE] = { "braid_path_rx_bits_per_second", G, "bits_per_second",
				     "throughput received in the last interval, as on the wire "
				     "(paths[].rx_mbit * 1e6)" },
	[BRAID_MET_PATH_SHARE] = { "braid_path_share_ratio", G, "ratio",
				   "the path's part of the tunnel's data in the last interval "
				   "(paths[].share_iv_pct / 100)" },
	[BRAID_MET_PATH_CAPACITY] = { "braid_path_capacity_est_bits_per_second", G,
				      "bits_per_second",
				      "estimated capacity towards the peer; absent on a failed or "
				      "probing path (paths[].capacity_est_mbit * 1e6)" },
	[BRAID_MET_PATH_LAST_RX] = { "braid_path_last_rx_seconds", G, "seconds",
				     "since the last authenticated datagram; absent before the first "
				     "(paths[].last_rx_s)" },
	[BRAID_MET_PATH_TX_PKTS] = { "braid_path_tx_pkts", C, NULL,
				     "data packets sent (paths[].tx_pkts)" },
	[BRAID_MET_PATH_TX_BYTES] = { "braid_path_tx_bytes", C, NULL,
				      "data bytes sent, plaintext (paths[].tx_bytes)" },
	[BRAID_MET_PATH_RX_PKTS] = { "braid_path_rx_pkts", C, NULL,
				     "data packets received (paths[].rx_pkts)" },
	[BRAID_MET_PATH_RX_BYTES] = { "braid_path_rx_bytes", C, NULL,
				      "data bytes received, plaintext (paths[].rx_bytes)" },
	[BRAID_MET_PATH_WIRE_TX_PKTS] = { "braid_path_wire_tx_pkts", C, NULL,
					  "datagrams sent incl. control (paths[].wire_tx_pkts)" },
	[BRAID_MET_PATH_WIRE_TX_BYTES] = { "braid_path_wire_tx_bytes", C, NULL,
					   "bytes sent incl. control, UDP payload "
					   "(paths[].wire_tx_bytes)" },
	[BRAID_MET_PATH_WIRE_RX_PKTS] = { "braid_path_wire_rx_pkts", C, NULL,
					  "authenticated datagrams received (paths[].wire_rx_pkts)" },
	[BRAID_MET_PATH_WIRE_RX_BYTES] = { "braid_path_wire_rx_bytes", C, NULL,
					   "authenticated bytes received, UDP payload "
					   "(paths[].wire_rx_bytes)" },
	[BRAID_MET_PATH_LOST_PKTS] = { "braid_path_lost_pkts", C, NULL,
				       "data packets declared lost (paths[].lost_pkts)" },
	[BRAID_MET_PATH_RESENT_PKTS] = { "braid_path_resent_pkts", C, NULL,
					 "packets moved to other paths when this one failed "
					 "(paths[].resent_pkts)" },
	[BRAID_MET_PATH_FAILURES] = { "braid_path_failures", C, NULL,
				      "times the path failed and its traffic failed over "
				      "(paths[].failures)" },
	[BRAID_MET_PATH_VALIDATIONS] = { "braid_path_validations", C, NULL,
					 "times the path was validated (paths[].validations)" },
	[BRAID_MET_PATH_REBINDS] = { "braid_path_rebinds", C, NULL,
				     "the path's socket re-bound after an address change "
				     "(paths[].rebinds)" },
	[BRAID_MET_HTTP_REQUESTS] = { "braid_metrics_requests", C, NULL,
				      "requests to this endpoint by status code" },
	[BRAID_MET_HTTP_REJECTED] = { "braid_metrics_rejected", C, NULL,
				      "requests and connections this endpoint refused, by reason" },
};

const struct braid_met_family *braid_met_family(enum braid_met_id id)
{
	return (unsigned)id < BRAID_MET_N ? &fam[id] : NULL;
}

void braid_met_snap_init(struct braid_met_snap *m)
{
	memset(m, 0, sizeof(*m));
}

void braid_met_snap_free(struct braid_met_snap *m)
{
	for (size_t i = 0; i < m->nl; i++)
		free(m->lsets[i]);
	free(m->lsets);
	free(m->s);
	memset(m, 0, sizeof(*m));
}

/* Length of the UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t l;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		l = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		l = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		l = 4;
	else
		return 0;
	if (n < l)
		return 0;
	for (size_t i = 1; i < l; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong 3/4-byte forms, surrogates, above U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return l;
}

/* A label value, escaped (\\, \", \n) and made valid UTF-8. */
static void put_value(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t n = strlen(v);

	for (size_t i = 0; i < n;) {
		size_t l = utf8_len(s + i, n - i);

		if (!l) {
			fputc('?', f);
			i++;
		} else if (s[i] == '\\' || s[i] == '"') {
			fputc('\\', f);
			fputc(s[i++], f);
		} else if (s[i] == '\n') {
			fputs("\\n", f);
			i++;
		} else if (s[i] < 0x20 || s[i] == 0x7f) {
			fputc('?', f);
			i++;
		} else {
			fwrite(s + i, 1, l, f);
			i += l;
		}
	}
}

int braid_met_lset(struct braid_met_snap *m, int parent, ...)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;
	const char *k;
	va_list ap;

	if (!f)
		goto fail;
	if (parent >= 0 && (size_t)parent < m->nl && m->lsets[parent][0]) {
		fputs(m->lsets[parent], f);
		first = false;
	}
	va_start(ap, parent);
	while ((k = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		fprintf(f, "%s%s=\"", first ? "" : ",", k);
		put_value(f, v ? v : "");
		fputc('"', f);
		first = false;
	}
	va_end(ap);
	if (fclose(f))
		goto fail;
	if (m->nl == m->capl) {
		size_t cap = m->capl ? m->capl * 2 : 16;
		char **p = realloc(m->lsets, cap * sizeof(*p));

		if (!p)
			goto fail;
		m->lsets = p;
		m->capl = cap;
	}
	m->lsets[m->nl] = buf;
	return (int)m->nl++;
fail:
	free(buf);
	m->err = -ENOMEM;
	return -1;
}

static struct braid_met_sample *add(struct braid_met_snap *m, enum braid_met_id id, int lset)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 128;
		struct braid_met_sample *p = realloc(m->s, cap * sizeof(*p));

		if (!p) {
			m->err = -ENOMEM;
			return NULL;
		}
		m->s = p;
		m->cap = cap;
	}
	m->s[m->n] = (struct braid_met_sample){ .id = id, .lset = lset };
	return &m->s[m->n++];
}

void braid_met_u(struct braid_met_snap *m, enum braid_met_id id, int lset, uint64_t v)
{
	struct braid_met_sample *s = add(m, id, lset);

	if (s) {
		s->is_u = true;
		s->u = v;
	}
}

void braid_met_d(struct braid_met_snap *m, enum braid_met_id id, int lset, double v)
{
	struct braid_met_sample *s = add(m, id, lset);

	if (s)
		s->d = v;
}

uint64_t braid_met_failovers(const struct braid_dp *dp)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	int n = dp ? braid_dp_paths(dp, p, BRAID_MP_MAX_PATHS) : 0;
	uint64_t sum = 0;

	for (int i = 0; i < n; i++)
		sum += p[i].mp.failures;
	return sum;
}

static void path_rows(struct braid_met_snap *m, int ls, const struct braid_mpath_path_info *p)
{
	static const enum braid_mp_path_state states[] = {
		BRAID_MP_PATH_PROBING, BRAID_MP_PATH_VALIDATED, BRAID_MP_PATH_ACTIVE,
		BRAID_MP_PATH_STANDBY, BRAID_MP_PATH_DEGRADED, BRAID_MP_PATH_FAILED,
	};
	const struct braid_mp_path_stats *s = &p->mp;
	bool failed = s->state == BRAID_MP_PATH_FAILED || s->state == BRAID_MP_PATH_PROBING;

	for (size_t k = 0; k < sizeof(states) / sizeof(states[0]); k++) {
		int l = braid_met_lset(m, ls, "state", braid_mp_state_name(states[k]), NULL);

		braid_met_u(m, BRAID_MET_PATH_STATE, l, s->state == states[k]);
	}
	braid_met_u(m, BRAID_MET_PATH_BACKUP, ls, !!(s->flags & BRAID_MP_PATH_F_BACKUP));
	/* the status JSON's nulls are absent samples */
	if (p->rtt_fresh)
		braid_met_d(m, BRAID_MET_PATH_RTT, ls, s->srtt_us / 1e6);
	braid_met_d(m, BRAID_MET_PATH_SRTT, ls, s->srtt_us / 1e6);
	braid_met_d(m, BRAID_MET_PATH_MIN_RTT, ls, s->min_rtt_us / 1e6);
	if (p->iv_loss_pm >= 0)
		braid_met_d(m, BRAID_MET_PATH_LOSS, ls, p->iv_loss_pm / 1000.0);
	braid_met_u(m, BRAID_MET_PATH_TX_RATE, ls, p->iv_tx_bps);
	braid_met_u(m, BRAID_MET_PATH_RX_RATE, ls, p->iv_rx_bps);
	braid_met_d(m, BRAID_MET_PATH_SHARE, ls, p->iv_share_pm / 1000.0);
	if (!failed)
		braid_met_u(m, BRAID_MET_PATH_CAPACITY, ls, s->bw_bps);
	if (p->last_rx_ms >= 0)
		braid_met_d(m, BRAID_MET_PATH_LAST_RX, ls, p->last_rx_ms / 1e3);
	braid_met_u(m, BRAID_MET_PATH_TX_PKTS, ls, s->tx_pkts);
	braid_met_u(m, BRAID_MET_PATH_TX_BYTES, ls, s->tx_bytes);
	braid_met_u(m, BRAID_MET_PATH_RX_PKTS, ls, s->rx_pkts);
	braid_met_u(m, BRAID_MET_PATH_RX_BYTES, ls, s->rx_bytes);
	braid_met_u(m, BRAID_MET_PATH_WIRE_TX_PKTS, ls, p->wire_tx_pkts);
	braid_met_u(m, BRAID_MET_PATH_WIRE_TX_BYTES, ls, p->wire_tx_bytes);
	braid_met_u(m, BRAID_MET_PATH_WIRE_RX_PKTS, ls, p->wire_rx_pkts);
	braid_met_u(m, BRAID_MET_PATH_WIRE_RX_BYTES, ls, p->wire_rx_bytes);
	braid_met_u(m, BRAID_MET_PATH_LOST_PKTS, ls, s->lost_pkts);
	braid_met_u(m, BRAID_MET_PATH_RESENT_PKTS, ls, s->resent_pkts);
	braid_met_u(m, BRAID_MET_PATH_FAILURES, ls, s->failures);
	braid_met_u(m, BRAID_MET_PATH_VALIDATIONS, ls, s->validations);
	braid_met_u(m, BRAID_MET_PATH_REBINDS, ls, p->rebinds);
}

void braid_met_dp(struct braid_met_snap *m, int lset, const struct braid_dp *dp)
{
	struct braid_mpath_path_info *p = calloc(BRAID_MP_MAX_PATHS, sizeof(*p));
	uint64_t fails = 0;
	int n, up = 0;

	if (!p) {
		m->err = -ENOMEM;
		return;
	}
	n = dp ? braid_dp_paths(dp, p, BRAID_MP_MAX_PATHS) : 0;
	for (int i = 0; i < n; i++) {
		char idx[16];
		int ls;

		snprintf(idx, sizeof(idx), "%d", p[i].index);
		ls = braid_met_lset(m, lset, "path", idx, "dev", p[i].dev, "local", p[i].local,
				    "remote", p[i].remote, NULL);
		path_rows(m, ls, &p[i]);
		fails += p[i].mp.failures;
		up += p[i].mp.state == BRAID_MP_PATH_ACTIVE || p[i].mp.state == BRAID_MP_PATH_STANDBY;
	}
	braid_met_u(m, BRAID_MET_SESSION_PATHS, lset, (uint64_t)n);
	braid_met_u(m, BRAID_MET_SESSION_PATHS_UP, lset, (uint64_t)up);
	braid_met_u(m, BRAID_MET_SESSION_FAILOVERS, lset, fails);
	free(p);
}

/* The start read once (REALTIME), for a process that later has no /proc (chroot). */
static double start_cached;

static int from_cache(double *start, double *uptime, int err)
{
	struct timespec rt;

	if (!start_cached || clock_gettime(CLOCK_REALTIME, &rt))
		return err;
	*start = start_cached;
	*uptime = rt.tv_sec + rt.tv_nsec / 1e9 - start_cached;
	if (*uptime < 0)
		*uptime = 0;
	return 0;
}

int braid_met_process_times(double *start, double *uptime)
{
	char buf[1024], *p;
	unsigned long long ticks = 0;
	struct timespec bt, rt;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/self/stat", "re");
	size_t n;

	if (!f)
		return from_cache(start, uptime, -errno);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* after "pid (comm) ", field 22 is starttime; comm may hold blanks and ')' */
	p = strrchr(buf, ')');
	if (!p || hz <= 0)
		return from_cache(start, uptime, -EINVAL);
	p++;
	for (int field = 3; field <= 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
		if (field == 22 && p)
			ticks = strtoull(p, NULL, 10);
	}
	if (!p || clock_gettime(CLOCK_BOOTTIME, &bt) || clock_gettime(CLOCK_REALTIME, &rt))
		return from_cache(start, uptime, -EINVAL);
	*uptime = bt.tv_sec + bt.tv_nsec / 1e9 - (double)ticks / (double)hz;
	if (*uptime < 0)
		*uptime = 0;
	*start = rt.tv_sec + rt.tv_nsec / 1e9 - *uptime;
	if (!start_cached)
		start_cached = *start;
	return 0;
}
