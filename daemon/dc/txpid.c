// SPDX-License-Identifier: GPL-2.0-only
/*
 * txpid.c - bitmap of sealed tx packet-ids over a window below the high-water mark.
 *
 * Bit (id mod WINDOW) belongs to the one id in (hwm - WINDOW, hwm] with that
 * residue; advancing the mark clears the bits of the ids that enter, which
 * are exactly the bits of the ids that leave.
 */
#include "txpid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NWORDS (BRAID_TXPID_WINDOW / 64)
#define MASK (BRAID_TXPID_WINDOW - 1)

int braid_txpid_start(struct braid_txpid *t)
{
	if (t->bits)
		return 0;
	t->bits = malloc(NWORDS * sizeof(uint64_t));
	if (!t->bits)
		return -ENOMEM;
	memset(t->bits, 0xff, NWORDS * sizeof(uint64_t));
	return 0;
}

void braid_txpid_free(struct braid_txpid *t)
{
	free(t->bits);
	t->bits = NULL;
}

static void clear_bit(uint64_t *bits, uint32_t id)
{
	bits[(id & MASK) / 64] &= ~(1ull << (id % 64));
}

void braid_txpid_advance(struct braid_txpid *t, uint32_t old, uint32_t hwm)
{
	if (!t->bits || hwm <= old)
		return;
	if (hwm - old >= BRAID_TXPID_WINDOW) {
		memset(t->bits, 0, NWORDS * sizeof(uint64_t));
		return;
	}
	for (uint32_t id = old + 1;; id++) {
		clear_bit(t->bits, id);
		if (id == hwm)
			break;
	}
}

void braid_txpid_skip(struct braid_txpid *t, uint32_t old, uint32_t hwm)
{
	if (!t->bits || hwm <= old)
		return;
	if (hwm - old >= BRAID_TXPID_WINDOW) {
		memset(t->bits, 0xff, NWORDS * sizeof(uint64_t));
		return;
	}
	for (uint32_t id = old + 1;; id++) {
		braid_txpid_mark(t, id);
		if (id == hwm)
			break;
	}
}

void braid_txpid_mark(struct braid_txpid *t, uint32_t id)
{
	if (t->bits)
		t->bits[(id & MASK) / 64] |= 1ull << (id % 64);
}

int braid_txpid_claim(struct braid_txpid *t, uint32_t hwm, uint32_t id)
{
	uint64_t *w, bit;

	if (id == 0 || id > hwm)
		return -EINVAL;
	if (hwm - id >= BRAID_TXPID_WINDOW)
		return -ESTALE;
	if (!t->bits)
		return -EALREADY;
	w = &t->bits[(id & MASK) / 64];
	bit = 1ull << (id % 64);
	if (*w & bit)
		return -EALREADY;
	*w |= bit;
	return 0;
}
