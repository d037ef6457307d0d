/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * txpid.h - which reserved tx packet-ids of one key were already encrypted.
 *
 * The multipath engine takes a packet-id when it queues a packet and the
 * daemon encrypts it later, possibly after packets with higher ids. An AEAD
 * nonce is (packet-id || implicit IV), so a (key, packet-id) pair must never
 * seal two different plaintexts (see braid_dc_encrypt_reserved in dc.h).
 * This bitmap remembers which ids of the last BRAID_TXPID_WINDOW below the
 * key's high-water mark (the last id handed out) were sealed already.
 *
 * The bitmap is allocated on the first reservation of a key (8 KiB); a key
 * that only ever uses braid_dc_encrypt() pays nothing. When it is created,
 * every id up to the high-water mark counts as used: those ids went through
 * plain encryption (or were skipped) and must not be sealed again.
 */
#ifndef BRAID_DC_TXPID_H
#define BRAID_DC_TXPID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * = BRAID_REPLAY_MAX_WINDOW: a packet sealed further behind the newest id
 * would be outside every receiver's replay window (OpenVPN's maximum is
 * 65536 too), so it could never be accepted anyway.
 */
#define BRAID_TXPID_WINDOW 65536u

struct braid_txpid {
	uint64_t *bits; /* NULL = not tracking: every id <= high-water mark is used */
};

/* Start tracking (no-op when already tracking). 0 or -ENOMEM. */
int braid_txpid_start(struct braid_txpid *t);
void braid_txpid_free(struct braid_txpid *t);
static inline bool braid_txpid_tracking(const struct braid_txpid *t)
{
	return t->bits != NULL;
}

/*
 * The high-water mark moves from `old` to `hwm`: ids old+1..hwm are new and
 * unused, ids at or below hwm - WINDOW leave the window. No-op if hwm <= old.
 */
void braid_txpid_advance(struct braid_txpid *t, uint32_t old, uint32_t hwm);
/* As advance, but ids old+1..hwm enter as used (skipped, never to be sealed). */
void braid_txpid_skip(struct braid_txpid *t, uint32_t old, uint32_t hwm);
/* Mark `id` as sealed (plain encryption of the newest id). */
void braid_txpid_mark(struct braid_txpid *t, uint32_t id);

/*
 * Claim `id` for sealing with high-water mark `hwm`. On 0 the id is marked
 * used and may be sealed exactly once. -EINVAL: 0 or above hwm (never handed
 * out); -ESTALE: hwm - id >= WINDOW (no longer tracked); -EALREADY: sealed
 * before.
 */
int braid_txpid_claim(struct braid_txpid *t, uint32_t hwm, uint32_t id);

#endif /* BRAID_DC_TXPID_H */
