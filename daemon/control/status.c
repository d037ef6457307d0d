// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - status file (JSON) and per-path log lines (see status.h).
 */
#include "control/status.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "control/metrics_snap.h"
#include "control/statfile.h"
#include "dataplane/dco_select.h"

#define U(x) ((unsigned long long)(x))

/* Addresses printed by braid_sockaddr_str hold no quotes or backslashes; be safe anyway. */
void braid_status_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* A number, or null when it is not known (v < 0). */
static void json_num_or_null(FILE *f, const char *key, double v, int prec)
{
	if (v < 0)
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":%.*f", key, prec, v);
}

/* The numbers of now (mpath_types.h: the last interval), docs/braidd.md "Status fields". */
static void json_path_now(FILE *f, const struct braid_mpath_path_info *p)
{
	const struct braid_mp_path_stats *s = &p->mp;
	bool failed = s->state == BRAID_MP_PATH_FAILED || s->state == BRAID_MP_PATH_PROBING;

	fprintf(f, ",\"interval_s\":%.3f,\"tx_mbit\":%.3f,\"rx_mbit\":%.3f,\"share_iv_pct\":%.1f",
		p->iv_s, p->iv_tx_bps / 1e6, p->iv_rx_bps / 1e6, p->iv_share_pm / 10.0);
	json_num_or_null(f, "loss_iv_pct", p->iv_loss_pm < 0 ? -1 : p->iv_loss_pm / 10.0, 1);
	json_num_or_null(f, "rtt_ms", p->rtt_fresh ? s->srtt_us / 1e3 : -1, 3);
	json_num_or_null(f, "capacity_est_mbit", failed ? -1 : s->bw_bps / 1e6, 3);
	json_num_or_null(f, "last_rx_s", p->last_rx_ms < 0 ? -1 : p->last_rx_ms / 1e3, 3);
}

static void json_path(FILE *f, const struct braid_mpath_path_info *p)
{
	const struct braid_mp_path_stats *s = &p->mp;

	fprintf(f, "{\"index\":%d,\"local\":", p->index);
	braid_status_json_str(f, p->local);
	fputs(",\"remote\":", f);
	braid_status_json_str(f, p->remote);
	fputs(",\"dev\":", f);
	braid_status_json_str(f, p->dev);
	fputs(",\"route\":", f);
	braid_status_json_str(f, p->route);
	fprintf(f, ",\"route_ok\":%s,\"route_warnings\":%u,\"rebinds\":%u,\"bind_failures\":%u",
		p->route_ok ? "true" : "false", p->route_warnings, p->rebinds, p->bind_failures);
	fprintf(f,
		",\"learned\":%s,\"state\":\"%s\",\"backup\":%s,"
		"\"srtt_ms\":%.3f,\"rttvar_ms\":%.3f,\"min_rtt_ms\":%.3f,\"owd_rel_ms\":%.3f,"
		"\"qdelay_ms\":%.3f,\"loss_pct\":%.1f,\"bw_mbit\":%.3f,\"rate_mbit\":%.3f,"
		"\"cap_mbit\":%.3f,\"share_pct\":%.1f,"
		"\"tx_pkts\":%llu,\"tx_bytes\":%llu,\"rx_pkts\":%llu,\"rx_bytes\":%llu,"
		"\"wire_tx_pkts\":%llu,\"wire_tx_bytes\":%llu,\"wire_rx_pkts\":%llu,"
		"\"wire_rx_bytes\":%llu,\"tx_errors\":%llu,"
		"\"queue_pkts\":%llu,\"queue_bytes\":%llu,\"retained_pkts\":%llu,"
		"\"lost_pkts\":%llu,\"resent_pkts\":%llu,\"arq_resent\":%llu,"
		"\"aqm_drops\":%llu,\"aqm_marks\":%llu,\"probes_sent\":%llu,\"echoes\":%llu,"
		"\"validations\":%u,\"failures\":%u,\"bad_token\":%u,\"rx_unvalidated\":%u,"
		"\"mtu\":%u,\"mtu_probes\":%llu,\"mtu_probes_lost\":%llu,\"mtu_blackholes\":%u,"
		"\"mtu_oversize\":%llu,\"slot\":%d,\"peer_slot\":%d,\"peer_backup\":%s,"
		"\"redundant_skipped\":%llu,\"suspects\":%u,\"ctl_skipped\":%llu",
		p->learned ? "true" : "false", braid_mp_state_name(s->state),
		(s->flags & BRAID_MP_PATH_F_BACKUP) ? "true" : "false", s->srtt_us / 1e3,
		s->rttvar_us / 1e3, s->min_rtt_us / 1e3, s->owd_rel_us / 1e3, s->qdelay_us / 1e3,
		s->loss_pm / 10.0, s->bw_bps / 1e6, s->rate_bps / 1e6, s->cap_bps / 1e6,
		s->share_pm / 10.0, U(s->tx_pkts), U(s->tx_bytes), U(s->rx_pkts), U(s->rx_bytes),
		U(p->wire_tx_pkts), U(p->wire_tx_bytes), U(p->wire_rx_pkts), U(p->wire_rx_bytes),
		U(p->tx_errors), U(s->queue_pkts), U(s->queue_bytes), U(s->retained_pkts),
		U(s->lost_pkts), U(s->resent_pkts), U(s->arq_resent), U(s->aqm_drops),
		U(s->aqm_marks), U(s->probes_sent), U(s->echoes), s->validations, s->failures,
		s->bad_token, s->rx_unvalidated, s->mtu, U(s->mtu_probes), U(s->mtu_probes_lost),
		s->mtu_blackholes, U(s->mtu_oversize), s->slot, s->peer_slot,
		s->peer_backup ? "true" : "false", U(s->redundant_skipped), s->suspects,
		U(s->ctl_skipped));
	json_path_now(f, p);
	fputc('}', f);
}

void braid_status_json_head(FILE *f, const char *role, const struct braid_dp *dp, bool up)
{
	double start, uptime = 0;

	braid_met_process_times(&start, &uptime);
	/* role, uptime_s, up, failovers: the metrics endpoint's braid_build{role},
	 * braid_uptime_seconds, braid_session_up, braid_session_failovers_total */
	fprintf(f, "{\"version\":1,\"time\":%lld,\"role\":", (long long)time(NULL));
	braid_status_json_str(f, role);
	fprintf(f, ",\"uptime_s\":%.3f,", uptime);
	braid_status_json_session(f, dp, up);
}

void braid_status_json_session(FILE *f, const struct braid_dp *dp, bool up)
{
	fprintf(f, "\"up\":%s,\"failovers\":%llu,\"multipath\":%s,", up ? "true" : "false",
		U(braid_met_failovers(dp)), dp ? "true" : "false");
	fputs("\"backend\":", f);	/* `dco`: dataplane/dco_select.h */
	braid_status_json_str(f, braid_dco_backend());
	fputc(',', f);
	if (dp) {
		fputs("\"scheduler\":", f);
		braid_status_json_str(f, braid_dp_sched_name(dp));
		fputc(',', f);
	}
}

void braid_status_json_tunnel(FILE *f, const struct braid_tunnel_stats *t)
{
	fprintf(f,
		"\"tunnel\":{\"tun_read_pkts\":%llu,\"tun_read_bytes\":%llu,\"tun_write_pkts\":%llu,"
		"\"tun_write_bytes\":%llu,\"link_tx_pkts\":%llu,\"link_tx_bytes\":%llu,"
		"\"link_rx_pkts\":%llu,\"link_rx_bytes\":%llu,\"auth_failures\":%llu,"
		"\"replays\":%llu,\"malformed\":%llu,\"no_peer\":%llu,\"pings_tx\":%llu,"
		"\"pings_rx\":%llu,\"restarts\":%llu",
		U(t->tun_read_pkts), U(t->tun_read_bytes), U(t->tun_write_pkts), U(t->tun_write_bytes),
		U(t->link_tx_pkts), U(t->link_tx_bytes), U(t->link_rx_pkts), U(t->link_rx_bytes),
		U(t->rx_auth_failures), U(t->rx_replays), U(t->rx_malformed), U(t->tx_no_peer),
		U(t->pings_tx), U(t->pings_rx), U(t->restarts));
}

void braid_status_json_mp(FILE *f, const struct braid_dp *dp)
{
	struct braid_mpath_stats ms;

	if (dp && !braid_dp_engine_stats(dp, &ms)) {
		fprintf(f,
			",\"engine\":{\"paths_learned\":%llu,\"paths_removed\":%llu,"
			"\"learn_refused\":%llu,\"link_events\":%llu,\"tx_nopath\":%llu,"
			"\"tx_nobufs\":%llu,\"tx_pool_empty\":%llu,\"rx_pool_empty\":%llu,"
			"\"tx_seal_errors\":%llu,\"enq_pkts\":%llu,\"aqm_drops\":%llu,"
			"\"aqm_marks\":%llu,\"ctl_sent\":%llu,\"ctl_rx\":%llu,\"ctl_bad\":%llu,"
			"\"rx_delivered\":%llu,\"rx_in_order\":%llu,\"rx_late\":%llu,\"rx_dups\":%llu,"
			"\"rx_gaps_deadline\":%llu,\"rx_held\":%u,\"rx_max_held\":%u,"
			"\"rx_max_hold_ms\":%.3f,\"reorder_deadline_ms\":%.3f,\"tunnel_mtu\":%u,"
			"\"class_copies\":%llu,\"rx_dup_copies\":%llu}",
			U(ms.paths_learned), U(ms.paths_removed), U(ms.learn_refused),
			U(ms.link_events), U(ms.tx_nopath), U(ms.tx_nobufs), U(ms.tx_pool_empty),
			U(ms.rx_pool_empty), U(ms.tx_seal_errors), U(ms.mp.enq_pkts),
			U(ms.mp.aqm_drops), U(ms.mp.aqm_marks), U(ms.mp.ctl_sent), U(ms.mp.ctl_rx),
			U(ms.mp.ctl_bad), U(ms.mp.rx_delivered), U(ms.mp.rx_in_order), U(ms.mp.rx_late),
			U(ms.mp.rx_dups), U(ms.mp.rx_gaps_deadline), ms.mp.rx_held, ms.mp.rx_max_held,
			ms.mp.rx_max_hold_us / 1e3, ms.mp.reorder_deadline_us / 1e3, ms.mp.tunnel_mtu,
			U(ms.mp.class_copies), U(ms.rx_dup_copies));
	}
	fputs(",\"paths\":", f);
	braid_status_paths_json(f, dp);
}

void braid_status_json(FILE *f, const struct braid_tunnel_stats *t, const struct braid_dp *dp,
			bool up)
{
	braid_status_json_head(f, "p2p", dp, up);
	braid_status_json_tunnel(f, t);
	fputc('}', f);
	braid_status_json_mp(f, dp);
	fputs("}\n", f);
}

void braid_status_paths_json(FILE *f, const struct braid_dp *dp)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	int n = dp ? braid_dp_paths(dp, p, BRAID_MP_MAX_PATHS) : 0;

	fputc('[', f);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_path(f, &p[i]);
	}
	fputc(']', f);
}

int braid_status_write(const char *path, const struct braid_tunnel_stats *ts,
		       const struct braid_dp *dp, bool up)
{
	struct braid_statfile sf;
	int r = braid_statfile_open(&sf, path);	/* FILE.tmp + rename, or in place */

	if (r)
		return r;
	braid_status_json(sf.f, ts, dp, up);
	return braid_statfile_commit(&sf, 0);
}

/* "12.3ms" / "-" (not known now) into b. */
static const char *ms_or_dash(char *b, size_t n, bool known, double ms)
{
	if (known)
		snprintf(b, n, "%.1fms", ms);
	else
		snprintf(b, n, "-");
	return b;
}

void braid_status_log(const struct braid_dp *dp)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	struct braid_mpath_stats ms;
	int n;

	if (!dp)
		return;
	if (!braid_dp_engine_stats(dp, &ms))
		braid_info("multipath: scheduler=%s paths_learned=%llu paths_removed=%llu "
			   "learn_refused=%llu link_events=%llu tx_nopath=%llu tx_nobufs=%llu "
			   "rx_held=%u rx_max_held=%u rx_gaps_deadline=%llu aqm_drops=%llu "
			   "aqm_marks=%llu", braid_dp_sched_name(dp), U(ms.paths_learned),
			   U(ms.paths_removed), U(ms.learn_refused), U(ms.link_events),
			   U(ms.tx_nopath), U(ms.tx_nobufs), ms.mp.rx_held, ms.mp.rx_max_held,
			   U(ms.mp.rx_gaps_deadline), U(ms.mp.aqm_drops), U(ms.mp.aqm_marks));
	n = braid_dp_paths(dp, p, BRAID_MP_MAX_PATHS);
	for (int i = 0; i < n; i++) {
		const struct braid_mp_path_stats *s = &p[i].mp;
		bool failed = s->state == BRAID_MP_PATH_FAILED || s->state == BRAID_MP_PATH_PROBING;
		char rtt[24], loss[24], cap[32], last[32];

		if (p[i].iv_loss_pm < 0)
			snprintf(loss, sizeof(loss), "-");
		else
			snprintf(loss, sizeof(loss), "%.1f%%", p[i].iv_loss_pm / 10.0);
		if (failed)
			snprintf(cap, sizeof(cap), "-");
		else
			snprintf(cap, sizeof(cap), "%.2fMbit/s", s->bw_bps / 1e6);
		if (p[i].last_rx_ms < 0)
			snprintf(last, sizeof(last), "never");
		else
			snprintf(last, sizeof(last), "%.1fs ago", p[i].last_rx_ms / 1e3);
		braid_info("multipath: path %d %s -> %s%s state=%s rtt=%s loss=%s tx=%.2fMbit/s "
			   "rx=%.2fMbit/s share=%.1f%% (last %.1fs) est_capacity=%s last_rx=%s "
			   "total tx=%llu/%lluB rx=%llu/%lluB share=%.1f%% queue=%llu "
			   "validations=%u failures=%u",
			   p[i].index, p[i].local, p[i].remote, p[i].learned ? " (learned)" : "",
			   braid_mp_state_name(s->state),
			   ms_or_dash(rtt, sizeof(rtt), p[i].rtt_fresh, s->srtt_us / 1e3), loss,
			   p[i].iv_tx_bps / 1e6, p[i].iv_rx_bps / 1e6, p[i].iv_share_pm / 10.0,
			   p[i].iv_s, cap, last, U(p[i].wire_tx_pkts), U(p[i].wire_tx_bytes),
			   U(p[i].wire_rx_pkts), U(p[i].wire_rx_bytes), s->share_pm / 10.0,
			   U(s->queue_pkts), s->validations, s->failures);
	}
}
