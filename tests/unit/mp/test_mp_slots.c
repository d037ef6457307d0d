// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_slots.c - which path is which on the side that learned its paths
 * (docs/multipath.md §4, §6): PATH_STATUS carries the sender's slot and
 * backup flag; ratio weights by slot and the backup flag hold whatever the
 * order the paths were learned in; a backup change at run time reaches the
 * peer (like MPTCP's MP_PRIO), a lost one is repeated; peers that send no
 * PATH_STATUS (older Braid) still work; redundant copies skip a path whose
 * queue is over its delay budget.
 *
 * Two engines on a virtual clock: A ("client") adds its paths in
 * configuration order (slots 0, 1), B ("gateway") learns them
 * (BRAID_MP_PATH_F_LEARNED) in the order the case names. Control messages
 * cross at once; data is not carried: its placement is read from the queue
 * stats right after it was queued.
 *
 * Usage: test_mp_slots learned|ratio|weight|backup|prio|old|redundant
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "check.h"

struct h {
	struct braid_mp *a, *b;
	int a2b[2], b2a[2];	/* path index on one side -> the other's */
	uint64_t now;
	uint64_t pid[2];	/* control packet-ids A->B, B->A */
	int drop_status_ab;	/* drop this many A->B PATH_STATUS */
	int strip_status_ab;	/* drop every A->B PATH_STATUS (older peer) */
	int strip_link;		/* -1, or strip only on this A path */
	uint64_t status_dropped;
};

static uint64_t released;
static uint8_t pkt[1000];

static void rel(void *user, void *ref, enum braid_mp_release why)
{
	(void)user;
	(void)ref;
	(void)why;
	released++;
}

static int rnd(void *user, uint8_t *buf, size_t len)
{
	static uint8_t c = 1;
	size_t i;

	(void)user;
	for (i = 0; i < len; i++)
		buf[i] = c++;
	return 0;
}

static struct braid_mp *engine(void)
{
	struct braid_mp_config c;
	struct braid_mp *mp = NULL;

	braid_mp_config_init(&c);
	c.tx_release = rel;
	c.random = rnd;
	c.queue_limit_us = 0;	/* placement counts: no tail drop */
	c.aqm_target_us = 0;
	CHECK_EQ(braid_mp_new(&mp, &c), 0);
	return mp;
}

/* A adds slots 0 and 1 (path 1 with aflags1); B learns A's path `first`
 * first. */
static void setup(struct h *h, int first, unsigned int aflags1)
{
	int i, j;

	memset(h, 0, sizeof(*h));
	h->strip_link = -1;
	h->now = 1000000;
	h->a = engine();
	h->b = engine();
	CHECK_EQ(braid_mp_path_add(h->a, h->now, 10, 0, 0), 0);
	CHECK_EQ(braid_mp_path_add(h->a, h->now, 11, aflags1, 0), 1);
	for (i = 0; i < 2; i++) {
		int a = i == 0 ? first : 1 - first;

		j = braid_mp_path_add(h->b, h->now, 20 + (uint64_t)a, BRAID_MP_PATH_F_LEARNED, 0);
		CHECK_EQ(j, i);
		h->a2b[a] = j;
		h->b2a[j] = a;
	}
}

static void teardown(struct h *h)
{
	braid_mp_free(h->a);
	braid_mp_free(h->b);
}

static int is_status(const uint8_t *buf, uint32_t len)
{
	return len > BRAID_MP_MAGIC_LEN && buf[BRAID_MP_MAGIC_LEN] == BRAID_MP_MSG_PATH_STATUS;
}

/* Run both engines for us microseconds (1 ms steps), carrying control. */
static void pump(struct h *h, uint64_t us)
{
	uint64_t end = h->now + us;
	struct braid_mp_tx tx;
	int s;

	for (; h->now < end; h->now += 1000) {
		for (s = 0; s < 2; s++) {
			struct braid_mp *from = s ? h->b : h->a, *to = s ? h->a : h->b;

			while (braid_mp_poll_tx(from, h->now, &tx) == 1) {
				int path;

				if (tx.kind != BRAID_MP_TX_CONTROL)
					continue;	/* data is not carried */
				path = s ? h->b2a[tx.path] : h->a2b[tx.path];
				if (!s && is_status(tx.ctl, tx.ctl_len) &&
				    (h->drop_status_ab ||
				     (h->strip_status_ab &&
				      (h->strip_link < 0 || h->strip_link == tx.path)))) {
					if (h->drop_status_ab)
						h->drop_status_ab--;
					h->status_dropped++;
					continue;
				}
				CHECK_EQ(braid_mp_rx_control(to, h->now, path, ++h->pid[s], tx.ctl,
							     tx.ctl_len), 0);
			}
		}
	}
}

static struct braid_mp_path_stats st(struct braid_mp *mp, int i)
{
	struct braid_mp_path_stats s;

	memset(&s, 0, sizeof(s));
	CHECK_EQ(braid_mp_path_stats(mp, i, &s), 0);
	return s;
}

/* Queue n packets of 1000 bytes; returns how many were accepted. */
static int offer(struct braid_mp *mp, uint64_t now, int n, uint64_t *pid)
{
	int i, ok = 0;

	for (i = 0; i < n; i++)
		if (braid_mp_enqueue(mp, now, pkt, sizeof(pkt), BRAID_MP_CLASS_BULK, ++*pid) == 0)
			ok++;
	return ok;
}

static void case_learned(void)
{
	struct h h;
	int first, a;

	for (first = 0; first < 2; first++) {
		setup(&h, first, 0);
		pump(&h, 300000);
		for (a = 0; a < 2; a++) {
			struct braid_mp_path_stats sa = st(h.a, a), sb = st(h.b, h.a2b[a]);

			CHECK_EQ(sa.state, BRAID_MP_PATH_ACTIVE);
			CHECK_EQ(sb.state, BRAID_MP_PATH_ACTIVE);
			CHECK_EQ(sa.slot, a);		/* configured: own slot */
			CHECK_EQ(sa.peer_slot, -1);	/* the gateway's paths have none */
			CHECK_EQ(sb.slot, -1);		/* learned: no own slot */
			CHECK_EQ(sb.peer_slot, a);	/* ... but the client's */
			CHECK_EQ(sb.peer_backup, 0);
			CHECK(sb.status_rx >= 1);
			CHECK(sa.status_rx >= 1);
		}
		fprintf(stderr, "learned: first %d: B path %d = slot %d, B path %d = slot %d\n",
			first, 0, st(h.b, 0).peer_slot, 1, st(h.b, 1).peer_slot);
		teardown(&h);
	}
}

static void case_ratio(void)
{
	const uint32_t r52[2] = { 5, 2 };
	struct h h;
	uint64_t pid = 0;
	int first;

	for (first = 0; first < 2; first++) {
		struct braid_mp_path_stats s0, s1;

		setup(&h, first, 0);
		pump(&h, 300000);
		/* the learned side: weights by the peer's slots */
		CHECK_EQ(braid_mp_set_sched(h.b, BRAID_MP_SCHED_RATIO, r52, 2), 0);
		CHECK_EQ(offer(h.b, h.now, 700, &pid), 700);
		s0 = st(h.b, h.a2b[0]);
		s1 = st(h.b, h.a2b[1]);
		CHECKM(s0.queue_bytes >= 499000 && s0.queue_bytes <= 501000,
		       "first %d: slot 0 got %llu bytes, want 500000", first,
		       (unsigned long long)s0.queue_bytes);
		CHECKM(s1.queue_bytes >= 199000 && s1.queue_bytes <= 201000,
		       "first %d: slot 1 got %llu bytes, want 200000", first,
		       (unsigned long long)s1.queue_bytes);
		/* the configured side: weights by its own slots */
		CHECK_EQ(braid_mp_set_sched(h.a, BRAID_MP_SCHED_RATIO, r52, 2), 0);
		CHECK_EQ(offer(h.a, h.now, 700, &pid), 700);
		CHECK(st(h.a, 0).queue_bytes >= 499000 && st(h.a, 0).queue_bytes <= 501000);
		CHECK(st(h.a, 1).queue_bytes >= 199000 && st(h.a, 1).queue_bytes <= 201000);
		fprintf(stderr, "ratio 5:2: learned first %d: B slot 0 %llu, slot 1 %llu bytes; "
			"A %llu / %llu\n", first, (unsigned long long)s0.queue_bytes,
			(unsigned long long)s1.queue_bytes,
			(unsigned long long)st(h.a, 0).queue_bytes,
			(unsigned long long)st(h.a, 1).queue_bytes);
		teardown(&h);
	}
}

/* Per-path weights (braid_mp_path_set_weight) override the slots' and survive a
 * scheduler switch; no weighted path usable: the others share equally. */
static void case_weight(void)
{
	const uint32_t r52[2] = { 5, 2 };
	struct h h;
	uint64_t pid = 0;

	setup(&h, 0, 0);
	pump(&h, 300000);
	CHECK_EQ(braid_mp_set_sched(h.a, BRAID_MP_SCHED_RATIO, r52, 2), 0);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 0, 1), 0);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 1, 3), 0);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 1, BRAID_MP_WEIGHT_MAX + 1), -EINVAL);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 5, 1), -ENOENT);
	CHECK_EQ(offer(h.a, h.now, 400, &pid), 400);
	CHECK_EQ(st(h.a, 0).queue_pkts, 100);
	CHECK_EQ(st(h.a, 1).queue_pkts, 300);
	teardown(&h);

	/* back to the slot's weight; a weight by path only (n = 0), the other unlisted */
	setup(&h, 0, 0);
	pump(&h, 300000);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 0, 1), 0);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 0, BRAID_MP_WEIGHT_NONE), 0);
	CHECK_EQ(braid_mp_set_sched(h.a, BRAID_MP_SCHED_RATIO, r52, 2), 0);
	CHECK_EQ(offer(h.a, h.now, 700, &pid), 700);
	CHECK_EQ(st(h.a, 0).queue_pkts, 500);
	CHECK_EQ(st(h.a, 1).queue_pkts, 200);
	teardown(&h);

	setup(&h, 0, 0);
	pump(&h, 300000);
	CHECK_EQ(braid_mp_set_sched(h.a, BRAID_MP_SCHED_RATIO, NULL, 0), 0);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 0, BRAID_MP_WEIGHT_SPARE), 0);
	CHECK_EQ(braid_mp_path_set_weight(h.a, 1, 2), 0);
	CHECK_EQ(offer(h.a, h.now, 100, &pid), 100);
	CHECK_EQ(st(h.a, 0).queue_pkts, 0);
	CHECK_EQ(st(h.a, 1).queue_pkts, 100);
	/* the only weighted path at 0 (never, as ratio 1:0): the spare takes the data */
	CHECK_EQ(braid_mp_path_set_weight(h.a, 1, 0), 0);
	CHECK_EQ(offer(h.a, h.now, 100, &pid), 100);
	CHECK_EQ(st(h.a, 0).queue_pkts, 100);
	CHECK_EQ(st(h.a, 1).queue_pkts, 100);
	/* no spare and every weight 0: no path (unchanged: ratio 1:0 never uses path 1) */
	CHECK_EQ(braid_mp_path_set_weight(h.a, 0, 0), 0);
	CHECK_EQ(braid_mp_enqueue(h.a, h.now, pkt, sizeof(pkt), BRAID_MP_CLASS_BULK, ++pid),
		 -ENETUNREACH);
	teardown(&h);
	fprintf(stderr, "weight: per-path weights 1:3 over slots 5:2, cleared back to 5:2, "
		"spare path only when no weighted path, weight 0 never\n");
}

static void case_backup(void)
{
	enum braid_mp_sched sc[2] = { BRAID_MP_SCHED_BACKUP, BRAID_MP_SCHED_EDF };
	struct h h;
	uint64_t pid = 0;
	int first, k;

	for (first = 0; first < 2; first++) {
		for (k = 0; k < 2; k++) {
			struct braid_mp_path_stats s0, s1;

			/* backup only on the client (mp-backup LOCAL there) */
			setup(&h, first, BRAID_MP_PATH_F_BACKUP);
			pump(&h, 300000);
			s0 = st(h.b, h.a2b[0]);
			s1 = st(h.b, h.a2b[1]);
			CHECK_EQ(s0.state, BRAID_MP_PATH_ACTIVE);
			CHECK_EQ(s1.state, BRAID_MP_PATH_STANDBY);
			CHECK_EQ(s1.peer_backup, 1);
			CHECK_EQ(s1.flags & BRAID_MP_PATH_F_BACKUP, 0);	/* not B's own flag */
			CHECK_EQ(st(h.a, 1).state, BRAID_MP_PATH_STANDBY);
			CHECK_EQ(braid_mp_set_sched(h.b, sc[k], NULL, 0), 0);
			CHECK_EQ(offer(h.b, h.now, 50, &pid), 50);
			s0 = st(h.b, h.a2b[0]);
			s1 = st(h.b, h.a2b[1]);
			CHECKM(s0.queue_pkts == 50 && s1.queue_pkts == 0,
			       "%s, first %d: %llu on the active path, %llu on the backup",
			       braid_mp_sched_name(sc[k]), first,
			       (unsigned long long)s0.queue_pkts, (unsigned long long)s1.queue_pkts);
			teardown(&h);
		}
	}
	fprintf(stderr, "backup: the client's backup flag honoured by the learned side "
		"(backup and edf, both learn orders)\n");
}

static void case_prio(void)
{
	struct h h;
	uint64_t pid = 0, rx0;
	int first;

	for (first = 0; first < 2; first++) {
		setup(&h, first, 0);
		pump(&h, 300000);
		CHECK_EQ(st(h.b, h.a2b[0]).state, BRAID_MP_PATH_ACTIVE);
		/* braidctl set path 0 backup on, on the client; the first
		 * PATH_STATUS is lost */
		rx0 = st(h.b, h.a2b[0]).status_rx;
		h.drop_status_ab = 1;
		CHECK_EQ(braid_mp_path_set(h.a, 0, BRAID_MP_PATH_F_BACKUP, 0), 0);
		CHECK_EQ(st(h.a, 0).state, BRAID_MP_PATH_STANDBY);
		pump(&h, 1000);
		CHECK_EQ(h.status_dropped, 1);
		CHECK_EQ(st(h.b, h.a2b[0]).state, BRAID_MP_PATH_ACTIVE);	/* not yet */
		pump(&h, 1500000);	/* the repeat rides on the next probe */
		CHECK(st(h.b, h.a2b[0]).status_rx > rx0);
		CHECK_EQ(st(h.b, h.a2b[0]).peer_backup, 1);
		CHECK_EQ(st(h.b, h.a2b[0]).state, BRAID_MP_PATH_STANDBY);
		CHECK_EQ(offer(h.b, h.now, 20, &pid), 20);
		CHECK_EQ(st(h.b, h.a2b[0]).queue_pkts, 0);
		CHECK_EQ(st(h.b, h.a2b[1]).queue_pkts, 20);
		/* and off again: at once (nothing lost) */
		CHECK_EQ(braid_mp_path_set(h.a, 0, 0, 0), 0);
		pump(&h, 1000);
		CHECK_EQ(st(h.b, h.a2b[0]).peer_backup, 0);
		CHECK_EQ(st(h.b, h.a2b[0]).state, BRAID_MP_PATH_ACTIVE);
		/* the other direction: the gateway marks its path to slot 1 */
		CHECK_EQ(braid_mp_path_set(h.b, h.a2b[1], BRAID_MP_PATH_F_BACKUP, 0), 0);
		pump(&h, 1000);
		CHECK_EQ(st(h.a, 1).peer_backup, 1);
		CHECK_EQ(st(h.a, 1).state, BRAID_MP_PATH_STANDBY);
		CHECK_EQ(st(h.a, 0).state, BRAID_MP_PATH_ACTIVE);
		teardown(&h);
	}
	fprintf(stderr, "prio: backup on/off at run time reaches the peer; a lost PATH_STATUS "
		"is repeated with the next probe\n");
}

static void case_old(void)
{
	const uint32_t r52[2] = { 5, 2 };
	uint8_t buf[64], big[64];
	struct braid_mp_msg m, g;
	struct braid_mp_stats ms;
	struct h h;
	uint64_t pid = 0, bad;
	int n, first;

	/* the message itself: layout, longer parses, shorter does not */
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_STATUS;
	m.path_id = 0x01020304;
	m.u.status.slot = 3;
	m.u.status.flags = BRAID_MP_STATUS_F_BACKUP;
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(n, BRAID_MP_STATUS_LEN);
	CHECK_EQ(n, 25);
	CHECK_EQ(buf[16], 10);
	CHECK_MEM(buf + 17, "\x01\x02\x03\x04\x03\x01\x00\x00", 8);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n, &g), 0);
	CHECK_EQ(g.path_id, 0x01020304);
	CHECK_EQ(g.u.status.slot, 3);
	CHECK_EQ(g.u.status.flags, BRAID_MP_STATUS_F_BACKUP);
	memcpy(big, buf, (size_t)n);
	memset(big + n, 0xab, 8);
	big[22] = 0x81;	/* an unknown flag bit beside backup */
	CHECK_EQ(braid_mp_msg_parse(big, (size_t)n + 8, &g), 0);
	CHECK_EQ(g.u.status.slot, 3);
	CHECK_EQ(braid_mp_msg_parse(buf, (size_t)n - 1, &g), -EBADMSG);
	CHECK_EQ(braid_mp_msg_encode(&m, buf, (size_t)n - 1), -ENOSPC);

	for (first = 0; first < 2; first++) {
		/* an older peer: no PATH_STATUS at all */
		setup(&h, first, BRAID_MP_PATH_F_BACKUP);
		h.strip_status_ab = 1;
		pump(&h, 300000);
		CHECK(h.status_dropped >= 2);
		CHECK_EQ(st(h.b, 0).state, BRAID_MP_PATH_ACTIVE);	/* validated all the same */
		CHECK_EQ(st(h.b, 1).state, BRAID_MP_PATH_ACTIVE);	/* flag unknown here */
		CHECK_EQ(st(h.b, 0).peer_slot, -1);
		CHECK_EQ(st(h.b, 1).peer_slot, -1);
		/* no slot anywhere: ratio gives equal weights */
		CHECK_EQ(braid_mp_set_sched(h.b, BRAID_MP_SCHED_RATIO, r52, 2), 0);
		CHECK_EQ(offer(h.b, h.now, 700, &pid), 700);
		CHECK(st(h.b, 0).queue_bytes >= 349000 && st(h.b, 0).queue_bytes <= 351000);
		CHECK(st(h.b, 1).queue_bytes >= 349000 && st(h.b, 1).queue_bytes <= 351000);
		/* an unknown message type (what an older engine makes of
		 * PATH_STATUS): counted as bad, nothing else changes */
		braid_mp_stats(h.b, &ms);
		bad = ms.ctl_bad;
		memcpy(big, buf, BRAID_MP_STATUS_LEN);
		big[16] = 200;
		CHECK_EQ(braid_mp_rx_control(h.b, h.now, 0, ++h.pid[0], big, BRAID_MP_STATUS_LEN),
			 -EBADMSG);
		braid_mp_stats(h.b, &ms);
		CHECK_EQ(ms.ctl_bad, bad + 1);
		CHECK_EQ(st(h.b, 0).state, BRAID_MP_PATH_ACTIVE);
		teardown(&h);

		/* PATH_STATUS on one path only: the slotless one gets weight 0 */
		setup(&h, first, 0);
		h.strip_status_ab = 1;
		h.strip_link = 1;
		pump(&h, 300000);
		CHECK_EQ(st(h.b, h.a2b[0]).peer_slot, 0);
		CHECK_EQ(st(h.b, h.a2b[1]).peer_slot, -1);
		CHECK_EQ(braid_mp_set_sched(h.b, BRAID_MP_SCHED_RATIO, r52, 2), 0);
		CHECK_EQ(offer(h.b, h.now, 100, &pid), 100);
		CHECK_EQ(st(h.b, h.a2b[0]).queue_pkts, 100);
		CHECK_EQ(st(h.b, h.a2b[1]).queue_pkts, 0);
		teardown(&h);
	}
	fprintf(stderr, "old: PATH_STATUS layout; peers without it validate and get equal "
		"ratio weights; unknown types are dropped and counted\n");
}

static void case_redundant(void)
{
	struct braid_mp_path_stats s0, s1;
	struct braid_mp_stats ms;
	struct h h;
	uint64_t pid = 0, nobufs;
	int ok, r;

	setup(&h, 0, 0);
	pump(&h, 300000);
	braid_mp_free(h.a);
	/* A again, with the tail-drop budget (50 ms) on */
	{
		struct braid_mp_config c;

		braid_mp_config_init(&c);
		c.tx_release = rel;
		c.random = rnd;
		c.aqm_target_us = 0;
		c.sched = BRAID_MP_SCHED_REDUNDANT;
		CHECK_EQ(braid_mp_new(&h.a, &c), 0);
	}
	CHECK_EQ(braid_mp_path_add(h.a, h.now, 10, 0, 0), 0);
	CHECK_EQ(braid_mp_path_add(h.a, h.now, 11, 0, 1000000), 1);	/* 1 Mbit/s cap */
	pump(&h, 300000);
	/* every packet on both paths while both have room ... */
	CHECK_EQ(offer(h.a, h.now, 5, &pid), 5);
	CHECK_EQ(st(h.a, 0).queue_pkts, 5);
	CHECK_EQ(st(h.a, 1).queue_pkts, 5);
	/* ... then the slow path's copies are skipped, the fast one goes on */
	ok = 5 + offer(h.a, h.now, 2000, &pid);
	s0 = st(h.a, 0);
	s1 = st(h.a, 1);
	CHECK_EQ(s0.queue_pkts, (uint64_t)ok);
	CHECK(s1.queue_pkts < s0.queue_pkts);
	CHECK_EQ(s1.queue_pkts + s1.redundant_skipped, (uint64_t)ok);
	CHECK(s1.redundant_skipped > 0);
	CHECKM(s1.queue_bytes * 8000000ULL / 1000000 <= 50000,
	       "slow path holds %llu bytes: over 50 ms at 1 Mbit/s",
	       (unsigned long long)s1.queue_bytes);
	CHECK(ok < 2005);	/* the fast path's budget ends it: -ENOBUFS */
	braid_mp_stats(h.a, &ms);
	nobufs = ms.enq_nobufs;
	r = braid_mp_enqueue(h.a, h.now, pkt, sizeof(pkt), BRAID_MP_CLASS_BULK, ++pid);
	CHECK_EQ(r, -ENOBUFS);
	braid_mp_stats(h.a, &ms);
	CHECK_EQ(ms.enq_nobufs, nobufs + 1);
	CHECK_EQ(st(h.a, 0).redundant_skipped, 0);
	CHECK_EQ(st(h.a, 1).redundant_skipped, s1.redundant_skipped);	/* refused: no skip */
	fprintf(stderr, "redundant: %d packets queued on the fast path, %llu copies on the "
		"1 Mbit/s path (%llu skipped)\n", ok, (unsigned long long)s1.queue_pkts,
		(unsigned long long)s1.redundant_skipped);
	teardown(&h);
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (!strcmp(c, "learned"))
		case_learned();
	else if (!strcmp(c, "ratio"))
		case_ratio();
	else if (!strcmp(c, "weight"))
		case_weight();
	else if (!strcmp(c, "backup"))
		case_backup();
	else if (!strcmp(c, "prio"))
		case_prio();
	else if (!strcmp(c, "old"))
		case_old();
	else if (!strcmp(c, "redundant"))
		case_redundant();
	else {
		fprintf(stderr, "usage: %s learned|ratio|weight|backup|prio|old|redundant\n", argv[0]);
		return 2;
	}
	CHECK_DONE();
}
