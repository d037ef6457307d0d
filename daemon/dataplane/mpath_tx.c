// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_tx.c - the transmit side of the multipath data plane: TUN reads
 * (plain, or vnet super-packets split into their segments), MSS clamp,
 * classification and queueing into the engine, then a pump (which seals and
 * sends by sendmmsg / UDP GSO, mpath_engine.c and mpath_sock.c); the IP
 * packets and payloads the daemon hands in itself.
 */
#include "dataplane/mpath_tx.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/mpclass.h"
#include "util/log.h"
#include "dataplane/mpath_engine.h"
#include "dataplane/mpath_int.h"

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
	r = mpath_enqueue(m, b, braid_mpclass_classify(&m->o->mp_classes, ip, len));
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
	mpath_pump(m);
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
	mpath_pump(m);
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
	mpath_pump(m);
	return r;
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
	r = mpath_enqueue(m, b, BRAID_MP_CLASS_SMALL);
	mpath_pump(m);
	return r;
}
