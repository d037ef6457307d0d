// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_link.c - link events and timers of the multipath data plane: an
 * rtnetlink change (os/linkmon) makes mpath_bind.c follow every path's
 * address and interface (engine link events, re-binds, auto interfaces); the housekeeping timer logs path and tunnel MTUs and removes
 * learned paths failed for mp-path-timeout, or at once when the peer's path
 * of the same slot answers from another address.
 */
#include "dataplane/mpath_link.h"

#include <stdint.h>

#include "os/linkmon.h"
#include "dataplane/mpath_bind.h"
#include "util/log.h"
#include "dataplane/mpath_engine.h"
#include "dataplane/mpath_pool.h"
#include "dataplane/mpath_sock.h"
#include "dataplane/mpath_stats.h"

void mpath_link_scan(struct braid_mpath *m, bool log_all)
{
	mpath_bind_scan(m, log_all);
}

/* The debounce timer: one scan for a burst of rtnetlink messages. */
static void scan_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_mpath *m = w->data;

	(void)loop, (void)revents;
	mpath_link_scan(m, false);
	mpath_pump(m);
}

void mpath_nl_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_mpath *m = w->data;

	(void)revents;
	/* an address change is a burst (address gone, its routes gone, new address, new
	 * routes) and a busy routing table sends many: scan once, SCAN_DEBOUNCE_S after
	 * the first message of a burst */
	if (braid_linkmon_drain(m->nl_fd) != 0 && !ev_is_active(&m->scan_t)) {
		ev_timer_init(&m->scan_t, scan_cb, SCAN_DEBOUNCE_S, 0.0);
		m->scan_t.data = m;
		ev_timer_start(loop, &m->scan_t);
	}
}


/*
 * A failed learned path whose peer slot another learned path of the same
 * socket now carries, usable (the peer's path came back from a new address:
 * a DHCP renew, an LTE reconnect, a NAT rebinding): nothing will come from
 * the old address again, so it goes now instead of after mp-path-timeout
 * (its totals pass to the new path, mpath_stats.c).
 */
static bool replaced(const struct braid_mpath *m, int i, int slot)
{
	if (slot < 0)
		return false;
	for (int j = 0; j < MAX_EPS; j++) {
		struct braid_mp_path_stats pj;

		if (j == i || !m->ep[j].used || !m->ep[j].learned || m->ep[j].sock != m->ep[i].sock ||
		    braid_mp_path_stats(m->mp, j, &pj) || pj.peer_slot != slot)
			continue;
		if (pj.state == BRAID_MP_PATH_ACTIVE || pj.state == BRAID_MP_PATH_STANDBY ||
		    pj.state == BRAID_MP_PATH_DEGRADED)
			return true;
	}
	return false;
}

/*
 * The verb of a path's or the tunnel's MTU line: info, except a gateway session's later changes
 * (its paths' failures and re-validations move them: 10,000 sessions logged 413,000 such lines in
 * one 17-minute run), which are verb 4 (stock's level for per-client MTU details).
 * logged: the value last logged, 0 = none yet.
 */
static int mtu_log_verb(const struct braid_mpath *m, uint32_t logged)
{
	return m->shared && logged ? 4 : BRAID_LOG_INFO;
}

void mpath_housekeep_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_mpath *m = w->data;
	uint64_t now = mnow(m);

	(void)loop, (void)revents;
	mpath_stats_tick(m, now);
	mpath_pool_trim(m);	/* idle: the packet buffers' pages back to the kernel */
	if (m->bind_retry)
		mpath_bind_scan(m, false);
	else if (!m->shared)
		mpath_bind_check_routes(m);
	for (int i = 0; i < MAX_EPS; i++) {
		struct braid_mp_path_stats ps;

		if (!m->ep[i].used || braid_mp_path_stats(m->mp, i, &ps))
			continue;
		if (ps.mtu != m->ep[i].mtu_logged && ps.mtu_probes == ps.mtu_acks + ps.mtu_probes_lost) {
			char d[200];
			int verb = mtu_log_verb(m, m->ep[i].mtu_logged);

			m->ep[i].mtu_logged = ps.mtu;
			braid_log(verb, "multipath: path %s mtu %u (%u searches, %llu probes, %llu lost, "
				  "%u black holes)", mpath_ep_str(m, i, d, sizeof(d)), ps.mtu,
				   ps.mtu_searches, (unsigned long long)ps.mtu_probes,
				   (unsigned long long)ps.mtu_probes_lost, ps.mtu_blackholes);
		}
		if (ps.state != BRAID_MP_PATH_FAILED && ps.state != BRAID_MP_PATH_PROBING) {
			m->ep[i].failed_since_us = 0;
			continue;
		}
		if (!m->ep[i].failed_since_us)
			m->ep[i].failed_since_us = now;
		if (m->ep[i].learned && ps.state == BRAID_MP_PATH_FAILED && replaced(m, i, ps.peer_slot))
			mpath_ep_del(m, i, now, "the peer's path of the same slot answers from another "
				     "address now");
		else if (m->ep[i].learned &&
			 now - m->ep[i].failed_since_us >= (uint64_t)m->o->mp_path_timeout * 1000000u)
			mpath_ep_del(m, i, now, "no answer for mp-path-timeout");
	}
	{
		uint32_t t = braid_mp_tunnel_mtu(m->mp);
		struct braid_mssfix mss;

		if (t && t != m->tunnel_mtu_logged) {
			int verb = mtu_log_verb(m, m->tunnel_mtu_logged);

			m->tunnel_mtu_logged = t;
			braid_mssfix_limit(&mss, m->mss, (int)t);
			if (mss.mss4)
				braid_log(verb, "multipath: tunnel mtu %u (smallest path mtu): inner TCP "
					  "MSS clamped to %u (IPv4) / %u (IPv6)", t, mss.mss4,
					  mss.mss6);
			else
				braid_log(verb, "multipath: tunnel mtu %u (smallest path mtu); mssfix "
					  "is off", t);
		}
	}
	mpath_pump(m);
}
