// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_nl.c - the braid_dco generic netlink and rtnetlink requests (dco_nl.h),
 * built with libmnl; the answers read by braid_dco_nl_parse() with every
 * length bounded (tests/fuzz/fuzz_dco_nl.c).
 */
#include "dataplane/dco_nl.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "../../kmod/uapi/linux/braid_dco.h"
#include "dc/aead.h"
#include "dc/static_key.h"
#include "os/netlink.h"

struct braid_dco_nl {
	struct mnl_socket *genl, *rtnl;
	uint16_t family;
	uint32_t seq;
	char err[128];
};

/* ---- the reader ---- */

struct nla {
	uint16_t type;
	const uint8_t *p;
	size_t len;
};

/* the next attribute of [*p, end): 1, 0 at the end, -EBADMSG when it overruns */
static int next_attr(const uint8_t **p, const uint8_t *end, struct nla *a)
{
	struct nlattr h;
	size_t left = (size_t)(end - *p), step;

	if (left < sizeof(h))
		return left ? -EBADMSG : 0;
	memcpy(&h, *p, sizeof(h));
	if (h.nla_len < sizeof(h) || h.nla_len > left)
		return -EBADMSG;
	a->type = h.nla_type & NLA_TYPE_MASK;
	a->p = *p + sizeof(h);
	a->len = h.nla_len - sizeof(h);
	step = NLA_ALIGN((size_t)h.nla_len);
	*p += step < left ? step : left;
	return 1;
}

static uint64_t get_uint(const struct nla *a)
{
	uint64_t v64 = 0;
	uint32_t v32 = 0;

	if (a->len >= 8) {
		memcpy(&v64, a->p, 8);
		return v64;
	}
	if (a->len >= 4)
		memcpy(&v32, a->p, 4);
	else if (a->len >= 1)	/* a u8 (a u16 is not in the family's answers) */
		v32 = a->p[0];
	return v32;
}

static int parse_path(const struct nla *nest, struct braid_dco_reply *r)
{
	const uint8_t *p = nest->p, *end = nest->p + nest->len;
	uint64_t v[BRAID_DCO_A_PATH_MAX + 1] = { 0 };
	bool has_id = false;
	struct nla a;
	int k;

	while ((k = next_attr(&p, end, &a)) > 0) {
		if (a.type == BRAID_DCO_A_PATH_ID)
			has_id = a.len >= 4;
		if (a.type <= BRAID_DCO_A_PATH_MAX)
			v[a.type] = get_uint(&a);
	}
	if (k < 0)
		return k;
	if (!has_id || v[BRAID_DCO_A_PATH_ID] >= BRAID_DCO_NL_PATHS)
		return -EBADMSG;
	k = (int)v[BRAID_DCO_A_PATH_ID];
	r->path_mask |= 1u << k;
	r->path_rx_packets[k] = v[BRAID_DCO_A_PATH_RX_PACKETS];
	r->path_tx_packets[k] = v[BRAID_DCO_A_PATH_TX_PACKETS];
	r->path_rx_bytes[k] = v[BRAID_DCO_A_PATH_RX_BYTES];
	r->path_tx_bytes[k] = v[BRAID_DCO_A_PATH_TX_BYTES];
	r->path_rx_last_pktid[k] = (uint32_t)v[BRAID_DCO_A_PATH_RX_LAST_PKTID];
	r->path_rx_span_packets[k] = v[BRAID_DCO_A_PATH_RX_SPAN_PACKETS];
	r->path_rx_span_bytes[k] = v[BRAID_DCO_A_PATH_RX_SPAN_BYTES];
	r->path_rx_span_ns[k] = v[BRAID_DCO_A_PATH_RX_SPAN_NS];
	if (v[BRAID_DCO_A_PATH_DOWN])
		r->path_down_mask |= 1u << k;
	if (v[BRAID_DCO_A_PATH_BACKUP])
		r->path_backup_mask |= 1u << k;
	if (v[BRAID_DCO_A_PATH_TX_FAILING])
		r->path_tx_failing_mask |= 1u << k;
	return 0;
}

static int parse_peer(const struct nla *nest, struct braid_dco_reply *r)
{
	const uint8_t *p = nest->p, *end = nest->p + nest->len;
	struct nla a;
	int k;

	while ((k = next_attr(&p, end, &a)) > 0) {
		switch (a.type) {
		case BRAID_DCO_A_PEER_VPN_RX_PACKETS: r->vpn_rx_packets = get_uint(&a); break;
		case BRAID_DCO_A_PEER_VPN_TX_PACKETS: r->vpn_tx_packets = get_uint(&a); break;
		case BRAID_DCO_A_PEER_VPN_RX_BYTES: r->vpn_rx_bytes = get_uint(&a); break;
		case BRAID_DCO_A_PEER_VPN_TX_BYTES: r->vpn_tx_bytes = get_uint(&a); break;
		case BRAID_DCO_A_PEER_CTL_RX_PACKETS: r->ctl_rx_packets = get_uint(&a); break;
		case BRAID_DCO_A_PEER_CTL_TX_PACKETS: r->ctl_tx_packets = get_uint(&a); break;
		case BRAID_DCO_A_PEER_PRIMARY_KEY_ID: r->primary_key_id = (int)(get_uint(&a) & 7); break;
		case BRAID_DCO_A_PEER_SECONDARY_KEY_ID: r->secondary_key_id = (int)(get_uint(&a) & 7); break;
		case BRAID_DCO_A_PEER_PATH:
			if (parse_path(&a, r))
				return -EBADMSG;
			break;
		default: break;
		}
	}
	return k < 0 ? k : 0;
}

/* STATS_GET's cost nest: the module's cost counters and their switch */
static int parse_cost(const struct nla *nest, struct braid_dco_cost *c)
{
	const uint8_t *p = nest->p, *end = nest->p + nest->len;
	struct nla a;
	int k;

	c->present = true;
	while ((k = next_attr(&p, end, &a)) > 0) {
		switch (a.type) {
		case BRAID_DCO_A_COST_ENABLED: c->enabled = get_uint(&a) != 0; break;
		case BRAID_DCO_A_COST_ENCRYPT_PACKETS: c->encrypt_packets = get_uint(&a); break;
		case BRAID_DCO_A_COST_ENCRYPT_NS: c->encrypt_ns = get_uint(&a); break;
		case BRAID_DCO_A_COST_DECRYPT_PACKETS: c->decrypt_packets = get_uint(&a); break;
		case BRAID_DCO_A_COST_DECRYPT_NS: c->decrypt_ns = get_uint(&a); break;
		case BRAID_DCO_A_COST_SCHED_PACKETS: c->sched_packets = get_uint(&a); break;
		case BRAID_DCO_A_COST_SCHED_NS: c->sched_ns = get_uint(&a); break;
		default: break;
		}
	}
	return k < 0 ? k : 0;
}

/* the family's message: PEER_GET's peer nest, PACKET_SEND's send nest, STATS_GET's cost nest */
static int parse_genl(const uint8_t *p, const uint8_t *end, struct braid_dco_reply *r)
{
	const uint8_t *q, *qend;
	struct nla a, b;
	int k, j;

	if ((size_t)(end - p) < GENL_HDRLEN)
		return -EBADMSG;
	p += GENL_HDRLEN;
	while ((k = next_attr(&p, end, &a)) > 0) {
		if (a.type == BRAID_DCO_A_PEER && parse_peer(&a, r))
			return -EBADMSG;
		if (a.type == BRAID_DCO_A_COST && parse_cost(&a, &r->cost))
			return -EBADMSG;
		if (a.type != BRAID_DCO_A_SEND)
			continue;
		q = a.p;
		qend = a.p + a.len;
		while ((j = next_attr(&q, qend, &b)) > 0)
			if (b.type == BRAID_DCO_A_SEND_PACKET_ID)
				r->packet_id = (uint32_t)get_uint(&b);
		if (j < 0)
			return j;
	}
	return k < 0 ? k : 0;
}

/* NLMSG_ERROR: the error and the extack message (NLMSGERR_ATTR_MSG) */
static void parse_error(const struct nlmsghdr *h, const uint8_t *end, struct braid_dco_reply *r)
{
	const struct nlmsgerr *e = (const void *)((const uint8_t *)h + NLMSG_HDRLEN);
	const uint8_t *p;
	struct nla a;
	size_t n;

	r->acked = true;
	r->err = e->error <= 0 ? e->error : -EBADMSG;
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* capped (NETLINK_CAP_ACK): the request's header only; else the whole request */
	p = (const uint8_t *)e + sizeof(*e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < NLMSG_HDRLEN || e->msg.nlmsg_len > (size_t)(end - (const uint8_t *)&e->msg))
			return;
		p = (const uint8_t *)&e->msg + NLMSG_ALIGN(e->msg.nlmsg_len);
		if (p > end)
			return;
	}
	while (next_attr(&p, end, &a) > 0) {
		if (a.type != NLMSGERR_ATTR_MSG || !a.len)
			continue;
		n = strnlen((const char *)a.p, a.len);
		if (n >= sizeof(r->msg))
			n = sizeof(r->msg) - 1;
		memcpy(r->msg, a.p, n);
		r->msg[n] = '\0';
	}
}

int braid_dco_nl_parse(const uint8_t *buf, size_t len, uint32_t seq, uint16_t family,
		       struct braid_dco_reply *r)
{
	const struct nlmsghdr *h;
	const uint8_t *end;
	size_t off = 0;

	if (!braid_nl_buf_ok(buf, len))
		return -EBADMSG;
	while (len - off >= NLMSG_HDRLEN) {
		h = (const void *)(buf + off);
		end = buf + off + h->nlmsg_len;
		off += NLMSG_ALIGN(h->nlmsg_len) < len - off ? NLMSG_ALIGN(h->nlmsg_len) : len - off;
		if (h->nlmsg_seq != seq)
			continue;
		if (h->nlmsg_type == NLMSG_ERROR) {
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
				return -EBADMSG;
			parse_error(h, end, r);
			return 1;
		}
		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == family &&
		    parse_genl((const uint8_t *)h + NLMSG_HDRLEN, end, r))
			return -EBADMSG;
	}
	return 0;
}

/* ---- the requests ---- */

/* send nlh on sock and read until the answer ends; 0 or -errno (the kernel's or the socket's) */
static int talk(struct braid_dco_nl *d, struct mnl_socket *sock, struct nlmsghdr *nlh,
		struct braid_dco_reply *r)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct braid_dco_reply own;
	ssize_t n;
	int k;

	if (!r)
		r = &own;
	memset(r, 0, sizeof(*r));
	r->primary_key_id = r->secondary_key_id = -1;
	d->err[0] = '\0';
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++d->seq;
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(sock, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		k = braid_dco_nl_parse(buf, (size_t)n, d->seq, sock == d->genl ? d->family : 0, r);
		if (k < 0)
			return k;
	} while (!k);
	memcpy(d->err, r->msg, sizeof(d->err));
	return r->err;
}

static struct nlmsghdr *genl_msg(struct braid_dco_nl *d, uint8_t *buf, uint8_t cmd, int ifindex)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = d->family;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = BRAID_DCO_FAMILY_VERSION;
	if (ifindex)
		mnl_attr_put_u32(nlh, BRAID_DCO_A_IFINDEX, (uint32_t)ifindex);
	return nlh;
}

static int resolve_family(struct braid_dco_nl *d)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	const uint8_t *p, *end;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nla a;
	ssize_t n;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = ++d->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, BRAID_DCO_FAMILY_NAME);
	if (mnl_socket_sendto(d->genl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	n = mnl_socket_recvfrom(d->genl, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	if (!braid_nl_buf_ok(buf, (size_t)n) || (size_t)n < NLMSG_HDRLEN)
		return -EBADMSG;
	nlh = (struct nlmsghdr *)buf;
	if (nlh->nlmsg_type == NLMSG_ERROR && nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error < 0 ?
		       ((struct nlmsgerr *)NLMSG_DATA(nlh))->error : -EBADMSG;
	if (nlh->nlmsg_type != GENL_ID_CTRL || nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EBADMSG;
	p = buf + NLMSG_LENGTH(GENL_HDRLEN);
	end = buf + nlh->nlmsg_len;
	while (next_attr(&p, end, &a) > 0)
		if (a.type == CTRL_ATTR_FAMILY_ID && a.len >= 2) {
			memcpy(&d->family, a.p, 2);
			return 0;
		}
	return -EBADMSG;
}

static struct mnl_socket *nl_socket(int proto)
{
	struct timeval tv = { .tv_sec = 5 };
	struct mnl_socket *s = mnl_socket_open2(proto, SOCK_CLOEXEC);
	int one = 1;

	if (!s)
		return NULL;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(s), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(mnl_socket_get_fd(s), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(mnl_socket_get_fd(s), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one))) {
		mnl_socket_close(s);
		return NULL;
	}
	return s;
}

int braid_dco_nl_open(struct braid_dco_nl **out)
{
	struct braid_dco_nl *d = calloc(1, sizeof(*d));
	int r;

	if (!d)
		return -ENOMEM;
	d->seq = (uint32_t)time(NULL);
	d->genl = nl_socket(NETLINK_GENERIC);
	d->rtnl = nl_socket(NETLINK_ROUTE);
	r = d->genl && d->rtnl ? resolve_family(d) : (errno ? -errno : -EIO);
	if (r) {
		braid_dco_nl_close(d);
		return r;
	}
	*out = d;
	return 0;
}

void braid_dco_nl_close(struct braid_dco_nl *d)
{
	if (!d)
		return;
	if (d->genl)
		mnl_socket_close(d->genl);
	if (d->rtnl)
		mnl_socket_close(d->rtnl);
	free(d);
}

const char *braid_dco_nl_error(const struct braid_dco_nl *d)
{
	return d->err;
}

int braid_dco_nl_link_new(struct braid_dco_nl *d, const char *name, bool mp, int *ifindex)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *li, *data;
	struct ifinfomsg *ifi;
	unsigned int idx;
	int r;

	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_EXCL;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, BRAID_DCO_LINK_KIND);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u8(nlh, IFLA_BRAID_DCO_MODE, mp ? BRAID_DCO_MODE_MP : BRAID_DCO_MODE_P2P);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	r = talk(d, d->rtnl, nlh, NULL);
	if (r)
		return r;
	idx = if_nametoindex(name);
	if (!idx)
		return -errno;
	*ifindex = (int)idx;
	return 0;
}

int braid_dco_nl_link_del(struct braid_dco_nl *d, int ifindex)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_DELLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return talk(d, d->rtnl, nlh, NULL);
}

int braid_dco_nl_peer_new(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, const uint8_t *vpn4)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_PEER_NEW, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_PEER);

	mnl_attr_put_u32(nlh, BRAID_DCO_A_PEER_ID, peer_id);
	if (vpn4)
		mnl_attr_put(nlh, BRAID_DCO_A_PEER_VPN_IPV4, 4, vpn4);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

int braid_dco_nl_peer_del(struct braid_dco_nl *d, int ifindex, uint32_t peer_id)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_PEER_DEL, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_PEER);

	mnl_attr_put_u32(nlh, BRAID_DCO_A_PEER_ID, peer_id);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

static void put_keydir(struct nlmsghdr *nlh, uint16_t type, const struct braid_dco_keydir *k)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, type);

	mnl_attr_put(nlh, BRAID_DCO_A_KEYDIR_CIPHER_KEY, k->key_len, k->key);
	mnl_attr_put(nlh, BRAID_DCO_A_KEYDIR_NONCE_TAIL, BRAID_DCO_NONCE_TAIL_SIZE, k->nonce_tail);
	mnl_attr_nest_end(nlh, n);
}

int braid_dco_nl_key_new(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int slot, int key_id,
			 int alg, const struct braid_dco_keydir *enc, const struct braid_dco_keydir *dec)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_KEY_NEW, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_KEYCONF);
	int r;

	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_PEER_ID, peer_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_SLOT, (uint32_t)slot);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_KEY_ID, (uint32_t)key_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_CIPHER_ALG, (uint32_t)alg);
	put_keydir(nlh, BRAID_DCO_A_KEYCONF_ENCRYPT_DIR, enc);
	put_keydir(nlh, BRAID_DCO_A_KEYCONF_DECRYPT_DIR, dec);
	mnl_attr_nest_end(nlh, n);
	r = talk(d, d->genl, nlh, NULL);
	explicit_bzero(buf, sizeof(buf));	/* key material */
	return r;
}

int braid_dco_nl_key_install(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int slot, int key_id,
			     const char *cipher, const struct braid_key2 *k2, int direction)
{
	struct braid_dco_keydir enc, dec;
	struct braid_key_sel sel;
	enum braid_aead_cipher c;
	int r;

	r = braid_aead_cipher_from_name(cipher, &c);
	if (r)
		return r;
	if (direction == BRAID_KEY_DIR_BIDIRECTIONAL || braid_key2_select(k2, direction, &sel))
		return -EINVAL;
	/* as dc.c: the cipher key is the slot's first bytes, the implicit IV the hmac slot's first 8 */
	enc = (struct braid_dco_keydir){ sel.out.cipher, braid_aead_key_len(c), sel.out.hmac };
	dec = (struct braid_dco_keydir){ sel.in.cipher, braid_aead_key_len(c), sel.in.hmac };
	return braid_dco_nl_key_new(d, ifindex, peer_id, slot, key_id,
				    c == BRAID_AEAD_CHACHA20_POLY1305 ? BRAID_DCO_CIPHER_ALG_CHACHA20_POLY1305 :
				    BRAID_DCO_CIPHER_ALG_AES_GCM, &enc, &dec);
}

int braid_dco_nl_key_swap(struct braid_dco_nl *d, int ifindex, uint32_t peer_id)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_KEY_SWAP, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_KEYCONF);

	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_PEER_ID, peer_id);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

int braid_dco_nl_key_del(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int slot)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_KEY_DEL, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_KEYCONF);

	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_PEER_ID, peer_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_KEYCONF_SLOT, (uint32_t)slot);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

/* an endpoint's address and port attributes (remote or local); -EAFNOSUPPORT for another family */
static int put_ep(struct nlmsghdr *nlh, const struct sockaddr *a, uint16_t a4, uint16_t a6, uint16_t port)
{
	const struct sockaddr_in6 *s6 = (const void *)a;
	const struct sockaddr_in *s4 = (const void *)a;

	if (a->sa_family == AF_INET) {
		mnl_attr_put(nlh, a4, 4, &s4->sin_addr);
		mnl_attr_put_u16(nlh, port, ntohs(s4->sin_port));
	} else if (a->sa_family == AF_INET6) {
		mnl_attr_put(nlh, a6, 16, &s6->sin6_addr);
		mnl_attr_put_u16(nlh, port, ntohs(s6->sin6_port));
	} else {
		return -EAFNOSUPPORT;
	}
	return 0;
}

int braid_dco_nl_path_add(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int path_id, int fd,
			  const struct sockaddr *remote, const struct sockaddr *local)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_PATH_ADD, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_PATH);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_PATH_PEER_ID, peer_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_PATH_ID, (uint32_t)path_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_PATH_SOCKET, (uint32_t)fd);
	if (put_ep(nlh, remote, BRAID_DCO_A_PATH_REMOTE_IPV4, BRAID_DCO_A_PATH_REMOTE_IPV6,
		   BRAID_DCO_A_PATH_REMOTE_PORT))
		return -EAFNOSUPPORT;
	if (local && put_ep(nlh, local, BRAID_DCO_A_PATH_LOCAL_IPV4, BRAID_DCO_A_PATH_LOCAL_IPV6,
			    BRAID_DCO_A_PATH_LOCAL_PORT))
		return -EAFNOSUPPORT;
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

int braid_dco_nl_prog_attach(struct braid_dco_nl *d, int ifindex, int prog_fd)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_PROG_ATTACH, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_SCHED);

	mnl_attr_put_u32(nlh, BRAID_DCO_A_SCHED_PROG_FD, (uint32_t)prog_fd);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

int braid_dco_nl_path_set(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int path_id, int down,
			  int backup)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct nlattr *n;

	if (down > 1 || backup > 1 || (down < 0 && backup < 0))
		return -EINVAL;
	nlh = genl_msg(d, buf, BRAID_DCO_CMD_PATH_SET, ifindex);
	n = mnl_attr_nest_start(nlh, BRAID_DCO_A_PATH);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_PATH_PEER_ID, peer_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_PATH_ID, (uint32_t)path_id);
	if (down >= 0)
		mnl_attr_put_u8(nlh, BRAID_DCO_A_PATH_DOWN, (uint8_t)down);
	if (backup >= 0)
		mnl_attr_put_u8(nlh, BRAID_DCO_A_PATH_BACKUP, (uint8_t)backup);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, NULL);
}

int braid_dco_nl_send(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int path_id,
		      const uint8_t *payload, size_t len, uint32_t *packet_id)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct braid_dco_reply r;
	struct nlattr *n;
	int err;

	if (len > BRAID_DCO_SEND_PAYLOAD_MAX)
		return -EMSGSIZE;
	nlh = genl_msg(d, buf, BRAID_DCO_CMD_PACKET_SEND, ifindex);
	n = mnl_attr_nest_start(nlh, BRAID_DCO_A_SEND);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_SEND_PEER_ID, peer_id);
	mnl_attr_put_u32(nlh, BRAID_DCO_A_SEND_PATH_ID, (uint32_t)path_id);
	mnl_attr_put(nlh, BRAID_DCO_A_SEND_PAYLOAD, len, payload);
	mnl_attr_nest_end(nlh, n);
	err = talk(d, d->genl, nlh, &r);
	if (!err && packet_id)
		*packet_id = r.packet_id;
	return err;
}

int braid_dco_nl_peer_get(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, struct braid_dco_reply *r)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = genl_msg(d, buf, BRAID_DCO_CMD_PEER_GET, ifindex);
	struct nlattr *n = mnl_attr_nest_start(nlh, BRAID_DCO_A_PEER);

	mnl_attr_put_u32(nlh, BRAID_DCO_A_PEER_ID, peer_id);
	mnl_attr_nest_end(nlh, n);
	return talk(d, d->genl, nlh, r);
}

int braid_dco_nl_stats_get(struct braid_dco_nl *d, struct braid_dco_reply *r)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE] __attribute__((aligned(4)));

	return talk(d, d->genl, genl_msg(d, buf, BRAID_DCO_CMD_STATS_GET, 0), r);
}
