// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_trim.c - the engine's arrays on their own pages (mp_mem.c) and
 * their return when idle (braid_mp_trim, mp_trim.c): a large array reads as
 * zeroes after mp_zdrop, a small one keeps its content; trimming an engine
 * whose reorder buffer holds a packet behind a gap changes nothing (the packet
 * comes out in order once the gap is filled); trimming an idle one zeroes the
 * slots and the control queue's entries, and afterwards packets are still
 * delivered in order and a packet-id
 * delivered before the trim is still refused as a duplicate.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "mp.h"
#include "mp_int.h"
#include "mp_mem.h"
#include "mp_reorder.h"
#include "check.h"

#define REF(pid) ((void *)(uintptr_t)((pid) + 1))

static void rel(void *user, void *ref, enum braid_mp_release why)
{
	(void)user, (void)ref, (void)why;
}

static void rx_rel(void *user, void *ref)
{
	(void)user, (void)ref;
}

static int rnd(void *user, uint8_t *buf, size_t len)
{
	(void)user;
	memset(buf, 0x5a, len);
	return 0;
}

static int pop(struct braid_mp *mp, uint64_t now, uint64_t *pid)
{
	struct mp_ro_out o;

	if (mp_reorder_pop(&mp->ro, now, &o) != 1)
		return 0;
	CHECKM(o.ref == REF(o.pid), "ref/pid mismatch");
	*pid = o.pid;
	return 1;
}

static void test_zdrop(void)
{
	uint32_t *big = mp_zalloc(4096, sizeof(uint32_t)), *small = mp_zalloc(16, sizeof(uint32_t));

	CHECK(big && small);
	CHECK_EQ(big[0], 0);
	CHECK_EQ(big[4095], 0);
	big[0] = 7;
	big[4095] = 9;
	small[3] = 5;
	mp_zdrop(big, 4096, sizeof(uint32_t));
	mp_zdrop(small, 16, sizeof(uint32_t));
	CHECK_EQ(big[0], 0);
	CHECK_EQ(big[4095], 0);
	CHECK_EQ(small[3], 5);	/* calloc'ed: left as it is */
	mp_zfree(big, 4096, sizeof(uint32_t));
	mp_zfree(small, 16, sizeof(uint32_t));
	CHECK(mp_zalloc(SIZE_MAX / 2, 4) == NULL);
}

static void test_engine_trim(void)
{
	struct braid_mp_config cfg;
	struct braid_mp *mp;
	uint64_t pid, now = 1000, i;

	braid_mp_config_init(&cfg);
	cfg.tx_release = rel;
	cfg.rx_release = rx_rel;
	cfg.random = rnd;
	CHECK_EQ(braid_mp_new(&mp, &cfg), 0);
	for (i = 0; i < 100; i++)
		CHECK_EQ(mp_reorder_insert(&mp->ro, now, i, REF(i), 100), 0);
	for (i = 0; i < 100; i++) {
		CHECK_EQ(pop(mp, now, &pid), 1);
		CHECK_EQ(pid, i);
	}
	/* 100 missing, 101 held: a trim must keep it */
	CHECK_EQ(mp_reorder_insert(&mp->ro, now, 101, REF(101), 100), 0);
	CHECK_EQ(pop(mp, now, &pid), 0);
	braid_mp_trim(mp);
	CHECK_EQ(mp->ro.st.held, 1);
	CHECK_EQ(mp_reorder_insert(&mp->ro, now, 100, REF(100), 100), 0);
	CHECK_EQ(pop(mp, now, &pid), 1);
	CHECK_EQ(pid, 100);
	CHECK_EQ(pop(mp, now, &pid), 1);
	CHECK_EQ(pid, 101);
	/* idle: nothing held or pending, nothing ahead of next: the slots read as empty again */
	CHECK_EQ(mp->ro.slot[101 & (mp->ro.win - 1)].pid, 101);	/* delivered slots keep their pid */
	mp->ctl[40].len = 5;	/* an old control message, well inside the queue's pages */
	braid_mp_trim(mp);
	CHECK_EQ(mp->ctl[40].len, 0);
	CHECK_EQ(mp->ctl_head, 0);
	for (i = 0; i < mp->ro.win; i++)
		CHECK(mp->ro.slot[i].state == 0 && mp->ro.slot[i].pid == 0);
	CHECK_EQ(mp_reorder_insert(&mp->ro, now, 101, REF(101), 100), -EALREADY);	/* still a duplicate */
	CHECK_EQ(mp_reorder_insert(&mp->ro, now, 103, REF(103), 100), 0);
	CHECK_EQ(mp_reorder_insert(&mp->ro, now, 102, REF(102), 100), 0);
	CHECK_EQ(pop(mp, now, &pid), 1);
	CHECK_EQ(pid, 102);
	CHECK_EQ(pop(mp, now, &pid), 1);
	CHECK_EQ(pid, 103);
	braid_mp_free(mp);
}

int main(void)
{
	test_zdrop();
	test_engine_trim();
	CHECK_DONE();
}
