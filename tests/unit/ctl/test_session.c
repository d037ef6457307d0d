// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_session.c - a client and a server control-channel session wired
 * together in process with a virtual clock: tls-auth, tls-crypt and no wrap,
 * with packet loss, duplication and reordering injected; the server goes
 * through the stateless cookie. Checks KEYS_READY, identical EKM and PRF
 * keys, text messages, renegotiation through key_id 1..7 and back to 1,
 * lame-duck expiry, and that garbage / wrong-key / bad-certificate input
 * gives errors and leaves no state.
 *
 *   test_session PKI_DIR     (PKI from session_pki.sh)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "cookie.h"
#include "session.h"
#include "tls.h"
#include "check.h"

static const char *pki;
static SSL_CTX *ctx_client, *ctx_server, *ctx_rogue;
static unsigned tls_mtu; /* 0 = default 1250 */

/* ---- a lossy virtual network ---------------------------------------------------------- */

#define QMAX 256
struct qpkt {
	int64_t at;
	size_t len;
	uint8_t b[2048];
};
struct queue {
	struct qpkt p[QMAX];
	unsigned n;
};

struct net {
	uint64_t rng;
	unsigned loss_pct, dup_pct, reorder_pct;
	struct queue c2s, s2c;
	uint64_t sent, lost, dups;
};

static unsigned rnd(struct net *n, unsigned mod)
{
	n->rng ^= n->rng << 13;
	n->rng ^= n->rng >> 7;
	n->rng ^= n->rng << 17;
	return (unsigned)(n->rng % mod);
}

static void q_push(struct queue *q, const uint8_t *b, size_t len, int64_t at)
{
	if (q->n == QMAX)
		return;
	q->p[q->n].at = at;
	q->p[q->n].len = len;
	memcpy(q->p[q->n].b, b, len);
	q->n++;
}

static void net_send(struct net *n, struct queue *q, const uint8_t *b, size_t len, int64_t now)
{
	n->sent++;
	if (rnd(n, 100) < n->loss_pct) {
		n->lost++;
		return;
	}
	int64_t delay = 5 + (rnd(n, 100) < n->reorder_pct ? 30 : 0); /* late = overtaken */
	q_push(q, b, len, now + delay);
	if (rnd(n, 100) < n->dup_pct) {
		n->dups++;
		q_push(q, b, len, now + delay + 7);
	}
}

/* Pop the earliest due packet. */
static bool q_pop(struct queue *q, int64_t now, struct qpkt *out)
{
	int best = -1;

	for (unsigned i = 0; i < q->n; i++)
		if (q->p[i].at <= now && (best < 0 || q->p[i].at < q->p[best].at))
			best = (int)i;
	if (best < 0)
		return false;
	*out = q->p[best];
	q->p[best] = q->p[--q->n];
	return true;
}

static int64_t q_next(const struct queue *q)
{
	int64_t t = INT64_MAX;

	for (unsigned i = 0; i < q->n; i++)
		if (q->p[i].at < t)
			t = q->p[i].at;
	return t;
}

/* ---- the pair ------------------------------------------------------------------------ */

static const uint8_t addr_c[6] = { 10, 99, 0, 2, 0x9c, 0x40 };

struct side {
	struct braid_ctls *s;
	int ready[8];          /* KEYS_READY count per key_id */
	int expired[8];
	int soft_resets;
	int errors, fatal;
	char last_error[300];
	char texts[32][256];
	int n_texts;
	int last_ready;
};

struct pair {
	struct net net;
	struct braid_ctls_config ccfg, scfg;
	struct braid_key2 wkey;
	struct braid_ctls_cookie *cookie;
	struct side c, sv;
	int64_t now;
	unsigned cookie_replies;
	int last_new_from_cookie;
};

static void drain_events(struct side *sd)
{
	struct braid_ctls_event ev;

	while (sd->s && braid_ctls_next_event(sd->s, &ev) == 0) {
		switch (ev.type) {
		case BRAID_CTLS_EV_KEYS_READY:
			sd->ready[ev.key_id]++;
			sd->last_ready = ev.key_id;
			break;
		case BRAID_CTLS_EV_KEY_EXPIRED:
			sd->expired[ev.key_id]++;
			break;
		case BRAID_CTLS_EV_SOFT_RESET:
			sd->soft_resets++;
			break;
		case BRAID_CTLS_EV_TEXT:
			if (sd->n_texts < 32)
				snprintf(sd->texts[sd->n_texts++], 256, "%.250s", ev.text);
			break;
		case BRAID_CTLS_EV_ERROR:
			sd->errors++;
			sd->fatal += ev.fatal;
			snprintf(sd->last_error, sizeof(sd->last_error), "%.290s", ev.text);
			break;
		default:
			break;
		}
	}
}

static void gen_key(struct braid_key2 *k, uint8_t seed)
{
	for (unsigned i = 0; i < sizeof(k->k); i++)
		k->k[i] = (uint8_t)(i * 7 + seed);
}

static void pair_init(struct pair *p, int wrap, uint64_t seed, unsigned loss, unsigned dup,
		      unsigned reorder)
{
	char err[256] = "";
	int ret;

	memset(p, 0, sizeof(*p));
	p->net.rng = seed * 2654435761u + 1;
	p->net.loss_pct = loss;
	p->net.dup_pct = dup;
	p->net.reorder_pct = reorder;
	gen_key(&p->wkey, 3);
	p->now = 1000;

	p->scfg.server = true;
	p->scfg.ssl_ctx = ctx_server;
	p->scfg.wrap = wrap;
	p->scfg.wrap_key = &p->wkey;
	p->scfg.key_direction = 0;
	p->scfg.tran_window_s = 5;
	p->scfg.tls_mtu = tls_mtu;
	p->scfg.reneg_sec = UINT32_MAX;
	p->scfg.options_string = "V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto UDPv4,keydir 0,auth SHA1,keysize 128,tls-auth,key-method 2,tls-server";

	p->ccfg = p->scfg;
	p->ccfg.server = false;
	p->ccfg.ssl_ctx = ctx_client;
	p->ccfg.key_direction = 1;
	p->ccfg.options_string = "V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto UDPv4,keydir 1,auth SHA1,keysize 128,tls-auth,key-method 2,tls-client";
	p->ccfg.peer_info = "IV_VER=2.6.14\nIV_PLAT=linux\nIV_PROTO=478\nIV_CIPHERS=AES-256-GCM:CHACHA20-POLY1305\nIV_BRAID_MP=1\n";
	p->ccfg.username = "alice";
	p->ccfg.password = "s3cret";

	ret = braid_ctls_cookie_new(&p->cookie, &p->scfg, NULL, err, sizeof(err));
	CHECKM(ret == 0, "cookie_new: %s", err);
	ret = braid_ctls_new(&p->c.s, &p->ccfg, p->now, err, sizeof(err));
	CHECKM(ret == 0, "client new: %s", err);
}

static void pair_free(struct pair *p)
{
	braid_ctls_free(p->c.s);
	braid_ctls_free(p->sv.s);
	braid_ctls_cookie_free(p->cookie);
}

/* Deliver one packet to the server side: the cookie until a session exists. */
static void to_server(struct pair *p, const uint8_t *b, size_t len)
{
	uint8_t out[2048];
	size_t olen;
	const char *why;

	if (!p->sv.s) {
		if (braid_ctls_cookie_is_reset(b, len)) {
			if (braid_ctls_cookie_reply(p->cookie, b, len, addr_c, sizeof(addr_c),
						    p->now / 1000 + 1700000000, out, sizeof(out),
						    &olen, &why) == 0) {
				p->cookie_replies++;
				net_send(&p->net, &p->net.s2c, out, olen, p->now);
			}
			return;
		}
		p->last_new_from_cookie = braid_ctls_new_from_cookie(
			&p->sv.s, p->cookie, b, len, addr_c, sizeof(addr_c), p->now / 1000 + 1700000000,
			p->now, &why);
		return;
	}
	braid_ctls_input(p->sv.s, b, len, p->now);
}

/* Run until cond(p) or for max_ms of virtual time. */
static bool pair_run(struct pair *p, int64_t max_ms, bool (*cond)(struct pair *))
{
	int64_t end = p->now + max_ms;
	uint8_t buf[2048];
	size_t len;
	struct qpkt q;

	while (p->now <= end) {
		bool any = true;
		while (any) {
			any = false;
			while (braid_ctls_output(p->c.s, p->now, buf, sizeof(buf), &len) == 0 && len) {
				net_send(&p->net, &p->net.c2s, buf, len, p->now);
				any = true;
			}
			while (p->sv.s && braid_ctls_output(p->sv.s, p->now, buf, sizeof(buf), &len) == 0 &&
			       len) {
				net_send(&p->net, &p->net.s2c, buf, len, p->now);
				any = true;
			}
			while (q_pop(&p->net.c2s, p->now, &q)) {
				to_server(p, q.b, q.len);
				any = true;
			}
			while (q_pop(&p->net.s2c, p->now, &q)) {
				braid_ctls_input(p->c.s, q.b, q.len, p->now);
				any = true;
			}
			drain_events(&p->c);
			drain_events(&p->sv);
		}
		if (cond && cond(p))
			return true;
		int64_t next = braid_ctls_deadline(p->c.s);
		if (p->sv.s && braid_ctls_deadline(p->sv.s) < next)
			next = braid_ctls_deadline(p->sv.s);
		if (q_next(&p->net.c2s) < next)
			next = q_next(&p->net.c2s);
		if (q_next(&p->net.s2c) < next)
			next = q_next(&p->net.s2c);
		if (next <= p->now)
			next = p->now + 1;
		if (next > end)
			next = end + 1;
		p->now = next;
	}
	return cond ? cond(p) : true;
}

static bool both_ready0(struct pair *p)
{
	return p->c.ready[0] && p->sv.ready[0];
}

static int want_key;
static bool both_ready_want(struct pair *p)
{
	return p->c.last_ready == want_key && p->sv.last_ready == want_key &&
	       braid_ctls_current_key_id(p->c.s) == want_key &&
	       p->sv.s && braid_ctls_current_key_id(p->sv.s) == want_key;
}

static void check_keys_equal(struct pair *p, unsigned kid)
{
	struct braid_key2 ce, se, cp, sp;

	CHECK_EQ(braid_ctls_derive(p->c.s, kid, BRAID_CTLS_KDF_EKM, &ce), 0);
	CHECK_EQ(braid_ctls_derive(p->sv.s, kid, BRAID_CTLS_KDF_EKM, &se), 0);
	CHECK_EQ(braid_ctls_derive(p->c.s, kid, BRAID_CTLS_KDF_PRF, &cp), 0);
	CHECK_EQ(braid_ctls_derive(p->sv.s, kid, BRAID_CTLS_KDF_PRF, &sp), 0);
	CHECK_MEM(ce.k, se.k, sizeof(ce.k));
	CHECK_MEM(cp.k, sp.k, sizeof(cp.k));
	CHECK(memcmp(ce.k, cp.k, sizeof(ce.k)) != 0);
}

static bool got_text_s(struct pair *p)
{
	return p->sv.n_texts > 0;
}

static bool got_text_c(struct pair *p)
{
	return p->c.n_texts > 0;
}

/* A full session: handshake, text, derive, 8 renegotiations (key_id 1..7, 1), lame duck expiry. */
static void test_full(int wrap, uint64_t seed, unsigned loss, unsigned dup, unsigned reorder)
{
	struct pair *p = calloc(1, sizeof(*p));
	unsigned long live0 = braid_ctls_live_sessions();
	struct braid_ctls_stats st;
	uint8_t kid = 0;

	fprintf(stderr, "-- full: wrap %d seed %llu loss %u%% dup %u%% reorder %u%%\n", wrap,
		(unsigned long long)seed, loss, dup, reorder);
	pair_init(p, wrap, seed, loss, dup, reorder);
	CHECKM(pair_run(p, 50000, both_ready0), "no KEYS_READY: client err '%s' server err '%s'",
	       braid_ctls_last_error(p->c.s), p->sv.s ? braid_ctls_last_error(p->sv.s) : "(none)");
	if (!p->sv.s) {
		pair_free(p);
		free(p);
		return;
	}
	CHECK_EQ(p->c.ready[0], 1);
	CHECK_EQ(p->sv.ready[0], 1);
	CHECK(p->cookie_replies >= 1);
	CHECK_EQ(p->c.errors, 0);
	CHECK_EQ(p->sv.errors, 0);
	check_keys_equal(p, 0);
	CHECK_STR(braid_ctls_peer_cn(p->sv.s), "client1");
	CHECK_STR(braid_ctls_peer_cn(p->c.s), "server");
	CHECK_STR(braid_ctls_peer_username(p->sv.s), "alice");
	CHECK_STR(braid_ctls_peer_password(p->sv.s), "s3cret");
	CHECK_STR(braid_ctls_peer_info(p->sv.s), p->ccfg.peer_info);
	CHECK_STR(braid_ctls_peer_options(p->sv.s), p->ccfg.options_string);
	CHECK_STR(braid_ctls_peer_options(p->c.s), p->scfg.options_string);
	CHECK_STR(braid_ctls_peer_info(p->c.s), "");
	CHECK(strlen(braid_ctls_peer_serial(p->sv.s)) > 0);
	/* session ids agree */
	uint8_t cl[8], cr[8], sl[8], sr[8];
	braid_ctls_session_ids(p->c.s, cl, cr);
	braid_ctls_session_ids(p->sv.s, sl, sr);
	CHECK_MEM(cl, sr, 8);
	CHECK_MEM(cr, sl, 8);

	/* text both ways */
	CHECK_EQ(braid_ctls_send_text(p->c.s, "PUSH_REQUEST"), 0);
	CHECK(pair_run(p, 30000, got_text_s));
	CHECK_STR(p->sv.texts[0], "PUSH_REQUEST");
	CHECK_EQ(braid_ctls_send_text(p->sv.s, "PUSH_REPLY,route-gateway 10.8.0.1,topology subnet,ping 10,ping-restart 60,ifconfig 10.8.0.2 255.255.255.0,peer-id 0,cipher AES-256-GCM,protocol-flags cc-exit tls-ekm"), 0);
	CHECK(pair_run(p, 30000, got_text_c));
	CHECK_STR(p->c.texts[0], "PUSH_REPLY,route-gateway 10.8.0.1,topology subnet,ping 10,ping-restart 60,ifconfig 10.8.0.2 255.255.255.0,peer-id 0,cipher AES-256-GCM,protocol-flags cc-exit tls-ekm");
	CHECK_EQ(braid_ctls_send_text(p->c.s, "BAD\x01TEXT"), -EINVAL);

	/* 8 renegotiations, alternately started by each side: key_id 1..7 then 1 */
	for (int r = 0; r < 8; r++) {
		struct side *ini = r % 2 ? &p->sv : &p->c;
		kid = (uint8_t)(r % 7 + 1);
		want_key = kid;
		CHECK_EQ(braid_ctls_renegotiate(ini->s, p->now), 0);
		CHECK_EQ(braid_ctls_renegotiate(ini->s, p->now), -EBUSY);
		CHECKM(pair_run(p, 50000, both_ready_want), "renegotiation %d to key_id %u failed: c '%s' s '%s'",
		       r, kid, braid_ctls_last_error(p->c.s), braid_ctls_last_error(p->sv.s));
		check_keys_equal(p, kid);
		/* text on the new key */
		int nt = p->sv.n_texts;
		CHECK_EQ(braid_ctls_send_text(p->c.s, "PUSH_REQUEST"), 0);
		for (int i = 0; i < 300 && p->sv.n_texts == nt; i++)
			pair_run(p, 100, NULL);
		CHECK_EQ(p->sv.n_texts, nt + 1);
	}
	CHECK_EQ(braid_ctls_current_key_id(p->c.s), 1);
	CHECK_EQ(p->c.ready[1], 2);
	CHECK_EQ(p->sv.ready[1], 2);
	for (int k = 2; k <= 7; k++) {
		CHECK_EQ(p->c.ready[k], 1);
		CHECK_EQ(p->sv.ready[k], 1);
	}
	CHECK_EQ(p->c.soft_resets, 8);
	CHECK_EQ(p->sv.soft_resets, 8);
	/* lame duck (key 7) expires after tran-window (5 s) */
	pair_run(p, 6000, NULL);
	CHECK_EQ(p->c.expired[7], 1);
	CHECK_EQ(p->sv.expired[7], 1);
	CHECK_EQ(braid_ctls_derive(p->c.s, 7, BRAID_CTLS_KDF_EKM, &(struct braid_key2){ 0 }), -ENOKEY);
	braid_ctls_stats(p->c.s, &st);
	CHECK_EQ(st.key_states, 1);
	CHECK_EQ(st.renegotiations, 8);
	CHECK_EQ(p->c.errors + p->sv.errors, 0);
	if (loss)
		CHECK(st.retransmits > 0);
	fprintf(stderr, "   sent %llu lost %llu dup %llu, client retransmits %llu\n",
		(unsigned long long)p->net.sent, (unsigned long long)p->net.lost,
		(unsigned long long)p->net.dups, (unsigned long long)st.retransmits);
	CHECK_EQ(braid_ctls_live_sessions(), live0 + 2);
	pair_free(p);
	CHECK_EQ(braid_ctls_live_sessions(), live0);
	free(p);
}

/* A text flood the caller does not drain: TEXT dropped, KEYS_READY of a renegotiation kept. */
static void test_text_flood(void)
{
	struct pair *p = calloc(1, sizeof(*p));
	struct braid_ctls_event ev;
	struct braid_ctls_stats st;
	uint8_t buf[2048];
	size_t len;
	struct qpkt q;
	int texts = 0, ready1 = 0, expired0 = 0;

	pair_init(p, BRAID_CTLS_WRAP_CRYPT, 31, 0, 0, 0);
	CHECK(pair_run(p, 5000, both_ready0));
	for (int i = 0; i < 100; i++) {
		char m[32];
		snprintf(m, sizeof(m), "INFO,%d", i);
		CHECK_EQ(braid_ctls_send_text(p->sv.s, m), 0);
	}
	CHECK_EQ(braid_ctls_renegotiate(p->sv.s, p->now), 0);
	/* run without draining the client's events */
	for (int i = 0; i < 2000; i++) {
		while (braid_ctls_output(p->c.s, p->now, buf, sizeof(buf), &len) == 0 && len)
			net_send(&p->net, &p->net.c2s, buf, len, p->now);
		while (braid_ctls_output(p->sv.s, p->now, buf, sizeof(buf), &len) == 0 && len)
			net_send(&p->net, &p->net.s2c, buf, len, p->now);
		while (q_pop(&p->net.c2s, p->now, &q))
			braid_ctls_input(p->sv.s, q.b, q.len, p->now);
		while (q_pop(&p->net.s2c, p->now, &q))
			braid_ctls_input(p->c.s, q.b, q.len, p->now);
		drain_events(&p->sv);
		p->now += 5;
	}
	while (braid_ctls_next_event(p->c.s, &ev) == 0) {
		texts += ev.type == BRAID_CTLS_EV_TEXT;
		ready1 += ev.type == BRAID_CTLS_EV_KEYS_READY && ev.key_id == 1;
		expired0 += ev.type == BRAID_CTLS_EV_KEY_EXPIRED && ev.key_id == 0;
	}
	braid_ctls_stats(p->c.s, &st);
	CHECK_EQ(ready1, 1);
	CHECK_EQ(expired0, 1); /* tran-window 5 s passed */
	CHECK_EQ(texts + (int)st.events_dropped, 100);
	CHECK(st.events_dropped > 0);
	CHECK_EQ(braid_ctls_current_key_id(p->c.s), 1);
	pair_free(p);
	free(p);
}

/*
 * Mutated copies of authentic packets (one random byte flipped, or truncated, or grown)
 * into a live server session: with tls-auth/tls-crypt every one is rejected by the wrap and
 * counts only as rx_auth_failed/rx_dropped; without a wrap nothing crashes. Then the
 * originals are delivered and the texts arrive.
 */
static void test_mutations(int wrap)
{
	struct pair *p = calloc(1, sizeof(*p));
	struct braid_ctls_stats st0, st1;
	static uint8_t pk[8][2048];
	size_t pl[8], n = 0;
	uint8_t m[2100];
	unsigned rejected = 0, tries = 3000;

	pair_init(p, wrap, 51, 0, 0, 0);
	CHECK(pair_run(p, 5000, both_ready0));
	CHECK_EQ(braid_ctls_send_text(p->c.s, "PUSH_REQUEST"), 0);
	CHECK_EQ(braid_ctls_send_text(p->c.s, "INFO,two"), 0);
	while (n < 8 && braid_ctls_output(p->c.s, p->now, pk[n], sizeof(pk[n]), &pl[n]) == 0 && pl[n])
		n++;
	CHECK(n >= 1);
	braid_ctls_stats(p->sv.s, &st0);
	for (unsigned i = 0; i < tries; i++) {
		size_t k = rnd(&p->net, (unsigned)n), len = pl[k];
		memcpy(m, pk[k], len);
		switch (rnd(&p->net, 3)) {
		case 0: /* flip a byte (not byte 0: that changes the opcode class) */
			m[1 + rnd(&p->net, (unsigned)len - 1)] ^= (uint8_t)(1 + rnd(&p->net, 255));
			break;
		case 1:
			len = rnd(&p->net, (unsigned)len);
			break;
		default:
			m[len] = (uint8_t)rnd(&p->net, 256);
			len++;
			break;
		}
		if (braid_ctls_input(p->sv.s, m, len, p->now) != 0)
			rejected++;
	}
	braid_ctls_stats(p->sv.s, &st1);
	if (wrap != BRAID_CTLS_WRAP_NONE) {
		CHECK_EQ(rejected, tries);
		CHECK_EQ(st1.rx_packets, st0.rx_packets);
		CHECK_EQ(st1.rx_dropped - st0.rx_dropped, tries);
		CHECK(st1.rx_auth_failed - st0.rx_auth_failed > tries / 2);
	}
	CHECK_EQ(st1.key_states, 1);
	/* the originals still work */
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(braid_ctls_input(p->sv.s, pk[i], pl[i], p->now), 0);
	drain_events(&p->sv);
	if (wrap != BRAID_CTLS_WRAP_NONE) {
		CHECK_EQ(p->sv.n_texts, 2);
		CHECK_STR(p->sv.texts[0], "PUSH_REQUEST");
		CHECK_STR(p->sv.texts[1], "INFO,two");
		CHECK_EQ(p->sv.errors, 0);
	}
	fprintf(stderr, "-- mutations wrap %d: %u/%u rejected\n", wrap, rejected, tries);
	pair_free(p);
	free(p);
}

static char split_out[8][64];
static int split_n;

static void split_cb(void *arg, const char *msg)
{
	(void)arg;
	if (split_n < 8)
		snprintf(split_out[split_n++], sizeof(split_out[0]), "%s", msg);
}

static int split(const char *rec, size_t len)
{
	char buf[256];

	memcpy(buf, rec, len);
	split_n = 0;
	return braid_ctls_text_split(buf, len, split_cb, NULL);
}

/* Records -> messages: NUL split, CR/LF strip, control characters rejected. */
static void test_text_split(void)
{
	CHECK_EQ(split("PUSH_REQUEST", 12), 0); /* no NUL at all */
	CHECK_EQ(split_n, 1);
	CHECK_STR(split_out[0], "PUSH_REQUEST");
	CHECK_EQ(split("PUSH_REPLY,a\0INFO,b\0", 21), 0);
	CHECK_EQ(split_n, 2);
	CHECK_STR(split_out[0], "PUSH_REPLY,a");
	CHECK_STR(split_out[1], "INFO,b");
	CHECK_EQ(split("AUTH_FAILED\r\n\0", 14), 0);
	CHECK_EQ(split_n, 1);
	CHECK_STR(split_out[0], "AUTH_FAILED");
	CHECK_EQ(split("\0\0\r\n\0", 5), 0);
	CHECK_EQ(split_n, 0);
	CHECK_EQ(split("A\tB\0OK\0C\x1b[2J\0D\x7f\0", 16), 3);
	CHECK_EQ(split_n, 1);
	CHECK_STR(split_out[0], "OK");
	CHECK_EQ(split("X\rY\0", 4), 1); /* CR inside a message is a control char */
	CHECK_EQ(split_n, 0);
	CHECK_EQ(split("", 0), 0);
	CHECK_EQ(split_n, 0);
}

/* Automatic renegotiation by reneg-sec on the server. */
static bool ready1(struct pair *p)
{
	return p->c.ready[1] && p->sv.ready[1];
}

static void test_reneg_sec(void)
{
	struct pair *p = calloc(1, sizeof(*p));

	pair_init(p, BRAID_CTLS_WRAP_AUTH, 7, 0, 0, 0);
	/* server renegotiates after 10 s (the client never would) */
	braid_ctls_cookie_free(p->cookie);
	p->scfg.reneg_sec = 10;
	char err[200];
	CHECK_EQ(braid_ctls_cookie_new(&p->cookie, &p->scfg, NULL, err, sizeof(err)), 0);
	CHECK(pair_run(p, 5000, both_ready0));
	int64_t t0 = p->now;
	CHECK(pair_run(p, 20000, ready1));
	CHECK(p->now - t0 >= 9900 && p->now - t0 < 12000);
	CHECK_EQ(p->sv.soft_resets, 1);
	pair_free(p);
	free(p);
}

/* ---- negative cases: no state for unauthenticated or wrong packets --------------------- */

static void test_garbage_and_wrong_key(int wrap)
{
	struct pair *p = calloc(1, sizeof(*p)), *q = calloc(1, sizeof(*q));
	unsigned long live0 = braid_ctls_live_sessions();
	struct braid_ctls_cookie_stats cs;
	struct braid_ctls_stats st0, st1;
	uint8_t buf[2048], out[2048];
	size_t len, olen;
	const char *why;
	struct braid_ctls *s = NULL;

	fprintf(stderr, "-- negative: wrap %d\n", wrap);
	pair_init(p, wrap, 11, 0, 0, 0);
	/* the client's reset, as a stock client would send it */
	CHECK_EQ(braid_ctls_output(p->c.s, p->now, buf, sizeof(buf), &len), 0);
	CHECK(len > 0);

	/* garbage at the cookie: error, nothing allocated */
	uint8_t g[100];
	for (unsigned i = 0; i < sizeof(g); i++)
		g[i] = (uint8_t)(i * 37 + 1);
	g[0] = (uint8_t)(BRAID_OP_HARD_RESET_CLIENT_V2 << 3);
	int ret = braid_ctls_cookie_reply(p->cookie, g, sizeof(g), addr_c, sizeof(addr_c), 1700000000,
					  out, sizeof(out), &olen, &why);
	CHECK(ret < 0);
	CHECK(why != NULL);
	g[0] = (uint8_t)(BRAID_OP_CONTROL_V1 << 3);
	ret = braid_ctls_new_from_cookie(&s, p->cookie, g, sizeof(g), addr_c, sizeof(addr_c),
					 1700000000, p->now, &why);
	CHECK(ret < 0);
	CHECK(s == NULL);
	CHECK_EQ(braid_ctls_live_sessions(), live0 + 1); /* only the client */

	/* a wrong-key client (tls-auth/crypt): the reset is rejected statelessly */
	if (wrap != BRAID_CTLS_WRAP_NONE) {
		pair_init(q, wrap, 12, 0, 0, 0);
		gen_key(&q->wkey, 99);
		braid_ctls_free(q->c.s);
		char err[200];
		CHECK_EQ(braid_ctls_new(&q->c.s, &q->ccfg, q->now, err, sizeof(err)), 0);
		CHECK_EQ(braid_ctls_output(q->c.s, q->now, out, sizeof(out), &olen), 0);
		ret = braid_ctls_cookie_reply(p->cookie, out, olen, addr_c, sizeof(addr_c), 1700000000,
					      buf, sizeof(buf), &len, &why);
		CHECK_EQ(ret, -EBADMSG);
		CHECKM(why && strstr(why, wrap == BRAID_CTLS_WRAP_AUTH ? "HMAC" : "tag"),
		       "why = %s", why ? why : "(null)");
		pair_free(q);
	}

	/* a real handshake, then garbage into the live sessions */
	braid_ctls_free(p->c.s);
	char err[200];
	CHECK_EQ(braid_ctls_new(&p->c.s, &p->ccfg, p->now, err, sizeof(err)), 0);
	CHECK(pair_run(p, 20000, both_ready0));
	braid_ctls_stats(p->sv.s, &st0);
	ret = braid_ctls_input(p->sv.s, g, sizeof(g), p->now);
	CHECK(ret < 0);
	if (wrap == BRAID_CTLS_WRAP_AUTH)
		CHECK(strstr(braid_ctls_last_error(p->sv.s), "tls-auth: packet verification failed"));
	else if (wrap == BRAID_CTLS_WRAP_CRYPT)
		CHECK(strstr(braid_ctls_last_error(p->sv.s), "tls-crypt: packet verification failed"));
	else
		CHECKM(ret == -ESRCH || ret == -EBADMSG, "ret %d: %s", ret, braid_ctls_last_error(p->sv.s));
	/* tls-crypt-v2 and key-method 1 opcodes, data opcodes, a truncated packet */
	g[0] = (uint8_t)(BRAID_OP_HARD_RESET_CLIENT_V3 << 3);
	CHECK_EQ(braid_ctls_input(p->sv.s, g, sizeof(g), p->now), -EOPNOTSUPP);
	CHECK_STR(braid_ctls_last_error(p->sv.s), "tls-crypt-v2 is not supported (P_CONTROL_HARD_RESET_CLIENT_V3)");
	g[0] = (uint8_t)(BRAID_OP_HARD_RESET_CLIENT_V1 << 3);
	CHECK_EQ(braid_ctls_input(p->sv.s, g, sizeof(g), p->now), -EPROTO);
	CHECK_STR(braid_ctls_last_error(p->sv.s), "peer tried unsupported key-method 1");
	g[0] = (uint8_t)(BRAID_OP_DATA_V2 << 3);
	CHECK_EQ(braid_ctls_input(p->sv.s, g, sizeof(g), p->now), -EPROTO);
	CHECK_STR(braid_ctls_last_error(p->sv.s), "data packet (P_DATA_V2) given to the control channel");
	g[0] = (uint8_t)(BRAID_OP_CONTROL_V1 << 3);
	CHECK_EQ(braid_ctls_input(p->sv.s, g, 3, p->now), -EBADMSG);
	g[0] = (uint8_t)(BRAID_OP_HARD_RESET_SERVER_V2 << 3);
	CHECK_EQ(braid_ctls_input(p->sv.s, g, sizeof(g), p->now), -EPROTO);
	CHECK_STR(braid_ctls_last_error(p->sv.s), "P_CONTROL_HARD_RESET_SERVER_V2 from the wrong role (we are the server)");
	braid_ctls_stats(p->sv.s, &st1);
	CHECK_EQ(st1.rx_packets, st0.rx_packets);
	CHECK_EQ(st1.key_states, st0.key_states);
	CHECK_EQ(st1.rx_dropped, st0.rx_dropped + 6);
	/* replay of an authentic packet: the wrap's replay window drops the copy */
	if (wrap != BRAID_CTLS_WRAP_NONE) {
		uint8_t pk[2048];
		size_t pl;
		CHECK_EQ(braid_ctls_send_text(p->c.s, "INFO,one"), 0);
		CHECK_EQ(braid_ctls_output(p->c.s, p->now, pk, sizeof(pk), &pl), 0);
		CHECK(pl > 0);
		CHECK_EQ(braid_ctls_input(p->sv.s, pk, pl, p->now), 0);
		CHECK_EQ(braid_ctls_input(p->sv.s, pk, pl, p->now), -EALREADY);
		CHECK(strstr(braid_ctls_last_error(p->sv.s), "replayed packet") != NULL);
		drain_events(&p->sv);
		CHECK_STR(p->sv.texts[p->sv.n_texts - 1], "INFO,one");
	}
	/* the sessions still work */
	CHECK_EQ(braid_ctls_send_text(p->c.s, "PUSH_REQUEST"), 0);
	CHECK(pair_run(p, 10000, got_text_s));
	CHECK_EQ(p->c.errors + p->sv.errors, 0);

	/* a third packet ACKing a cookie made for another address: no session */
	{
		struct pair *r = calloc(1, sizeof(*r));
		static const uint8_t other[6] = { 10, 99, 0, 3, 0x9c, 0x40 };
		pair_init(r, wrap, 13, 0, 0, 0);
		CHECK_EQ(braid_ctls_output(r->c.s, r->now, buf, sizeof(buf), &len), 0);
		CHECK_EQ(braid_ctls_cookie_reply(p->cookie, buf, len, other, sizeof(other),
						 1700000000, out, sizeof(out), &olen, &why), 0);
		CHECK_EQ(braid_ctls_input(r->c.s, out, olen, r->now), 0);
		r->now += 10;
		int n = 0;
		unsigned long before = braid_ctls_live_sessions();
		while (braid_ctls_output(r->c.s, r->now, buf, sizeof(buf), &len) == 0 && len) {
			ret = braid_ctls_new_from_cookie(&s, p->cookie, buf, len, addr_c,
							 sizeof(addr_c), 1700000000, r->now, &why);
			CHECK_EQ(ret, -EBADMSG);
			CHECK_STR(why, "session id cookie invalid or expired");
			/* the right address but 3 slots (90 s) later: expired */
			ret = braid_ctls_new_from_cookie(&s, p->cookie, buf, len, other,
							 sizeof(other), 1700000000 + 95, r->now, &why);
			CHECK_EQ(ret, -EBADMSG);
			n++;
		}
		CHECK(n >= 1);
		CHECK_EQ(braid_ctls_live_sessions(), before);
		pair_free(r);
		free(r);
	}
	braid_ctls_cookie_stats(p->cookie, &cs);
	CHECK_EQ(cs.accepted, 1);
	pair_free(p);
	free(p);
	free(q);
	CHECK_EQ(braid_ctls_live_sessions(), live0);
}

/* A client certificate from another CA: fatal ERROR with the OpenSSL reason on the server. */
static void test_bad_cert(void)
{
	struct pair *p = calloc(1, sizeof(*p));
	char err[200];

	pair_init(p, BRAID_CTLS_WRAP_CRYPT, 21, 0, 0, 0);
	braid_ctls_free(p->c.s);
	p->ccfg.ssl_ctx = ctx_rogue;
	CHECK_EQ(braid_ctls_new(&p->c.s, &p->ccfg, p->now, err, sizeof(err)), 0);
	pair_run(p, 5000, NULL);
	CHECK_EQ(p->sv.fatal, 1);
	fprintf(stderr, "   server error: %s\n", p->sv.last_error);
	CHECKM(strstr(p->sv.last_error, "certificate verify failed") != NULL, "server: %s",
	       p->sv.last_error);
	CHECK_EQ(p->c.ready[0] + p->sv.ready[0], 0);
	/* the client hears nothing more and gives up after the hand-window */
	pair_run(p, 60000, NULL);
	CHECK_EQ(p->c.fatal, 1);
	CHECK_STR(p->c.last_error, "key_id 0: TLS key negotiation failed to occur within 60 seconds (hand-window)");
	CHECK_EQ(braid_ctls_send_text(p->c.s, "PUSH_REQUEST"), -EAGAIN);
	pair_free(p);
	free(p);
}

/* A server presenting a client certificate (EKU clientAuth only): the client refuses it. */
static void test_bad_server_cert(SSL_CTX *bad_server)
{
	struct pair *p = calloc(1, sizeof(*p));
	char err[200];

	pair_init(p, BRAID_CTLS_WRAP_AUTH, 22, 0, 0, 0);
	braid_ctls_cookie_free(p->cookie);
	p->scfg.ssl_ctx = bad_server;
	CHECK_EQ(braid_ctls_cookie_new(&p->cookie, &p->scfg, NULL, err, sizeof(err)), 0);
	pair_run(p, 5000, NULL);
	CHECK_EQ(p->c.fatal, 1);
	/* OpenSSL's own purpose check (ssl_server for a client context) fires before ours */
	CHECK_STR(p->c.last_error, "key_id 0: TLS handshake failed: certificate verify failed: unsuitable certificate purpose (depth 0, CN=client1)");
	CHECK_EQ(p->c.ready[0] + p->sv.ready[0], 0);
	pair_free(p);
	free(p);
}

/* ---- certificates made here: expired, revoked (CRL), name mismatch ------------------- */

static EVP_PKEY *load_key(const char *name)
{
	char path[512];
	FILE *f;
	EVP_PKEY *k;

	snprintf(path, sizeof(path), "%s/%s.key", pki, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	return k;
}

static X509 *load_cert(const char *name)
{
	char path[512];
	FILE *f;
	X509 *x;

	snprintf(path, sizeof(path), "%s/%s.crt", pki, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	return x;
}

static char *pem_of_x509(X509 *x)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p, *out;
	long n;

	PEM_write_bio_X509(b, x);
	n = BIO_get_mem_data(b, &p);
	out = strndup(p, (size_t)n);
	BIO_free(b);
	return out;
}

static char *pem_of_key(EVP_PKEY *k)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p, *out;
	long n;

	PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL);
	n = BIO_get_mem_data(b, &p);
	out = strndup(p, (size_t)n);
	BIO_free(b);
	return out;
}

/* A clientAuth leaf signed by the test CA, valid [from_days, to_days] relative to now. */
static X509 *make_leaf(EVP_PKEY *leaf_key, const char *cn, long serial, long from_days, long to_days)
{
	X509 *ca = load_cert("ca");
	EVP_PKEY *ca_key = load_key("ca");
	X509 *x = X509_new();
	X509V3_CTX v3;
	X509_EXTENSION *ext;

	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
	X509_gmtime_adj(X509_getm_notBefore(x), from_days * 86400);
	X509_gmtime_adj(X509_getm_notAfter(x), to_days * 86400);
	X509_set_pubkey(x, leaf_key);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(ca));
	X509V3_set_ctx(&v3, ca, x, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &v3, NID_ext_key_usage, "clientAuth");
	X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	ext = X509V3_EXT_conf_nid(NULL, &v3, NID_key_usage, "critical,digitalSignature,keyAgreement");
	X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	X509_sign(x, ca_key, EVP_sha256());
	X509_free(ca);
	EVP_PKEY_free(ca_key);
	return x;
}

/* PEM text of a CRL by the test CA revoking `serial`. */
static char *make_crl(long serial)
{
	X509 *ca = load_cert("ca");
	EVP_PKEY *ca_key = load_key("ca");
	X509_CRL *crl = X509_CRL_new();
	X509_REVOKED *r = X509_REVOKED_new();
	ASN1_TIME *t = ASN1_TIME_new();
	ASN1_INTEGER *sn = ASN1_INTEGER_new();
	BIO *b = BIO_new(BIO_s_mem());
	char *p, *out;
	long n;

	X509_CRL_set_version(crl, 1);
	X509_CRL_set_issuer_name(crl, X509_get_subject_name(ca));
	X509_gmtime_adj(t, -3600);
	X509_CRL_set1_lastUpdate(crl, t);
	X509_gmtime_adj(t, 86400);
	X509_CRL_set1_nextUpdate(crl, t);
	ASN1_INTEGER_set(sn, serial);
	X509_REVOKED_set_serialNumber(r, sn);
	X509_gmtime_adj(t, -60);
	X509_REVOKED_set_revocationDate(r, t);
	X509_CRL_add0_revoked(crl, r);
	X509_CRL_sort(crl);
	X509_CRL_sign(crl, ca_key, EVP_sha256());
	PEM_write_bio_X509_CRL(b, crl);
	n = BIO_get_mem_data(b, &p);
	out = strndup(p, (size_t)n);
	BIO_free(b);
	ASN1_INTEGER_free(sn);
	ASN1_TIME_free(t);
	X509_CRL_free(crl);
	X509_free(ca);
	EVP_PKEY_free(ca_key);
	return out;
}

static char ca_path[512];

/* Server side error when a client with (cert_pem, key_pem) connects to a server ctx. */
static void expect_server_error(SSL_CTX *server_ctx, SSL_CTX *client_ctx, const char *want)
{
	struct pair *p = calloc(1, sizeof(*p));
	char err[200];

	pair_init(p, BRAID_CTLS_WRAP_NONE, 41, 0, 0, 0);
	braid_ctls_cookie_free(p->cookie);
	p->scfg.ssl_ctx = server_ctx;
	CHECK_EQ(braid_ctls_cookie_new(&p->cookie, &p->scfg, NULL, err, sizeof(err)), 0);
	braid_ctls_free(p->c.s);
	p->ccfg.ssl_ctx = client_ctx;
	CHECK_EQ(braid_ctls_new(&p->c.s, &p->ccfg, p->now, err, sizeof(err)), 0);
	pair_run(p, 5000, NULL);
	CHECK_EQ(p->sv.fatal, 1);
	CHECK_STR(p->sv.last_error, want);
	CHECK_EQ(p->c.ready[0] + p->sv.ready[0], 0);
	pair_free(p);
	free(p);
}

static void test_cert_checks(void)
{
	struct braid_tls_config t = { 0 };
	EVP_PKEY *k = EVP_EC_gen("P-256");
	X509 *expired = make_leaf(k, "expired", 4242, -10, -1);
	X509 *revoked = make_leaf(k, "revoked", 4343, -1, 10);
	char *kp = pem_of_key(k), *ep = pem_of_x509(expired), *rp = pem_of_x509(revoked);
	char *crl = make_crl(4343), err[256];
	SSL_CTX *c_exp = NULL, *c_rev = NULL, *s_crl = NULL, *c_name = NULL;
	char scert[512], skey[512], ccert[512], ckey[512];

	snprintf(ca_path, sizeof(ca_path), "%s/ca.crt", pki);
	/* client contexts from inline PEM (<cert>/<key> blocks) */
	t.ca_file = ca_path;
	t.cert_pem = ep;
	t.key_pem = kp;
	t.remote_cert_tls = BRAID_REMOTE_CERT_SERVER;
	CHECK_EQ(braid_tls_ctx_new(&c_exp, &t, err, sizeof(err)), 0);
	t.cert_pem = rp;
	CHECK_EQ(braid_tls_ctx_new(&c_rev, &t, err, sizeof(err)), 0);
	/* a server with the CRL revoking serial 4343 */
	snprintf(scert, sizeof(scert), "%s/server.crt", pki);
	snprintf(skey, sizeof(skey), "%s/server.key", pki);
	memset(&t, 0, sizeof(t));
	t.server = true;
	t.ca_file = ca_path;
	t.cert_file = scert;
	t.key_file = skey;
	t.crl_pem = crl;
	t.remote_cert_tls = BRAID_REMOTE_CERT_CLIENT;
	CHECKM(braid_tls_ctx_new(&s_crl, &t, err, sizeof(err)) == 0, "%s", err);
	/* bad CRL text */
	SSL_CTX *bad = NULL;
	t.crl_pem = "not a crl";
	CHECK_EQ(braid_tls_ctx_new(&bad, &t, err, sizeof(err)), -EBADMSG);
	CHECK_STR(err, "<crl-verify>: no CRL found");
	/* a client insisting on another server name */
	snprintf(ccert, sizeof(ccert), "%s/client1.crt", pki);
	snprintf(ckey, sizeof(ckey), "%s/client1.key", pki);
	memset(&t, 0, sizeof(t));
	t.ca_file = ca_path;
	t.cert_file = ccert;
	t.key_file = ckey;
	t.verify_x509_name = "vpn.example";
	t.verify_x509_type = BRAID_X509_NAME_CN;
	CHECK_EQ(braid_tls_ctx_new(&c_name, &t, err, sizeof(err)), 0);

	if (c_exp && c_rev && s_crl && c_name) {
		expect_server_error(ctx_server, c_exp,
				    "key_id 0: TLS handshake failed: certificate verify failed: certificate has expired (depth 0, CN=expired)");
		expect_server_error(s_crl, c_rev,
				    "key_id 0: TLS handshake failed: certificate verify failed: certificate revoked (depth 0, CN=revoked)");
		/* the CRL does not hurt an unrevoked client */
		{
			struct pair *p = calloc(1, sizeof(*p));
			pair_init(p, BRAID_CTLS_WRAP_NONE, 42, 0, 0, 0);
			braid_ctls_cookie_free(p->cookie);
			p->scfg.ssl_ctx = s_crl;
			CHECK_EQ(braid_ctls_cookie_new(&p->cookie, &p->scfg, NULL, err, sizeof(err)), 0);
			CHECK(pair_run(p, 5000, both_ready0));
			pair_free(p);
			free(p);
		}
		/* verify-x509-name mismatch: the client refuses the server */
		struct pair *p = calloc(1, sizeof(*p));
		pair_init(p, BRAID_CTLS_WRAP_NONE, 43, 0, 0, 0);
		braid_ctls_free(p->c.s);
		p->ccfg.ssl_ctx = c_name;
		CHECK_EQ(braid_ctls_new(&p->c.s, &p->ccfg, p->now, err, sizeof(err)), 0);
		pair_run(p, 5000, NULL);
		CHECK_EQ(p->c.fatal, 1);
		CHECK_STR(p->c.last_error,
			  "key_id 0: TLS handshake failed: verify-x509-name: peer certificate 'server' does not match 'vpn.example'");
		pair_free(p);
		free(p);
	}
	braid_tls_ctx_free(c_exp);
	braid_tls_ctx_free(c_rev);
	braid_tls_ctx_free(s_crl);
	braid_tls_ctx_free(c_name);
	OPENSSL_cleanse(kp, strlen(kp));
	free(kp);
	free(ep);
	free(rp);
	free(crl);
	X509_free(expired);
	X509_free(revoked);
	EVP_PKEY_free(k);
}

/* Nobody answers: hand-window (60 s) expiry is a fatal ERROR. */
static void test_hand_window(void)
{
	struct braid_ctls_config c = { 0 };
	struct braid_ctls *s;
	struct braid_ctls_event ev;
	uint8_t buf[2048];
	size_t len;
	int64_t now = 0;
	int n = 0, errs = 0;

	c.ssl_ctx = ctx_client;
	c.reneg_sec = UINT32_MAX;
	CHECK_EQ(braid_ctls_new(&s, &c, now, NULL, 0), 0);
	while (now < 70000) {
		while (braid_ctls_output(s, now, buf, sizeof(buf), &len) == 0 && len)
			n++;
		while (braid_ctls_next_event(s, &ev) == 0)
			if (ev.type == BRAID_CTLS_EV_ERROR) {
				errs++;
				CHECK(ev.fatal);
				CHECK_STR(ev.text, "key_id 0: TLS key negotiation failed to occur within 60 seconds (hand-window)");
				CHECK(now >= 60000);
			}
		int64_t d = braid_ctls_deadline(s);
		now = d > now ? (d < 70000 ? d : 70000) : now + 1;
		if (d == BRAID_CTLS_NEVER)
			break;
	}
	CHECK_EQ(errs, 1);
	/* dynamic tls-crypt is not implemented: announcing it is refused */
	{
		struct braid_ctls *x = NULL;
		char err[200];
		struct braid_ctls_config d = c;
		d.peer_info = "IV_VER=2.6.14\nIV_PROTO=990\n";
		CHECK_EQ(braid_ctls_new(&x, &d, 0, err, sizeof(err)), -EINVAL);
		CHECK_STR(err, "peer-info announces IV_PROTO bit 9 (dyn-tls-crypt), which is not supported");
		CHECK(x == NULL);
	}
	/* resets at 0, 2, 6, 14, 30 s (doubling) */
	CHECK_EQ(n, 5);
	braid_ctls_free(s);
}

static void test_ctx_errors(void)
{
	struct braid_tls_config t = { 0 };
	SSL_CTX *ctx;
	char err[256], path[512];

	t.ca_file = "/nonexistent/ca.crt";
	CHECK_EQ(braid_tls_ctx_new(&ctx, &t, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "ca.crt: cannot open CA file") != NULL);
	snprintf(path, sizeof(path), "%s/client1.key", pki);
	t.ca_file = path; /* a key is no certificate */
	CHECK_EQ(braid_tls_ctx_new(&ctx, &t, err, sizeof(err)), -EBADMSG);
	CHECK_STR(err, "client1.key: no certificates found");
	t.ca_pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
	CHECK_EQ(braid_tls_ctx_new(&ctx, &t, err, sizeof(err)), -EBADMSG);
	CHECK_STR(err, "<ca>: no certificates found");
	t.ca_pem = NULL;
	snprintf(path, sizeof(path), "%s/ca.crt", pki);
	t.ca_file = path;
	t.tls_version_min = "1.5";
	CHECK_EQ(braid_tls_ctx_new(&ctx, &t, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "tls-version-min '1.5' not supported (use 1.2 or 1.3)");
	t.tls_version_min = NULL;
	char cert[512], key[512];
	snprintf(cert, sizeof(cert), "%s/client1.crt", pki);
	snprintf(key, sizeof(key), "%s/server.key", pki);
	t.cert_file = cert;
	t.key_file = key;
	CHECK_EQ(braid_tls_ctx_new(&ctx, &t, err, sizeof(err)), -EBADMSG);
	CHECK_STR(err, "server.key: private key does not match the certificate client1.crt");
}

static SSL_CTX *mk_ctx(bool server, const char *ca, const char *name)
{
	struct braid_tls_config t = { 0 };
	char a[512], c[512], k[512], err[256];
	SSL_CTX *ctx = NULL;

	snprintf(a, sizeof(a), "%s/%s.crt", pki, ca);
	snprintf(c, sizeof(c), "%s/%s.crt", pki, name);
	snprintf(k, sizeof(k), "%s/%s.key", pki, name);
	t.server = server;
	t.ca_file = a;
	t.cert_file = c;
	t.key_file = k;
	t.remote_cert_tls = server ? BRAID_REMOTE_CERT_CLIENT : BRAID_REMOTE_CERT_SERVER;
	if (!server) {
		t.verify_x509_name = "server";
		t.verify_x509_type = BRAID_X509_NAME_CN;
	}
	int ret = braid_tls_ctx_new(&ctx, &t, err, sizeof(err));
	CHECKM(ret == 0, "ctx %s: %s", name, err);
	return ctx;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_session PKI_DIR\n");
		return 2;
	}
	pki = argv[1];
	ctx_client = mk_ctx(false, "ca", "client1");
	ctx_server = mk_ctx(true, "ca", "server");
	ctx_rogue = mk_ctx(false, "ca", "rogue"); /* rogue.crt is signed by another CA */
	if (!ctx_client || !ctx_server || !ctx_rogue)
		CHECK_DONE();

	test_ctx_errors();
	test_text_split();
	test_full(BRAID_CTLS_WRAP_NONE, 1, 0, 0, 0);
	test_full(BRAID_CTLS_WRAP_AUTH, 2, 0, 0, 0);
	test_full(BRAID_CTLS_WRAP_CRYPT, 3, 0, 0, 0);
	test_full(BRAID_CTLS_WRAP_AUTH, 4, 10, 10, 20);
	test_full(BRAID_CTLS_WRAP_CRYPT, 5, 10, 10, 20);
	test_full(BRAID_CTLS_WRAP_NONE, 6, 10, 10, 20);
	tls_mtu = 512; /* TLS flights chunked into many CONTROL_V1 packets */
	test_full(BRAID_CTLS_WRAP_AUTH, 8, 10, 10, 20);
	tls_mtu = 0;
	test_text_flood();
	test_reneg_sec();
	test_mutations(BRAID_CTLS_WRAP_NONE);
	test_mutations(BRAID_CTLS_WRAP_AUTH);
	test_mutations(BRAID_CTLS_WRAP_CRYPT);
	test_garbage_and_wrong_key(BRAID_CTLS_WRAP_NONE);
	test_garbage_and_wrong_key(BRAID_CTLS_WRAP_AUTH);
	test_garbage_and_wrong_key(BRAID_CTLS_WRAP_CRYPT);
	test_bad_cert();
	SSL_CTX *bad_server = mk_ctx(true, "ca", "client1");
	if (bad_server)
		test_bad_server_cert(bad_server);
	braid_tls_ctx_free(bad_server);
	test_hand_window();
	test_cert_checks();

	braid_tls_ctx_free(ctx_client);
	braid_tls_ctx_free(ctx_server);
	braid_tls_ctx_free(ctx_rogue);
	CHECK_DONE();
}
