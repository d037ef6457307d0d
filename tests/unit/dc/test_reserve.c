// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_reserve.c - packet-ids reserved at enqueue and sealed later (multipath):
 * out-of-order sealing through a deep receiver window, once-only sealing,
 * never-reserved / too-old ids, key rotation between reserve and seal, mixing
 * with plain encryption, the id limits, and the bitmap against a model.
 */
#include "dc.h"
#include "dclog.h"
#include "check.h"
#include "txpid.h"
#include "util/wire.h"

#include <errno.h>
#include <stdlib.h>

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
		k2->k[i] = (uint8_t)(i * 13 + seed);
}

static struct braid_dc *mk(uint32_t peer_id, uint32_t window)
{
	struct braid_dc_config cfg = { .peer_id = peer_id, .replay_window = window };
	struct braid_dc *dc = NULL;

	CHECK_EQ(braid_dc_new(&dc, &cfg), 0);
	return dc;
}

static void install(struct braid_dc *cl, struct braid_dc *sv, unsigned kid, const char *cipher,
		    uint8_t seed)
{
	struct braid_key2 k2;

	fill_key2(&k2, seed);
	CHECK_EQ(braid_dc_key_install(cl, kid, cipher, &k2, BRAID_KEY_DIR_NORMAL), 0);
	CHECK_EQ(braid_dc_key_install(sv, kid, cipher, &k2, BRAID_KEY_DIR_INVERSE), 0);
	braid_key2_wipe(&k2);
}

/* plaintext of packet-id pid: 8 bytes that name it */
static void pt_of(uint32_t pid, uint8_t pt[8])
{
	wire_put_be32(pt, pid);
	wire_put_be32(pt + 4, ~pid);
}

/*
 * Two paths, EDF style: ids 1..N reserved in order, the "slow path" ids
 * (every 3rd) sealed and delivered `lag` packets early, i.e. before lower
 * ids on the fast path. The receiver (window 4096) takes every one.
 */
static void test_out_of_order(void)
{
	enum { N = 3000, LAG = 2000 };
	static uint8_t pkts[N + 1][40];
	static size_t lens[N + 1];
	static uint32_t order[N];
	struct braid_dc *cl = mk(0x10203, 0), *sv = mk(0x10203, 4096);
	struct braid_dc_key_stats st;
	struct braid_dc_rx_info info;
	uint8_t kid, pt[8], out[64];
	uint32_t pid, no = 0;
	size_t m;
	int ok = 0, right = 0;

	install(cl, sv, 2, "AES-256-GCM", 1);
	for (uint32_t i = 1; i <= N; i++) {
		CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
		CHECK_EQ(kid, 2);
		CHECK_EQ(pid, i);
	}
	/* send order: slow-path id s goes out just before fast-path id s - LAG */
	for (int f = 1 - LAG; f <= N; f++) {
		int s = f + LAG;

		if (s <= N && s % 3 == 0)
			order[no++] = (uint32_t)s;
		if (f >= 1 && f % 3 != 0)
			order[no++] = (uint32_t)f;
	}
	CHECK_EQ(no, N);
	{
		uint32_t hi = 0, depth = 0;

		for (uint32_t i = 0; i < no; i++) {
			if (hi > order[i] && hi - order[i] > depth)
				depth = hi - order[i];
			if (order[i] > hi)
				hi = order[i];
		}
		CHECK_EQ(depth, LAG); /* fast id 1 goes out after slow id 2001 */
	}
	for (uint32_t i = 0; i < no; i++) {
		pt_of(order[i], pt);
		CHECK_EQ(braid_dc_encrypt_reserved(cl, 2, order[i], pt, 8, pkts[order[i]], 40,
						   &lens[order[i]]), 0);
		CHECK_EQ(lens[order[i]], 32);
	}
	for (uint32_t i = 0; i < no; i++) {
		uint32_t p = order[i];

		CHECK_EQ(wire_get_be32(pkts[p] + 4), p);
		if (braid_dc_decrypt(sv, pkts[p], lens[p], 0, out, sizeof(out), &m, &info) == 0) {
			ok++;
			pt_of(p, pt);
			right += m == 8 && memcmp(out, pt, 8) == 0 && info.packet_id == p &&
				 info.key_id == 2;
		}
	}
	CHECK_EQ(ok, N);
	CHECK_EQ(right, N);
	CHECK_EQ(braid_dc_key_stats(cl, 2, &st), 0);
	CHECK_EQ(st.tx_packets, N);
	CHECK_EQ(st.tx_bytes, 8 * N);
	CHECK_EQ(st.tx_reserved, N);
	CHECK_EQ(st.tx_reserve_refused, 0);
	CHECK_EQ(st.tx_last_packet_id, N);
	CHECK_EQ(braid_dc_key_stats(sv, 2, &st), 0);
	CHECK_EQ(st.rx_packets, N);
	CHECK_EQ(st.rx_replays, 0);
	/* a re-send is the same bytes: the receiver drops the copy */
	CHECK_EQ(braid_dc_decrypt(sv, pkts[7], lens[7], 0, out, sizeof(out), &m, NULL), -EALREADY);

	/* the same reorder against OpenVPN's default window 64 loses the late ids */
	{
		struct braid_dc *sv64 = mk(0x10203, 0);
		int ok64 = 0;

		install(cl, sv64, 3, "AES-256-GCM", 1); /* fresh key on both sides */
		braid_dc_key_remove(cl, 2);
		for (uint32_t i = 1; i <= 200; i++)
			CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
		/* id 200 first, then 1..199: 200 - id < 64 only for ids 137..199 */
		for (uint32_t i = 0; i < 200; i++) {
			uint32_t p = i == 0 ? 200 : i;

			pt_of(p, pt);
			CHECK_EQ(braid_dc_encrypt_reserved(cl, 3, p, pt, 8, pkts[p], 40, &lens[p]), 0);
			ok64 += braid_dc_decrypt(sv64, pkts[p], lens[p], 0, out, sizeof(out), &m,
						 NULL) == 0;
		}
		CHECK_EQ(ok64, 1 + 63);
		braid_dc_free(sv64);
	}
	braid_dc_free(cl);
	braid_dc_free(sv);
}

static void test_once_only_and_never_reserved(void)
{
	struct braid_dc *cl = mk(9, 0), *sv = mk(9, 0);
	struct braid_dc_key_stats st;
	uint8_t kid, pkt[64], first[64], out[64];
	uint32_t pid;
	size_t n, n1, m;

	/* no key at all */
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), -ENOKEY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 1, (const uint8_t *)"a", 1, pkt, 64, &n), -ENOKEY);

	install(cl, sv, 0, "CHACHA20-POLY1305", 2);
	/* nothing reserved yet: every id is "never reserved" */
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 1, (const uint8_t *)"a", 1, pkt, 64, &n), -EINVAL);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(pid, 5);

	/* a too-small buffer does not use the id up */
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 3, (const uint8_t *)"abc", 3, pkt, 26, &n),
		 -ENOBUFS);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 3, (const uint8_t *)"abc", 3, first, 64, &n1), 0);
	CHECK_EQ(n1, 27);

	braid_dc_log_set(capture_log, NULL);
	last_log[0] = 0;
	/* a second sealing of id 3, same or different plaintext: refused, out untouched */
	memset(pkt, 0xee, sizeof(pkt));
	n = 12345;
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 3, (const uint8_t *)"abc", 3, pkt, 64, &n),
		 -EALREADY);
	CHECK_STR(last_log, "key_id 0 packet-id 3 not sealed: already sealed once");
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 3, (const uint8_t *)"xyz", 3, pkt, 64, &n),
		 -EALREADY);
	CHECK_EQ(pkt[0], 0xee);
	CHECK_EQ(pkt[63], 0xee);
	CHECK_EQ(n, 12345);
	/* never reserved: above the high-water mark, and id 0 */
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 6, (const uint8_t *)"a", 1, pkt, 64, &n), -EINVAL);
	CHECK_STR(last_log, "key_id 0 packet-id 6 not sealed: never reserved");
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 0, (const uint8_t *)"a", 1, pkt, 64, &n), -EINVAL);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 0xffffffffu, (const uint8_t *)"a", 1, pkt, 64, &n),
		 -EINVAL);
	/* a key_id that is not installed */
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 1, 2, (const uint8_t *)"a", 1, pkt, 64, &n), -ENOKEY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 9, 2, (const uint8_t *)"a", 1, pkt, 64, &n), -ENOKEY);
	braid_dc_log_set(NULL, NULL);

	CHECK_EQ(braid_dc_key_stats(cl, 0, &st), 0);
	CHECK_EQ(st.tx_reserved, 5);
	/* 2 x EALREADY, 4 x EINVAL (ENOKEY has no key to count on) */
	CHECK_EQ(st.tx_reserve_refused, 6);
	CHECK_EQ(st.tx_packets, 1);
	CHECK_EQ(st.tx_last_packet_id, 5);

	/* the peer takes the one sealing of id 3 */
	CHECK_EQ(braid_dc_decrypt(sv, first, n1, 0, out, sizeof(out), &m, NULL), 0);
	CHECK_EQ(m, 3);
	CHECK_MEM(out, "abc", 3);

	/* V1 session, in place: header as for plain encrypt */
	{
		struct braid_dc *v1 = mk(BRAID_DC_PEER_ID_NONE, 0);
		struct braid_key2 k2;
		uint8_t buf[64];

		fill_key2(&k2, 2);
		CHECK_EQ(braid_dc_key_install(v1, 5, "AES-128-GCM", &k2, BRAID_KEY_DIR_NORMAL), 0);
		CHECK_EQ(braid_dc_reserve_packet_id(v1, &kid, &pid), 0);
		CHECK_EQ(braid_dc_reserve_packet_id(v1, &kid, &pid), 0);
		memcpy(buf + 21, "hello", 5);
		CHECK_EQ(braid_dc_encrypt_reserved(v1, 5, 1, buf + 21, 5, buf, sizeof(buf), &n), 0);
		CHECK_EQ(n, 26);
		CHECK_EQ(buf[0], 0x30 | 5);
		CHECK_EQ(wire_get_be32(buf + 1), 1);
		/* the V2 receiver accepts V1 */
		braid_dc_key_remove(sv, 0);
		CHECK_EQ(braid_dc_key_install(sv, 5, "AES-128-GCM", &k2, BRAID_KEY_DIR_INVERSE), 0);
		CHECK_EQ(braid_dc_decrypt(sv, buf, n, 0, out, sizeof(out), &m, NULL), 0);
		CHECK_MEM(out, "hello", 5);
		braid_key2_wipe(&k2);
		braid_dc_free(v1);
	}
	braid_dc_free(cl);
	braid_dc_free(sv);
}

/* Reserve on key 0, renegotiate, seal with the lame duck; drop it: -ENOKEY. */
static void test_key_rotation(void)
{
	struct braid_dc *cl = mk(4, 0), *sv = mk(4, 0);
	struct braid_dc_rx_info info;
	struct braid_dc_key_stats st;
	uint8_t kid, pkt[64], out[64];
	uint32_t pid;
	size_t n, m;

	install(cl, sv, 0, "AES-256-GCM", 3);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(kid, 0);
	CHECK_EQ(pid, 3);

	install(cl, sv, 1, "AES-256-GCM", 4);
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(kid, 1);
	CHECK_EQ(pid, 1); /* new key: ids restart at 1 */

	/* queued before the renegotiation, sent after: the lame duck seals it */
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 2, (const uint8_t *)"old2", 4, pkt, 64, &n), 0);
	CHECK_EQ(pkt[0], 0x48);
	CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, &info), 0);
	CHECK_EQ(info.key_id, 0);
	CHECK_EQ(info.packet_id, 2);
	CHECK_MEM(out, "old2", 4);
	/* the lame duck hands out no new ids, and its once-only rule still holds */
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 2, (const uint8_t *)"old2", 4, pkt, 64, &n),
		 -EALREADY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 4, (const uint8_t *)"old4", 4, pkt, 64, &n),
		 -EINVAL);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"new", 3, pkt, 64, &n, &pid), 0);
	CHECK_EQ(pid, 2);
	CHECK_EQ(pkt[0], 0x49);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 1, 1, (const uint8_t *)"new1", 4, pkt, 64, &n), 0);
	CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, &info), 0);
	CHECK_EQ(info.key_id, 1);
	CHECK_EQ(info.packet_id, 1);

	/* second renegotiation drops key 0: its last reservation can no longer be sent */
	install(cl, sv, 2, "AES-256-GCM", 5);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 3, (const uint8_t *)"old3", 4, pkt, 64, &n),
		 -ENOKEY);
	CHECK_EQ(braid_dc_key_stats(cl, 1, &st), 0);
	CHECK_EQ(st.tx_packets, 2);
	CHECK_EQ(st.tx_reserved, 1);
	CHECK_EQ(st.tx_last_packet_id, 2);
	/* the primary removed: nothing to reserve from */
	CHECK_EQ(braid_dc_key_remove(cl, 2), 0);
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), -ENOKEY);
	braid_dc_free(cl);
	braid_dc_free(sv);
}

/*
 * Plain encryption (engine control messages) interleaved with reservations
 * and out-of-order sealing: every sealed id is distinct, the ids handed out
 * are exactly 1..n, and the receiver takes every packet.
 */
static void test_interleave_with_plain(void)
{
	enum { OPS = 6000, MAXP = 6000 };
	static uint8_t pkts[MAXP + 1][40];
	static size_t lens[MAXP + 1];
	static uint8_t sealed[MAXP + 1];
	static uint32_t seal_order[MAXP];
	uint32_t pending[64], npend = 0, last = 0, nsealed = 0;
	struct braid_dc *cl = mk(77, 0), *sv = mk(77, 8192);
	struct braid_dc_key_stats st;
	uint8_t kid, pt[8], out[64];
	uint32_t pid, rng = 12345, plain = 0, dup = 0, ok = 0;
	size_t m;

	install(cl, sv, 6, "AES-128-GCM", 6);
	for (int op = 0; op < OPS; op++) {
		uint32_t r;

		rng = rng * 1103515245u + 12345u;
		r = (rng >> 16) % 10;
		if (r < 4 && npend < 64) {
			CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
			pending[npend++] = pid;
		} else if (r < 6) {
			pt_of(last + 1, pt);
			CHECK_EQ(braid_dc_encrypt(cl, pt, 8, pkts[last + 1], 40, &lens[last + 1], &pid), 0);
			plain++;
			dup += sealed[pid]++;
			seal_order[nsealed++] = pid;
			/* a plain id is never one somebody holds a reservation for */
			for (uint32_t i = 0; i < npend; i++)
				dup += pending[i] == pid;
		} else if (npend) {
			uint32_t i = (rng >> 8) % npend;

			pid = pending[i];
			pending[i] = pending[--npend];
			pt_of(pid, pt);
			CHECK_EQ(braid_dc_encrypt_reserved(cl, 6, pid, pt, 8, pkts[pid], 40, &lens[pid]), 0);
			dup += sealed[pid]++;
			seal_order[nsealed++] = pid;
			continue;
		} else {
			continue;
		}
		/* ids are handed out without gaps or repeats */
		CHECK_EQ(pid, last + 1);
		last = pid;
	}
	while (npend) {
		pid = pending[--npend];
		pt_of(pid, pt);
		CHECK_EQ(braid_dc_encrypt_reserved(cl, 6, pid, pt, 8, pkts[pid], 40, &lens[pid]), 0);
		dup += sealed[pid]++;
		seal_order[nsealed++] = pid;
	}
	CHECK_EQ(dup, 0);
	CHECK_EQ(nsealed, last);
	CHECK(plain > 1000 && last - plain > 1000);
	/* any id sealed by either path refuses a second sealing */
	for (uint32_t p = 1; p <= last; p++)
		dup += braid_dc_encrypt_reserved(cl, 6, p, pt, 8, out, sizeof(out), &m) != -EALREADY;
	CHECK_EQ(dup, 0);
	CHECK_EQ(braid_dc_key_stats(cl, 6, &st), 0);
	CHECK_EQ(st.tx_packets, last);
	CHECK_EQ(st.tx_reserved, last - plain);
	CHECK_EQ(st.tx_reserve_refused, last);
	/* the receiver gets them in sealing (= sending) order */
	for (uint32_t i = 0; i < nsealed; i++) {
		uint32_t p = seal_order[i];

		pt_of(p, pt);
		ok += braid_dc_decrypt(sv, pkts[p], lens[p], 0, out, sizeof(out), &m, NULL) == 0 &&
		      m == 8 && memcmp(out, pt, 8) == 0;
	}
	CHECK_EQ(ok, last);
	braid_dc_free(cl);
	braid_dc_free(sv);
}

/* Plain ids before the first reservation, the window edge, and the id limits. */
static void test_window_and_limits(void)
{
	struct braid_dc *cl = mk(1, 0), *sv = mk(1, 0);
	struct braid_dc_key_stats st;
	uint8_t kid, pkt[64], out[64];
	uint32_t pid;
	size_t n, m;

	install(cl, sv, 0, "AES-256-GCM", 7);
	for (int i = 0; i < 10; i++)
		CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"p", 1, pkt, 64, &n, NULL), 0);
	/* the first reservation starts tracking: ids 1..10 count as sealed */
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(pid, 11);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 5, (const uint8_t *)"r", 1, pkt, 64, &n), -EALREADY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 10, (const uint8_t *)"r", 1, pkt, 64, &n), -EALREADY);

	/* 65536 more reservations: id 11 falls out of the window (hwm 65547) */
	for (uint32_t i = 0; i < BRAID_TXPID_WINDOW; i++)
		braid_dc_reserve_packet_id(cl, &kid, &pid);
	CHECK_EQ(pid, 11 + BRAID_TXPID_WINDOW);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 11, (const uint8_t *)"r", 1, pkt, 64, &n), -ESTALE);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 12, (const uint8_t *)"r", 1, pkt, 64, &n), 0);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, pid, (const uint8_t *)"r", 1, pkt, 64, &n), 0);
	/* plain ids after the bitmap wrapped: 65549 takes over the slot of unsealed id 13 */
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"p", 1, pkt, 64, &n, &pid), 0);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"p", 1, pkt, 64, &n, &pid), 0);
	CHECK_EQ(pid, 13 + BRAID_TXPID_WINDOW);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, pid, (const uint8_t *)"r", 1, pkt, 64, &n), -EALREADY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, pid - 1, (const uint8_t *)"r", 1, pkt, 64, &n),
		 -EALREADY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 14, (const uint8_t *)"r", 1, pkt, 64, &n), 0);

	/* skipping forward (tests only) makes the skipped ids unusable */
	CHECK_EQ(braid_dc_key_set_next_tx_packet_id(cl, 0, pid + 11), 0);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, pid + 5, (const uint8_t *)"r", 1, pkt, 64, &n),
		 -EALREADY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, pid + 11, (const uint8_t *)"r", 1, pkt, 64, &n),
		 -EINVAL);

	/* wrap trigger and exhaustion, as for plain encrypt */
	CHECK_EQ(braid_dc_key_set_next_tx_packet_id(cl, 0, 0xfeffffffu), 0);
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(pid, 0xfeffffffu);
	CHECK(!braid_dc_needs_renegotiation(cl));
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(pid, 0xff000000u);
	CHECK(braid_dc_needs_renegotiation(cl));
	CHECK_EQ(braid_dc_key_set_next_tx_packet_id(cl, 0, 0xfffffffeu), 0);
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), 0);
	CHECK_EQ(pid, 0xfffffffeu);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"c", 1, pkt, 64, &n, &pid), 0);
	CHECK_EQ(pid, 0xffffffffu);
	CHECK_EQ(braid_dc_reserve_packet_id(cl, &kid, &pid), -EOVERFLOW);
	CHECK_EQ(braid_dc_encrypt(cl, (const uint8_t *)"c", 1, pkt, 64, &n, &pid), -EOVERFLOW);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 0xffffffffu, (const uint8_t *)"r", 1, pkt, 64, &n),
		 -EALREADY);
	CHECK_EQ(braid_dc_encrypt_reserved(cl, 0, 0xfffffffeu, (const uint8_t *)"last", 4, pkt, 64,
					   &n), 0);
	CHECK_EQ(wire_get_be32(pkt + 4), 0xfffffffeu);
	CHECK_EQ(braid_dc_decrypt(sv, pkt, n, 0, out, sizeof(out), &m, NULL), 0);
	CHECK_MEM(out, "last", 4);
	CHECK_EQ(braid_dc_key_stats(cl, 0, &st), 0);
	CHECK_EQ(st.tx_last_packet_id, 0xffffffffu);
	braid_dc_free(cl);
	braid_dc_free(sv);
}

/*
 * The bitmap alone against a plain model (one byte per id), random
 * reservations, plain seals, skips and claims anywhere around the window.
 */
static void test_txpid_model(void)
{
	enum { MAXID = 400000 };
	static uint8_t used[MAXID + 1];
	struct braid_txpid t = { 0 };
	uint32_t hwm = 0, rng = 99, bad = 0, n_ok = 0, n_stale = 0, n_inval = 0, n_dup = 0;
	uint32_t recent[16] = { 0 }, nrecent = 0;

	/* not tracking: everything up to the mark counts as used */
	CHECK_EQ(braid_txpid_claim(&t, 5, 3), -EALREADY);
	CHECK_EQ(braid_txpid_claim(&t, 5, 6), -EINVAL);
	hwm = 40;
	for (uint32_t i = 1; i <= hwm; i++)
		used[i] = 1;
	CHECK_EQ(braid_txpid_start(&t), 0);
	while (hwm < MAXID - 3000) {
		uint32_t r, id;
		int want, got;

		rng = rng * 1664525u + 1013904223u;
		r = rng >> 24;
		if (r < 100) { /* reserve 1..2000 ids */
			uint32_t k = 1 + (rng >> 4) % 200;

			braid_txpid_advance(&t, hwm, hwm + k);
			hwm += k;
		} else if (r < 120) { /* plain seal of the next id */
			braid_txpid_advance(&t, hwm, hwm + 1);
			braid_txpid_mark(&t, ++hwm);
			used[hwm] = 1;
		} else if (r < 124) { /* skip forward */
			uint32_t k = 1 + (rng >> 4) % 100;

			braid_txpid_skip(&t, hwm, hwm + k);
			for (uint32_t i = hwm + 1; i <= hwm + k; i++)
				used[i] = 1;
			hwm += k;
		} else { /* claim: near the top, near the window edge, or anywhere */
			uint32_t v = (rng >> 2) & 0xffff, where = r % 4;
			int64_t x = where == 0 ? (int64_t)hwm - 300 + v % 311 :
				    where == 1 ? (int64_t)hwm - BRAID_TXPID_WINDOW - 100 + v % 200 :
				    where == 2 ? (int64_t)recent[v % 16] : /* a second sealing */
				    (int64_t)hwm - 70000 + (int64_t)(((rng >> 2) * 7u) % 70011);

			id = x < 0 ? 0 : (uint32_t)x;
			want = id == 0 || id > hwm ? -EINVAL :
			       hwm - id >= BRAID_TXPID_WINDOW ? -ESTALE :
			       used[id] ? -EALREADY : 0;
			got = braid_txpid_claim(&t, hwm, id);
			bad += got != want;
			if (got == 0) {
				used[id] = 1;
				recent[nrecent++ % 16] = id;
			}
			n_ok += want == 0;
			n_stale += want == -ESTALE;
			n_inval += want == -EINVAL;
			n_dup += want == -EALREADY;
		}
	}
	CHECK_EQ(bad, 0);
	/* every outcome was exercised many times */
	CHECK(n_ok > 500 && n_stale > 300 && n_inval > 50 && n_dup > 300);
	fprintf(stderr, "txpid model: %u ok, %u stale, %u never reserved, %u already sealed\n",
		n_ok, n_stale, n_inval, n_dup);
	/* a jump wider than the window clears / fills everything */
	braid_txpid_advance(&t, hwm, hwm + BRAID_TXPID_WINDOW + 5);
	hwm += BRAID_TXPID_WINDOW + 5;
	CHECK_EQ(braid_txpid_claim(&t, hwm, hwm - BRAID_TXPID_WINDOW + 1), 0);
	CHECK_EQ(braid_txpid_claim(&t, hwm, hwm), 0);
	braid_txpid_skip(&t, hwm, hwm + 2 * BRAID_TXPID_WINDOW);
	hwm += 2 * BRAID_TXPID_WINDOW;
	CHECK_EQ(braid_txpid_claim(&t, hwm, hwm - 7), -EALREADY);
	/* the mark reaching 2^32 - 1 ends the advance loop */
	braid_txpid_advance(&t, 0xffffff00u, 0xffffffffu);
	CHECK_EQ(braid_txpid_claim(&t, 0xffffffffu, 0xffffffffu), 0);
	CHECK_EQ(braid_txpid_claim(&t, 0xffffffffu, 0xffffff01u), 0);
	CHECK_EQ(braid_txpid_claim(&t, 0xffffffffu, 0xffffff01u), -EALREADY);
	braid_txpid_free(&t);
	braid_txpid_free(&t); /* twice is fine */
}

int main(void)
{
	test_out_of_order();
	test_once_only_and_never_reserved();
	test_key_rotation();
	test_interleave_with_plain();
	test_window_and_limits();
	test_txpid_model();
	CHECK_DONE();
}
