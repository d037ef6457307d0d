// SPDX-License-Identifier: GPL-2.0-only
/*
 * backend_kmod.c - the kernel data-plane backend (backend_kmod.h): a
 * session's data channel carried by the braid_dco module (kmod/,
 * docs/kmod.md). braidd keeps TLS, the keepalive and the multipath control
 * messages; the module seals, opens and forwards the data packets between
 * its device (dco_dev.h, in place of the TUN) and the paths.
 *
 *  - open: PEER_NEW with the peer id the server pushed, then one PATH_ADD per
 *    path socket: the role's own socket (shared_fd: the single path, read by
 *    the role, which hands the module's datagrams to input()) or one socket
 *    per `mp-path LOCAL` opened here and read here;
 *  - key_install: the first key into the primary slot; a renegotiated one into
 *    the secondary slot, then KEY_SWAP (the old key stays as the secondary
 *    for the lame-duck time, so nothing in flight is lost); key_remove:
 *    KEY_DEL of the secondary slot when it holds that key;
 *  - send (ping, OCC, ...): PACKET_SEND, sealed by the module with its own
 *    packet ids (userspace never seals with the module's key: no nonce reuse);
 *  - receive: the module hands up what is not an IP packet (dco_up.h); the
 *    peer's multipath control messages are answered on their path
 *    (dco_mpctl.h), the rest goes to the role's deliver (ping, OCC);
 *  - a one-second PEER_GET poll: the counters for stats()/paths() and the
 *    role's activity (the kernel's traffic keeps ping-restart quiet).
 */
#include "dataplane/backend_kmod.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dataplane/dco_live.h"
#include "dataplane/dco_mpctl.h"
#include "dataplane/dco_nl.h"
#include "dataplane/dco_sched.h"
#include "dataplane/dco_up.h"
#include "mp/mp_msg.h"
#include "util/log.h"

#define KM_RX_BUF (BRAID_DCO_NL_SEND_MAX + BRAID_DCO_UP_HDR + 64)
#define KM_POLL_S 1.0
#define KM_POLL_MP_S 0.05	/* multipath, idle: the peer's sender waits for REPORTs (its fail floor 300 ms) */
/* multipath while data arrives: the peer's sender expects a REPORT every srtt/4 (5-50 ms) and suspects
 * a path whose packets stay unacknowledged longer than srtt + 4 rttvar + that (mp_timer.c) */
#define KM_POLL_MP_BUSY_S 0.01

struct km_path {
	int fd;			/* the path socket (owned unless it is the role's) */
	bool own;
	ev_io r;		/* own sockets: the handed-up datagrams */
	union braid_sockaddr remote;
	char local[80];
	struct braid_dp *dp;	/* back pointer for the watcher */
	struct braid_dco_mpctl_path mp;	/* the peer's id of it, its probes, the last report */
	uint32_t pub_rtt_us;		/* what dco-scheduler's map last got for it */
	bool pub_up;
	bool pub_failing;		/* the last update failed (logged once until one works) */
};

struct km_dp {
	struct braid_dp dp;		/* first: the handle the role holds */
	struct braid_dp_role role;
	struct ev_loop *loop;
	struct braid_dco_nl *nl;
	int ifindex;
	uint32_t peer_id;
	bool peer;			/* PEER_NEW done */
	int n_paths;
	struct km_path p[BRAID_DCO_NL_PATHS];
	int prim_kid, sec_kid;		/* -1: the slot is empty */
	int64_t gen;			/* the primary key's generation (dco_mpctl.h), -1 before */
	unsigned int ctl_rr;		/* PACKET_SEND path rotation */
	ev_timer poll;
	struct braid_dco_reply last;	/* the last PEER_GET */
	bool have_last;
	struct braid_dco_cost cost;	/* the last STATS_GET's cost counters (module-wide) */
	bool cost_refused;		/* STATS_GET refused once (an older module): not asked again */
	uint64_t cost_at_us;		/* when STATS_GET was last asked (at most once a second) */
	struct braid_tunnel_stats st;	/* what userspace saw (up datagrams, sends) */
	struct braid_dco_mpctl_stats mc;
	uint64_t up_bad;		/* opcode-31 datagrams that did not parse */
	uint64_t nl_errors;		/* PACKET_SEND / PEER_GET refused */
	uint64_t reports;		/* REPORTs sent (multipath) */
	struct braid_dco_live live;	/* multipath: our probes of each path (dco_live.h) */
	bool live_on;
	uint64_t busy_mark;		/* the device's packets at the last probe round */
	uint64_t busy_at_us;		/* when they last moved */
	bool sched_on;			/* dco-scheduler's program attached to the device */
	uint8_t rx[KM_RX_BUF];
};

static struct km_dp *K(const struct braid_dp *dp)
{
	return (struct km_dp *)(uintptr_t)dp;	/* dp is the first member */
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int send_on(struct km_dp *k, int path, const uint8_t *p, size_t len)
{
	uint32_t pid = 0;
	int r;

	r = braid_dco_nl_send(k->nl, k->ifindex, k->peer_id, path, p, len, &pid);
	if (r) {
		k->st.link_tx_errors++;
		k->nl_errors++;
		braid_dbg("dco: PACKET_SEND on path %d refused: %s %s", path, strerror(-r),
			  braid_dco_nl_error(k->nl));
		return r;
	}
	k->st.link_tx_pkts++;
	k->st.link_tx_bytes += len;
	if (k->role.activity)
		k->role.activity(k->role.user, false);
	return 0;
}

/* the path for a control message (REPORT, ping, OCC): turn through the paths not found dead */
static int ctl_path(struct km_dp *k)
{
	for (int n = 0; n < k->n_paths; n++) {
		int i = (int)(k->ctl_rr++ % (unsigned int)k->n_paths);

		if (!k->live_on || !k->live.p[i].dead)
			return i;
	}
	return 0;
}

/* One datagram read from a path socket: handed up by the module, or not ours. */
static void km_rx(struct km_dp *k, int path, const uint8_t *pkt, size_t len)
{
	uint8_t ans[BRAID_MP_CTL_MAX];
	struct braid_dco_up up;
	struct braid_mp_msg m;
	int r;

	r = braid_dco_up_parse(pkt, len, &up);
	if (r) {
		/* the control channel on an own path socket (the server answers there) or garbage */
		if (r == -EBADMSG)
			k->up_bad++;
		if (k->p[path].own)
			k->st.rx_malformed++;
		return;
	}
	if (up.peer_id != k->peer_id) {
		k->st.rx_wrong_peer++;
		return;
	}
	if (k->p[path].own) {	/* the role counts what it reads from its own socket */
		k->st.link_rx_pkts++;
		k->st.link_rx_bytes += len;
	}
	r = braid_mp_msg_parse(up.payload, up.len, &m);
	if (r == -EBADMSG) {	/* the multipath magic, not parsable */
		k->mc.malformed++;
		return;
	}
	if (!r) {	/* a multipath control message: the answer to one of our probes, or answered or counted */
		uint64_t now = mono_us();

		if (k->live_on && braid_dco_live_echo_msg(&k->live, path, &m, now) == 1)
			return;
		r = braid_dco_mpctl_answer_msg(&m, now, ans, sizeof(ans), &k->mc, &k->p[path].mp);
		if (r > 0)
			send_on(k, path, ans, (size_t)r);
		return;
	}
	if (k->role.rx_auth)
		k->role.rx_auth(k->role.user, NULL, len);
	if (k->role.activity)
		k->role.activity(k->role.user, true);
	/* deliver may modify: the payload lives in our buffer or the role's (input's caller) */
	k->role.deliver(k->role.user, (uint8_t *)(uintptr_t)up.payload, up.len);
}

static void path_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct km_path *p = w->data;
	struct km_dp *k = K(p->dp);
	int path = (int)(p - k->p);

	(void)loop, (void)revents;
	for (int i = 0; i < 64; i++) {
		ssize_t n = recv(p->fd, k->rx, sizeof(k->rx), MSG_DONTWAIT);

		if (n < 0)
			break;
		km_rx(k, path, k->rx, (size_t)n);
	}
}

/* multipath: acknowledge the peer's data per path from the module's counters (dco_mpctl.h) */
static void send_report(struct km_dp *k)
{
	struct braid_dco_mpctl_rx rx[BRAID_DCO_NL_PATHS];
	struct braid_dco_mpctl_path pp[BRAID_DCO_NL_PATHS];
	uint8_t out[BRAID_MP_MSG_MAX];
	int r;

	for (int i = 0; i < k->n_paths; i++) {
		rx[i].pkts = k->last.path_rx_packets[i];
		rx[i].bytes = k->last.path_rx_bytes[i];
		rx[i].last_pktid = k->last.path_rx_last_pktid[i];
		rx[i].span_bytes = k->last.path_rx_span_bytes[i];
		rx[i].span_ns = k->last.path_rx_span_ns[i];
		pp[i] = k->p[i].mp;
	}
	r = braid_dco_mpctl_report(pp, k->n_paths, rx, k->gen > 0 ? (uint32_t)k->gen : 0, out,
				   sizeof(out));
	for (int i = 0; i < k->n_paths; i++)
		k->p[i].mp = pp[i];
	if (r > 0) {
		int a = ctl_path(k), b = ctl_path(k);

		/* and a copy on another path, as the userspace receiver does: when one path has just
		 * died the sender still hears about the others (the copy changes nothing there) */
		k->reports++;
		send_on(k, a, out, (size_t)r);
		if (b != a)
			send_on(k, b, out, (size_t)r);
	}
}

/*
 * dco-scheduler: path i's state into the program's map when it changed: up while its probes are
 * answered (a program is not overruled by PATH_SET, so this is how it learns of a dead path), the
 * probes' rtt, weight 1 (equal shares: braidd does not measure its own sending rate per path)
 */
static void publish(struct km_dp *k, int i)
{
	struct km_path *p = &k->p[i];
	uint32_t rtt = k->live_on ? (uint32_t)k->live.p[i].srtt_us : 0;
	bool up = !k->live_on || !k->live.p[i].dead;
	int e;

	if (!k->sched_on || (p->pub_up == up && p->pub_rtt_us == rtt))
		return;
	e = braid_dco_sched_publish((unsigned int)i, 1, rtt, up);
	if (e) {	/* retried at the next change or round; said once until an update works */
		k->nl_errors++;
		if (!p->pub_failing)
			braid_warn("dco-scheduler: path %d's state not published: %s", i, strerror(-e));
		p->pub_failing = true;
		return;
	}
	if (p->pub_failing)
		braid_info("dco-scheduler: path %d's state published again", i);
	p->pub_failing = false;
	p->pub_up = up;
	p->pub_rtt_us = rtt;
}

/*
 * multipath: probe each path (dco_live.h) and mark a path down in the module when its probes go
 * unanswered for the failure timeout, up again when it answers; busy: the device moved packets in the
 * last second
 */
static void live_round(struct km_dp *k, const struct braid_dco_reply *r)
{
	uint64_t now = mono_us(), pk = r->vpn_rx_packets + r->vpn_tx_packets;
	uint8_t out[BRAID_MP_PROBE_LEN];
	bool busy;

	if (pk != k->busy_mark)
		k->busy_at_us = now;
	k->busy_mark = pk;
	busy = k->busy_at_us && now - k->busy_at_us < 1000000u;
	for (int i = 0; i < k->n_paths; i++) {
		struct braid_dco_live_path *lp = &k->live.p[i];
		enum braid_dco_live_event ev;
		int n = braid_dco_live_probe(&k->live, i, now, busy, out, sizeof(out)), e;

		if (n > 0)
			send_on(k, i, out, (size_t)n);
		ev = braid_dco_live_check(&k->live, i, now);
		publish(k, i);
		if (ev == BRAID_DCO_LIVE_NONE)
			continue;
		e = braid_dco_nl_path_set(k->nl, k->ifindex, k->peer_id, i, ev == BRAID_DCO_LIVE_DEAD, -1);
		if (e) {
			k->nl_errors++;
			braid_warn("dco: path %d (%s): PATH_SET refused: %s %s", i, k->p[i].local,
				   strerror(-e), braid_dco_nl_error(k->nl));
		}
		if (ev == BRAID_DCO_LIVE_DEAD)
			braid_warn("dco: path %d (%s): %u probes unanswered for %llu ms (timeout %llu ms): "
				   "marked down, its packets go on the other paths", i, k->p[i].local,
				   lp->unanswered,
				   (unsigned long long)(now - lp->first_unanswered_us) / 1000,
				   (unsigned long long)braid_dco_live_timeout(lp) / 1000);
		else
			braid_info("dco: path %d (%s): answers probes again (rtt %.1f ms): marked up after "
				   "%.1f s", i, k->p[i].local, (double)lp->srtt_us / 1000.0,
				   (double)(now - lp->dead_at_us) / 1e6);
	}
}

/*
 * STATS_GET: the module's cost counters for the status file, at most once a second (the poll runs every
 * 10-50 ms in multipath); a refusal is logged once and not retried.
 */
static void poll_cost(struct km_dp *k)
{
	struct braid_dco_reply r;
	uint64_t now = mono_us();
	int e;

	if (k->cost_refused || (k->cost_at_us && now - k->cost_at_us < 1000000u))
		return;
	k->cost_at_us = now;
	memset(&r, 0, sizeof(r));
	e = braid_dco_nl_stats_get(k->nl, &r);
	if (e) {
		k->cost_refused = true;
		braid_info("dco: the module's cost counters are not available (STATS_GET: %s%s%s)",
			   strerror(-e), *braid_dco_nl_error(k->nl) ? ": " : "",
			   braid_dco_nl_error(k->nl));
		return;
	}
	k->cost = r.cost;
}

/*
 * the module's transmit state of each path (PEER_GET tx-failing): a path whose sends fail (no route, its
 * source address gone) is logged once when it starts failing and once when it sends again; while it
 * fails, the module sends its packets on the other paths
 */
static void log_tx_state(const struct km_dp *k, const struct braid_dco_reply *r)
{
	uint32_t was = k->have_last ? k->last.path_tx_failing_mask : 0, now = r->path_tx_failing_mask;

	for (int i = 0; i < k->n_paths; i++) {
		if (!((was ^ now) & (1u << i)))
			continue;
		if (now & (1u << i))
			braid_warn("dco: path %d (%s): the kernel's sends on it fail (no route?)%s", i,
				   k->p[i].local, k->n_paths > 1 ? "; its packets go on the other paths" : "");
		else
			braid_info("dco: path %d (%s): the kernel sends on it again", i, k->p[i].local);
	}
}

/* PEER_GET: the counters, and activity for the role when the kernel moved packets. */
static void poll_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct km_dp *k = w->data;
	struct braid_dco_reply r;
	bool rx, tx;

	(void)loop, (void)revents;
	if (braid_dco_nl_peer_get(k->nl, k->ifindex, k->peer_id, &r)) {
		k->nl_errors++;
		return;
	}
	rx = !k->have_last || r.vpn_rx_packets != k->last.vpn_rx_packets;
	tx = !k->have_last || r.vpn_tx_packets != k->last.vpn_tx_packets;
	rx = rx && r.vpn_rx_packets;
	tx = tx && r.vpn_tx_packets;
	log_tx_state(k, &r);
	k->last = r;
	k->have_last = true;
	poll_cost(k);
	if (k->p[0].own) {
		send_report(k);
		/* report at the busy rate while data arrives, else at the idle one */
		k->poll.repeat = rx ? KM_POLL_MP_BUSY_S : KM_POLL_MP_S;
		ev_timer_again(loop, w);
	}
	if (k->live_on)
		live_round(k, &r);
	if (rx && k->role.rx_auth)
		k->role.rx_auth(k->role.user, NULL, 0);
	if (rx && k->role.activity)
		k->role.activity(k->role.user, true);
	if (tx && k->role.activity)
		k->role.activity(k->role.user, false);
}

static int add_path(struct km_dp *k, int fd, bool own, const union braid_sockaddr *remote,
		    const char *local)
{
	struct km_path *p = &k->p[k->n_paths];
	char a[80];
	int r;

	union braid_sockaddr la;
	socklen_t ll = sizeof(la);
	bool bound;

	if (k->n_paths >= BRAID_DCO_NL_PATHS)
		return -ENOSPC;
	/* a socket bound to an address: the module sends from it (else the route to the remote picks) */
	memset(&la, 0, sizeof(la));
	bound = own && !getsockname(fd, &la.sa, &ll) &&
		((la.sa.sa_family == AF_INET && la.in.sin_addr.s_addr != htonl(INADDR_ANY)) ||
		 (la.sa.sa_family == AF_INET6 && !IN6_IS_ADDR_UNSPECIFIED(&la.in6.sin6_addr)));
	r = braid_dco_nl_path_add(k->nl, k->ifindex, k->peer_id, k->n_paths, fd, &remote->sa,
				  bound ? &la.sa : NULL);
	if (r) {
		braid_err("dco: path %d (%s -> %s) refused by the module: %s %s", k->n_paths, local,
			  braid_sockaddr_str(remote, a, sizeof(a)), strerror(-r),
			  braid_dco_nl_error(k->nl));
		return r;
	}
	p->fd = fd;
	p->own = own;
	p->remote = *remote;
	p->dp = &k->dp;
	snprintf(p->local, sizeof(p->local), "%s", local);
	if (own) {
		ev_io_init(&p->r, path_read_cb, fd, EV_READ);
		p->r.data = p;
		ev_io_start(k->loop, &p->r);
	}
	braid_info("dco: path %d %s -> %s in the kernel", k->n_paths, local,
		   braid_sockaddr_str(remote, a, sizeof(a)));
	k->n_paths++;
	return 0;
}

/* The remote of an mp-path line: its own, else the session's one remote (client_mp's options). */
static int mp_remote(const struct braid_options *o, const struct braid_opt_mp_path *mp, int fam,
		     union braid_sockaddr *out)
{
	const char *host = mp->remote ? mp->remote : o->remotes[0].host;
	uint16_t port = mp->port ? mp->port : o->remotes[0].port ? o->remotes[0].port : o->rport;
	char err[256];
	int r;

	r = braid_sock_resolve(host, port, fam, false, out, err, sizeof(err));
	if (r)
		braid_err("dco: mp-path %s: %s", mp->local, err);
	return r;
}

/* a numeric local address (port 0), or false (an interface name) */
static bool numeric(const char *s, union braid_sockaddr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, &a->in.sin_addr) == 1) {
		a->in.sin_family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, s, &a->in6.sin6_addr) == 1) {
		a->in6.sin6_family = AF_INET6;
		return true;
	}
	return false;
}

/* One socket per `mp-path LOCAL` (an address, or an interface bound with SO_BINDTODEVICE). */
static int open_mp_paths(struct km_dp *k, const struct braid_options *o)
{
	for (unsigned int i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *mp = &o->mp_paths[i];
		union braid_sockaddr local, remote;
		bool addr = numeric(mp->local, &local);
		int fam, fd = -1, r;

		if (!o->n_remotes && !mp->remote)
			return -EDESTADDRREQ;
		fam = addr ? local.sa.sa_family : o->family ? o->family : AF_INET;
		r = mp_remote(o, mp, fam, &remote);
		if (r)
			return r;
		if (!addr && !if_nametoindex(mp->local)) {
			braid_err("dco: mp-path %s: neither an address nor an interface", mp->local);
			return -ENODEV;
		}
		r = braid_sock_open_udp(fam, addr ? &local : NULL, true, &fd);
		if (!r && !addr &&
		    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, mp->local, (socklen_t)strlen(mp->local)))
			r = -errno;
		if (r) {
			braid_err("dco: mp-path %s: cannot open its socket: %s", mp->local, strerror(-r));
			if (fd >= 0)
				close(fd);
			return r;
		}
		r = add_path(k, fd, true, &remote, mp->local);
		if (r) {
			close(fd);
			return r;
		}
	}
	return 0;
}

static void km_close(struct braid_dp *dp)
{
	struct km_dp *k;

	if (!dp)
		return;
	k = K(dp);
	ev_timer_stop(k->loop, &k->poll);
	if (k->peer) {
		int r = braid_dco_nl_peer_del(k->nl, k->ifindex, k->peer_id);

		if (r && r != -ENOENT && r != -ENODEV)
			braid_warn("dco: cannot remove peer %u: %s", k->peer_id, strerror(-r));
	}
	for (int i = 0; i < k->n_paths; i++) {
		if (!k->p[i].own)
			continue;
		ev_io_stop(k->loop, &k->p[i].r);
		close(k->p[i].fd);
	}
	braid_dco_nl_close(k->nl);
	free(k);
}

/* dco-scheduler: its program on the device, every path published up (a refusal leaves the round robin) */
static void attach_sched(struct km_dp *k)
{
	int fd = braid_dco_sched_prog_fd(), r;

	if (fd < 0)
		return;
	r = braid_dco_nl_prog_attach(k->nl, k->ifindex, fd);
	if (r) {
		braid_err("dco-scheduler: the module refused the program (PROG_ATTACH: %s%s%s): the "
			  "module's round robin schedules", strerror(-r),
			  *braid_dco_nl_error(k->nl) ? ": " : "", braid_dco_nl_error(k->nl));
		return;
	}
	k->sched_on = true;
	for (int i = 0; i < k->n_paths; i++) {
		k->p[i].pub_up = false;
		k->p[i].pub_rtt_us = UINT32_MAX;	/* published at once */
		publish(k, i);
	}
	braid_info("dco-scheduler: %s attached to the device, %d path%s published", braid_dco_sched_desc(),
		   k->n_paths, k->n_paths == 1 ? "" : "s");
}

static int km_open(struct braid_dp **out, const struct braid_dp_config *cfg,
		   const struct braid_dp_role *role)
{
	struct km_dp *k;
	int r;

	if (!role->deliver || cfg->dco_ifindex <= 0)
		return -EINVAL;
	if (cfg->dco_peer_id > 0xFFFFFFu) {
		braid_err("dco: the server pushed no peer-id (P_DATA_V1): the kernel data plane "
			  "carries P_DATA_V2 only");
		return -EPROTONOSUPPORT;
	}
	if (cfg->shared_fd >= 0 ? !cfg->dco_remote : !cfg->o || !cfg->o->n_mp_paths)
		return -EINVAL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->dp.ops = &braid_dp_kmod_ops;
	k->role = *role;
	k->loop = cfg->loop;
	k->ifindex = cfg->dco_ifindex;
	k->peer_id = cfg->dco_peer_id;
	k->prim_kid = k->sec_kid = -1;
	k->gen = -1;
	ev_timer_init(&k->poll, poll_cb, KM_POLL_S, KM_POLL_S);
	k->poll.data = k;
	r = braid_dco_nl_open(&k->nl);
	if (!r) {
		r = braid_dco_nl_peer_new(k->nl, k->ifindex, k->peer_id, NULL);
		if (r)
			braid_err("dco: peer %u refused by the module: %s %s", k->peer_id, strerror(-r),
				  braid_dco_nl_error(k->nl));
		k->peer = !r;
	}
	if (!r)
		r = cfg->shared_fd >= 0 ? add_path(k, cfg->shared_fd, false, cfg->dco_remote, "session") :
					  open_mp_paths(k, cfg->o);
	if (r) {
		km_close(&k->dp);
		return r;
	}
	if (cfg->shared_fd < 0)
		ev_timer_set(&k->poll, KM_POLL_MP_S, KM_POLL_MP_S);
	/* two paths or more: braidd finds dead ones by its probes (one path: nothing to fail over to) */
	k->live_on = cfg->shared_fd < 0 && k->n_paths > 1 && !braid_dco_live_init(&k->live, k->n_paths);
	attach_sched(k);
	ev_timer_start(k->loop, &k->poll);
	*out = &k->dp;
	return 0;
}

static int km_key_install(struct braid_dp *dp, int key_id, const char *cipher,
			  const struct braid_key2 *k2, int direction)
{
	struct km_dp *k = K(dp);
	bool first = k->prim_kid < 0;
	int r;

	if (key_id == k->prim_kid)
		return 0;
	r = braid_dco_nl_key_install(k->nl, k->ifindex, k->peer_id, first ? 0 : 1, key_id, cipher, k2,
				     direction);
	if (!r && !first)
		r = braid_dco_nl_key_swap(k->nl, k->ifindex, k->peer_id);
	if (r) {
		braid_err("dco: key_id %d (%s) refused by the module: %s %s", key_id, cipher,
			  strerror(-r), braid_dco_nl_error(k->nl));
		return r;
	}
	k->sec_kid = first ? -1 : k->prim_kid;
	k->prim_kid = key_id;
	k->gen = braid_dco_mpctl_gen(k->gen, (unsigned int)key_id);
	braid_info("dco: key_id %d installed in the kernel (%s)%s", key_id, cipher,
		   first ? "" : ", the previous one kept as the secondary");
	return 0;
}

static int km_key_remove(struct braid_dp *dp, int key_id)
{
	struct km_dp *k = K(dp);
	int r;

	if (key_id != k->sec_kid)
		return 0;
	r = braid_dco_nl_key_del(k->nl, k->ifindex, k->peer_id, 1);
	if (r && r != -ENOKEY)
		return r;
	k->sec_kid = -1;
	return 0;
}

static int km_send(struct braid_dp *dp, const uint8_t *p, size_t len)
{
	struct km_dp *k = K(dp);

	if (!k->n_paths)
		return -ENOTCONN;
	/* a ping / OCC message: any path carries it; turn so that each keeps showing life */
	return send_on(k, ctl_path(k), p, len);
}

static void km_input(struct braid_dp *dp, const uint8_t *pkt, size_t len,
		     const union braid_sockaddr *from)
{
	struct km_dp *k = K(dp);

	(void)from;
	if (len > sizeof(k->rx)) {
		k->st.rx_malformed++;
		return;
	}
	memcpy(k->rx, pkt, len);	/* deliver gets a buffer it may change */
	km_rx(k, 0, k->rx, len);
}

static void km_stats(const struct braid_dp *dp, struct braid_tunnel_stats *st)
{
	const struct km_dp *k = K(dp);
	const struct braid_dco_reply *r = &k->last;

	*st = k->st;
	if (!k->have_last)
		return;
	/* the device's packets are the kernel's "TUN"; the paths' datagrams add to the link */
	st->tun_read_pkts += r->vpn_tx_packets;
	st->tun_read_bytes += r->vpn_tx_bytes;
	st->tun_write_pkts += r->vpn_rx_packets;
	st->tun_write_bytes += r->vpn_rx_bytes;
	st->link_tx_pkts += r->vpn_tx_packets;
	st->link_rx_pkts += r->vpn_rx_packets;
	for (int i = 0; i < BRAID_DCO_NL_PATHS; i++) {
		if (!(r->path_mask & (1u << i)))
			continue;
		st->link_tx_bytes += r->path_tx_bytes[i];
		st->link_rx_bytes += r->path_rx_bytes[i];
	}
}

static int km_paths(const struct braid_dp *dp, struct braid_mpath_path_info *out, int max)
{
	const struct km_dp *k = K(dp);
	int n = 0;

	for (int i = 0; i < k->n_paths && n < max; i++, n++) {
		struct braid_mpath_path_info *p = &out[n];

		memset(p, 0, sizeof(*p));
		p->index = i;
		snprintf(p->local, sizeof(p->local), "%s", k->p[i].local);
		braid_sockaddr_str(&k->p[i].remote, p->remote, sizeof(p->remote));
		p->mp.state = BRAID_MP_PATH_ACTIVE;
		p->last_rx_ms = -1;
		p->iv_loss_pm = -1;
		if (k->have_last && (k->last.path_mask & (1u << i))) {
			/* as the module's scheduler sees it: down or failing to send, a backup */
			if ((k->last.path_down_mask | k->last.path_tx_failing_mask) & (1u << i) ||
			    (k->live_on && k->live.p[i].dead))
				p->mp.state = BRAID_MP_PATH_FAILED;
			else if (k->last.path_backup_mask & (1u << i))
				p->mp.state = BRAID_MP_PATH_STANDBY;
			p->wire_tx_pkts = p->mp.tx_pkts = k->last.path_tx_packets[i];
			p->wire_tx_bytes = p->mp.tx_bytes = k->last.path_tx_bytes[i];
			p->wire_rx_pkts = p->mp.rx_pkts = k->last.path_rx_packets[i];
			p->wire_rx_bytes = p->mp.rx_bytes = k->last.path_rx_bytes[i];
		}
		if (k->live_on && k->live.p[i].srtt_us) {	/* our probes' round trips */
			p->mp.srtt_us = k->live.p[i].srtt_us;
			p->mp.rttvar_us = k->live.p[i].rttvar_us;
			p->rtt_fresh = !k->live.p[i].dead;
		}
	}
	return k->n_paths;
}

static bool km_has_peer(const struct braid_dp *dp)
{
	return K(dp)->n_paths > 0;
}

static int km_outer_hdr(const struct braid_dp *dp)
{
	const struct km_dp *k = K(dp);

	for (int i = 0; i < k->n_paths; i++)
		if (k->p[i].remote.sa.sa_family == AF_INET6)
			return 40;
	return 20;
}

static const char *km_sched_name(const struct braid_dp *dp)
{
	return K(dp)->sched_on ? "kernel eBPF (dco-scheduler)" : "kernel round robin";
}

bool braid_dp_is_kmod(const struct braid_dp *dp)
{
	return dp && dp->ops == &braid_dp_kmod_ops;
}

int braid_dp_kmod_refresh(struct braid_dp *dp)
{
	struct km_dp *k = K(dp);
	int r = braid_dco_nl_peer_get(k->nl, k->ifindex, k->peer_id, &k->last);

	k->have_last = !r;
	poll_cost(k);
	return r;
}

void braid_dp_kmod_ctl_stats(const struct braid_dp *dp, struct braid_dp_kmod_ctl *out)
{
	const struct km_dp *k = K(dp);

	memset(out, 0, sizeof(*out));
	out->challenges = k->mc.challenges;
	out->probes = k->mc.probes;
	out->mtu_probes = k->mc.mtu_probes;
	out->mp_other = k->mc.other + k->mc.malformed;
	out->up_bad = k->up_bad;
	out->nl_errors = k->nl_errors;
	out->primary_key_id = k->have_last ? k->last.primary_key_id : -1;
	out->secondary_key_id = k->have_last ? k->last.secondary_key_id : -1;
	out->ctl_tx = k->have_last ? k->last.ctl_tx_packets : 0;
	out->ctl_rx = k->have_last ? k->last.ctl_rx_packets : 0;
	out->cost = k->cost;
}

const struct braid_dp_ops braid_dp_kmod_ops = {
	.name = "kmod",
	.open = km_open,
	.close = km_close,
	.has_peer = km_has_peer,
	.outer_hdr = km_outer_hdr,
	.key_install = km_key_install,
	.key_remove = km_key_remove,
	.send = km_send,
	.input = km_input,
	.stats = km_stats,
	.paths = km_paths,
	.sched_name = km_sched_name,
};
