// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_engine.c - the engine of the multipath data plane on the loop: its
 * creation with the configured paths, the key generations of its 64-bit
 * packet-ids, queueing a payload with a reserved data-channel packet-id,
 * and the pump: packets due are sealed once and sent on their path,
 * payloads ready in packet-id order go to the TUN (coalesced with offloads)
 * or to hooks.deliver, and the engine timer is re-armed.
 */
#include "dataplane/mpath_engine.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "dc/payload.h"
#include "util/log.h"
#include "dataplane/mpath_sock.h"
#include "dataplane/mpath_stats.h"
#include "dataplane/mpath_weight.h"

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

uint64_t mpath_engine_pid(struct braid_mpath *m, unsigned kid, uint32_t pid)
{
	return key_gen(m, kid) << 32 | pid;
}

int mpath_engine_create(struct braid_mpath *m)
{
	uint64_t now = mnow(m);
	int r;

	r = braid_mp_new(&m->mp, &m->cfg);
	if (r) {
		braid_err("multipath: cannot create the engine: %s", strerror(-r));
		return r;
	}
	memset(m->ep, 0, sizeof(m->ep));
	r = mpath_weight_sched(m, m->sched_name);	/* weights by name given as paths are added */
	if (r)
		braid_warn("multipath: scheduler '%s' refused (%s); using edf", m->sched_name,
			   strerror(-r));
	for (int k = 0; k < m->n_cfgp; k++) {
		r = mpath_ep_add(m, m->cfgp[k].sock, &m->cfgp[k].peer, false, now);
		if (r < 0) {
			char a[80];

			braid_err("multipath: cannot add the path to %s: %s",
				  braid_sockaddr_str(&m->cfgp[k].peer, a, sizeof(a)), strerror(-r));
			return r;
		}
	}
	return 0;
}

int mpath_engine_renew(struct braid_mpath *m)
{
	ev_timer_stop(m->loop, &m->engine_t);
	mpath_stats_retire_all(m);	/* the totals go on with the new engine's paths */
	braid_mp_free(m->mp);	/* returns every held buffer through the callbacks */
	m->mp = NULL;
	m->have_spare = false;
	if (mpath_engine_create(m))
		return -EIO;
	mpath_pump(m);
	return 0;
}

/* ---- transmit ---- */

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

		mpath_tx_flush(m);
		mpath_set_pmtudisc(s->fd, s->local.sa.sa_family, false);
		mpath_send_on(m, tx->path, b->d, b->wlen);
		mpath_tx_flush(m);
		mpath_set_pmtudisc(s->fd, s->local.sa.sa_family, true);
		return;
	}
	mpath_send_on(m, tx->path, b->d, b->wlen);
}

static void tx_control(struct braid_mpath *m, const struct braid_mp_tx *tx)
{
	uint8_t *pkt;
	uint32_t pid;
	size_t len;
	int r;

	if (m->txctl_n >= BRAID_TXB_MAX || m->txb.n >= BRAID_TXB_MAX)
		mpath_tx_flush(m);
	pkt = m->txctl + (size_t)m->txctl_n * CTL_WIRE_MAX;
	r = braid_dc_encrypt(m->dc, tx->ctl, tx->ctl_len, pkt, CTL_WIRE_MAX, &len, &pid);
	if (r) {
		m->st.tx_seal_errors++;
		return;
	}
	/* after an MTU probe the engine sends a SKIP for its id: a probe lost
	 * for its size must not hold the peer's reorder buffer */
	braid_mp_ctl_sent(m->mp, mpath_engine_pid(m, (unsigned)braid_dc_primary_key_id(m->dc), pid));
	m->txctl_n++;
	mpath_send_on(m, tx->path, pkt, len);
}

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

/* ---- the pump ---- */

void mpath_engine_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	mpath_pump(w->data);
}

/* Run the engine: everything due goes out, everything ready goes to the TUN, timer re-armed. */
void mpath_pump(struct braid_mpath *m)
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
	mpath_tx_flush(m);
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
int mpath_enqueue(struct braid_mpath *m, struct tbuf *b, unsigned int meta)
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
	r = braid_mp_enqueue(m->mp, mnow(m), b, b->len, meta, mpath_engine_pid(m, kid, pid));
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
