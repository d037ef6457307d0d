// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_pool.c - the multipath data plane's packet pools, grown on demand and
 * returned when idle (mpath_pool.h).
 */
#include "dataplane/mpath_pool.h"

#include <errno.h>
#include <sys/mman.h>
#include <sodium.h>

#include "dataplane/mpath_int.h"
#include "mp/mp.h"

#define POOL_KEEP 16	/* buffers a pool may keep carved while idle (keepalives reuse one) */
#define POOL_TRIM_TICKS 8	/* the engine's arrays: every 8 housekeeping seconds (~25 madvise calls) */
#define TXCTL_BYTES ((size_t)BRAID_TXB_MAX * CTL_WIRE_MAX)

static uint8_t *reserve(size_t len)
{
	/* anonymous: no page is resident before it is written */
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int mpath_pool_init(struct braid_mpath *m)
{
	m->tmem = reserve((size_t)m->tcount * m->tsize);
	m->rmem = reserve((size_t)m->rcount * m->rsize);
	/* 64 slots of CTL_WIRE_MAX (an MTU probe's size): a few pages are written per batch */
	m->txctl = reserve(TXCTL_BYTES);
	if (!m->tmem || !m->rmem || !m->txctl)
		return -ENOMEM;
	m->tfree = NULL;
	m->rfree = NULL;
	m->tcarved = m->tfree_n = m->rcarved = m->rfree_n = 0;
	return 0;
}

/* The carved buffers held plaintext: wipe them, then drop their pages (they read as zero again). */
static void give_back(uint8_t *mem, size_t used)
{
	sodium_memzero(mem, used);
	madvise(mem, used, MADV_DONTNEED);
}

void mpath_pool_trim(struct braid_mpath *m)
{
	if (m->mp && ++m->trim_tick >= POOL_TRIM_TICKS) {
		m->trim_tick = 0;
		braid_mp_trim(m->mp);
		/* sealed control packets: the batch was flushed, nothing there is read again */
		if (m->txctl && !m->txctl_n)
			madvise(m->txctl, TXCTL_BYTES, MADV_DONTNEED);
	}
	if (m->tmem && m->tcarved > POOL_KEEP && m->tfree_n == m->tcarved) {
		give_back(m->tmem, (size_t)m->tcarved * m->tsize);
		m->tfree = NULL;
		m->tcarved = m->tfree_n = 0;
	}
	if (m->rmem && m->rcarved > POOL_KEEP && m->rfree_n == m->rcarved) {
		give_back(m->rmem, (size_t)m->rcarved * m->rsize);
		m->rfree = NULL;
		m->rcarved = m->rfree_n = 0;
	}
}

void mpath_pool_free(struct braid_mpath *m)
{
	if (m->tmem) {
		sodium_memzero(m->tmem, (size_t)m->tcarved * m->tsize);
		munmap(m->tmem, (size_t)m->tcount * m->tsize);
	}
	if (m->rmem) {
		sodium_memzero(m->rmem, (size_t)m->rcarved * m->rsize);
		munmap(m->rmem, (size_t)m->rcount * m->rsize);
	}
	if (m->txctl)
		munmap(m->txctl, TXCTL_BYTES);
	m->tmem = m->rmem = m->txctl = NULL;
}
