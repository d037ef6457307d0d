// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dc.c - data channel: round trips for every cipher and backend, tamper
 * detection, key slots, replay, error codes and counters, packet-id limits,
 * the static-key long form (time in the header: a restarted peer's new
 * sequence is accepted, an older time is a replay, nonces differ).
 */
#include "aead.h"
#include "dc.h"
#include "dclog.h"
#include "check.h"
#include "util/wire.h"

#include <errno.h>
#include <stdlib.h>

static const char *ciphers[] = { "AES-256-GCM", "AES-128-GCM", "CHACHA20-POLY1305" };
static char last_log[256];

static void capture_log(int level, const char *msg, void *ctx)
{
	(void)level;
	(void)ctx;
	snprintf(last_log, sizeof(last_log), "%s", msg);
}

static void fill_key2(struct braid_key2 *k2, uint8_t seed)
{
	for (int i = 0; i < BRAID_KEY2_LEN; i++)
		k2->k[i] = (uint8_t)(i * 31 + seed);
}

static struct braid_dc *mk(uint32_t peer_id, uint32_t window, enum braid_aead_backend b)
{
	struct braid_dc_config cfg = { .peer_id = peer_id, .replay_window = window, .backend = b };
	struct braid_dc *dc = NULL;

	CHECK_EQ(braid_dc_new(&dc, &cfg), 0);
	return dc;
}

/* client (NORMAL) and server (INVERSE) with the same key2 and key_id */
static void pair(struct braid_dc **c, struct braid_dc **s, const char *cipher, unsigned kid,
		 enum braid_aead_backend bc, enum braid_aead_backend bs)
{
	struct braid_key2 k2;

	fill_key2(&k2, 7);
	*c = mk(0x123456, 0, bc);
	*s = mk(0x123456, 0, bs);
	CHECK_EQ(braid_dc_key_install(*c, kid, cipher, &k2, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_key_install(*s, kid, cipher, &k2, BRAID_KEY_DIR_INVERSE), 0);
	braid_key2_wipe(&k2);
}

static void test_round_trip(void)
{
	static const enum braid_aead_backend backends[] = {
		BRAID_AEAD_BACKEND_AUTO, BRAID_AEAD_BACKEND_OPENSSL,
	};
	static const size_t sizes[] = { 0, 1, 15, 16, 17, 1400, 9000 };
	uint8_t pt[9000], pkt[9100], back[9100];

	for (size_t i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)(i ^ 0x5a);
	for (size_t c = 0; c < 3; c++) {
		for (size_t bi = 0; bi < 2; bi++) {
			/* sender on one backend, receiver on the other: cross-checks the backends */
			struct braid_dc *cl, *sv;
			struct braid_dc_rx_info info;
			uint32_t pid = 0;

			pair(&cl, &sv, ciphers[c], 3, backends[bi], backends[1 - bi]);
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
				size_t n = 0, m = 0;
				struct braid_dc *tx = s % 2 ? sv : cl, *rx = s % 2 ? cl : sv;

				CHECK_EQ(braid_dc_encrypt(tx, pt, sizes[s], pkt, sizeof(pkt), &n, &pid), 0);
				CHECK_EQ(n, sizes[s] + 24);
				CHECK_EQ(pkt[0], 0x48 | 3);
				CHECK_EQ(wire_get_be24(pkt + 1), 0x123456);
				CHECK_EQ(wire_get_be32(pkt + 4), pid);
				CHECK_EQ(braid_dc_decrypt(rx, pkt, n, 0, back, sizeof(back), &m, &info), 0);
				CHECK_EQ(m, sizes[s]);
				CHECK_MEM(back, pt, sizes[s]);
				CHECK_EQ(info.packet_id, pid);
				CHECK_EQ(info.key_id, 3);
				CHECK_EQ(info.opcode, BRAID_OP_DATA_V2);
			}
			/* 7 sizes alternating directions: client sent sizes 0,15,17,9000, server 1,16,1400 */
			{
				struct braid_dc_key_stats st;

				CHECK_EQ(braid_dc_key_stats(cl, 3, &st), 0);
				CHECK_EQ(st.tx_packets, 4);
				CHECK_EQ(st.tx_bytes, 0 + 15 + 17 + 9000);
				CHECK_EQ(st.rx_packets, 3);
				CHECK_EQ(st.rx_bytes, 1 + 16 + 1400);
				CHECK_EQ(st.tx_last_packet_id, 4);
			}
			braid_dc_free(cl);
			braid_dc_free(sv);
		}
	}
}

static void test_direction_mismatch(void)
{
	struct braid_key2 k2;
	struct braid_dc *a = mk(1, 0, 0), *b = mk(1, 0, 0);
	uint8_t pkt[100], out[100];
	size_t n, m;

	fill_key2(&k2, 1);
	/* both think they are the client: each decrypts with the other half */
	CHECK_EQ(braid_dc_key_install(a, 0, "AES-256-GCM", &k2, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_key_install(b, 0, "AES-256-GCM", &k2, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_encrypt(a, (const uint8_t *)"hello", 5, pkt, sizeof(pkt), &n, NULL), 0);
	CHECK_EQ(braid_dc_decrypt(b, pkt, n, 0, out, sizeof(out), &m, NULL), -EBADMSG);
	/* bidirectional (static-key style) works both ways with the same direction */
	braid_dc_free(a);
	braid_dc_free(b);
	a = mk(1, 0, 0);
	b = mk(1, 0, 0);
	CHECK_EQ(braid_dc_key_install(a, 0, "chacha20-poly1305", &k2, BRAID_KEY_DIR_BIDIRECTIONAL), 0);
	CHECK_EQ(braid_dc_key_install(b, 0, "ChaCha20-Poly1305", &k2, BRAID_KEY_DIR_BIDIRECTIONAL), 0);
	CHECK_EQ(braid_dc_encrypt(a, (const uint8_t *)"hello", 5, pkt, sizeof(pkt), &n, NULL), 0);
	CHECK_EQ(braid_dc_decrypt(b, pkt, n, 0, out, sizeof(out), &m, NULL), 0);
	CHECK_MEM(out, "hello", 5);
	braid_dc_free(a);
	braid_dc_free(b);
}

static void test_tamper(void)
{
	for (size_t c = 0; c < 3; c++) {
		struct braid_dc *cl, *sv;
		uint8_t pt[64], pkt[128], bad[128], out[128];
		size_t n, m;
		int ebadmsg = 0, other = 0;
		struct braid_dc_key_stats st;
		struct braid_dc_stats gs;

		pair(&cl, &sv, ciphers[c], 2, 0, 0);
		memset(pt, 0x45, sizeof(pt));
		CHECK_EQ(braid_dc_encrypt(cl, pt, sizeof(pt), pkt, sizeof(pkt), &n, NULL), 0);
		for (size_t i = 0; i < n; i++) {
			for (int bit = 0; bit < 8; bit++) {
				int r;

				memcpy(bad, pkt, n);
				bad[i] ^= (uint8_t)(1 << bit);
				r = braid_dc_decrypt(sv, bad, n, 0, out, sizeof(out), &m, NULL);
				if (i >= 4)
					ebadmsg += r == -EBADMSG;
				else if (i == 0)
					/* key_id bits -> unknown key, opcode bits -> bad opcode */
					other += (bit < 3 ? r == -ENOKEY : r == -EPROTO);
				else
					other += r == -ENXIO; /* peer-id */
			}
		}
		CHECK_EQ(ebadmsg, (int)(n - 4) * 8);
		CHECK_EQ(other, 4 * 8);
		CHECK_EQ(braid_dc_key_stats(sv, 2, &st), 0);
		CHECK_EQ(st.rx_auth_failures, (n - 4) * 8);
		CHECK_EQ(st.rx_packets, 0);
		braid_dc_stats(sv, &gs);
		CHECK_EQ(gs.rx_unknown_key, 3);
		CHECK_EQ(gs.rx_bad_opcode, 5);
		CHECK_EQ(gs.rx_bad_peer_id, 24);
		/* the untouched packet still decrypts (failures did not poison the window) */
		CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, NULL), 0);
		CHECK_MEM(out, pt, sizeof(pt));
		/* truncation: shorter than header + tag, and a cut-off ciphertext */
		CHECK_EQ(braid_dc_decrypt(sv, pkt, 0, 0, out, sizeof(out), &m, NULL), -EMSGSIZE);
		CHECK_EQ(braid_dc_decrypt(sv, pkt, 23, 0, out, sizeof(out), &m, NULL), -EMSGSIZE);
		CHECK_EQ(braid_dc_decrypt(sv, pkt, n - 1, 0, out, sizeof(out), &m, NULL), -EBADMSG);
		CHECK_EQ(braid_dc_decrypt(sv, pkt, 24, 0, out, sizeof(out), &m, NULL), -EBADMSG);
		braid_dc_stats(sv, &gs);
		CHECK_EQ(gs.rx_truncated, 2);
		/* too small an output buffer */
		CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, 63, &m, NULL), -ENOBUFS);
		braid_dc_free(cl);
		braid_dc_free(sv);
	}
}

static void test_key_slots(void)
{
	struct braid_key2 k2a, k2b, k2c;
	struct braid_dc *cl = mk(7, 0, 0), *sv = mk(7, 0, 0);
	uint8_t p0[100], p1[100], p2[100], out[100];
	size_t n0, n1, n2, m;
	struct braid_dc_rx_info info;
	struct braid_dc_key_stats st;
	struct braid_dc_stats gs;

	fill_key2(&k2a, 1);
	fill_key2(&k2b, 2);
	fill_key2(&k2c, 3);
	CHECK_EQ(braid_dc_primary_key_id(cl), -ENOKEY);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"x", 1, p0, sizeof(p0), &n0, NULL), -ENOKEY);

	braid_dc_log_set(capture_log, NULL);
	CHECK_EQ(braid_dc_key_install(cl, 0, "AES-256-CBC", &k2a, 0), -EINVAL);
	CHECK_STR(last_log, "unsupported data-channel cipher 'AES-256-CBC' "
		  "(supported: AES-256-GCM, AES-128-GCM, CHACHA20-POLY1305)");
	CHECK_EQ(braid_dc_key_install(cl, 8, "AES-256-GCM", &k2a, 0), -EINVAL);
	CHECK_STR(last_log, "key_id 8 out of range (0..7)");
	CHECK_EQ(braid_dc_key_install(cl, 0, "AES-256-GCM", &k2a, 5), -EINVAL);
	CHECK_STR(last_log, "invalid key direction 5");
	braid_dc_log_set(NULL, NULL);

	CHECK_EQ(braid_dc_key_install(cl, 0, "aes-256-gcm", &k2a, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_key_install(sv, 0, "AES-256-GCM", &k2a, BRAID_KEY_DIR_INVERSE), 0);
	CHECK_EQ(braid_dc_key_install(cl, 0, "AES-256-GCM", &k2a, BRAID_KEY_DIR_NORMAL), -EEXIST);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"k0", 2, p0, sizeof(p0), &n0, NULL), 0);

	/* renegotiation: key_id 1 becomes primary, 0 is the lame duck */
	CHECK_EQ(braid_dc_key_install(cl, 1, "AES-128-GCM", &k2b, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_key_install(sv, 1, "AES-128-GCM", &k2b, BRAID_KEY_DIR_INVERSE), 0);
	CHECK_EQ(braid_dc_primary_key_id(cl), 1);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"k1", 2, p1, sizeof(p1), &n1, NULL), 0);
	CHECK_EQ(p1[0], 0x49);
	CHECK_EQ(wire_get_be32(p1 + 4), 1); /* packet-ids restart at 1 on a new key */
	CHECK_EQ(braid_dc_decrypt(sv, p1, n1, 0, out, sizeof(out), &m, &info), 0);
	CHECK_EQ(info.key_id, 1);
	CHECK_EQ(braid_dc_decrypt(sv, p0, n0, 0, out, sizeof(out), &m, &info), 0); /* lame duck */
	CHECK_EQ(info.key_id, 0);
	CHECK_MEM(out, "k0", 2);

	/* a packet for a key_id nobody installed */
	memcpy(p2, p1, n1);
	p2[0] = 0x48 | 5;
	CHECK_EQ(braid_dc_decrypt(sv, p2, n1, 0, out, sizeof(out), &m, NULL), -ENOKEY);

	/* third key: key 0 is dropped */
	CHECK_EQ(braid_dc_key_install(cl, 2, "CHACHA20-POLY1305", &k2c, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_key_install(sv, 2, "CHACHA20-POLY1305", &k2c, BRAID_KEY_DIR_INVERSE), 0);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"k2", 2, p2, sizeof(p2), &n2, NULL), 0);
	CHECK_EQ(braid_dc_decrypt(sv, p2, n2, 0, out, sizeof(out), &m, NULL), 0);
	CHECK_EQ(braid_dc_decrypt(sv, p0, n0, 0, out, sizeof(out), &m, NULL), -ENOKEY);
	CHECK_EQ(braid_dc_key_stats(sv, 0, &st), -ENOKEY);
	CHECK_EQ(braid_dc_key_stats(sv, 1, &st), 0);
	CHECK_EQ(st.rx_packets, 1);
	/* removing the lame duck after --tran-window */
	CHECK_EQ(braid_dc_key_remove(sv, 1), 0);
	CHECK_EQ(braid_dc_key_remove(sv, 1), -ENOKEY);
	braid_dc_stats(sv, &gs);
	CHECK_EQ(gs.rx_unknown_key, 2);
	braid_dc_free(cl);
	braid_dc_free(sv);
}

static void test_replay_errors(void)
{
	struct braid_dc *cl, *sv;
	uint8_t pkts[100][40], out[64];
	size_t lens[100], m;
	struct braid_dc_key_stats st;

	pair(&cl, &sv, "AES-256-GCM", 0, 0, 0);
	for (int i = 0; i < 100; i++)
		CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"data", 4, pkts[i], 40, &lens[i], NULL), 0);
	CHECK_EQ(braid_dc_decrypt(sv, pkts[99], lens[99], 0, out, sizeof(out), &m, NULL), 0);
	CHECK_EQ(braid_dc_decrypt(sv, pkts[99], lens[99], 0, out, sizeof(out), &m, NULL), -EALREADY);
	CHECK_EQ(m, 0);
	CHECK_EQ(braid_dc_decrypt(sv, pkts[36], lens[36], 0, out, sizeof(out), &m, NULL), 0); /* id 37: 100-37 = 63 */
	CHECK_EQ(braid_dc_decrypt(sv, pkts[35], lens[35], 0, out, sizeof(out), &m, NULL), -ESTALE); /* id 36 */
	CHECK_EQ(braid_dc_key_stats(sv, 0, &st), 0);
	CHECK_EQ(st.rx_replays, 2);
	CHECK_EQ(st.rx_packets, 2);

	/* a replayed packet with a broken tag counts as an auth failure, not a replay */
	pkts[99][lens[99] - 1] ^= 1;
	CHECK_EQ(braid_dc_decrypt(sv, pkts[99], lens[99], 0, out, sizeof(out), &m, NULL), -EBADMSG);
	CHECK_EQ(braid_dc_key_stats(sv, 0, &st), 0);
	CHECK_EQ(st.rx_replays, 2);
	CHECK_EQ(st.rx_auth_failures, 1);
	braid_dc_free(cl);
	braid_dc_free(sv);

	/* deep window configured through dc */
	{
		struct braid_key2 k2;
		struct braid_dc *a = mk(1, 4096, 0), *b = mk(1, 4096, 0);
		static uint8_t big[5000][40];
		static size_t bl[5000];
		int ok = 0;

		fill_key2(&k2, 9);
		CHECK_EQ(braid_dc_key_install(a, 0, "AES-256-GCM", &k2, 0), 0);
		CHECK_EQ(braid_dc_key_install(b, 0, "AES-256-GCM", &k2, 1), 0);
		for (int i = 0; i < 5000; i++)
			braid_dc_encrypt(a, (const uint8_t *)"d", 1, big[i], 40, &bl[i], NULL);
		CHECK_EQ(braid_dc_decrypt(b, big[4999], bl[4999], 0, out, sizeof(out), &m, NULL), 0);
		for (int i = 4998; i >= 904; i--) /* ids 4999..905: diff up to 4095 */
			ok += braid_dc_decrypt(b, big[i], bl[i], 0, out, sizeof(out), &m, NULL) == 0;
		CHECK_EQ(ok, 4095);
		CHECK_EQ(braid_dc_decrypt(b, big[903], bl[903], 0, out, sizeof(out), &m, NULL), -ESTALE);
		braid_dc_free(a);
		braid_dc_free(b);
	}
}

/* Build a V2 packet by hand from the fact-sheet layout with an arbitrary packet-id. */
static size_t handmade_v2(const struct braid_key2 *k2, uint32_t pid, uint8_t *pkt)
{
	struct braid_aead *a;
	uint8_t nonce[12];

	pkt[0] = 0x48;
	wire_put_be24(pkt + 1, 1);
	wire_put_be32(pkt + 4, pid);
	memcpy(nonce, pkt + 4, 4);
	memcpy(nonce + 4, k2->k + 64, 8); /* client -> server: IV = K[64..72) */
	CHECK_EQ(braid_aead_new(&a, BRAID_AEAD_AES_256_GCM, 0, k2->k, 32), 0);
	CHECK_EQ(braid_aead_seal(a, nonce, pkt, 8, (const uint8_t *)"abc", 3, pkt + 24, pkt + 8), 0);
	braid_aead_free(a);
	return 27;
}

static void test_packet_id_limits(void)
{
	struct braid_key2 k2;
	struct braid_dc *cl = mk(1, 0, 0), *sv = mk(1, 0, 0);
	uint8_t pkt[64], out[64];
	size_t n, m;
	uint32_t pid;

	fill_key2(&k2, 4);
	CHECK_EQ(braid_dc_key_install(cl, 0, "AES-256-GCM", &k2, 0), 0);
	CHECK_EQ(braid_dc_key_install(sv, 0, "AES-256-GCM", &k2, 1), 0);

	/* packet-id 0 authenticates but is never valid */
	n = handmade_v2(&k2, 0, pkt);
	CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, NULL), -ESTALE);
	n = handmade_v2(&k2, 77, pkt);
	CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, NULL), 0);
	CHECK_MEM(out, "abc", 3);

	CHECK_EQ(braid_dc_key_set_next_tx_packet_id(cl, 0, 0), -EINVAL);
	CHECK_EQ(braid_dc_key_set_next_tx_packet_id(cl, 0, 0xfeffffffu), 0);
	CHECK(!braid_dc_needs_renegotiation(cl));
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"a", 1, pkt, sizeof(pkt), &n, &pid), 0);
	CHECK_EQ(pid, 0xfeffffffu);
	CHECK(!braid_dc_needs_renegotiation(cl));
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"a", 1, pkt, sizeof(pkt), &n, &pid), 0);
	CHECK_EQ(pid, 0xff000000u);
	CHECK(braid_dc_needs_renegotiation(cl));
	CHECK_EQ(braid_dc_key_set_next_tx_packet_id(cl, 0, 0xffffffffu), 0);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"a", 1, pkt, sizeof(pkt), &n, &pid), 0);
	CHECK_EQ(pid, 0xffffffffu);
	CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, NULL), 0);
	/* no wrap: the key is used up */
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"a", 1, pkt, sizeof(pkt), &n, &pid), -EOVERFLOW);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"a", 1, pkt, 24, &n, &pid), -ENOBUFS);
	braid_dc_free(cl);
	braid_dc_free(sv);
}

static void test_v1_and_in_place(void)
{
	struct braid_key2 k2;
	struct braid_dc *cl = mk(BRAID_DC_PEER_ID_NONE, 0, 0), *sv = mk(42, 0, 0);
	uint8_t buf[256], ref[200], out[256];
	size_t n, m;
	struct braid_dc_rx_info info;
	uint8_t op, kid;
	uint32_t peer;

	fill_key2(&k2, 5);
	CHECK_EQ(braid_dc_key_install(cl, 4, "CHACHA20-POLY1305", &k2, 0), 0);
	CHECK_EQ(braid_dc_key_install(sv, 4, "CHACHA20-POLY1305", &k2, 1), 0);
	CHECK_EQ(braid_dc_overhead(cl), 21);
	CHECK_EQ(braid_dc_overhead(sv), 24);
	for (int i = 0; i < 200; i++)
		ref[i] = (uint8_t)(0x45 + i);
	/* in place: plaintext already at out + overhead */
	memcpy(buf + 21, ref, 200);
	CHECK_EQ(braid_dc_encrypt(cl, buf + 21, 200, buf, sizeof(buf), &n, NULL), 0);
	CHECK_EQ(n, 221);
	CHECK_EQ(buf[0], 0x30 | 4);
	CHECK_EQ(wire_get_be32(buf + 1), 1);
	CHECK_EQ(braid_dc_peek(buf, n, &op, &kid, &peer), 0);
	CHECK_EQ(op, BRAID_OP_DATA_V1);
	CHECK_EQ(kid, 4);
	CHECK_EQ(peer, BRAID_DC_PEER_ID_NONE);
	/* a V2-configured receiver still accepts V1 from a peer without peer-id */
	CHECK_EQ(braid_dc_decrypt(sv, buf, n, 0, buf + 21, 200, &m, &info), 0);
	CHECK_EQ(m, 200);
	CHECK_MEM(buf + 21, ref, 200);
	CHECK_EQ(info.opcode, BRAID_OP_DATA_V1);
	/* V2 from the server, decrypted in place by the client */
	CHECK_EQ(braid_dc_encrypt(sv, ref, 200, buf, sizeof(buf), &n, NULL), 0);
	CHECK_EQ(braid_dc_peek(buf, n, &op, &kid, &peer), 0);
	CHECK_EQ(peer, 42);
	/* client has no peer-id configured: a V2 packet with peer-id 42 is not for it */
	CHECK_EQ(braid_dc_decrypt(cl, buf, n, 0, out, sizeof(out), &m, NULL), -ENXIO);
	CHECK_EQ(braid_dc_peek(buf, 0, &op, &kid, &peer), -EMSGSIZE);
	buf[0] = 0x20;
	CHECK_EQ(braid_dc_peek(buf, n, &op, &kid, &peer), -EPROTO);
	braid_dc_free(cl);
	braid_dc_free(sv);
	{
		struct braid_dc_config bad = { .peer_id = 0x1000000 };
		struct braid_dc *d;

		CHECK_EQ(braid_dc_new(&d, &bad), -EINVAL);
		bad.peer_id = 1;
		bad.replay_window = 70000;
		CHECK_EQ(braid_dc_new(&d, &bad), -EINVAL);
	}
}

static struct braid_dc *mk_long(uint32_t peer_id, uint32_t epoch, int dir)
{
	struct braid_dc_config cfg = { .peer_id = peer_id, .long_form = true, .epoch = epoch };
	struct braid_dc *dc = NULL;
	struct braid_key2 k2;

	fill_key2(&k2, 9);
	CHECK_EQ(braid_dc_new(&dc, &cfg), 0);
	CHECK_EQ(braid_dc_key_install(dc, 0, "AES-256-GCM", &k2, dir), 0);
	return dc;
}

static void test_long_form(void)
{
	struct braid_dc *a1 = mk_long(0, 1000, 0), *b = mk_long(0, 2000, 1), *a2, *a0;
	struct braid_dc *v1 = mk_long(BRAID_DC_PEER_ID_NONE, 1000, 0);
	uint8_t pkt[200], pkt2[200], old[200], out[200];
	size_t n, n2, nold, m;
	struct braid_dc_rx_info info;

	CHECK_EQ(braid_dc_overhead(a1), 28);
	CHECK_EQ(braid_dc_overhead(v1), 25);
	for (int i = 0; i < 100; i++) {
		CHECK_EQ(braid_dc_encrypt(a1, (const uint8_t *)"hello", 5, pkt, sizeof(pkt), &n, NULL), 0);
		if (i == 0) {
			memcpy(old, pkt, n);
			nold = n;
		}
		CHECK_EQ(braid_dc_decrypt(b, pkt, n, 0, out, sizeof(out), &m, &info), 0);
		CHECK(!info.peer_restarted);
	}
	CHECK_EQ(n, 33);
	CHECK_EQ(wire_get_be32(pkt + 4), 100);
	CHECK_EQ(wire_get_be32(pkt + 8), 1000);
	CHECK_EQ(info.time, 1000);
	/* the time is authenticated */
	pkt[11] ^= 1;
	CHECK_EQ(braid_dc_decrypt(b, pkt, n, 0, out, sizeof(out), &m, NULL), -EBADMSG);
	/* a restarted peer: packet-ids from 1 again, a newer time: accepted, flagged */
	a2 = mk_long(0, 1001, 0);
	CHECK_EQ(braid_dc_encrypt(a2, (const uint8_t *)"hello", 5, pkt2, sizeof(pkt2), &n2, NULL), 0);
	CHECK_EQ(wire_get_be32(pkt2 + 4), 1);
	CHECK_EQ(braid_dc_decrypt(b, pkt2, n2, 0, out, sizeof(out), &m, &info), 0);
	CHECK(info.peer_restarted);
	CHECK_EQ(m, 5);
	/* same packet-id 1 as the first session's, different nonce: different ciphertext */
	CHECK(memcmp(old + 12, pkt2 + 12, n2 - 12) != 0);
	/* the second packet of the new session is not a restart; a duplicate is a replay */
	CHECK_EQ(braid_dc_encrypt(a2, (const uint8_t *)"again", 5, pkt2, sizeof(pkt2), &n2, NULL), 0);
	CHECK_EQ(braid_dc_decrypt(b, pkt2, n2, 0, out, sizeof(out), &m, &info), 0);
	CHECK(!info.peer_restarted);
	CHECK_EQ(braid_dc_decrypt(b, pkt2, n2, 0, out, sizeof(out), &m, &info), -EALREADY);
	/* the old session's packets (older time) are replays now */
	CHECK_EQ(braid_dc_decrypt(b, old, nold, 0, out, sizeof(out), &m, &info), -ESTALE);
	/* a short-form receiver cannot read the long form and vice versa */
	a0 = mk(0, 0, 0);
	{
		struct braid_key2 k2;

		fill_key2(&k2, 9);
		CHECK_EQ(braid_dc_key_install(a0, 0, "AES-256-GCM", &k2, 1), 0);
	}
	CHECK_EQ(braid_dc_decrypt(a0, pkt2, n2, 0, out, sizeof(out), &m, NULL), -EBADMSG);
	/* V1 long form round trip (b answers V2: decrypt the V1 one with a V2-configured b) */
	CHECK_EQ(braid_dc_encrypt(v1, (const uint8_t *)"v1", 2, pkt, sizeof(pkt), &n, NULL), 0);
	CHECK_EQ(n, 27);
	CHECK_EQ(wire_get_be32(pkt + 5), 1000);
	/* epochs handed out in one process never repeat, even within one second */
	{
		uint32_t e1 = braid_dc_epoch_next(5000), e2 = braid_dc_epoch_next(5000);

		CHECK(e2 > e1);
		CHECK(braid_dc_epoch_next(1) > e2);
	}
	braid_dc_free(a0);
	braid_dc_free(v1);
	braid_dc_free(a2);
	braid_dc_free(a1);
	braid_dc_free(b);
}

int main(void)
{
	test_long_form();
	test_round_trip();
	test_direction_mismatch();
	test_tamper();
	test_key_slots();
	test_replay_errors();
	test_packet_id_limits();
	test_v1_and_in_place();
	CHECK_DONE();
}
