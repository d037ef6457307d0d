// SPDX-License-Identifier: GPL-2.0-only
/*
 * tun.c - TUN device lifetime and configuration.
 */
#include "os/tun.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "os/tun_pkt.h"
#include "util/log.h"

static int open_dev(struct braid_tun *t, const struct braid_options *o, bool vnet)
{
	struct ifreq ifr;
	int fd, r;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		braid_err("cannot open /dev/net/tun: %s", strerror(-r));
		return r;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI | (vnet ? IFF_VNET_HDR : 0);
	/* "tun" alone: let the kernel pick the first free tunN, as OpenVPN does */
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", strcmp(o->dev, "tun") ? o->dev : "tun%d");
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		r = -errno;
		braid_err("cannot create tun device '%s': %s", o->dev, strerror(-r));
		goto err_close;
	}
	if (vnet) {
		int hsz = BRAID_TUN_VNET_LEN;

		if (ioctl(fd, TUNSETVNETHDRSZ, &hsz) < 0 ||
		    ioctl(fd, TUNSETOFFLOAD, TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6) < 0) {
			r = -errno;
			goto err_close;
		}
		t->vnet = true;
	}
	memcpy(t->name, ifr.ifr_name, IFNAMSIZ);
	t->name[IFNAMSIZ - 1] = '\0';
	t->ifindex = (int)if_nametoindex(t->name);
	if (!t->ifindex) {
		r = -errno;
		braid_err("tun device '%s' has no index: %s", t->name, strerror(-r));
		goto err_close;
	}
	r = braid_nl_open(&t->nl);
	if (r) {
		braid_err("cannot open rtnetlink: %s", strerror(-r));
		goto err_close;
	}
	t->fd = fd;
	braid_info("TUN/TAP device %s opened", t->name);
	return 0;
err_close:
	close(fd);
	return r;
}

int braid_tun_open(struct braid_tun *t, const struct braid_options *o)
{
	return open_dev(t, o, false);
}

int braid_tun_open_vnet(struct braid_tun *t, const struct braid_options *o)
{
	int r = open_dev(t, o, true);

	if (r != -EINVAL && r != -ENOTTY && r != -EOPNOTSUPP)
		return r;
	braid_warn("tun: no offloads (%s): one packet per read and write", strerror(-r));
	return open_dev(t, o, false);
}

static const char *fmt_addr(int family, const void *a, char *buf, size_t len)
{
	if (!inet_ntop(family, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

int braid_tun_configure(struct braid_tun *t, const struct braid_options *o)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int r;

	r = braid_nl_link_set(t->nl, t->ifindex, o->tun_mtu, true);
	if (r) {
		braid_err("%s: cannot set mtu %d and bring the link up: %s", t->name, o->tun_mtu,
			  strerror(-r));
		return r;
	}
	braid_info("%s: mtu %d, link up", t->name, o->tun_mtu);
	if (o->has_ifconfig) {
		if (o->ifc_is_netmask) {
			uint32_t m = ntohl(o->ifc_remote.s_addr);
			uint8_t prefix = 0;

			while (prefix < 32 && (m & (0x80000000u >> prefix)))
				prefix++;
			t->prefix4 = prefix;
			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &o->ifc_local, NULL, prefix);
			braid_info("%s: address %s/%u", t->name,
				   fmt_addr(AF_INET, &o->ifc_local, a, sizeof(a)), prefix);
		} else {
			t->prefix4 = 32;
			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &o->ifc_local,
					  &o->ifc_remote, 32);
			braid_info("%s: address %s peer %s", t->name,
				   fmt_addr(AF_INET, &o->ifc_local, a, sizeof(a)),
				   fmt_addr(AF_INET, &o->ifc_remote, b, sizeof(b)));
		}
		if (r) {
			braid_err("%s: cannot add IPv4 address: %s", t->name, strerror(-r));
			return r;
		}
		t->addr4_added = true;
	}
	if (o->has_ifconfig6) {
		r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET6, &o->ifc6_local, NULL,
				  o->ifc6_prefix);
		if (r) {
			braid_err("%s: cannot add IPv6 address: %s", t->name, strerror(-r));
			return r;
		}
		t->addr6_added = true;
		braid_info("%s: address %s/%u", t->name,
			   fmt_addr(AF_INET6, &o->ifc6_local, a, sizeof(a)), o->ifc6_prefix);
	}
	for (unsigned int i = 0; i < o->n_routes; i++) {
		const struct braid_opt_route *rt = &o->routes[i];

		r = braid_nl_route(t->nl, true, t->ifindex, rt->family, rt->dst, rt->prefix,
				   rt->has_gw ? rt->gw : NULL, rt->metric);
		if (r) {
			braid_err("%s: cannot add route %s/%u: %s", t->name,
				  fmt_addr(rt->family, rt->dst, a, sizeof(a)), rt->prefix,
				  strerror(-r));
			return r;
		}
		t->route_added[i] = true;
		braid_info("%s: route %s/%u%s%s", t->name, fmt_addr(rt->family, rt->dst, a, sizeof(a)),
			   rt->prefix, rt->has_gw ? " via " : "",
			   rt->has_gw ? fmt_addr(rt->family, rt->gw, b, sizeof(b)) : "");
	}
	return 0;
}

void braid_tun_close(struct braid_tun *t, const struct braid_options *o)
{
	int r;

	if (t->fd < 0)
		return;
	for (unsigned int i = o->n_routes; i-- > 0;) {
		const struct braid_opt_route *rt = &o->routes[i];

		if (!t->route_added[i])
			continue;
		r = braid_nl_route(t->nl, false, t->ifindex, rt->family, rt->dst, rt->prefix,
				   rt->has_gw ? rt->gw : NULL, rt->metric);
		if (r && r != -ESRCH && r != -EPERM)	/* EPERM: privileges dropped, see below */
			braid_warn("%s: cannot remove route: %s", t->name, strerror(-r));
		t->route_added[i] = false;
	}
	if (t->addr6_added) {
		r = braid_nl_addr(t->nl, false, t->ifindex, AF_INET6, &o->ifc6_local, NULL,
				  o->ifc6_prefix);
		if (r && r != -EADDRNOTAVAIL && r != -EPERM)
			braid_warn("%s: cannot remove IPv6 address: %s", t->name, strerror(-r));
		t->addr6_added = false;
	}
	if (t->addr4_added) {
		r = braid_nl_addr(t->nl, false, t->ifindex, AF_INET, &o->ifc_local,
				  o->ifc_is_netmask ? NULL : &o->ifc_remote, t->prefix4);
		if (r && r != -EADDRNOTAVAIL && r != -EPERM)
			braid_warn("%s: cannot remove IPv4 address: %s", t->name, strerror(-r));
		t->addr4_added = false;
	}
	braid_nl_close(t->nl);
	t->nl = NULL;
	close(t->fd);
	t->fd = -1;
	/* after a privilege drop (no CAP_NET_ADMIN) the kernel removes them with the device */
	braid_info("%s: closed (routes and addresses removed)", t->name);
}

/* ---- offloads: checksums, segmentation, coalescing ---- */

int braid_tun_split_begin(struct braid_tun_split *s, const uint8_t *buf, size_t len)
{
	struct virtio_net_hdr h;
	bool v6;

	memset(s, 0, sizeof(*s));
	if (len < BRAID_TUN_VNET_LEN)
		return -EINVAL;
	memcpy(&h, buf, sizeof(h));
	s->pkt = buf + BRAID_TUN_VNET_LEN;
	s->len = len - BRAID_TUN_VNET_LEN;
	s->flags = h.flags;
	s->gso_type = h.gso_type & (uint8_t)~VIRTIO_NET_HDR_GSO_ECN;
	s->gso_size = h.gso_size;
	s->csum_start = h.csum_start;
	s->csum_offset = h.csum_offset;
	if ((s->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) &&
	    (size_t)s->csum_start + s->csum_offset + 2 > s->len)
		return -EINVAL;
	if (s->gso_type == VIRTIO_NET_HDR_GSO_NONE)
		return 0;
	if (s->gso_type != VIRTIO_NET_HDR_GSO_TCPV4 && s->gso_type != VIRTIO_NET_HDR_GSO_TCPV6)
		return -EINVAL;
	s->hl = braid_pkt_tcp_hl(s->pkt, s->len, &v6);
	if (!s->hl || !s->gso_size || v6 != (s->gso_type == VIRTIO_NET_HDR_GSO_TCPV6))
		return -EINVAL;
	return 0;
}

long braid_tun_split_next(struct braid_tun_split *s, uint8_t *out, size_t cap)
{
	size_t total, seg, iphl, n;
	bool v6, last;
	uint8_t *th;
	uint16_t c;

	if (s->done)
		return 0;
	if (s->gso_type == VIRTIO_NET_HDR_GSO_NONE) {
		if (s->len > cap)
			return -ENOBUFS;
		memcpy(out, s->pkt, s->len);
		if (s->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM) {
			c = (uint16_t)~braid_pkt_csum_fold(braid_pkt_csum_add(0, out + s->csum_start,
							   s->len - s->csum_start));
			if (!c)
				c = 0xffff;	/* UDP: 0 means "no checksum"; the same in one's complement */
			memcpy(out + s->csum_start + s->csum_offset, &c, 2);
		}
		s->done = true;
		return (long)s->len;
	}
	total = s->len - s->hl;
	if (s->off >= total) {
		s->done = true;
		return 0;
	}
	seg = total - s->off < s->gso_size ? total - s->off : s->gso_size;
	n = s->hl + seg;
	if (n > cap)
		return -ENOBUFS;
	last = s->off + seg >= total;
	memcpy(out, s->pkt, s->hl);
	memcpy(out + s->hl, s->pkt + s->hl + s->off, seg);
	v6 = s->gso_type == VIRTIO_NET_HDR_GSO_TCPV6;
	iphl = v6 ? 40 : (size_t)(out[0] & 15) * 4;
	if (v6) {
		braid_pkt_put16(out + 4, (uint16_t)(n - 40));
	} else {
		braid_pkt_put16(out + 2, (uint16_t)n);
		braid_pkt_put16(out + 4, (uint16_t)(braid_pkt_get16(out + 4) + s->idx));
		braid_pkt_ip4_csum(out, iphl);
	}
	th = out + iphl;
	braid_pkt_put32(th + 4, braid_pkt_get32(th + 4) + (uint32_t)s->off);
	if (!last)
		th[13] &= (uint8_t)~0x09;	/* FIN, PSH: the last segment's */
	if (s->idx)
		th[13] &= (uint8_t)~0x80;	/* CWR: the first segment's */
	th[16] = th[17] = 0;
	c = (uint16_t)~braid_pkt_csum_fold(braid_pkt_csum_add(braid_pkt_pseudo_sum(out, v6, n - iphl),
							       th, n - iphl));
	memcpy(th + 16, &c, 2);
	s->off += seg;
	s->idx++;
	return (long)n;
}

void braid_tun_gro_reset(struct braid_tun_gro *g)
{
	g->len = 0;
	g->nseg = 0;
	g->tcp = false;
	g->psh = false;
}

/* Can segment q (header length hl) follow what g holds? */
static bool gro_fits(const struct braid_tun_gro *g, const uint8_t *q, size_t len, size_t hl, bool v6)
{
	const uint8_t *p = g->buf + BRAID_TUN_VNET_LEN;
	size_t iphl = v6 ? 40 : 20, pl = len - hl;

	if (!g->tcp || g->psh || v6 != g->v6 || hl != g->hl || pl > g->mss || g->last != g->mss ||
	    g->nseg >= 64 || g->len + pl > 65535)
		return false;
	if (v6) {
		if (memcmp(p, q, 4) || memcmp(p + 6, q + 6, 34))
			return false;
	} else if (p[1] != q[1] || memcmp(p + 6, q + 6, 4) || memcmp(p + 12, q + 12, 8)) {
		return false;
	}
	p += iphl;
	q += iphl;
	return !memcmp(p, q, 4) && braid_pkt_get32(q + 4) == g->next_seq && !memcmp(p + 8, q + 8, 5) &&
	       (p[13] & ~0x08) == (q[13] & ~0x08) && !memcmp(p + 14, q + 14, 2) &&
	       !memcmp(p + 18, q + 18, hl - iphl - 18);
}

int braid_tun_gro_add(struct braid_tun_gro *g, const uint8_t *ip, size_t len)
{
	size_t hl = 0, pl;
	bool v6 = false, ok;

	if (len > BRAID_TUN_SUPER_MAX - BRAID_TUN_VNET_LEN)
		return g->nseg ? 0 : -EMSGSIZE;
	/* a segment that may be coalesced: v4 without options or fragments,
	 * v6 without extension headers, flags ACK (+PSH) only, with data */
	hl = braid_pkt_tcp_hl(ip, len, &v6);
	ok = false;
	if (hl) {
		size_t iphl = v6 ? 40 : 20;

		ok = (v6 ? braid_pkt_get16(ip + 4) + 40u == len
			 : (ip[0] & 15) == 5 && braid_pkt_get16(ip + 2) == len &&
			   !(braid_pkt_get16(ip + 6) & 0x3fff)) &&
		     (ip[iphl + 13] & ~0x08) == 0x10 && len > hl;
	}
	pl = ok ? len - hl : 0;
	if (g->nseg) {
		if (!ok || !gro_fits(g, ip, len, hl, v6))
			return 0;
		memcpy(g->buf + BRAID_TUN_VNET_LEN + g->len, ip + hl, pl);
		g->len += pl;
		g->last = pl;
		g->next_seq += (uint32_t)pl;
		g->psh = (ip[(v6 ? 40 : 20) + 13] & 0x08) != 0;
		g->nseg++;
		return 1;
	}
	memcpy(g->buf + BRAID_TUN_VNET_LEN, ip, len);
	g->len = len;
	g->nseg = 1;
	g->tcp = ok;
	if (ok) {
		const uint8_t *th = ip + (v6 ? 40 : 20);

		g->v6 = v6;
		g->hl = hl;
		g->mss = g->last = pl;
		g->next_seq = braid_pkt_get32(th + 4) + (uint32_t)pl;
		g->psh = (th[13] & 0x08) != 0;
	}
	return 1;
}

size_t braid_tun_gro_finish(struct braid_tun_gro *g, const uint8_t **out, unsigned int *npkts)
{
	struct virtio_net_hdr h;
	uint8_t *ip = g->buf + BRAID_TUN_VNET_LEN, *th;
	size_t iphl;
	uint16_t c;

	*npkts = g->nseg;
	if (!g->nseg)
		return 0;
	memset(&h, 0, sizeof(h));
	if (g->nseg > 1) {
		iphl = g->v6 ? 40 : 20;
		th = ip + iphl;
		if (g->v6) {
			braid_pkt_put16(ip + 4, (uint16_t)(g->len - 40));
		} else {
			braid_pkt_put16(ip + 2, (uint16_t)g->len);
			braid_pkt_ip4_csum(ip, iphl);
		}
		if (g->psh)
			th[13] |= 0x08;
		/* the kernel finishes it: the pseudo-header sum goes in the field */
		c = braid_pkt_csum_fold(braid_pkt_pseudo_sum(ip, g->v6, g->len - iphl));
		memcpy(th + 16, &c, 2);
		h.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
		h.gso_type = g->v6 ? VIRTIO_NET_HDR_GSO_TCPV6 : VIRTIO_NET_HDR_GSO_TCPV4;
		h.hdr_len = (uint16_t)g->hl;
		h.gso_size = (uint16_t)g->mss;
		h.csum_start = (uint16_t)iphl;
		h.csum_offset = 16;
	}
	memcpy(g->buf, &h, sizeof(h));
	*out = g->buf;
	return BRAID_TUN_VNET_LEN + g->len;
}

int braid_tun_gro_write(struct braid_tun_gro *g, int fd, unsigned int *npkts, uint64_t *bytes)
{
	const uint8_t *p;
	size_t len = braid_tun_gro_finish(g, &p, npkts);
	int r = 0;

	*bytes = 0;
	if (!len)
		return 0;
	while (write(fd, p, len) < 0) {
		if (errno == EINTR)
			continue;
		r = -errno;
		break;
	}
	if (!r)	/* the IP bytes of the packets as they came: every segment has its own headers */
		*bytes = len - BRAID_TUN_VNET_LEN + (uint64_t)(*npkts - 1) * g->hl;
	braid_tun_gro_reset(g);
	return r;
}

int braid_tun_gro_put(struct braid_tun_gro *g, int fd, const uint8_t *ip, size_t len,
		      unsigned int *npkts, uint64_t *bytes, int *werr)
{
	int r = braid_tun_gro_add(g, ip, len);

	*npkts = 0;
	*bytes = 0;
	*werr = 0;
	if (r != 0)
		return r < 0 ? r : 0;
	*werr = braid_tun_gro_write(g, fd, npkts, bytes);
	r = braid_tun_gro_add(g, ip, len);
	return r < 0 ? r : 0;
}
