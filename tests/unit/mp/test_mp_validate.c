// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_validate.c - path validation: a path carries data only after the
 * right PATH_RESPONSE arrived on it; spoofed, replayed, misrouted or
 * unsolicited messages never make it usable. Link events and PATH_CLOSE.
 */
#include <errno.h>
#include <string.h>

#include "mp.h"
#include "check.h"

static int released;

static void rel(void *user, void *ref, enum braid_mp_release why)
{
	(void)user;
	(void)ref;
	(void)why;
	released++;
}

static int rnd(void *user, uint8_t *buf, size_t len)
{
	static uint8_t c = 0x40;
	size_t i;

	(void)user;
	for (i = 0; i < len; i++)
		buf[i] = c++;
	return 0;
}

/* Poll the next control message for path; returns its parsed form. */
static int next_ctl(struct braid_mp *mp, uint64_t now, int path, struct braid_mp_msg *m)
{
	struct braid_mp_tx tx;

	while (braid_mp_poll_tx(mp, now, &tx) == 1) {
		if (tx.kind == BRAID_MP_TX_CONTROL && tx.path == path)
			return braid_mp_msg_parse(tx.ctl, tx.ctl_len, m);
	}
	return -ENOENT;
}

static void respond(struct braid_mp *mp, uint64_t now, int path, uint32_t id, const uint8_t *tok)
{
	struct braid_mp_msg m;
	uint8_t buf[BRAID_MP_MSG_MAX];
	int n;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_RESPONSE;
	m.path_id = id;
	memcpy(m.u.token, tok, BRAID_MP_TOKEN_LEN);
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(braid_mp_rx_control(mp, now, path, 0, buf, (size_t)n), 0);
}

int main(void)
{
	struct braid_mp_config cfg;
	struct braid_mp *mp;
	struct braid_mp_msg c0, c1, again;
	struct braid_mp_path_stats st;
	uint8_t wrong[BRAID_MP_TOKEN_LEN];
	uint64_t now = 5000000;
	int p0, p1;

	braid_mp_config_init(&cfg);
	cfg.tx_release = rel;
	cfg.random = rnd;
	CHECK_EQ(braid_mp_new(&mp, &cfg), 0);
	p0 = braid_mp_path_add(mp, now, 0xa, 0, 0);
	p1 = braid_mp_path_add(mp, now, 0xb, 0, 0);
	CHECK_EQ(p0, 0);
	CHECK_EQ(p1, 1);
	CHECK_EQ(braid_mp_path_add(mp, now, 0xa, 0, 0), -EEXIST);
	CHECK_EQ(braid_mp_path_find(mp, 0xb), 1);

	/* Each new path sends a challenge with its own random token. */
	CHECK_EQ(next_ctl(mp, now, p0, &c0), 0);
	CHECK_EQ(c0.type, BRAID_MP_MSG_PATH_CHALLENGE);
	CHECK_EQ(next_ctl(mp, now, p1, &c1), 0);
	CHECK_EQ(c1.type, BRAID_MP_MSG_PATH_CHALLENGE);
	CHECKM(memcmp(c0.u.token, c1.u.token, BRAID_MP_TOKEN_LEN) != 0, "tokens equal");

	/* Not usable yet: data has nowhere to go. */
	CHECK_EQ(braid_mp_enqueue(mp, now, (void *)1, 1000, 0, 1), -ENETUNREACH);

	/* Authenticated data arriving on an unvalidated path is delivered but
	 * never validates it; neither do echoes or reports. */
	CHECK_EQ(braid_mp_rx_data(mp, now, p0, 7, (void *)7, 100), 0);
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.rx_unvalidated, 1);
	CHECK_EQ(st.state, BRAID_MP_PATH_PROBING);
	CHECK_EQ(braid_mp_rx_data(mp, now, 5, 8, (void *)8, 100), -ENOENT);

	/* Wrong token: counted, still probing. */
	memcpy(wrong, c0.u.token, sizeof(wrong));
	wrong[3] ^= 0x80;
	respond(mp, now + 10, p0, (uint32_t)p0, wrong);
	/* Right token of path 0 arriving on path 1 (misrouted / replayed on
	 * another address): validates neither. */
	respond(mp, now + 10, p1, (uint32_t)p0, c0.u.token);
	/* Path 1's token sent back on path 1 but naming path 0. */
	respond(mp, now + 10, p1, (uint32_t)p0, c1.u.token);
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.bad_token, 1);
	CHECK_EQ(st.state, BRAID_MP_PATH_PROBING);
	braid_mp_path_stats(mp, p1, &st);
	CHECK_EQ(st.bad_token, 2);
	CHECK_EQ(st.state, BRAID_MP_PATH_PROBING);
	CHECK_EQ(st.validations, 0);

	/* The retry re-sends the same token after challenge_us. */
	CHECK_EQ(next_ctl(mp, now + cfg.challenge_us, p0, &again), 0);
	CHECKM(memcmp(again.u.token, c0.u.token, BRAID_MP_TOKEN_LEN) == 0, "retry token");

	/* The right response on the right path validates it. */
	respond(mp, now + 20, p0, (uint32_t)p0, c0.u.token);
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.state, BRAID_MP_PATH_ACTIVE);
	CHECK_EQ(st.validations, 1);
	/* A replay of that response is unsolicited now. */
	respond(mp, now + 30, p0, (uint32_t)p0, c0.u.token);
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.unsolicited_resp, 1);
	braid_mp_path_stats(mp, p1, &st);
	CHECK_EQ(st.state, BRAID_MP_PATH_PROBING);

	/* Now data flows, on path 0 only (after the path's first MTU probe,
	 * whose 1500 bytes are charged to its 2 Mbit/s pacing: 6 ms). */
	CHECK_EQ(braid_mp_enqueue(mp, now + 40, (void *)1, 1000, 0, 1), 0);
	{
		struct braid_mp_tx tx;
		uint64_t t;
		int data = 0;

		for (t = now + 40; t <= now + 40 + 6100; t += 6100)
			while (braid_mp_poll_tx(mp, t, &tx) == 1)
				if (tx.kind == BRAID_MP_TX_DATA) {
					data++;
					CHECK_EQ(tx.path, p0);
					CHECK_EQ(tx.pid, 1);
					CHECK_EQ(tx.resend, 0);
				}
		CHECK_EQ(data, 1);
	}

	/* Link down: failed at once, the unacknowledged packet has no other
	 * path to go to and is released. */
	CHECK_EQ(braid_mp_path_link_event(mp, now + 50, p0, 0), 0);
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.state, BRAID_MP_PATH_FAILED);
	CHECK_EQ(st.last_fail_us, now + 50);
	CHECK_EQ(st.failures, 1);
	CHECK_EQ(released, 1);
	/* Link up: re-validation with a fresh token. */
	CHECK_EQ(braid_mp_path_link_event(mp, now + 60, p0, 1), 0);
	CHECK_EQ(next_ctl(mp, now + 60, p0, &again), 0);
	CHECK_EQ(again.type, BRAID_MP_MSG_PATH_CHALLENGE);
	CHECKM(memcmp(again.u.token, c0.u.token, BRAID_MP_TOKEN_LEN) != 0, "fresh token");
	respond(mp, now + 70, p0, (uint32_t)p0, c0.u.token);	/* the old one */
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.state, BRAID_MP_PATH_FAILED);
	respond(mp, now + 70, p0, (uint32_t)p0, again.u.token);
	braid_mp_path_stats(mp, p0, &st);
	CHECK_EQ(st.state, BRAID_MP_PATH_ACTIVE);
	CHECK_EQ(st.validations, 2);

	/* Garbage control input is rejected with a clear code. */
	CHECK_EQ(braid_mp_rx_control(mp, now, p0, 0, (const uint8_t *)"hello", 5), -ENOMSG);
	{
		uint8_t hdr[BRAID_MP_HDR_LEN + 3];

		memcpy(hdr, braid_mp_magic, BRAID_MP_MAGIC_LEN);
		hdr[16] = BRAID_MP_MSG_PROBE;	/* truncated probe */
		CHECK_EQ(braid_mp_rx_control(mp, now, p0, 0, hdr, sizeof(hdr)), -EBADMSG);
		hdr[16] = 0x99;			/* unknown type */
		CHECK_EQ(braid_mp_rx_control(mp, now, p0, 0, hdr, sizeof(hdr)), -EBADMSG);
	}

	/* Config errors. */
	{
		struct braid_mp *bad;
		struct braid_mp_config c2 = cfg;

		c2.queue_pkts = 1000;
		CHECK_EQ(braid_mp_new(&bad, &c2), -EINVAL);
		c2 = cfg;
		c2.random = NULL;
		CHECK_EQ(braid_mp_new(&bad, &c2), -EINVAL);
	}
	{
		enum braid_mp_sched s;
		uint32_t ratio[BRAID_MP_MAX_PATHS];
		unsigned int n;

		CHECK_EQ(braid_mp_sched_parse("ratio 3:1", &s, ratio, &n), 0);
		CHECK_EQ(s, BRAID_MP_SCHED_RATIO);
		CHECK_EQ(n, 2);
		CHECK_EQ(ratio[0], 3);
		CHECK_EQ(braid_mp_sched_parse("lowest-rtt", &s, ratio, &n), 0);
		CHECK_EQ(s, BRAID_MP_SCHED_LOWEST_RTT);
		CHECK_EQ(braid_mp_sched_parse("ratio 3:", &s, ratio, &n), -EINVAL);
		CHECK_EQ(braid_mp_sched_parse("edfx", &s, ratio, &n), -EINVAL);
		/* n = 0: weights by path only (braid_mp_path_set_weight); n > 0 all zero: refused */
		CHECK_EQ(braid_mp_set_sched(mp, BRAID_MP_SCHED_RATIO, ratio, 0), 0);
		ratio[0] = ratio[1] = 0;
		CHECK_EQ(braid_mp_set_sched(mp, BRAID_MP_SCHED_RATIO, ratio, 2), -EINVAL);
		CHECK_EQ(braid_mp_path_set_weight(mp, 7, 1), -ENOENT);
	}
	braid_mp_free(mp);
	CHECK_DONE();
}
