// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_rx.c - the receive side of the multipath data plane: recvmmsg on
 * every path socket in turn (UDP GRO messages split into their datagrams,
 * kernel arrival times), decryption, path learning from authenticated
 * packets only, and the hand-over to the engine (control messages, data in
 * packet-id order); the pump then delivers to the TUN (mpath_engine.c).
 */
#include "dataplane/mpath_rx.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "config/mpclass.h"
#include "util/log.h"
#include "dataplane/mpath_engine.h"
#include "dataplane/mpath_sock.h"
#include "dataplane/mpath_stats.h"

static int64_t now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

static int64_t clock_offset_ns(void)
{
	struct timespec rt, mo;

	clock_gettime(CLOCK_MONOTONIC, &mo);
	clock_gettime(CLOCK_REALTIME, &rt);
	return ((int64_t)rt.tv_sec - mo.tv_sec) * 1000000000 + (rt.tv_nsec - mo.tv_nsec);
}

/*
 * The arrival time of received message i in CLOCK_MONOTONIC microseconds:
 * the kernel's SO_TIMESTAMPNS (CLOCK_REALTIME) moved by off_ns, the
 * realtime - monotonic offset of this batch; now when there is none, or
 * when it is in the future or more than a second old (clock stepped).
 */
static uint64_t rx_time(const struct msghdr *h, int64_t off_ns, uint64_t now)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR((struct msghdr *)h, c)) {
		struct timespec ts;
		int64_t ns;
		uint64_t t;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS ||
		    c->cmsg_len < CMSG_LEN(sizeof(ts)))
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - off_ns;
		if (ns <= 0)
			return now;
		t = (uint64_t)ns / 1000u;
		return t <= now && now - t < 1000000u ? t : now;
	}
	return now;
}

void mpath_rx_one(struct braid_mpath *m, int sock, const uint8_t *pkt, size_t len,
		  const union braid_sockaddr *from, uint64_t now)
{
	struct braid_dc_rx_info info;
	struct rbuf *b;
	size_t plen;
	char a[80], d[200];
	int path, r;

	m->tst->link_rx_pkts++;
	m->tst->link_rx_bytes += len;
	b = rget(m);
	if (!b) {
		m->st.rx_pool_empty++;
		return;
	}
	r = braid_dc_decrypt(m->dc, pkt, len, now_sec(), b->d, m->rsize - sizeof(*b), &plen, &info);
	if (r) {
		rput(m, b);
		if (r == -EBADMSG) {
			m->tst->rx_auth_failures++;
			if (ev_now(m->loop) - m->last_err_log >= 1.0) {
				m->last_err_log = ev_now(m->loop);
				braid_warn("authentication failed: packet from %s dropped (wrong key or "
					   "corrupted; %llu in total)",
					   braid_sockaddr_str(from, a, sizeof(a)),
					   (unsigned long long)m->tst->rx_auth_failures);
			}
		} else if (r == -EALREADY || r == -ESTALE) {
			m->tst->rx_replays++;
			if (r == -EALREADY)	/* authentic: a redundant copy, or a re-send that arrived */
				m->st.rx_dup_copies++;
			braid_dbg("replayed packet from %s dropped (%s)",
				  braid_sockaddr_str(from, a, sizeof(a)),
				  r == -EALREADY ? "duplicate" : "too old");
		} else {
			m->tst->rx_malformed++;
		}
		return;
	}
	if (info.peer_restarted) {
		/* a static-key peer restarted: its packet-ids start again, so must our engine */
		braid_info("multipath: the peer restarted (new packet-id sequence from %s); new "
			   "engine, paths re-learned", braid_sockaddr_str(from, a, sizeof(a)));
		if (mpath_engine_renew(m)) {
			rput(m, b);
			return;
		}
	}
	/* authenticated and not a replay: only now may the tuple become a path */
	path = mpath_ep_find(m, sock, from);
	if (path < 0) {
		path = mpath_ep_add(m, sock, from, true, now);
		if (path == -ENOSPC) {
			int v = mpath_ep_victim(m);

			if (v >= 0) {
				mpath_ep_del(m, v, now, "evicted for a new path");
				path = mpath_ep_add(m, sock, from, true, now);
			}
		}
		if (path < 0) {
			m->st.learn_refused++;
			braid_dbg("multipath: packet from %s: no room for a new path (%s)",
				  braid_sockaddr_str(from, a, sizeof(a)), strerror(-path));
			rput(m, b);
			return;
		}
		m->st.paths_learned++;
		(void)d;
	}
	m->ep[path].rx_pkts++;
	m->ep[path].rx_bytes += len;
	if (m->shared_local)	/* answer from the address the peer sends this path's packets to */
		m->ep[path].local = *m->shared_local;
	mpath_stats_rx(m, path, now);
	m->h.rx_auth(m->h.user, from);
	if (braid_mp_msg_is_control(b->d, plen)) {
		braid_mp_rx_control(m->mp, now, path, mpath_engine_pid(m, info.key_id, info.packet_id), b->d,
				    plen);
		rput(m, b);
		return;
	}
	b->len = (uint32_t)plen;
	/* the class lets pure ACKs, DNS, EF and small packets skip the reorder hold */
	r = braid_mp_rx_data_meta(m->mp, now, path, mpath_engine_pid(m, info.key_id, info.packet_id), b, b->len,
				  braid_mpclass_classify(&m->o->mp_classes, b->d, plen));
	if (r)
		rput(m, b);
}

/*
 * One recvmmsg on socket s, at most vlen messages, every datagram to the
 * engine: the number of messages read, 0 if none (or an error).
 */
static int rx_batch(struct braid_mpath *m, struct msock *s, int vlen)
{
	const struct braid_rxmm rx = {
		.msg = m->rxmsg, .iov = m->rxiov, .buf = m->rxbuf, .bs = m->rxbs,
		.addr = m->rxaddr, .ctl = m->rxctl, .ctl_len = sizeof(m->rxctl[0]),
	};
	int sock = (int)(s - m->sock);
	uint64_t now;
	int64_t off;
	int n;

	n = braid_sock_recvmmsg(s->fd, &rx, (unsigned int)vlen);
	if (n <= 0)
		return 0;
	now = now_us();	/* not given to the engine: bounds the kernel times */
	off = clock_offset_ns();
	for (int i = 0; i < n; i++) {
		struct braid_sock_dgrams d;
		const uint8_t *p;
		size_t len;
		uint64_t t;

		if (braid_sock_dgrams_begin(&d, &rx, (unsigned int)i, s->gro)) {
			m->tst->link_rx_pkts++;
			m->tst->rx_malformed++;
			continue;
		}
		t = rx_clamp(m, rx_time(&m->rxmsg[i].msg_hdr, off, now));
		while (braid_sock_dgrams_next(&d, &p, &len))
			mpath_rx_one(m, sock, p, len, &m->rxaddr[i], t);
	}
	return n;
}

/*
 * A path socket is readable: read every socket in turn, one batch each per
 * round. Draining one socket first would hand the engine thousands of
 * packets of one path (a GRO message holds up to 64 KiB) while the other
 * paths' packets, interleaved by packet-id, wait in their sockets: the
 * reorder buffer fills to its bound and drops.
 */
void mpath_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct msock *s0 = w->data;
	struct braid_mpath *m = s0->m;
	int first = (int)(s0 - m->sock);

	(void)loop, (void)revents;
	for (int round = 0; round < RX_ROUNDS; round++) {
		bool full = false;

		for (int k = 0; k < m->n_sock; k++) {
			struct msock *s = &m->sock[(first + k) % m->n_sock];
			int vlen = s->gro ? RX_BATCH_GRO : RX_BATCH;

			if (!s->in_use || s->fd < 0)
				continue;

			full |= rx_batch(m, s, vlen) == vlen;
		}
		mpath_pump(m);
		if (!full)
			break;
	}
	mpath_pump(m);
}
