// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath.c - the multipath data plane on libev (see mpath.h).
 */
#include "dataplane/mpath.h"
#include "config/mpclass.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "dc/payload.h"
#include "os/linkmon.h"
#include "util/log.h"
#include "os/tun.h"

#define MAX_SOCKS BRAID_OPT_MAX_MP_PATHS
#define MAX_EPS BRAID_MP_MAX_PATHS
#define RX_BATCH 32
#define RX_ROUNDS 8
#define RX_REORDER_MAX 4096	/* packets the engine may hold for reordering */
#define RX_REORDER_WINDOW 8192
#define RX_BATCH_GRO 8		/* messages per read with GRO (each up to 64 KiB) */
#define TUN_BATCH 64
#define SHARED_QUEUE 2048	/* engine tx pool of a shared-socket session (gateway client) */
#define SHARED_REORDER 2048	/* and its reorder bound */
#define HOUSEKEEP_S 1.0
#define RX_EXTRA 256		/* rx buffers beyond the reorder bound */
#define TX_EXTRA 256		/* tx buffers beyond the engine's pool */
#define RX_BUF_GRO 65536	/* an rx buffer with UDP GRO: up to 64 KiB of coalesced datagrams */
#define CTL_WIRE_MAX (BRAID_MP_CTL_MAX + 64)	/* MTU probes are up to the link MTU */

/* A TX packet: plaintext at d + ov, sealed in place into d (kept for re-sends). */
struct tbuf {
	struct tbuf *next;
	uint32_t len;		/* plaintext length */
	uint32_t wlen;		/* sealed length, 0 until sealed */
	uint8_t key_id;
	uint8_t d[];
};

/* An RX payload held by the engine's reorder buffer. */
struct rbuf {
	struct rbuf *next;
	uint32_t len;
	uint8_t d[];
};

struct msock {
	struct braid_mpath *m;
	int fd;
	union braid_sockaddr local;	/* as bound (the kernel's port with nobind) */
	const char *cfg_local;		/* the mp-path text, NULL = wildcard */
	bool wildcard;
	bool backup;
	uint64_t cap_bps;
	int up;			/* last linkmon answer (1 up, 0 down, -1 unknown) */
	bool gso;		/* UDP GSO accepted (cleared if a send is refused) */
	bool gro;		/* UDP GRO on: a read may hold several datagrams */
	bool shared;		/* the caller's socket (braid_mpath_new_shared): not read, not closed */
	ev_io r;
};

struct ep {
	bool used;
	int sock;
	union braid_sockaddr peer;
	bool learned;
	bool configured;
	uint64_t failed_since_us;
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes, tx_errors;
	uint32_t mtu_logged;	/* the engine's path MTU last logged */
};

/* A configured (socket, remote) pair, re-added at each restart. */
struct cfgpath {
	int sock;
	union braid_sockaddr peer;
};

struct braid_mpath {
	struct ev_loop *loop;
	const struct braid_options *o;
	struct braid_dc *dc;
	const struct braid_mssfix *mss;
	struct braid_tunnel_stats *tst;
	struct braid_mpath_hooks h;

	struct braid_mp_config cfg;
	struct braid_mp *mp;
	enum braid_mp_sched sched;
	char sched_name[BRAID_OPT_MP_SCHED_LEN];	/* in use: config, then `set scheduler` */

	struct msock sock[MAX_SOCKS];
	int n_sock;
	struct ep ep[MAX_EPS];
	struct cfgpath cfgp[MAX_EPS];
	int n_cfgp;
	uint64_t next_key;
	char name[64];			/* log prefix ("" or "client/addr: ") */
	bool shared;			/* braid_mpath_new_shared: the caller's socket */

	/* key generations (engine packet-id = generation << 32 | dc packet-id) */
	uint32_t gen_cur;		/* newest generation seen on tx or rx */

	int nl_fd;
	ev_io nl_r;
	ev_timer engine_t, housekeep_t;

	/* pools */
	size_t tsize, rsize, ov;
	uint8_t *tmem, *rmem;
	uint32_t tcount, rcount;
	struct tbuf *tfree;
	struct rbuf *rfree;
	bool have_spare;	/* a reserved packet-id the engine refused, used next */
	uint8_t spare_kid;
	uint32_t spare_pid;

	/* RX batch */
	uint8_t *rxbuf;
	size_t rxbs;		/* bytes per rx buffer */
	struct mmsghdr rxmsg[RX_BATCH];
	struct iovec rxiov[RX_BATCH];
	union braid_sockaddr rxaddr[RX_BATCH];
	union {
		struct cmsghdr align;
		uint8_t b[CMSG_SPACE(sizeof(struct timespec)) + BRAID_SOCK_GRO_CMSG];
	} rxctl[RX_BATCH];

	/* TX batch: datagrams of one pump, sent together (sendmmsg, UDP GSO) */
	struct braid_txbatch txb;
	int txb_path[BRAID_TXB_MAX];
	uint8_t *txctl;		/* sealed control packets of the batch, CTL_WIRE_MAX each */
	unsigned int txctl_n;

	/* TUN with offloads (braid_mpath_attach_tun): super-packet reads, coalesced writes */
	int tun_fd;
	bool tun_vnet;
	uint8_t *tunrd;			/* one read: vnet header + up to 64 KiB */
	struct braid_tun_gro *gro;	/* IP payloads delivered in one pump */

	bool sent_any;
	uint32_t tunnel_mtu_logged;
	uint64_t last_now;	/* latest time given to the engine: it never goes back */
	struct braid_mpath_stats st;
	ev_tstamp last_err_log;
};

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
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

static uint64_t mnow(struct braid_mpath *m)
{
	uint64_t t = now_us();

	if (t > m->last_now)
		m->last_now = t;
	return m->last_now;
}

static int64_t clock_offset_ns(void)
{
	struct timespec rt, mo;

	clock_gettime(CLOCK_MONOTONIC, &mo);
	clock_gettime(CLOCK_REALTIME, &rt);
	return ((int64_t)rt.tv_sec - mo.tv_sec) * 1000000000 + (rt.tv_nsec - mo.tv_nsec);
}

/* An arrival time for the engine: not before the last time it was given. */
static uint64_t rx_clamp(struct braid_mpath *m, uint64_t t)
{
	if (t < m->last_now)
		return m->last_now;
	m->last_now = t;
	return t;
}

static int64_t now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

/* ---- pools ---- */

static struct tbuf *tget(struct braid_mpath *m)
{
	struct tbuf *b = m->tfree;

	if (b)
		m->tfree = b->next;
	return b;
}

static void tput(struct braid_mpath *m, struct tbuf *b)
{
	b->next = m->tfree;
	m->tfree = b;
}

static struct rbuf *rget(struct braid_mpath *m)
{
	struct rbuf *b = m->rfree;

	if (b)
		m->rfree = b->next;
	return b;
}

static void rput(struct braid_mpath *m, struct rbuf *b)
{
	b->next = m->rfree;
	m->rfree = b;
}

static int pools_init(struct braid_mpath *m)
{
	size_t buf = (size_t)m->o->tun_mtu + 256;

	m->tsize = (sizeof(struct tbuf) + buf + 15) & ~(size_t)15;
	m->rsize = (sizeof(struct rbuf) + buf + 15) & ~(size_t)15;
	m->tcount = m->cfg.queue_pkts + TX_EXTRA;
	m->rcount = m->cfg.reorder_max_pkts + RX_EXTRA;
	m->tmem = calloc(m->tcount, m->tsize);
	m->rmem = calloc(m->rcount, m->rsize);
	m->rxbs = RX_BUF_GRO > buf ? RX_BUF_GRO : buf;
	/* a shared socket is read by its owner: no receive batch here */
	m->rxbuf = m->shared ? NULL : malloc((size_t)RX_BATCH * m->rxbs);
	m->txctl = malloc((size_t)BRAID_TXB_MAX * CTL_WIRE_MAX);
	if (!m->tmem || !m->rmem || (!m->shared && !m->rxbuf) || !m->txctl)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->tcount; i++)
		tput(m, (struct tbuf *)(m->tmem + (size_t)i * m->tsize));
	for (uint32_t i = 0; i < m->rcount; i++)
		rput(m, (struct rbuf *)(m->rmem + (size_t)i * m->rsize));
	return 0;
}

/* ---- engine callbacks ---- */

static void tx_flush(struct braid_mpath *m);

static void cb_tx_release(void *user, void *ref, enum braid_mp_release why)
{
	struct braid_mpath *m = user;

	(void)why;
	if (m->txb.n)	/* the batch may point into this buffer: out before reuse */
		tx_flush(m);
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

/* ---- key generations ---- */

/* The key_id of generation g: OpenVPN's sequence 0, 1, ..., 7, 1, ..., 7, ... */
static unsigned gen_kid(uint64_t g)
{
	return g ? (unsigned)((g - 1) % 7 + 1) : 0;
}

/*
 * The generation of a key_id, relative to the newest one seen: up to 3
 * renegotiations ahead (then it becomes the newest) or behind (a lame duck).
 * A static key (key_id 0 always) stays generation 0.
 */
static uint64_t key_gen(struct braid_mpath *m, unsigned kid)
{
	uint64_t g = m->gen_cur;

	if (gen_kid(g) == kid)
		return g;
	for (uint64_t d = 1; d <= 3; d++) {
		if (gen_kid(g + d) == kid) {
			m->gen_cur = (uint32_t)(g + d);
			return g + d;
		}
		if (g >= d && gen_kid(g - d) == kid)
			return g - d;
	}
	return g;
}

static uint64_t engine_pid(struct braid_mpath *m, unsigned kid, uint32_t pid)
{
	return key_gen(m, kid) << 32 | pid;
}

/* ---- paths ---- */

static const char *ep_str(const struct braid_mpath *m, int i, char *buf, size_t len)
{
	char a[80], b[80];

	snprintf(buf, len, "%s%d (%s -> %s)", m->name, i,
		 braid_sockaddr_str(&m->sock[m->ep[i].sock].local, a, sizeof(a)),
		 braid_sockaddr_str(&m->ep[i].peer, b, sizeof(b)));
	return buf;
}

static int ep_add(struct braid_mpath *m, int sock, const union braid_sockaddr *peer, bool learned,
		  uint64_t now)
{
	const struct msock *s = &m->sock[sock];
	char d[200];
	int i;

	i = braid_mp_path_add(m->mp, now, ++m->next_key,
			      (s->backup ? BRAID_MP_PATH_F_BACKUP : 0) |
			      (learned ? BRAID_MP_PATH_F_LEARNED : 0), s->cap_bps);
	if (i < 0)
		return i;
	memset(&m->ep[i], 0, sizeof(m->ep[i]));
	m->ep[i].used = true;
	m->ep[i].sock = sock;
	m->ep[i].peer = *peer;
	m->ep[i].learned = learned;
	m->ep[i].configured = !learned;
	if (s->up == 0)
		braid_mp_path_link_event(m->mp, now, i, 0);
	braid_info("multipath: path %s %s%s", ep_str(m, i, d, sizeof(d)),
		   learned ? "learned from an authenticated packet, validating" : "added, validating",
		   s->backup ? " (backup)" : "");
	return i;
}

static void ep_del(struct braid_mpath *m, int i, uint64_t now, const char *why)
{
	char d[200];

	braid_info("multipath: path %s removed: %s", ep_str(m, i, d, sizeof(d)), why);
	braid_mp_path_del(m->mp, now, i);
	m->ep[i].used = false;
	m->st.paths_removed++;
}

static int ep_find(const struct braid_mpath *m, int sock, const union braid_sockaddr *from)
{
	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used && m->ep[i].sock == sock && braid_sockaddr_equal(&m->ep[i].peer, from))
			return i;
	return -ENOENT;
}

/* A learned path that has been failed longest, to make room; -1 if none. */
static int ep_victim(const struct braid_mpath *m)
{
	uint64_t best = UINT64_MAX;
	int v = -1;

	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used && m->ep[i].learned && m->ep[i].failed_since_us &&
		    m->ep[i].failed_since_us < best) {
			best = m->ep[i].failed_since_us;
			v = i;
		}
	return v;
}

static int engine_create(struct braid_mpath *m)
{
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	unsigned int n = 0;
	uint64_t now = mnow(m);
	int r;

	r = braid_mp_new(&m->mp, &m->cfg);
	if (r) {
		braid_err("multipath: cannot create the engine: %s", strerror(-r));
		return r;
	}
	if (!braid_mp_sched_parse(m->sched_name, &m->sched, ratio, &n)) {
		r = braid_mp_set_sched(m->mp, m->sched, ratio, n);
		if (r)
			braid_warn("multipath: scheduler '%s' refused (%s); using edf", m->sched_name,
				   strerror(-r));
	}
	memset(m->ep, 0, sizeof(m->ep));
	for (int k = 0; k < m->n_cfgp; k++) {
		r = ep_add(m, m->cfgp[k].sock, &m->cfgp[k].peer, false, now);
		if (r < 0) {
			char a[80];

			braid_err("multipath: cannot add the path to %s: %s",
				  braid_sockaddr_str(&m->cfgp[k].peer, a, sizeof(a)), strerror(-r));
			return r;
		}
	}
	return 0;
}

/* ---- transmit ---- */

/*
 * Path MTU discovery on a path socket: probe = DF set, and the kernel's
 * cached path MTU (learned from ICMP) does not refuse our MTU probes; the
 * engine finds each path's MTU itself. Off (no DF, fragments allowed) only
 * around a datagram that fits no path (tx.oversize).
 */
static int set_pmtudisc(int fd, int family, bool probe)
{
	int v4 = probe ? IP_PMTUDISC_PROBE : IP_PMTUDISC_DONT;
	int v6 = probe ? IPV6_PMTUDISC_PROBE : IPV6_PMTUDISC_DONT;
	int r = 0;

	if (family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6, sizeof(v6)) < 0)
		r = -errno;
	/* also the IPv4 side of a dual-stack socket (v4-mapped peers) */
	if (setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof(v4)) < 0 && family == AF_INET)
		r = -errno;
	return r;
}

/* Send the batch; per-datagram results go to the path counters. */
static void tx_flush(struct braid_mpath *m)
{
	struct braid_txbatch *b = &m->txb;
	unsigned int n = braid_txb_flush(b);

	for (unsigned int i = 0; i < n; i++) {
		struct ep *e = &m->ep[m->txb_path[i]];

		if (b->res[i]) {
			e->tx_errors++;
			m->tst->link_tx_errors++;
			if (ev_now(m->loop) - m->last_err_log >= 1.0) {
				char d[200];

				m->last_err_log = ev_now(m->loop);
				braid_dbg("multipath: send on path %s: %s",
					  ep_str(m, m->txb_path[i], d, sizeof(d)), strerror(-b->res[i]));
			}
			continue;
		}
		e->tx_pkts++;
		e->tx_bytes += b->e[i].len;
		m->tst->link_tx_pkts++;
		m->tst->link_tx_bytes += b->e[i].len;
		m->sent_any = true;
	}
	b->n = 0;
	m->txctl_n = 0;
}

/* Queue one datagram for the batch: pkt must stay valid until tx_flush(). */
static void send_on(struct braid_mpath *m, int path, const uint8_t *pkt, size_t len)
{
	struct ep *e;
	struct msock *s;

	if (path < 0 || path >= MAX_EPS || !m->ep[path].used)
		return;
	e = &m->ep[path];
	s = &m->sock[e->sock];
	if (m->txb.n >= BRAID_TXB_MAX)
		tx_flush(m);
	m->txb_path[m->txb.n] = path;
	braid_txb_add(&m->txb, s->fd, &s->gso, &e->peer, pkt, len);
}

static void tx_data(struct braid_mpath *m, const struct braid_mp_tx *tx)
{
	struct tbuf *b = tx->ref;
	size_t wlen;
	int r;

	if (!b->wlen) {
		/* the CE mark must be in the bytes before the one and only sealing */
		if (tx->ce)
			braid_mp_set_ce(b->d + m->ov, b->len);
		r = braid_dc_encrypt_reserved(m->dc, b->key_id, (uint32_t)tx->pid, b->d + m->ov,
					      b->len, b->d, m->tsize - sizeof(*b), &wlen);
		if (r) {
			m->st.tx_seal_errors++;
			braid_dbg("multipath: sealing packet-id %llu failed: %s",
				  (unsigned long long)tx->pid, strerror(-r));
			return;
		}
		b->wlen = (uint32_t)wlen;
	}
	if (tx->oversize && tx->path >= 0 && tx->path < MAX_EPS && m->ep[tx->path].used) {
		/* larger than every path's MTU: sent alone, without DF */
		const struct msock *s = &m->sock[m->ep[tx->path].sock];

		tx_flush(m);
		set_pmtudisc(s->fd, s->local.sa.sa_family, false);
		send_on(m, tx->path, b->d, b->wlen);
		tx_flush(m);
		set_pmtudisc(s->fd, s->local.sa.sa_family, true);
		return;
	}
	send_on(m, tx->path, b->d, b->wlen);
}

static void tx_control(struct braid_mpath *m, const struct braid_mp_tx *tx)
{
	uint8_t *pkt;
	uint32_t pid;
	size_t len;
	int r;

	if (m->txctl_n >= BRAID_TXB_MAX || m->txb.n >= BRAID_TXB_MAX)
		tx_flush(m);
	pkt = m->txctl + (size_t)m->txctl_n * CTL_WIRE_MAX;
	r = braid_dc_encrypt(m->dc, tx->ctl, tx->ctl_len, pkt, CTL_WIRE_MAX, &len, &pid);
	if (r) {
		m->st.tx_seal_errors++;
		return;
	}
	/* after an MTU probe the engine sends a SKIP for its id: a probe lost
	 * for its size must not hold the peer's reorder buffer */
	braid_mp_ctl_sent(m->mp, engine_pid(m, (unsigned)braid_dc_primary_key_id(m->dc), pid));
	m->txctl_n++;
	send_on(m, tx->path, pkt, len);
}

static void pump(struct braid_mpath *m);

/* ---- TUN offloads ---- */

/* Write what the coalescer holds (one write, a GSO super-packet or one packet). */
static void tun_gro_flush(struct braid_mpath *m)
{
	const uint8_t *p;
	unsigned int n;
	size_t len = braid_tun_gro_finish(m->gro, &p, &n);

	if (!len)
		return;
	for (;;) {
		if (write(m->tun_fd, p, len) >= 0)
			break;
		if (errno == EINTR)
			continue;
		m->tst->tun_write_errors += n;
		braid_dbg("tun: write error: %s", strerror(errno));
		braid_tun_gro_reset(m->gro);
		return;
	}
	m->tst->tun_write_pkts += n;
	m->tst->tun_write_bytes += len - BRAID_TUN_VNET_LEN + (uint64_t)(n - 1) * m->gro->hl;
	braid_tun_gro_reset(m->gro);
}

/*
 * An authenticated payload in packet-id order: an IP packet goes to the
 * coalescer (as the tunnel's rx_payload would write it: MSS clamped), true;
 * anything else (ping, OCC) is the tunnel's, false.
 */
static bool tun_deliver(struct braid_mpath *m, uint8_t *pl, size_t len)
{
	struct braid_payload p;
	int r;

	braid_payload_classify(BRAID_COMP_NONE, pl, len, &p);
	if (p.kind != BRAID_PAYLOAD_IPV4 && p.kind != BRAID_PAYLOAD_IPV6)
		return false;
	if (braid_mssfix_apply(m->mss, (uint8_t *)p.data, p.len))
		m->tst->mss_clamped++;
	r = braid_tun_gro_add(m->gro, p.data, p.len);
	if (r == 0) {
		tun_gro_flush(m);
		r = braid_tun_gro_add(m->gro, p.data, p.len);
	}
	if (r < 0)
		m->tst->tun_write_errors++;
	return true;
}

static void engine_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	pump(w->data);
}

/* Run the engine: everything due goes out, everything ready goes to the TUN, timer re-armed. */
static void pump(struct braid_mpath *m)
{
	struct braid_mp_tx tx;
	struct braid_mp_rx rx;
	uint64_t now = mnow(m), dl;

	m->sent_any = false;
	while (braid_mp_poll_tx(m->mp, now, &tx) == 1) {
		if (tx.kind == BRAID_MP_TX_DATA)
			tx_data(m, &tx);
		else
			tx_control(m, &tx);
	}
	tx_flush(m);
	while (braid_mp_poll_rx(m->mp, now, &rx) == 1) {
		struct rbuf *b = rx.ref;

		if (!m->gro || !tun_deliver(m, b->d, b->len))
			m->h.deliver(m->h.user, b->d, b->len);
		rput(m, b);
	}
	if (m->gro)
		tun_gro_flush(m);
	if (m->sent_any && m->h.tx)
		m->h.tx(m->h.user);
	ev_timer_stop(m->loop, &m->engine_t);
	dl = braid_mp_next_deadline(m->mp, now);
	if (dl != UINT64_MAX) {
		uint64_t d = dl > now ? dl - now : 0;

		if (d < 20)
			d = 20;
		ev_timer_set(&m->engine_t, (double)d / 1e6, 0.0);
		ev_timer_start(m->loop, &m->engine_t);
	}
}

/* Queue one plaintext payload in buffer b (at b->d + ov, b->len). Consumes b. */
static int enqueue(struct braid_mpath *m, struct tbuf *b, unsigned int meta)
{
	uint8_t kid;
	uint32_t pid;
	int r;

	if (m->have_spare) {
		kid = m->spare_kid;
		pid = m->spare_pid;
		m->have_spare = false;
	} else {
		r = braid_dc_reserve_packet_id(m->dc, &kid, &pid);
		if (r) {
			tput(m, b);
			return r;
		}
	}
	b->key_id = kid;
	b->wlen = 0;
	r = braid_mp_enqueue(m->mp, mnow(m), b, b->len, meta, engine_pid(m, kid, pid));
	if (r) {
		/* not consumed: the id is still unsealed and goes to the next packet */
		m->have_spare = true;
		m->spare_kid = kid;
		m->spare_pid = pid;
		tput(m, b);
		if (r == -ENETUNREACH)
			m->st.tx_nopath++;
		else
			m->st.tx_nobufs++;
	}
	return r;
}

/* One TUN packet in b (b->d + ov, len bytes): clamp, classify, queue. -EOVERFLOW: stop reading. */
static int tun_packet(struct braid_mpath *m, struct tbuf *b, size_t len, const struct braid_mssfix *mss)
{
	uint8_t *ip = b->d + m->ov;
	int r;

	m->tst->tun_read_pkts++;
	m->tst->tun_read_bytes += (uint64_t)len;
	if (len < 1 || ((ip[0] >> 4) != 4 && (ip[0] >> 4) != 6)) {
		m->tst->tx_not_ip++;
		tput(m, b);
		return 0;
	}
	if (braid_mssfix_apply(mss, ip, len))
		m->tst->mss_clamped++;
	b->len = (uint32_t)len;
	r = enqueue(m, b, braid_mpclass_classify(&m->o->mp_classes, ip, len));
	if (r == -ENETUNREACH)
		m->tst->tx_no_peer++;
	return r == -EOVERFLOW ? r : 0;
}

/* Reads of a vnet TUN: each one split into the packets it stands for. */
static void tun_read_vnet(struct braid_mpath *m, int tun_fd, const struct braid_mssfix *mss)
{
	size_t cap = m->tsize - sizeof(struct tbuf) - m->ov;

	for (int n = 0; n < TUN_BATCH; n++) {
		struct braid_tun_split sp;
		ssize_t len;
		long seg;

		len = read(tun_fd, m->tunrd, BRAID_TUN_SUPER_MAX);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				braid_warn("tun: read error: %s", strerror(errno));
			break;
		}
		if (braid_tun_split_begin(&sp, m->tunrd, (size_t)len)) {
			m->tst->tx_not_ip++;
			continue;
		}
		for (;;) {
			struct tbuf *b = tget(m);

			if (!b) {
				m->st.tx_pool_empty++;	/* the rest of this read is lost */
				goto out;
			}
			seg = braid_tun_split_next(&sp, b->d + m->ov, cap);
			if (seg <= 0) {
				tput(m, b);
				if (seg < 0)
					m->tst->tx_not_ip++;	/* a segment over the TUN MTU */
				break;
			}
			if (tun_packet(m, b, (size_t)seg, mss) == -EOVERFLOW)
				goto out;
		}
	}
out:
	pump(m);
}

void braid_mpath_tun_readable(struct braid_mpath *m, int tun_fd)
{
	struct braid_mssfix mss;

	/* the clamp follows the smallest path MTU the engine found */
	braid_mssfix_limit(&mss, m->mss, (int)braid_mp_tunnel_mtu(m->mp));
	if (m->tun_vnet && tun_fd == m->tun_fd) {
		tun_read_vnet(m, tun_fd, &mss);
		return;
	}
	for (int n = 0; n < TUN_BATCH; n++) {
		struct tbuf *b = tget(m);
		uint8_t *ip;
		ssize_t len;

		if (!b) {
			m->st.tx_pool_empty++;
			break;
		}
		ip = b->d + m->ov;
		len = read(tun_fd, ip, m->tsize - sizeof(*b) - m->ov);
		if (len < 0) {
			tput(m, b);
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				braid_warn("tun: read error: %s", strerror(errno));
			break;
		}
		if (tun_packet(m, b, (size_t)len, &mss) == -EOVERFLOW)
			break;
	}
	pump(m);
}

int braid_mpath_attach_tun(struct braid_mpath *m, int tun_fd, bool vnet)
{
	m->tun_fd = tun_fd;
	m->tun_vnet = false;
	if (!vnet)
		return 0;
	if (!m->tunrd)
		m->tunrd = malloc(BRAID_TUN_SUPER_MAX);
	if (!m->gro)
		m->gro = calloc(1, sizeof(*m->gro));
	if (!m->tunrd || !m->gro)
		return -ENOMEM;
	m->tun_vnet = true;
	return 0;
}

int braid_mpath_send_payload(struct braid_mpath *m, const uint8_t *pl, size_t len)
{
	struct tbuf *b;
	int r;

	if (len > m->tsize - sizeof(*b) - m->ov)
		return -EMSGSIZE;
	b = tget(m);
	if (!b)
		return -ENOBUFS;
	memcpy(b->d + m->ov, pl, len);
	b->len = (uint32_t)len;
	r = enqueue(m, b, BRAID_MP_CLASS_SMALL);
	pump(m);
	return r;
}

/* ---- receive ---- */

static void rx_one(struct braid_mpath *m, int sock, const uint8_t *pkt, size_t len,
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
			braid_dbg("replayed packet from %s dropped (%s)",
				  braid_sockaddr_str(from, a, sizeof(a)),
				  r == -EALREADY ? "duplicate" : "too old");
		} else {
			m->tst->rx_malformed++;
		}
		return;
	}
	/* authenticated and not a replay: only now may the tuple become a path */
	path = ep_find(m, sock, from);
	if (path < 0) {
		path = ep_add(m, sock, from, true, now);
		if (path == -ENOSPC) {
			int v = ep_victim(m);

			if (v >= 0) {
				ep_del(m, v, now, "evicted for a new path");
				path = ep_add(m, sock, from, true, now);
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
	m->h.rx_auth(m->h.user, from);
	if (braid_mp_msg_is_control(b->d, plen)) {
		braid_mp_rx_control(m->mp, now, path, engine_pid(m, info.key_id, info.packet_id), b->d,
				    plen);
		rput(m, b);
		return;
	}
	b->len = (uint32_t)plen;
	/* the class lets pure ACKs, DNS, EF and small packets skip the reorder hold */
	r = braid_mp_rx_data_meta(m->mp, now, path, engine_pid(m, info.key_id, info.packet_id), b, b->len,
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
	size_t bs = m->rxbs;
	int sock = (int)(s - m->sock);
	uint64_t now;
	int64_t off;
	int n;

	for (int i = 0; i < vlen; i++) {
		m->rxiov[i].iov_base = m->rxbuf + (size_t)i * bs;
		m->rxiov[i].iov_len = bs;
		memset(&m->rxmsg[i], 0, sizeof(m->rxmsg[i]));
		m->rxmsg[i].msg_hdr.msg_iov = &m->rxiov[i];
		m->rxmsg[i].msg_hdr.msg_iovlen = 1;
		m->rxmsg[i].msg_hdr.msg_name = &m->rxaddr[i];
		m->rxmsg[i].msg_hdr.msg_namelen = sizeof(m->rxaddr[i]);
		m->rxmsg[i].msg_hdr.msg_control = m->rxctl[i].b;
		m->rxmsg[i].msg_hdr.msg_controllen = sizeof(m->rxctl[i].b);
	}
	do
		n = recvmmsg(s->fd, m->rxmsg, (unsigned int)vlen, MSG_DONTWAIT, NULL);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return 0;
	now = now_us();	/* not given to the engine: bounds the kernel times */
	off = clock_offset_ns();
	for (int i = 0; i < n; i++) {
		const uint8_t *p = m->rxbuf + (size_t)i * bs;
		size_t len = m->rxmsg[i].msg_len, seg = 0;
		uint64_t t;

		if (m->rxmsg[i].msg_hdr.msg_flags & MSG_TRUNC) {
			m->tst->link_rx_pkts++;
			m->tst->rx_malformed++;
			continue;
		}
		t = rx_clamp(m, rx_time(&m->rxmsg[i].msg_hdr, off, now));
		if (s->gro)
			seg = braid_sock_gro_size(&m->rxmsg[i].msg_hdr);
		if (!seg || seg > len)
			seg = len;
		/* coalesced by GRO: datagrams of seg bytes, the last may be shorter */
		for (size_t o = 0; o < len; o += seg)
			rx_one(m, sock, p + o, len - o < seg ? len - o : seg, &m->rxaddr[i], t);
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
static void sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
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

			full |= rx_batch(m, s, vlen) == vlen;
		}
		pump(m);
		if (!full)
			break;
	}
	pump(m);
}

/* ---- link events and housekeeping ---- */

static void link_scan(struct braid_mpath *m, bool log_all)
{
	uint64_t now = mnow(m);

	for (int s = 0; s < m->n_sock; s++) {
		struct msock *k = &m->sock[s];
		char a[80];
		int up;

		if (k->wildcard)
			continue;
		up = braid_linkmon_addr_up(&k->local);
		if (up < 0 || up == k->up)
			continue;
		if (k->up >= 0 || (log_all && !up))
			braid_info("multipath: local address %s is %s", braid_sockaddr_str(&k->local, a, sizeof(a)),
				   up ? "up again" : "down (link down or address gone)");
		if (k->up >= 0)
			m->st.link_events++;
		k->up = up;
		for (int i = 0; i < MAX_EPS; i++)
			if (m->ep[i].used && m->ep[i].sock == s)
				braid_mp_path_link_event(m->mp, now, i, up);
	}
}

static void nl_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_mpath *m = w->data;

	(void)loop, (void)revents;
	if (braid_linkmon_drain(m->nl_fd) != 0)
		link_scan(m, false);
	pump(m);
}

static void housekeep_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_mpath *m = w->data;
	uint64_t now = mnow(m);

	(void)loop, (void)revents;
	for (int i = 0; i < MAX_EPS; i++) {
		struct braid_mp_path_stats ps;

		if (!m->ep[i].used || braid_mp_path_stats(m->mp, i, &ps))
			continue;
		if (ps.mtu != m->ep[i].mtu_logged && ps.mtu_probes == ps.mtu_acks + ps.mtu_probes_lost) {
			char d[200];

			m->ep[i].mtu_logged = ps.mtu;
			braid_info("multipath: path %s mtu %u (%u searches, %llu probes, %llu lost, "
				   "%u black holes)", ep_str(m, i, d, sizeof(d)), ps.mtu,
				   ps.mtu_searches, (unsigned long long)ps.mtu_probes,
				   (unsigned long long)ps.mtu_probes_lost, ps.mtu_blackholes);
		}
		if (ps.state != BRAID_MP_PATH_FAILED && ps.state != BRAID_MP_PATH_PROBING) {
			m->ep[i].failed_since_us = 0;
			continue;
		}
		if (!m->ep[i].failed_since_us)
			m->ep[i].failed_since_us = now;
		if (m->ep[i].learned &&
		    now - m->ep[i].failed_since_us >= (uint64_t)m->o->mp_path_timeout * 1000000u)
			ep_del(m, i, now, "no answer for mp-path-timeout");
	}
	{
		uint32_t t = braid_mp_tunnel_mtu(m->mp);
		struct braid_mssfix mss;

		if (t && t != m->tunnel_mtu_logged) {
			m->tunnel_mtu_logged = t;
			braid_mssfix_limit(&mss, m->mss, (int)t);
			if (mss.mss4)
				braid_info("multipath: tunnel mtu %u (smallest path mtu): inner TCP "
					   "MSS clamped to %u (IPv4) / %u (IPv6)", t, mss.mss4,
					   mss.mss6);
			else
				braid_info("multipath: tunnel mtu %u (smallest path mtu); mssfix "
					   "is off", t);
		}
	}
	pump(m);
}

/* ---- setup ---- */

static int open_sock(struct braid_mpath *m, const char *local, int family, uint16_t port,
		     bool backup, uint64_t cap)
{
	struct msock *s;
	union braid_sockaddr ba;
	char err[300], a[80];
	int r;

	for (int i = 0; i < m->n_sock; i++)
		if (local && m->sock[i].cfg_local && !strcmp(local, m->sock[i].cfg_local))
			return i;
	if (m->n_sock >= MAX_SOCKS)
		return -ENOSPC;
	r = braid_sock_resolve(local, port, family, true, &ba, err, sizeof(err));
	if (r) {
		braid_err("mp-path: %s", err);
		return r;
	}
	s = &m->sock[m->n_sock];
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->local = ba;
	s->wildcard = local == NULL;
	s->backup = backup;
	s->cap_bps = cap;
	s->up = -1;
	r = braid_sock_open_udp(ba.sa.sa_family, &ba, m->o->family == AF_INET6, &s->fd);
	if (r) {
		braid_err("cannot open UDP socket on %s: %s", braid_sockaddr_str(&ba, a, sizeof(a)),
			  strerror(-r));
		return r;
	}
	{
		union braid_sockaddr got;
		socklen_t gl = sizeof(got);

		if (!getsockname(s->fd, &got.sa, &gl))
			s->local = got;
	}
	s->cfg_local = local;
	braid_info("multipath: UDP%s socket bound to %s%s", ba.sa.sa_family == AF_INET ? "v4" : "v6",
		   braid_sockaddr_str(&s->local, a, sizeof(a)), backup ? " (backup)" : "");
	{
		/* kernel arrival times: the engine's delivery-rate and one-way
		 * delay samples must not see how late this process ran */
		int one = 1;

		if (setsockopt(s->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) < 0)
			braid_dbg("multipath: SO_TIMESTAMPNS: %s (arrival times from the clock)",
				  strerror(errno));
	}
	r = set_pmtudisc(s->fd, s->local.sa.sa_family, true);
	if (r)
		braid_warn("multipath: IP(V6)_MTU_DISCOVER probe on %s: %s (MTU probes may be "
			   "fragmented or refused by the kernel's PMTU cache)",
			   braid_sockaddr_str(&s->local, a, sizeof(a)), strerror(-r));
	s->gso = braid_sock_gso_ok(s->fd);
	s->gro = braid_sock_set_gro(s->fd) == 0;
	braid_dbg("multipath: UDP GSO %s, GRO %s on %s", s->gso ? "on" : "off", s->gro ? "on" : "off",
		  braid_sockaddr_str(&s->local, a, sizeof(a)));
	ev_io_init(&s->r, sock_read_cb, s->fd, EV_READ);
	s->r.data = s;
	return m->n_sock++;
}

static int add_cfgpath(struct braid_mpath *m, int sock, const char *host, uint16_t port)
{
	union braid_sockaddr peer;
	int fam = m->sock[sock].local.sa.sa_family;
	char err[300];
	int r;

	if (m->n_cfgp >= MAX_EPS) {
		braid_err("multipath: more than %d paths configured", MAX_EPS);
		return -ENOSPC;
	}
	r = braid_sock_resolve(host, port, m->sock[sock].wildcard && fam == AF_INET6 ? AF_UNSPEC : fam,
			       false, &peer, err, sizeof(err));
	if (!r)
		r = braid_sockaddr_to_family(&peer, fam);
	if (r) {
		braid_err("mp-path: remote %s: %s", host, r == -EAFNOSUPPORT ?
			  "not of the local address's family" : err);
		return r ? r : -EINVAL;
	}
	m->cfgp[m->n_cfgp].sock = sock;
	m->cfgp[m->n_cfgp].peer = peer;
	m->n_cfgp++;
	return 0;
}

static int setup_paths(struct braid_mpath *m)
{
	const struct braid_options *o = m->o;
	int r, s;

	if (!o->n_mp_paths) {
		int fam = o->family == AF_UNSPEC ? (o->local && strchr(o->local, '.') ? AF_INET : AF_INET6)
						 : o->family;

		s = open_sock(m, o->local, fam, o->nobind ? 0 : o->lport, false, 0);
		if (s < 0)
			return s;
		for (unsigned int k = 0; k < o->n_remotes; k++) {
			r = add_cfgpath(m, s, o->remotes[k].host,
					o->remotes[k].port ? o->remotes[k].port : o->rport);
			if (r)
				return r;
		}
		return 0;
	}
	for (unsigned int i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &o->mp_paths[i];

		s = open_sock(m, p->local, AF_UNSPEC, o->nobind ? 0 : o->lport, p->backup, p->cap_bps);
		if (s < 0)
			return s;
		if (p->remote) {
			r = add_cfgpath(m, s, p->remote, p->port ? p->port : o->rport);
			if (r)
				return r;
			continue;
		}
		for (unsigned int k = 0; k < o->n_remotes; k++) {
			r = add_cfgpath(m, s, o->remotes[k].host,
					o->remotes[k].port ? o->remotes[k].port : o->rport);
			if (r)
				return r;
		}
	}
	return 0;
}

/* A socket of the caller's as the only path socket (braid_mpath_new_shared). */
static int shared_sock(struct braid_mpath *m, int fd)
{
	struct msock *s = &m->sock[0];
	socklen_t gl = sizeof(s->local);

	memset(s, 0, sizeof(*s));
	s->m = m;
	s->fd = fd;
	s->shared = true;
	s->wildcard = true;	/* no link monitoring: the caller's address */
	s->up = -1;
	if (getsockname(fd, &s->local.sa, &gl) < 0)
		return -errno;
	s->gso = braid_sock_gso_ok(fd);
	m->n_sock = 1;
	return 0;
}

static int mpath_create(struct braid_mpath **out, struct ev_loop *loop, const struct braid_options *o,
			struct braid_dc *dc, const struct braid_mssfix *mss,
			struct braid_tunnel_stats *st, const struct braid_mpath_hooks *hooks,
			int shared_fd, const char *name)
{
	struct braid_mpath *m;
	int r;

	m = calloc(1, sizeof(*m));
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
		r = shared_sock(m, shared_fd);
		if (r)
			goto err;
	} else {
		r = setup_paths(m);
		if (r)
			goto err;
		r = braid_linkmon_open(&m->nl_fd);
		if (r)
			braid_warn("multipath: no rtnetlink link events (%s); failures are found by "
				   "timeout", strerror(-r));
		link_scan(m, true);
	}
	r = engine_create(m);
	if (r)
		goto err;
	ev_timer_init(&m->engine_t, engine_cb, 0.0, 0.0);
	m->engine_t.data = m;
	ev_timer_init(&m->housekeep_t, housekeep_cb, HOUSEKEEP_S, HOUSEKEEP_S);
	m->housekeep_t.data = m;
	ev_timer_start(loop, &m->housekeep_t);
	for (int i = 0; i < m->n_sock; i++)
		if (!m->sock[i].shared)
			ev_io_start(loop, &m->sock[i].r);
	if (m->nl_fd >= 0) {
		ev_io_init(&m->nl_r, nl_cb, m->nl_fd, EV_READ);
		m->nl_r.data = m;
		ev_io_start(loop, &m->nl_r);
	}
	braid_info("%smultipath: on, scheduler %s, %d socket(s)%s, %d configured path(s)", m->name,
		   m->o->mp_sched, m->n_sock, shared_fd >= 0 ? " (shared)" : "", m->n_cfgp);
	pump(m);
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

void braid_mpath_input(struct braid_mpath *m, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	rx_one(m, 0, pkt, len, from, rx_clamp(m, now_us()));
	pump(m);
}

int braid_mpath_send_ip(struct braid_mpath *m, const uint8_t *ip, size_t len)
{
	struct braid_mssfix mss;
	struct tbuf *b;
	int r;

	if (len > m->tsize - sizeof(*b) - m->ov)
		return -EMSGSIZE;
	b = tget(m);
	if (!b) {
		m->st.tx_pool_empty++;
		return -ENOBUFS;
	}
	memcpy(b->d + m->ov, ip, len);
	braid_mssfix_limit(&mss, m->mss, (int)braid_mp_tunnel_mtu(m->mp));
	r = tun_packet(m, b, len, &mss);
	pump(m);
	return r;
}

int braid_mpath_restart(struct braid_mpath *m, struct braid_dc *dc)
{
	ev_timer_stop(m->loop, &m->engine_t);
	braid_mp_free(m->mp);	/* returns every held buffer through the callbacks */
	m->mp = NULL;
	m->dc = dc;
	m->have_spare = false;
	return engine_create(m) ? -EIO : (pump(m), 0);
}

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
		braid_sockaddr_str(&m->sock[e->sock].local, p->local, sizeof(p->local));
		braid_sockaddr_str(&e->peer, p->remote, sizeof(p->remote));
		p->learned = e->learned;
		braid_mp_path_stats(m->mp, i, &p->mp);
		p->wire_tx_pkts = e->tx_pkts;
		p->wire_tx_bytes = e->tx_bytes;
		p->wire_rx_pkts = e->rx_pkts;
		p->wire_rx_bytes = e->rx_bytes;
		p->tx_errors = e->tx_errors;
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
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	enum braid_mp_sched s;
	unsigned int n = 0;
	int r;

	if (strlen(spec) >= sizeof(m->sched_name) || braid_mp_sched_parse(spec, &s, ratio, &n))
		return -EINVAL;
	r = braid_mp_set_sched(m->mp, s, ratio, n);
	if (r)
		return r;
	m->sched = s;
	snprintf(m->sched_name, sizeof(m->sched_name), "%s", spec);
	pump(m);
	return 0;
}

int braid_mpath_path_set(struct braid_mpath *m, int path, unsigned int flags, uint64_t cap_bps)
{
	int r = braid_mp_path_set(m->mp, path, flags, cap_bps);

	if (!r)
		pump(m);
	return r;
}

void braid_mpath_free(struct braid_mpath *m)
{
	if (!m)
		return;
	if (m->loop) {
		ev_timer_stop(m->loop, &m->engine_t);
		ev_timer_stop(m->loop, &m->housekeep_t);
		if (m->nl_fd >= 0)
			ev_io_stop(m->loop, &m->nl_r);
		for (int i = 0; i < m->n_sock; i++)
			if (!m->sock[i].shared)
				ev_io_stop(m->loop, &m->sock[i].r);
	}
	braid_mp_free(m->mp);
	for (int i = 0; i < m->n_sock; i++)
		if (!m->sock[i].shared)
			close(m->sock[i].fd);
	if (m->nl_fd >= 0)
		close(m->nl_fd);
	/* the buffers held plaintext */
	if (m->tmem)
		sodium_memzero(m->tmem, (size_t)m->tcount * m->tsize);
	if (m->rmem)
		sodium_memzero(m->rmem, (size_t)m->rcount * m->rsize);
	if (m->rxbuf)
		sodium_memzero(m->rxbuf, (size_t)RX_BATCH * m->rxbs);
	free(m->tmem);
	free(m->rmem);
	free(m->rxbuf);
	free(m->txctl);
	if (m->tunrd)
		sodium_memzero(m->tunrd, BRAID_TUN_SUPER_MAX);
	if (m->gro)
		sodium_memzero(m->gro, sizeof(*m->gro));
	free(m->tunrd);
	free(m->gro);
	free(m);
}
