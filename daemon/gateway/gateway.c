// SPDX-License-Identifier: GPL-2.0-only
/*
 * gateway.c - the gateway (server) loop (see gateway.h).
 */
#include "gateway/gateway.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gateway/gateway_mp.h"
#include "gateway/gw_client.h"
#include "util/log.h"
#include "os/netlink.h"
#include "control/ovpn_status.h"
#include "session/push.h"
#include "session/tlsconf.h"

int64_t braid_gw_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "a.b.c.d:port" / "[v6]:port" (v4-mapped shown as IPv4), as OpenVPN's status file prints peers. */
static void addr_strings(struct gw_client *c)
{
	const union braid_sockaddr *a = &c->addr;
	uint16_t port = 0;

	c->ip[0] = 0;
	if (a->sa.sa_family == AF_INET) {
		inet_ntop(AF_INET, &a->in.sin_addr, c->ip, sizeof(c->ip));
		port = ntohs(a->in.sin_port);
	} else if (a->sa.sa_family == AF_INET6) {
		if (IN6_IS_ADDR_V4MAPPED(&a->in6.sin6_addr))
			inet_ntop(AF_INET, &a->in6.sin6_addr.s6_addr[12], c->ip, sizeof(c->ip));
		else
			inet_ntop(AF_INET6, &a->in6.sin6_addr, c->ip, sizeof(c->ip));
		port = ntohs(a->in6.sin6_port);
	}
	snprintf(c->port, sizeof(c->port), "%u", port);
	/* 2.6's mroute_addr_print: "1.2.3.4:port", "[2001:db8::2]:port" */
	snprintf(c->real, sizeof(c->real), strchr(c->ip, ':') ? "[%s]:%u" : "%s:%u", c->ip, port);
}

/* The bytes the cookie HMAC covers: the sockaddr with every padding byte zero. */
static size_t cookie_addr(const union braid_sockaddr *a, union braid_sockaddr *out)
{
	memset(out, 0, sizeof(*out));
	out->sa.sa_family = a->sa.sa_family;
	if (a->sa.sa_family == AF_INET) {
		out->in.sin_port = a->in.sin_port;
		out->in.sin_addr = a->in.sin_addr;
		return sizeof(struct sockaddr_in);
	}
	out->in6.sin6_port = a->in6.sin6_port;
	out->in6.sin6_addr = a->in6.sin6_addr;
	return sizeof(struct sockaddr_in6);
}

const char *braid_gw_cname(const struct gw_client *c)
{
	return c->cn[0] ? c->cn : "UNDEF";
}

/* ---------------------------------------------------------------------------------------- */
/* sending */

static int tcp_queue(struct gw_client *c, const uint8_t *pkt, size_t len)
{
	ssize_t n;

	if (len > 65535)
		return -EMSGSIZE;
	if (c->wlen - c->woff + len + 2 > TCP_WQ_MAX)
		return -ENOBUFS;
	if (c->woff && c->woff == c->wlen)
		c->woff = c->wlen = 0;
	if (!c->wbuf) {
		c->wbuf = malloc(TCP_WQ_MAX + 2);
		if (!c->wbuf)
			return -ENOMEM;
	}
	if (c->wlen + len + 2 > TCP_WQ_MAX + 2) {
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	c->wbuf[c->wlen] = (uint8_t)(len >> 8);
	c->wbuf[c->wlen + 1] = (uint8_t)len;
	memcpy(c->wbuf + c->wlen + 2, pkt, len);
	c->wlen += len + 2;
	while (c->woff < c->wlen) {
		n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c->woff += (size_t)n;
	}
	if (c->woff < c->wlen)
		ev_io_start(c->g->loop, &c->io_w);
	return 0;
}

void braid_gw_send_raw(struct gw_client *c, const uint8_t *pkt, size_t len)
{
	struct braid_gateway *g = c->g;

	if (c->tcp) {
		int r = tcp_queue(c, pkt, len);

		if (r && r != -ENOBUFS)
			braid_dbg("%s/%s: TCP send failed: %s", braid_gw_cname(c), c->real, strerror(-r));
	} else if (sendto(g->fd, pkt, len, 0, &c->addr.sa, braid_sockaddr_len(&c->addr)) < 0) {
		braid_dbg("%s/%s: sendto: %s", braid_gw_cname(c), c->real, strerror(errno));
		return;
	}
	g->st.link_tx_pkts++;
	c->tx_bytes += len;
}

/* Frame, encrypt and send one payload (IP packet, ping, OCC) to an active client. */
static void send_payload(struct gw_client *c, const uint8_t *p, size_t len)
{
	struct braid_gateway *g = c->g;
	uint8_t *fr = g->buf2 + HEADROOM;
	uint8_t out[BUF_SIZE];
	size_t flen, olen;
	int r;

	if (c->st != C_ACTIVE || !c->dc)
		return;
	if (c->mp) {
		braid_gw_mp_send(c, p, len);
		return;
	}
	r = braid_payload_frame(c->framing, p, len, fr, BUF_SIZE - HEADROOM, &flen);
	if (r)
		return;
	r = braid_dc_encrypt(c->dc, fr, flen, out, sizeof(out), &olen, NULL);
	if (r) {
		braid_dbg("%s/%s: encrypt failed: %s", braid_gw_cname(c), c->real, strerror(-r));
		return;
	}
	braid_gw_send_raw(c, out, olen);
	c->last_tx_ms = braid_gw_now_ms();
}

/* ---------------------------------------------------------------------------------------- */
/* client lifetime */

static void tcp_r_cb(struct ev_loop *loop, ev_io *w, int revents);
static void tcp_w_cb(struct ev_loop *loop, ev_io *w, int revents);

static void addr_insert(struct braid_gateway *g, struct gw_client *c);
static void addr_remove(struct braid_gateway *g, struct gw_client *c);

static unsigned long n_clients(const struct braid_gateway *g)
{
	return g->st.clients;
}

static int client_new(struct braid_gateway *g, const union braid_sockaddr *from, int tcp_fd,
		      struct gw_client **out)
{
	struct gw_client *c;
	uint32_t pid;

	for (pid = 0; pid < g->max_clients; pid++)
		if (!g->by_pid[pid])
			break;
	if (pid == g->max_clients) {
		g->st.max_clients_refused++;
		return -ENOSPC;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->g = g;
	c->pid = pid;
	c->cid = g->next_cid++;
	c->addr = *from;
	c->fd = tcp_fd;
	c->tcp = tcp_fd >= 0;
	c->st = C_HANDSHAKE;
	c->reauth_key = -1;
	c->created_ms = c->last_rx_ms = c->last_tx_ms = braid_gw_now_ms();
	c->since = c->last_ref = time(NULL);
	addr_strings(c);
	ev_timer_init(&c->ctl_t, braid_gw_ctl_cb, 0, 0);
	c->ctl_t.data = c;
	if (c->tcp) {
		int r = braid_tcpframe_init(&c->rx, BRAID_TCPFRAME_MAX_PKT);

		if (r) {
			free(c);
			return r;
		}
		ev_io_init(&c->io_r, tcp_r_cb, tcp_fd, EV_READ);
		ev_io_init(&c->io_w, tcp_w_cb, tcp_fd, EV_WRITE);
		c->io_r.data = c->io_w.data = c;
		ev_io_start(g->loop, &c->io_r);
	}
	g->by_pid[pid] = c;
	if (!c->tcp)
		addr_insert(g, c);
	g->st.clients++;
	g->st.sessions_created++;
	*out = c;
	return 0;
}

/* Release everything other clients could need (peer-id, routes, address) now; free later. */
void braid_gw_client_kill(struct gw_client *c, const char *why)
{
	struct braid_gateway *g = c->g;

	if (c->dead)
		return;
	braid_info("%s/%s: client removed (peer-id %u): %s", braid_gw_cname(c), c->real, c->pid, why);
	c->dead = true;
	ev_timer_stop(g->loop, &c->ctl_t);
	braid_gw_mp_stop(c);
	if (c->tcp) {
		ev_io_stop(g->loop, &c->io_r);
		ev_io_stop(g->loop, &c->io_w);
	}
	if (c->as.pid) {
		braid_authscript_cancel(&c->as);
		if (g->scripts)
			g->scripts--;
	}
	if (c->cc_file[0]) {
		unlink(c->cc_file);
		c->cc_file[0] = 0;
	}
	if (c->was_active && g->o->client_disconnect)
		braid_gw_start_disconnect_script(c);
	braid_vroute_del_owner(&g->routes, c->pid);
	if (c->has_pool)
		braid_pool_release(g->pool, c->pool_h);
	c->has_pool = false;
	g->by_pid[c->pid] = NULL;
	if (!c->tcp)
		addr_remove(g, c);
	g->st.clients--;
	g->st.clients_removed++;
	c->next_dead = g->dead;
	g->dead = c;
}

static void client_free(struct gw_client *c)
{
	braid_gw_release_held(c, false);
	braid_ctls_free(c->ctl);
	braid_gw_mp_stop(c);
	braid_dc_free(c->dc);
	braid_gw_push_out_free(&c->push);
	braid_ccd_free(&c->ccd);
	if (c->tcp && c->fd >= 0)
		close(c->fd);
	braid_tcpframe_free(&c->rx);
	free(c->wbuf);
	sodium_memzero(c, sizeof(*c));
	free(c);
}

void braid_gw_reap(struct braid_gateway *g)
{
	while (g->dead) {
		struct gw_client *c = g->dead;

		g->dead = c->next_dead;
		client_free(c);
	}
}

/* Bucket of an address: SipHash with a random key (source addresses are the attacker's choice). */
static size_t addr_bucket(const struct braid_gateway *g, const union braid_sockaddr *a)
{
	union braid_sockaddr n;
	size_t len = cookie_addr(a, &n);
	uint8_t out[crypto_shorthash_BYTES];
	uint64_t v = 0;

	crypto_shorthash(out, (const uint8_t *)&n, len, g->hkey);
	for (int i = 0; i < 8; i++)
		v = v << 8 | out[i];
	return (size_t)v & (g->n_buckets - 1);
}

static void addr_insert(struct braid_gateway *g, struct gw_client *c)
{
	size_t b = addr_bucket(g, &c->addr);

	c->hnext = g->by_addr[b];
	g->by_addr[b] = c;
}

static void addr_remove(struct braid_gateway *g, struct gw_client *c)
{
	struct gw_client **p = &g->by_addr[addr_bucket(g, &c->addr)];

	for (; *p; p = &(*p)->hnext)
		if (*p == c) {
			*p = c->hnext;
			c->hnext = NULL;
			return;
		}
}

static struct gw_client *by_addr(struct braid_gateway *g, const union braid_sockaddr *a)
{
	for (struct gw_client *c = g->by_addr[addr_bucket(g, a)]; c; c = c->hnext)
		if (braid_sockaddr_equal(&c->addr, a))
			return c;
	return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* received packets */

static void on_payload(struct gw_client *c, uint8_t *p, size_t len)
{
	struct braid_gateway *g = c->g;
	struct braid_payload pl;
	uint8_t src[16];
	uint32_t owner;
	int fam;

	braid_payload_classify(c->framing, p, len, &pl);
	switch (pl.kind) {
	case BRAID_PAYLOAD_IPV4:
	case BRAID_PAYLOAD_IPV6:
		break;
	case BRAID_PAYLOAD_OCC:
		if (pl.occ_type == BRAID_OCC_EXIT)
			braid_gw_client_kill(c, "explicit exit notification (OCC EXIT)");
		return;
	default:
		return;
	}
	/* the inner source must be one of the client's addresses or iroutes */
	if (braid_vroute_packet_src(pl.data, pl.len, &fam, src) ||
	    braid_vroute_lookup(&g->routes, fam, src, &owner) || owner != c->pid) {
		g->st.bad_source++;
		braid_dbg("%s/%s: inner packet with a source address not routed to this client",
			  braid_gw_cname(c), c->real);
		return;
	}
	c->last_ref = time(NULL);
	braid_mssfix_apply(&g->mss, (uint8_t *)pl.data, pl.len);
	if (g->o->client_to_client && !braid_vroute_lookup_packet(&g->routes, pl.data, pl.len, &owner) &&
	    owner != c->pid) {
		struct gw_client *d = g->by_pid[owner];

		if (d && d->st == C_ACTIVE) {
			g->st.c2c_forwarded++;
			send_payload(d, pl.data, pl.len);
			return;
		}
	}
	if (write(g->tun.fd, pl.data, pl.len) == (ssize_t)pl.len)
		g->st.tun_write_pkts++;
}

void braid_gw_deliver(struct gw_client *c, uint8_t *p, size_t len)
{
	on_payload(c, p, len);
}

/* A data packet for client c (already matched by peer-id or address). */
static void on_data(struct gw_client *c, uint8_t *pkt, size_t len, const union braid_sockaddr *from)
{
	struct braid_gateway *g = c->g;
	uint8_t *out = g->buf2 + HEADROOM;
	size_t olen;
	int r;

	if (c->st != C_ACTIVE || !c->dc) {
		g->st.data_unknown_peer++;
		return;
	}
	if (c->reauth_key >= 0 && (pkt[0] & BRAID_CTL_KEY_ID_MASK) == c->reauth_key) {
		/*
		 * The client uses the renegotiated key while auth-user-pass-verify still
		 * checks it (2.6 blocks in the script, so its packets wait in the socket):
		 * keep them until the answer.
		 */
		if (c->n_held < GW_HELD_MAX) {
			struct gw_held *h = &c->held[c->n_held];

			h->p = malloc(len);
			if (h->p) {
				memcpy(h->p, pkt, len);
				h->len = len;
				h->has_from = from != NULL;
				if (from)
					h->from = *from;
				c->n_held++;
			}
		}
		return;
	}
	r = braid_dc_decrypt(c->dc, pkt, len, braid_gw_now_ms() / 1000, out, BUF_SIZE - HEADROOM,
			     &olen, NULL);
	if (r) {
		char a[80];

		braid_sockaddr_str(from ? from : &c->addr, a, sizeof(a));
		if (r == -EBADMSG) {
			g->st.data_auth_failed++;
			braid_reject(&g->rej, BRAID_REJ_DATA_AUTH, braid_gw_now_ms(), 0,
				     "%s/%s: data packet authentication failed", braid_gw_cname(c), a);
		} else if (r == -EALREADY || r == -ESTALE) {
			braid_reject_replay(&g->rej, braid_gw_cname(c), a, pkt, len,
					    g->o->mute_replay_warnings, braid_gw_now_ms());
		}
		if (c->tcp && r != -EALREADY && r != -ESTALE) {
			/* OpenVPN: a decrypt failure is fatal on TCP */
			braid_gw_client_kill(c, "data channel decryption failed on TCP");
		}
		return;
	}
	if (from && !c->tcp && !braid_sockaddr_equal(from, &c->addr)) {
		struct gw_client *other = by_addr(g, from);
		char old[80];

		if (other && strcmp(other->cert_cn, c->cert_cn)) {
			/* 2.6: no float onto an address a client with another certificate uses */
			g->st.float_refused++;
			braid_dbg("%s/%s: float to %s refused: in use by %s", braid_gw_cname(c), c->real,
				  other->real, braid_gw_cname(other));
			return;
		}
		if (other)
			braid_gw_client_kill(other, "another session of this certificate floated to its address");
		snprintf(old, sizeof(old), "%s", c->real);
		addr_remove(g, c);
		c->addr = *from;
		addr_insert(g, c);
		addr_strings(c);
		g->st.floats++;
		braid_info("%s: peer-id %u floated from %s to %s", braid_gw_cname(c), c->pid, old, c->real);
	}
	c->last_rx_ms = braid_gw_now_ms();
	c->rx_bytes += len;
	on_payload(c, out, olen);
}

void braid_gw_release_held(struct gw_client *c, bool deliver)
{
	unsigned n = c->n_held;

	c->n_held = 0;
	for (unsigned i = 0; i < n; i++) {
		struct gw_held *h = &c->held[i];

		if (deliver && !c->dead && h->len <= BUF_SIZE - HEADROOM) {
			memcpy(c->g->buf + HEADROOM, h->p, h->len);
			on_data(c, c->g->buf + HEADROOM, h->len, h->has_from ? &h->from : NULL);
		}
		free(h->p);
		h->p = NULL;
	}
}

static void on_control(struct gw_client *c, const uint8_t *pkt, size_t len)
{
	int r = braid_ctls_input(c->ctl, pkt, len, braid_gw_now_ms());

	if (r == 0) {
		c->rx_bytes += len;
		if (c->st == C_ACTIVE)
			c->last_rx_ms = braid_gw_now_ms();
	} else {
		struct braid_gateway *g = c->g;
		char a[80];
		int k = braid_reject_ctl(&g->rej, braid_ctls_last_reason(c->ctl), g->ccfg.wrap, pkt, len,
					 braid_sockaddr_str(&c->addr, a, sizeof(a)),
					 braid_ctls_last_error(c->ctl), braid_gw_now_ms());

		if (c->tcp && k < 0 && c->st == C_HANDSHAKE && !c->rx_bytes) {
			/* a fresh stream whose first packet starts no session (stock 2.6 alike) */
			braid_reject(&g->rej, BRAID_REJ_UNROUTABLE, braid_gw_now_ms(), 0,
				     "TLS Error: Unroutable control packet received from %s (op=%s)", a,
				     braid_ctl_op_name(pkt[0] >> BRAID_CTL_OP_SHIFT));
			k = BRAID_REJ_UNROUTABLE;
		}
		/* OpenVPN: a TLS error on a stream closes the connection */
		if (c->tcp && k >= 0 && k != BRAID_REJ_REPLAY) {
			if (c->st != C_ACTIVE)
				braid_reject(&g->rej, BRAID_REJ_TCP_CLOSED, braid_gw_now_ms(), 0,
					     "%s: TCP connection closed: %s", a,
					     braid_reject_name((enum braid_reject_kind)k));
			braid_gw_client_kill(c, "TLS error on a TCP connection");
			return;
		}
	}
	braid_gw_ctl_run(c);
}

/* The cookie check refused a packet: the wrap's failure as stock logs it, else a stale or forged cookie. */
static void cookie_reject(struct braid_gateway *g, const uint8_t *pkt, size_t len,
			  const union braid_sockaddr *from, const char *why)
{
	enum braid_ctls_reason r = braid_ctls_cookie_last_reason(g->cookie);
	int64_t now = braid_gw_now_ms();
	char a[80];

	braid_sockaddr_str(from, a, sizeof(a));
	if (r == BRAID_CTLS_R_WRAP || r == BRAID_CTLS_R_MALFORMED) {
		braid_reject_ctl(&g->rej, r, g->ccfg.wrap, pkt, len, a, why, now);
		return;
	}
	braid_reject(&g->rej, BRAID_REJ_COOKIE, now, 0, "Packet (%s) with invalid or missing SID from %s",
		     braid_ctl_op_name(pkt[0] >> BRAID_CTL_OP_SHIFT), a);
	braid_dbg("%s: %s", a, why ? why : "");
}

/* A UDP packet from an address with no client: only the cookie exchange may go on. */
static void udp_unknown(struct braid_gateway *g, uint8_t *pkt, size_t len,
			const union braid_sockaddr *from)
{
	union braid_sockaddr ca;
	size_t calen = cookie_addr(from, &ca);
	uint8_t out[BRAID_CTL_MAX_PKT];
	size_t olen;
	const char *why = NULL;
	struct braid_ctls *s = NULL;
	struct gw_client *c;
	int r;

	if (braid_ctls_cookie_is_reset(pkt, len)) {
		r = braid_ctls_cookie_reply(g->cookie, pkt, len, &ca, calen, time(NULL), out,
					    sizeof(out), &olen, &why);
		if (r) {
			g->st.cookie_rejected++;
			cookie_reject(g, pkt, len, from, why);
			return;
		}
		if (sendto(g->fd, out, olen, 0, &from->sa, braid_sockaddr_len(from)) >= 0) {
			g->st.cookie_replies++;
			g->st.link_tx_pkts++;
		}
		return;
	}
	if ((pkt[0] >> BRAID_CTL_OP_SHIFT) != BRAID_OP_ACK_V1 &&
	    (pkt[0] >> BRAID_CTL_OP_SHIFT) != BRAID_OP_CONTROL_V1) {
		uint8_t op = pkt[0] >> BRAID_CTL_OP_SHIFT;
		char a[80];

		g->st.cookie_rejected++;
		braid_sockaddr_str(from, a, sizeof(a));
		if (!braid_ctl_op_is_control(op))
			braid_reject(&g->rej, BRAID_REJ_OPCODE, braid_gw_now_ms(), 0,
				     "TLS Error: unknown opcode received from %s op=%u", a, op);
		else
			braid_reject(&g->rej, BRAID_REJ_COOKIE, braid_gw_now_ms(), 0,
				     "Packet (%s) with invalid or missing SID from %s",
				     braid_ctl_op_name(op), a);
		return;
	}
	if (n_clients(g) >= g->max_clients) {
		g->st.max_clients_refused++;
		g->st.cookie_rejected++;
		return;
	}
	if (g->o->connect_freq_n > 0) {
		/* connect-freq N S: at most N new sessions per S seconds */
		int64_t now = braid_gw_now_ms();

		if (now - g->cf_start_ms >= (int64_t)g->o->connect_freq_sec * 1000) {
			g->cf_start_ms = now;
			g->cf_count = 0;
		}
		if (g->cf_count >= g->o->connect_freq_n) {
			g->st.connect_freq_refused++;
			g->st.cookie_rejected++;
			return;
		}
	}
	r = braid_ctls_new_from_cookie(&s, g->cookie, pkt, len, &ca, calen, time(NULL), braid_gw_now_ms(),
				       &why);
	if (r) {
		g->st.cookie_rejected++;
		cookie_reject(g, pkt, len, from, why ? why : strerror(-r));
		return;
	}
	r = client_new(g, from, -1, &c);
	if (r) {
		braid_ctls_free(s);
		braid_warn("new client refused: %s", r == -ENOSPC ? "max-clients reached" : strerror(-r));
		return;
	}
	c->ctl = s;
	c->rx_bytes += len;
	g->cf_count++;
	braid_info("%s: new client session (peer-id %u)", c->real, c->pid);
	braid_gw_ctl_run(c);
}

/* A data packet no session takes (no such peer-id, or an address without a client). */
static void unknown_peer(struct braid_gateway *g, const uint8_t *pkt, size_t len,
			 const union braid_sockaddr *from)
{
	char a[80];

	g->st.data_unknown_peer++;
	braid_sockaddr_str(from, a, sizeof(a));
	if (len >= 4 && (pkt[0] >> BRAID_CTL_OP_SHIFT) == BRAID_OP_DATA_V2)
		braid_reject(&g->rej, BRAID_REJ_UNKNOWN_PEER, braid_gw_now_ms(), 0,
			     "Data packet with unknown peer-id %u from %s dropped",
			     (unsigned)pkt[1] << 16 | (unsigned)pkt[2] << 8 | pkt[3], a);
	else
		braid_reject(&g->rej, BRAID_REJ_UNKNOWN_PEER, braid_gw_now_ms(), 0,
			     "Data packet (%s) from %s without a session dropped",
			     braid_ctl_op_name(pkt[0] >> BRAID_CTL_OP_SHIFT), a);
}

static void on_udp_packet(struct braid_gateway *g, uint8_t *pkt, size_t len,
			  const union braid_sockaddr *from)
{
	uint8_t op;
	struct gw_client *c;

	if (len < 1)
		return;
	g->st.link_rx_pkts++;
	op = pkt[0] >> BRAID_CTL_OP_SHIFT;
	if (op == BRAID_OP_DATA_V2) {
		uint32_t pid;

		if (len < 4) {
			unknown_peer(g, pkt, len, from);
			return;
		}
		pid = (uint32_t)pkt[1] << 16 | (uint32_t)pkt[2] << 8 | pkt[3];
		c = pid < g->max_clients ? g->by_pid[pid] : NULL;
		if (!c || c->tcp || !c->use_peer_id) {
			unknown_peer(g, pkt, len, from);
			return;
		}
		if (c->mp) {	/* a multipath client: any address, its engine learns the path */
			braid_gw_mp_input(c, pkt, len, from);
			return;
		}
		on_data(c, pkt, len, from);
		return;
	}
	c = by_addr(g, from);
	if (op == BRAID_OP_DATA_V1) {
		if (!c) {
			unknown_peer(g, pkt, len, from);
			return;
		}
		on_data(c, pkt, len, NULL);
		return;
	}
	if (!c) {
		udp_unknown(g, pkt, len, from);
		return;
	}
	if (braid_ctls_cookie_is_reset(pkt, len)) {
		/* the peer restarted from the same address: a fresh cookie exchange */
		uint8_t lsid[BRAID_CTL_SID_LEN], rsid[BRAID_CTL_SID_LEN];

		braid_ctls_session_ids(c->ctl, lsid, rsid);
		if (len >= 9 && memcmp(pkt + 1, rsid, BRAID_CTL_SID_LEN)) {
			udp_unknown(g, pkt, len, from);	/* answered statelessly; c stays until the cookie ACK */
			return;
		}
	}
	if ((op == BRAID_OP_ACK_V1 || op == BRAID_OP_CONTROL_V1) && (pkt[0] & 7) == 0 && len >= 9) {
		/* an ACK of a new cookie from a restarted client at the same address */
		uint8_t lsid[BRAID_CTL_SID_LEN], rsid[BRAID_CTL_SID_LEN];

		braid_ctls_session_ids(c->ctl, lsid, rsid);
		if (memcmp(pkt + 1, rsid, BRAID_CTL_SID_LEN)) {
			struct braid_ctls *s = NULL;
			union braid_sockaddr ca;
			size_t calen = cookie_addr(from, &ca);
			const char *why;

			if (!braid_ctls_new_from_cookie(&s, g->cookie, pkt, len, &ca, calen, time(NULL),
							braid_gw_now_ms(), &why)) {
				struct gw_client *n;

				braid_gw_client_kill(c, "the client restarted (new session from the same address)");
				if (client_new(g, from, -1, &n)) {
					braid_ctls_free(s);
					return;
				}
				n->ctl = s;
				braid_info("%s: new client session (peer-id %u)", n->real, n->pid);
				braid_gw_ctl_run(n);
				return;
			}
		}
	}
	on_control(c, pkt, len);
}

static void sock_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_gateway *g = w->data;
	union braid_sockaddr from;
	socklen_t fl;
	ssize_t n;

	(void)loop;
	(void)revents;
	for (int i = 0; i < RX_BATCH; i++) {
		fl = sizeof(from);
		n = recvfrom(g->fd, g->buf + HEADROOM, BUF_SIZE - HEADROOM, 0, &from.sa, &fl);
		if (n < 0)
			break;
		on_udp_packet(g, g->buf + HEADROOM, (size_t)n, &from);
	}
	braid_gw_reap(g);
}

/* ---------------------------------------------------------------------------------------- */
/* TCP */

static void tcp_packet(struct gw_client *c, uint8_t *pkt, size_t len)
{
	uint8_t op = pkt[0] >> BRAID_CTL_OP_SHIFT;

	c->g->st.link_rx_pkts++;
	if (op == BRAID_OP_DATA_V2 || op == BRAID_OP_DATA_V1) {
		if (op == BRAID_OP_DATA_V2 && len >= 4 &&
		    ((uint32_t)pkt[1] << 16 | (uint32_t)pkt[2] << 8 | pkt[3]) != c->pid) {
			c->g->st.data_unknown_peer++;
			return;
		}
		on_data(c, pkt, len, NULL);
		return;
	}
	on_control(c, pkt, len);
}

_Static_assert(BRAID_TCPFRAME_MAX_PKT <= BUF_SIZE - HEADROOM, "a TCP frame must fit g->buf");

static void tcp_r_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct gw_client *c = w->data;
	struct braid_gateway *g = c->g;
	const uint8_t *pkt;
	uint8_t *space;
	size_t room, plen;
	ssize_t n;
	int r;

	(void)loop;
	(void)revents;
	space = braid_tcpframe_space(&c->rx, &room);
	n = room ? recv(c->fd, space, room, 0) : 0;
	if (room && (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))) {
		braid_gw_client_kill(c, n == 0 ? "connection closed by the client" : "TCP read error");
		braid_gw_reap(g);
		return;
	}
	if (n > 0)
		braid_tcpframe_commit(&c->rx, (size_t)n);
	while (!c->dead && (r = braid_tcpframe_next(&c->rx, &pkt, &plen)) == 0) {
		memcpy(g->buf + HEADROOM, pkt, plen);	/* plen <= BRAID_TCPFRAME_MAX_PKT */
		tcp_packet(c, g->buf + HEADROOM, plen);
	}
	if (!c->dead && r == -EMSGSIZE) {
		char a[80];

		braid_reject_tcp_length(&g->rej, braid_sockaddr_str(&c->addr, a, sizeof(a)),
					c->rx.bad_len, c->rx.max_pkt, braid_gw_now_ms());
		if (c->st != C_ACTIVE)
			g->rej.count[BRAID_REJ_TCP_CLOSED]++;	/* the line above says it */
		braid_gw_client_kill(c, "bad encapsulated packet length: connection closed");
	}
	braid_gw_reap(g);
}

static void tcp_w_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct gw_client *c = w->data;
	ssize_t n;

	(void)revents;
	while (c->woff < c->wlen) {
		n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == EINTR)
				continue;
			braid_gw_client_kill(c, "TCP write error");
			braid_gw_reap(c->g);
			return;
		}
		c->woff += (size_t)n;
	}
	ev_io_stop(loop, w);
}

/* TCP connections whose TLS handshake has not finished (each bounded by hand-window). */
static unsigned tcp_unauth(const struct braid_gateway *g)
{
	unsigned n = 0;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		const struct gw_client *c = g->by_pid[i];

		if (c && c->tcp && c->st == C_HANDSHAKE)
			n++;
	}
	return n;
}

static void accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_gateway *g = w->data;
	union braid_sockaddr from;
	socklen_t fl = sizeof(from);
	struct gw_client *c;
	char err[256];
	int fd, one = 1, r;

	(void)loop;
	(void)revents;
	fd = accept4(g->fd, &from.sa, &fl, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (n_clients(g) >= g->max_clients) {
		g->st.max_clients_refused++;
		close(fd);
		return;
	}
	if (tcp_unauth(g) >= GW_TCP_UNAUTH_MAX) {
		char a[80];

		braid_reject(&g->rej, BRAID_REJ_TCP_REFUSED, braid_gw_now_ms(), 0,
			     "%s: TCP connection refused: %d unauthenticated TCP connections (limit)",
			     braid_sockaddr_str(&from, a, sizeof(a)), GW_TCP_UNAUTH_MAX);
		close(fd);
		return;
	}
	r = client_new(g, &from, fd, &c);
	if (r) {
		close(fd);
		return;
	}
	r = braid_ctls_new(&c->ctl, &g->ccfg, braid_gw_now_ms(), err, sizeof(err));
	if (r) {
		braid_err("%s: cannot create a control session: %s", c->real, err);
		braid_gw_client_kill(c, "control session set-up failed");
		braid_gw_reap(g);
		return;
	}
	braid_info("%s: TCP connection accepted (peer-id %u)", c->real, c->pid);
}

/* ---------------------------------------------------------------------------------------- */
/* TUN, timers, status */

static void tun_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_gateway *g = w->data;
	uint8_t *p = g->buf + HEADROOM;
	uint32_t owner;
	ssize_t n;

	(void)loop;
	(void)revents;
	for (int i = 0; i < RX_BATCH; i++) {
		n = read(g->tun.fd, p, BUF_SIZE - HEADROOM);
		if (n <= 0)
			break;
		g->st.tun_read_pkts++;
		if (braid_vroute_lookup_packet(&g->routes, p, (size_t)n, &owner) ||
		    !g->by_pid[owner] || g->by_pid[owner]->st != C_ACTIVE) {
			g->st.tun_no_route++;
			continue;
		}
		braid_mssfix_apply(&g->mss, p, (size_t)n);
		send_payload(g->by_pid[owner], p, (size_t)n);
	}
	braid_gw_reap(g);
}

static void auth_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_gateway *g = w->data;

	(void)revents;
	for (uint32_t i = 0; i < g->max_clients && g->scripts; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || !c->as.pid)
			continue;
		braid_gw_auth_poll(c);
		if (!c->dead)
			braid_gw_ctl_run(c);
	}
	if (!g->scripts)
		ev_timer_stop(loop, w);
	braid_gw_reap(g);
}

static void write_status(struct braid_gateway *g)
{
	struct braid_ovpn_status_client *cl;
	struct braid_ovpn_status_route *rt;
	char (*v4)[INET_ADDRSTRLEN], (*v6)[INET6_ADDRSTRLEN], (*rv)[INET6_ADDRSTRLEN + 4];
	unsigned nc = 0, nr = 0;
	char title[128];
	int r;

	cl = calloc(g->max_clients, sizeof(*cl));
	v4 = calloc(g->max_clients, sizeof(*v4));
	v6 = calloc(g->max_clients, sizeof(*v6));
	rt = calloc(g->routes.n + 1, sizeof(*rt));
	rv = calloc(g->routes.n + 1, sizeof(*rv));
	if (!cl || !v4 || !v6 || !rt || !rv)
		goto out;
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->st != C_ACTIVE)
			continue;
		if (c->has_v4)
			braid_gw_v4str(c->v4, v4[nc], sizeof(v4[nc]));
		if (c->has_v6)
			inet_ntop(AF_INET6, &c->v6, v6[nc], sizeof(v6[nc]));
		cl[nc] = (struct braid_ovpn_status_client){
			.cn = braid_gw_cname(c), .real = c->real, .virt4 = v4[nc], .virt6 = v6[nc],
			.bytes_rx = c->rx_bytes, .bytes_tx = c->tx_bytes, .since = c->since,
			.username = c->user, .client_id = c->cid, .peer_id = c->pid,
			.cipher = c->push.cipher,
		};
		nc++;
	}
	for (size_t i = 0; i < g->routes.n; i++) {
		const struct braid_vroute_entry *e = &g->routes.e[i];
		struct gw_client *c = e->owner < g->max_clients ? g->by_pid[e->owner] : NULL;
		size_t l;

		if (!c)
			continue;
		inet_ntop(e->family, e->addr, rv[nr], INET6_ADDRSTRLEN);
		if (e->iroute) {
			l = strlen(rv[nr]);
			snprintf(rv[nr] + l, sizeof(rv[nr]) - l, "/%u", e->prefix);
		}
		rt[nr] = (struct braid_ovpn_status_route){ .virt = rv[nr], .cn = braid_gw_cname(c),
							   .real = c->real, .last_ref = c->last_ref };
		nr++;
	}
	snprintf(title, sizeof(title), "braidd %s (OpenVPN 2.6 compatible gateway)",
		 BRAID_VERSION_STR);
	r = braid_ovpn_status_write(g->o->status_path, g->o->status_version, title, time(NULL), cl,
				    nc, rt, nr);
	if (r)
		braid_warn("status file '%s': %s", g->o->status_path, strerror(-r));
out:
	free(cl);
	free(v4);
	free(v6);
	free(rt);
	free(rv);
}

static void log_stats(const struct braid_gateway *g)
{
	const struct braid_gateway_stats *s = &g->st;
	const uint64_t *rj = g->rej.count;

	braid_info("gateway stats: clients %lu, sessions created %llu, live control sessions %lu, "
		   "cookie replies %llu, cookie rejected %llu, removed %llu, auth failed %llu, "
		   "max-clients refused %llu, connect-freq refused %llu, floats %llu, "
		   "floats refused %llu, bad source %llu, unknown peer %llu, "
		   "decrypt failures %llu, tun no route %llu, c2c %llu, tun rx %llu tx %llu, "
		   "link rx %llu tx %llu, hmac failed %llu, tls-crypt failed %llu, bad opcode %llu, "
		   "replays %llu, tcp bad length %llu, tcp unauth closed %llu, tcp refused %llu, "
		   "malformed %llu, unroutable %llu",
		   s->clients, (unsigned long long)s->sessions_created, braid_ctls_live_sessions(),
		   (unsigned long long)s->cookie_replies, (unsigned long long)s->cookie_rejected,
		   (unsigned long long)s->clients_removed, (unsigned long long)s->auth_failed,
		   (unsigned long long)s->max_clients_refused,
		   (unsigned long long)s->connect_freq_refused, (unsigned long long)s->floats,
		   (unsigned long long)s->float_refused,
		   (unsigned long long)s->bad_source, (unsigned long long)s->data_unknown_peer,
		   (unsigned long long)s->data_auth_failed, (unsigned long long)s->tun_no_route,
		   (unsigned long long)s->c2c_forwarded, (unsigned long long)s->tun_read_pkts,
		   (unsigned long long)s->tun_write_pkts, (unsigned long long)s->link_rx_pkts,
		   (unsigned long long)s->link_tx_pkts, (unsigned long long)rj[BRAID_REJ_HMAC],
		   (unsigned long long)rj[BRAID_REJ_TLS_CRYPT], (unsigned long long)rj[BRAID_REJ_OPCODE],
		   (unsigned long long)rj[BRAID_REJ_REPLAY], (unsigned long long)rj[BRAID_REJ_TCP_LENGTH],
		   (unsigned long long)rj[BRAID_REJ_TCP_CLOSED],
		   (unsigned long long)rj[BRAID_REJ_TCP_REFUSED],
		   (unsigned long long)rj[BRAID_REJ_MALFORMED],
		   (unsigned long long)rj[BRAID_REJ_UNROUTABLE]);
	braid_gw_mp_log(g);
}

/* reneg-bytes / reneg-pkts count the primary key's traffic; a packet-id near its wrap renegotiates too */
static void renegotiate_if_due(struct gw_client *c, int64_t now)
{
	struct braid_dc_key_stats ks;
	int kid = braid_dc_primary_key_id(c->dc);

	if (kid >= 0 && !braid_dc_key_stats(c->dc, (unsigned)kid, &ks))
		braid_ctls_data_counters(c->ctl, ks.tx_bytes + ks.rx_bytes,
					 ks.tx_packets + ks.rx_packets);
	if (braid_dc_needs_renegotiation(c->dc))
		braid_ctls_renegotiate(c->ctl, now);
	braid_gw_ctl_run(c);
}

static void tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_gateway *g = w->data;
	struct braid_options *o = g->o;
	int64_t now = braid_gw_now_ms();
	int hand = (o->hand_window > 0 ? o->hand_window : 60) * 1000;

	(void)loop;
	(void)revents;
	braid_reject_tick(&g->rej, now);
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c)
			continue;
		switch (c->st) {
		case C_AUTH:
			braid_gw_auth_poll(c);
			if (!c->dead)
				braid_gw_ctl_run(c);
			break;
		case C_HANDSHAKE:
			if (now - c->created_ms > hand)
				braid_gw_client_kill(c, "TLS key negotiation did not finish within hand-window");
			break;
		case C_DYING:
			if (now >= c->die_at_ms)
				braid_gw_client_kill(c, "authentication failed");
			break;
		case C_ACTIVE:
			if (c->as.pid) {
				braid_gw_auth_poll(c);
				if (c->dead)
					break;
				braid_gw_ctl_run(c);
			}
			if (c->st != C_ACTIVE || c->dead)
				break;
			if (o->ping_restart > 0 && now - c->last_rx_ms > (int64_t)o->ping_restart * 1000) {
				braid_gw_client_kill(c, "inactivity timeout (ping-restart)");
				break;
			}
			if (o->keepalive_ping > 0 &&
			    now - c->last_tx_ms >= (int64_t)o->keepalive_ping * 1000)
				send_payload(c, braid_ping_magic, BRAID_PING_LEN);
			if (c->dc && c->ctl)
				renegotiate_if_due(c, now);
			break;
		}
	}
	if (g->n_bg)
		braid_gw_bg_poll(g, false);
	if (o->status_path && now >= g->next_status_ms) {
		write_status(g);
		g->next_status_ms = now + (o->status_interval > 0 ? o->status_interval : 60) * 1000;
	}
	if (o->ifconfig_pool_persist && g->pool && now >= g->next_persist_ms) {
		int r = braid_pool_persist_save(g->pool, o->ifconfig_pool_persist);

		if (r)
			braid_warn("ifconfig-pool-persist '%s': %s", o->ifconfig_pool_persist,
				   strerror(-r));
		g->next_persist_ms = now + (o->ifconfig_pool_persist_sec > 0 ?
					    o->ifconfig_pool_persist_sec : 600) * 1000;
	}
	braid_gw_reap(g);
}

/* RESTART to every active client (explicit-exit-notify 2: "RESTART,[N]" = try the next server). */
static unsigned notify_restart(struct braid_gateway *g)
{
	const char *msg = g->o->explicit_exit_notify >= 2 ? "RESTART,[N]" : "RESTART";
	unsigned n = 0;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->st != C_ACTIVE || braid_ctls_send_text(c->ctl, msg))
			continue;
		braid_gw_ctl_run(c);
		n++;
	}
	braid_gw_reap(g);
	if (n)
		braid_info("shutting down: sent %s to %u client(s)", msg, n);
	return n;
}

static void exit_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)w;
	(void)revents;
	ev_break(loop, EVBREAK_ALL);
}

static void sig_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct braid_gateway *g = w->data;

	(void)revents;
	if (w->signum == SIGUSR2) {
		log_stats(g);
		return;
	}
	if (w->signum == SIGHUP || w->signum == SIGUSR1) {
		/* not the default action (exit without cleanup): the restart comes with issue 10 */
		braid_info("%s: restart is not implemented in gateway mode; ignored",
			   w->signum == SIGHUP ? "SIGHUP" : "SIGUSR1");
		return;
	}
	if (!g->exit_req && g->o->explicit_exit_notify > 0 && notify_restart(g)) {
		/* 2.6 with explicit-exit-notify: tell the clients to reconnect, exit a second later */
		g->exit_req = true;
		ev_timer_set(&g->exit_t, 1.0, 0);
		ev_timer_start(loop, &g->exit_t);
		return;
	}
	g->exit_req = true;
	ev_break(loop, EVBREAK_ALL);
}

/* ---------------------------------------------------------------------------------------- */
/* set-up */

static int load_wrap(struct braid_gateway *g)
{
	return braid_tlsconf_wrap(g->o, true, &g->ccfg, &g->wrap_key);
}

static int make_tls(struct braid_gateway *g)
{
	return braid_tlsconf_ctx(g->o, true, &g->ssl);
}

/* The server's OCC string, as 2.6 builds it (fact sheet §7); mismatches only warn. */
static void build_occ(struct braid_gateway *g)
{
	const struct braid_options *o = g->o;
	bool comp = o->compress != BRAID_OPT_COMP_NONE;
	int n;

	n = snprintf(g->occ, sizeof(g->occ), "V4,dev-type tun,link-mtu %d,tun-mtu %d,proto %s%s",
		     o->tun_mtu + (g->tcp ? 43 : 41) + (comp ? 1 : 0), o->tun_mtu,
		     g->family == AF_INET6 ? (g->tcp ? "TCPv6_SERVER" : "UDPv6")
					   : (g->tcp ? "TCPv4_SERVER" : "UDPv4"),
		     comp ? ",comp-lzo" : "");
	if (g->ccfg.wrap == BRAID_CTLS_WRAP_AUTH && g->ccfg.key_direction >= 0)
		n += snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",keydir %d",
			      g->ccfg.key_direction);
	n += snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",auth %s,keysize 128",
		      o->auth_digest[0] ? o->auth_digest : "SHA1");
	if (g->ccfg.wrap == BRAID_CTLS_WRAP_AUTH)
		n += snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",tls-auth");
	snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",key-method 2,tls-server");
}

/*
 * `mode server` long form: the gateway's own `ifconfig LOCAL NETMASK|PEER` and an explicit
 * `ifconfig-pool START END [MASK]`; nothing else is implied (the admin pushes route-gateway,
 * topology and routes, and adds the `route` for net30).
 */
static int setup_longform(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	struct braid_pool_config pc;
	int r;

	g->longform = true;
	g->has_v4 = true;
	g->gw4 = ntohl(o->ifc_local.s_addr);
	g->mask4 = g->subnet ? ntohl(o->ifc_remote.s_addr) : 0xffffffffu;
	if (!o->has_ifconfig_pool) {
		braid_info("no ifconfig-pool: clients need an ifconfig-push (client-config-dir)");
		return 0;
	}
	memset(&pc, 0, sizeof(pc));
	pc.has_v4 = true;
	pc.topo = g->subnet ? BRAID_POOL_SUBNET : BRAID_POOL_NET30;
	pc.v4_start = ntohl(o->ifconfig_pool_start.s_addr);
	pc.v4_end = ntohl(o->ifconfig_pool_end.s_addr);
	pc.v4_netmask = o->ifconfig_pool_mask.s_addr ? ntohl(o->ifconfig_pool_mask.s_addr) : g->mask4;
	pc.duplicate_cn = o->duplicate_cn;
	r = braid_pool_new(&g->pool, &pc);
	if (r) {
		braid_err("option 'ifconfig-pool': empty or invalid range%s",
			  g->subnet ? "" : " (net30: START must begin a /30 block)");
		return r;
	}
	braid_info("IFCONFIG POOL: size %u", braid_pool_size(g->pool));
	return 0;
}

static int setup_addresses(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	struct braid_pool_config pc;
	const char *why = "";
	unsigned skipped = 0;
	int r;

	g->subnet = o->topology == BRAID_TOPO_SUBNET;
	g->has_v4 = o->has_server;
	g->has_v6 = o->has_server6;
	if (!g->has_v4 && !g->has_v6 && o->has_ifconfig)
		return setup_longform(g);
	if (!g->has_v4 && !g->has_v6) {
		braid_err("gateway mode needs 'server NETWORK NETMASK' and/or 'server-ipv6 NET/BITS' "
			  "(or 'ifconfig' + 'ifconfig-pool')");
		return -EINVAL;
	}
	g->mask4 = ntohl(o->server_mask.s_addr);
	r = braid_pool_config_server(&pc, g->has_v4, ntohl(o->server_net.s_addr), g->mask4,
				     g->subnet ? BRAID_POOL_SUBNET : BRAID_POOL_NET30, g->has_v6,
				     &o->server6_net, o->server6_prefix, &g->gw4, &g->gw6, &why);
	if (r) {
		braid_err("option 'server': %s", why);
		return r;
	}
	g->prefix6 = o->server6_prefix;
	if (o->has_ifconfig_pool) {
		pc.v4_start = ntohl(o->ifconfig_pool_start.s_addr);
		pc.v4_end = ntohl(o->ifconfig_pool_end.s_addr);
		if (o->ifconfig_pool_mask.s_addr)
			pc.v4_netmask = ntohl(o->ifconfig_pool_mask.s_addr);
	} else if (o->server_nopool) {
		pc.has_v4 = false;
	}
	pc.duplicate_cn = o->duplicate_cn;
	if (pc.has_v4 || pc.has_v6) {
		r = braid_pool_new(&g->pool, &pc);
		if (r) {
			braid_err("address pool: empty or invalid range");
			return r;
		}
		braid_info("IFCONFIG POOL: size %u", braid_pool_size(g->pool));
		if (o->ifconfig_pool_persist) {
			r = braid_pool_persist_load(g->pool, o->ifconfig_pool_persist, &skipped);
			if (r)
				braid_warn("ifconfig-pool-persist '%s': %s", o->ifconfig_pool_persist,
					   strerror(-r));
			else if (skipped)
				braid_warn("ifconfig-pool-persist '%s': %u line(s) ignored",
					   o->ifconfig_pool_persist, skipped);
		}
	}
	return 0;
}

static int setup_tun(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	struct braid_tun *t = &g->tun;
	int r;

	r = braid_tun_open(t, o);
	if (r) {
		braid_err("cannot open the TUN device '%s': %s", o->dev, strerror(-r));
		return r;
	}
	g->tun_open = true;
	r = braid_nl_link_set(t->nl, t->ifindex, o->tun_mtu, true);
	if (r) {
		braid_err("%s: cannot set mtu %d / link up: %s", t->name, o->tun_mtu, strerror(-r));
		return r;
	}
	if (g->has_v4) {
		uint32_t gw = htonl(g->gw4), net = o->server_net.s_addr;
		uint8_t prefix = 0;
		char a[INET_ADDRSTRLEN];

		while (prefix < 32 && (g->mask4 & (0x80000000u >> prefix)))
			prefix++;
		if (g->subnet) {
			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &gw, NULL, prefix);
		} else if (g->longform) {
			uint32_t peer = o->ifc_remote.s_addr;

			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &gw, &peer, 32);
		} else {
			uint32_t peer = htonl(g->gw4 + 1);

			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &gw, &peer, 32);
			if (!r)
				r = braid_nl_route(t->nl, true, t->ifindex, AF_INET, &net, prefix, NULL, 0);
		}
		if (r) {
			braid_err("%s: cannot add the gateway address/route: %s", t->name, strerror(-r));
			return r;
		}
		braid_gw_v4str(g->gw4, a, sizeof(a));
		braid_info("%s: gateway address %s/%u (%s)", t->name, a, prefix,
			   g->subnet ? "topology subnet" : "topology net30");
	}
	if (g->has_v6) {
		char a[INET6_ADDRSTRLEN];

		r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET6, &g->gw6, NULL, g->prefix6);
		if (r) {
			braid_err("%s: cannot add the IPv6 gateway address: %s", t->name, strerror(-r));
			return r;
		}
		braid_info("%s: gateway address %s/%u", t->name,
			   inet_ntop(AF_INET6, &g->gw6, a, sizeof(a)), g->prefix6);
	}
	/* `route` / `route-ipv6` of the gateway: networks behind clients (with their iroute) */
	for (unsigned i = 0; i < o->n_routes; i++) {
		const struct braid_opt_route *rt = &o->routes[i];
		char a[INET6_ADDRSTRLEN];

		r = braid_nl_route(t->nl, true, t->ifindex, rt->family, rt->dst, rt->prefix, NULL,
				   rt->metric);
		inet_ntop(rt->family, rt->dst, a, sizeof(a));
		if (r) {
			braid_err("%s: cannot add route %s/%u: %s", t->name, a, rt->prefix, strerror(-r));
			return r;
		}
		braid_info("%s: route %s/%u", t->name, a, rt->prefix);
	}
	fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static int setup_socket(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	union braid_sockaddr bind_addr;
	char err[256], s[96];
	int r, one = 1;

	r = braid_sock_resolve(o->local, o->lport ? o->lport : BRAID_OPT_DEFAULT_PORT, o->family,
			       true, &bind_addr, err, sizeof(err));
	if (r) {
		braid_err("option 'local': %s", err);
		return r;
	}
	g->family = bind_addr.sa.sa_family;
	if (!g->tcp) {
		r = braid_sock_open_udp(g->family, &bind_addr, false, &g->fd);
		if (r) {
			braid_err("cannot bind UDP %s: %s",
				  braid_sockaddr_str(&bind_addr, s, sizeof(s)), strerror(-r));
			return r;
		}
	} else {
		g->fd = socket(g->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (g->fd < 0)
			return -errno;
		setsockopt(g->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (g->family == AF_INET6) {
			int zero = 0;

			setsockopt(g->fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		}
		if (bind(g->fd, &bind_addr.sa, braid_sockaddr_len(&bind_addr)) ||
		    listen(g->fd, 64)) {
			r = -errno;
			braid_err("cannot listen on TCP %s: %s",
				  braid_sockaddr_str(&bind_addr, s, sizeof(s)), strerror(-r));
			return r;
		}
	}
	braid_info("gateway listening on %s %s", g->tcp ? "TCP" : "UDP",
		   braid_sockaddr_str(&bind_addr, s, sizeof(s)));
	return 0;
}

int braid_gateway_new(struct braid_gateway **out, struct braid_options *o)
{
	struct braid_gateway *g;
	static const int sigs[SIG_N] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 };
	char err[256];
	int r;

	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->o = o;
	g->fd = -1;
	g->tun.fd = -1;
	g->tcp = o->proto == BRAID_PROTO_TCP_SERVER;
	g->ciphers = o->data_ciphers[0] ? o->data_ciphers : DEFAULT_CIPHERS;
	g->max_clients = o->max_clients > 0 ? (uint32_t)o->max_clients : 1024;
	if (g->max_clients > BRAID_DC_PEER_ID_MAX)
		g->max_clients = BRAID_DC_PEER_ID_MAX;
	braid_vroute_init(&g->routes);
	g->buf = malloc(BUF_SIZE);
	g->buf2 = malloc(BUF_SIZE);
	g->by_pid = calloc(g->max_clients, sizeof(*g->by_pid));
	for (g->n_buckets = 64; g->n_buckets < 2 * (size_t)g->max_clients; g->n_buckets *= 2)
		;
	g->by_addr = calloc(g->n_buckets, sizeof(*g->by_addr));
	randombytes_buf(g->hkey, sizeof(g->hkey));
	r = -ENOMEM;
	if (!g->buf || !g->buf2 || !g->by_pid || !g->by_addr)
		goto fail;
	if (o->script_security < 2 &&
	    (o->auth_user_pass_verify || o->client_connect || o->client_disconnect)) {
		braid_err("option '%s' needs 'script-security 2' (calling external programs is off)",
			  o->auth_user_pass_verify ? "auth-user-pass-verify" :
			  o->client_connect ? "client-connect" : "client-disconnect");
		r = -EPERM;
		goto fail;
	}
	r = load_wrap(g);
	if (r)
		goto fail;
	r = make_tls(g);
	if (r)
		goto fail;
	r = setup_addresses(g);
	if (r)
		goto fail;
	r = setup_socket(g);
	if (r)
		goto fail;
	build_occ(g);
	g->ccfg.server = true;
	g->ccfg.ssl_ctx = g->ssl;
	g->ccfg.auth_digest = o->auth_digest[0] ? o->auth_digest : NULL;
	g->ccfg.tcp = g->tcp;
	g->ccfg.hand_window_s = o->hand_window > 0 ? (unsigned)o->hand_window : 0;
	g->ccfg.tls_timeout_s = o->tls_timeout > 0 ? (unsigned)o->tls_timeout : 0;
	g->ccfg.reneg_sec = o->reneg_sec > 0 ? (unsigned)o->reneg_sec : UINT32_MAX;
	g->ccfg.tran_window_s = o->tran_window > 0 ? (unsigned)o->tran_window : 0;
	g->ccfg.reneg_bytes = o->reneg_bytes;
	g->ccfg.reneg_pkts = o->reneg_pkts;
	g->ccfg.options_string = g->occ;
	if (!g->tcp) {
		r = braid_ctls_cookie_new(&g->cookie, &g->ccfg, NULL, err, sizeof(err));
		if (r) {
			braid_err("control channel set-up failed: %s", err);
			goto fail;
		}
	}
	r = setup_tun(g);
	if (r)
		goto fail;
	braid_mssfix_init(&g->mss, o->mssfix, g->family == AF_INET6 ? 40 : 20,
			  BRAID_DC_V2_OVERHEAD + 1, o->tun_mtu);

	g->loop = ev_loop_new(EVFLAG_AUTO);
	if (!g->loop) {
		r = -ENOMEM;
		goto fail;
	}
	ev_io_init(&g->tun_r, tun_cb, g->tun.fd, EV_READ);
	ev_io_init(&g->sock_r, g->tcp ? accept_cb : sock_cb, g->fd, EV_READ);
	g->tun_r.data = g->sock_r.data = g;
	ev_io_start(g->loop, &g->tun_r);
	ev_io_start(g->loop, &g->sock_r);
	ev_timer_init(&g->tick, tick_cb, 1.0, 1.0);
	g->tick.data = g;
	ev_timer_start(g->loop, &g->tick);
	ev_timer_init(&g->exit_t, exit_cb, 1.0, 0);
	ev_init(&g->auth_t, auth_cb);
	g->auth_t.repeat = 0.05;
	g->auth_t.data = g;
	for (int i = 0; i < SIG_N; i++) {
		ev_signal_init(&g->sig[i], sig_cb, sigs[i]);
		g->sig[i].data = g;
		ev_signal_start(g->loop, &g->sig[i]);
	}
	signal(SIGPIPE, SIG_IGN);
	g->next_status_ms = braid_gw_now_ms();
	g->cf_start_ms = braid_gw_now_ms();
	g->next_persist_ms = braid_gw_now_ms() + 1000;
	braid_info("gateway ready: %s, max %u clients, data ciphers %s%s%s", g->tun.name,
		   g->max_clients, g->ciphers, o->client_to_client ? ", client-to-client" : "",
		   o->duplicate_cn ? ", duplicate-cn" : "");
	*out = g;
	return 0;
fail:
	braid_gateway_free(g);
	return r;
}

int braid_gateway_run(struct braid_gateway *g)
{
	ev_run(g->loop, 0);
	log_stats(g);
	return 0;
}

void braid_gateway_stats(const struct braid_gateway *g, struct braid_gateway_stats *st)
{
	*st = g->st;
}

void braid_gateway_free(struct braid_gateway *g)
{
	if (!g)
		return;
	if (g->by_pid) {
		for (uint32_t i = 0; i < g->max_clients; i++)
			if (g->by_pid[i])
				braid_gw_client_kill(g->by_pid[i], "gateway shutting down");
		braid_gw_reap(g);
	}
	if (g->n_bg)
		braid_gw_bg_poll(g, true);	/* client-disconnect of the clients dropped above */
	free(g->bg);
	if (g->pool && g->o->ifconfig_pool_persist)
		braid_pool_persist_save(g->pool, g->o->ifconfig_pool_persist);
	if (g->loop) {
		for (int i = 0; i < SIG_N; i++)
			ev_signal_stop(g->loop, &g->sig[i]);
		ev_loop_destroy(g->loop);
	}
	if (g->tun_open)
		braid_tun_close(&g->tun, g->o);
	if (g->fd >= 0)
		close(g->fd);
	braid_ctls_cookie_free(g->cookie);
	braid_tls_ctx_free(g->ssl);
	braid_pool_free(g->pool);
	braid_vroute_free(&g->routes);
	braid_key2_wipe(&g->wrap_key);
	free(g->by_pid);
	free(g->by_addr);
	free(g->buf);
	free(g->buf2);
	free(g);
}
