// SPDX-License-Identifier: GPL-2.0-only
/*
 * tun_super.c - TCP super-packet frames (tun_super.h): the sender's cut of a
 * vnet read into frames, the receiver's check of a frame and its vnet write.
 */
#include "os/tun_super.h"

#include <errno.h>
#include <linux/virtio_net.h>
#include <string.h>
#include <unistd.h>

#include "os/tun_pkt.h"
#include "util/log.h"

#define TCP_CWR 0x80
#define TCP_FIN_PSH 0x09

int braid_tcpsuper_tx_begin(struct braid_tcpsuper_tx *t, const struct braid_tun_split *s)
{
	size_t nmax, nseg;

	memset(t, 0, sizeof(*t));
	if (s->gso_type != VIRTIO_NET_HDR_GSO_TCPV4 && s->gso_type != VIRTIO_NET_HDR_GSO_TCPV6)
		return -EOPNOTSUPP;
	t->v6 = s->gso_type == VIRTIO_NET_HDR_GSO_TCPV6;
	t->iphl = t->v6 ? 40 : (size_t)(s->pkt[0] & 15) * 4;
	/* split_begin checked hl (TCP/IP headers within the packet) and gso_size > 0 */
	if (!(s->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) || s->csum_start != t->iphl ||
	    s->csum_offset != 16 || s->len <= s->hl + s->gso_size)
		return -EOPNOTSUPP;
	if (t->v6 ? braid_pkt_get16(s->pkt + 4) + 40u != s->len
		  : braid_pkt_get16(s->pkt + 2) != s->len || (braid_pkt_get16(s->pkt + 6) & 0x3fff))
		return -EOPNOTSUPP;
	if (BRAID_TCPSUPER_MAX - BRAID_TCPSUPER_HDR < s->hl)
		return -EOPNOTSUPP;
	/* at least 4 segments a frame, so that balanced frames each hold 2 or more (a full one) */
	nmax = (BRAID_TCPSUPER_MAX - BRAID_TCPSUPER_HDR - s->hl) / s->gso_size;
	if (nmax < 4)
		return -EOPNOTSUPP;
	t->pkt = s->pkt;
	t->len = s->len;
	t->hl = s->hl;
	t->gso = s->gso_size;
	t->total = s->len - s->hl;
	nseg = (t->total + t->gso - 1) / t->gso;
	t->nchunk = (nseg + nmax - 1) / nmax;
	t->base = nseg / t->nchunk;
	t->extra = nseg % t->nchunk;
	return 0;
}

long braid_tcpsuper_tx_next(struct braid_tcpsuper_tx *t, uint8_t *out, size_t cap)
{
	size_t segs, pl, n, before;
	uint8_t *ip = out + BRAID_TCPSUPER_HDR, *th;
	uint16_t c;

	if (t->chunk >= t->nchunk)
		return 0;
	segs = t->base + (t->chunk < t->extra);
	pl = segs * t->gso;
	if (pl > t->total - t->off)
		pl = t->total - t->off;
	n = t->hl + pl;
	if (BRAID_TCPSUPER_HDR + n > cap)
		return -ENOBUFS;
	before = t->off / t->gso;	/* segments in earlier frames */
	out[0] = BRAID_TCPSUPER_MAGIC;
	out[1] = t->v6 ? BRAID_TCPSUPER_T_V6 : BRAID_TCPSUPER_T_V4;
	braid_pkt_put16(out + 2, t->gso);
	braid_pkt_put16(out + 4, (uint16_t)t->hl);
	braid_pkt_put16(out + 6, (uint16_t)t->iphl);
	braid_pkt_put16(out + 8, 16);
	memcpy(ip, t->pkt, t->hl);
	memcpy(ip + t->hl, t->pkt + t->hl + t->off, pl);
	th = ip + t->iphl;
	if (t->nchunk > 1) {
		if (t->v6) {
			braid_pkt_put16(ip + 4, (uint16_t)(n - 40));
		} else {
			braid_pkt_put16(ip + 2, (uint16_t)n);
			braid_pkt_put16(ip + 4, (uint16_t)(braid_pkt_get16(ip + 4) + before));
			braid_pkt_ip4_csum(ip, t->iphl);
		}
		braid_pkt_put32(th + 4, braid_pkt_get32(th + 4) + (uint32_t)t->off);
		if (t->chunk + 1 < t->nchunk)
			th[13] &= (uint8_t)~TCP_FIN_PSH;	/* the last frame's */
		if (t->chunk)
			th[13] &= (uint8_t)~TCP_CWR;		/* the first frame's */
		c = braid_pkt_csum_fold(braid_pkt_pseudo_sum(ip, t->v6, n - t->iphl));
		memcpy(th + 16, &c, 2);
	}
	t->off += pl;
	t->chunk++;
	return (long)(BRAID_TCPSUPER_HDR + n);
}

static int bad(const char **why, const char *what)
{
	*why = what;
	return -EINVAL;
}

int braid_tcpsuper_open(uint8_t *frame, size_t len, unsigned int *nseg, size_t *hl,
			const char **why)
{
	struct virtio_net_hdr h;
	size_t plen, thl, iphl, pl;
	uint8_t *ip = frame + BRAID_TCPSUPER_HDR;
	uint16_t gso, c;
	bool v6 = false;

	if (len < BRAID_TCPSUPER_HDR + 40)
		return bad(why, "shorter than a header and a TCP/IP packet");
	if (len > BRAID_TCPSUPER_MAX)
		return bad(why, "longer than a frame may be");
	if (frame[0] != BRAID_TCPSUPER_MAGIC)
		return bad(why, "magic");
	if (frame[1] != BRAID_TCPSUPER_T_V4 && frame[1] != BRAID_TCPSUPER_T_V6)
		return bad(why, "type");
	plen = len - BRAID_TCPSUPER_HDR;
	thl = braid_pkt_tcp_hl(ip, plen, &v6);
	if (!thl)
		return bad(why, "not a TCP/IP packet (or its headers pass its end)");
	if (v6 != (frame[1] == BRAID_TCPSUPER_T_V6))
		return bad(why, "type does not match the IP version");
	iphl = v6 ? 40 : (size_t)(ip[0] & 15) * 4;
	if (v6 ? braid_pkt_get16(ip + 4) + 40u != plen : braid_pkt_get16(ip + 2) != plen)
		return bad(why, "IP length does not match the frame");
	if (!v6 && (braid_pkt_get16(ip + 6) & 0x3fff))
		return bad(why, "IPv4 fragment");
	if (braid_pkt_get16(frame + 4) != thl)
		return bad(why, "header length does not match the packet's headers");
	if (braid_pkt_get16(frame + 6) != iphl || braid_pkt_get16(frame + 8) != 16)
		return bad(why, "checksum start/offset do not point at the TCP checksum");
	if (plen <= thl)
		return bad(why, "no TCP payload");
	pl = plen - thl;
	gso = braid_pkt_get16(frame + 2);
	if (!gso || gso > pl)
		return bad(why, "gso size 0 or above the payload");
	if (!v6)
		braid_pkt_ip4_csum(ip, iphl);
	c = braid_pkt_csum_fold(braid_pkt_pseudo_sum(ip, v6, plen - iphl));
	memcpy(ip + iphl + 16, &c, 2);
	memset(&h, 0, sizeof(h));
	h.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
	h.hdr_len = (uint16_t)thl;
	h.csum_start = (uint16_t)iphl;
	h.csum_offset = 16;
	/* several segments: the kernel cuts them; one: a packet with its checksum left to the kernel */
	if (pl > gso) {
		h.gso_type = v6 ? VIRTIO_NET_HDR_GSO_TCPV6 : VIRTIO_NET_HDR_GSO_TCPV4;
		if (ip[iphl + 13] & TCP_CWR)
			h.gso_type |= VIRTIO_NET_HDR_GSO_ECN;
		h.gso_size = gso;
	}
	_Static_assert(sizeof(h) == BRAID_TCPSUPER_HDR, "the vnet header takes the frame header's place");
	memcpy(frame, &h, sizeof(h));
	*nseg = (unsigned int)((pl + gso - 1) / gso);
	*hl = thl;
	return 0;
}

int braid_tcpsuper_write(int fd, const char *dev, const uint8_t *buf, size_t len, unsigned int nseg)
{
	while (write(fd, buf, len) < 0) {
		if (errno == EINTR)
			continue;
		braid_dbg("%s: write error: %s (a super-packet of %u segments lost)", dev, strerror(errno),
			  nseg);
		return -errno;
	}
	return 0;
}
