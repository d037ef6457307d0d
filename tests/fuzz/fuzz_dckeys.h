/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_dckeys.h - the fixed data-channel sessions of fuzz_dc.c, shared with
 * the seed maker (mkseeds_dc.c) so that the seeds it seals open in the
 * harness. Keys are fz_key2() test keys.
 */
#ifndef BRAID_FUZZ_DCKEYS_H
#define BRAID_FUZZ_DCKEYS_H

#include <stdbool.h>

#include "dc.h"
#include "fuzz_common.h"

/* Data channel: the receiver is a TLS server (INVERSE) with peer-id 7 and two
 * keys, key_id 0 (lame duck) and key_id 1 (primary); the sender is the
 * matching client, sending P_DATA_V2 (v2) or P_DATA_V1. long_form: braidd's
 * static-key form (packet-id + time), the senders' epoch FZ_DC_EPOCH. */
#define FZ_DC_EPOCH 1000
#define FZ_DC_PEER_ID 7
#define FZ_DC_OLD_KID 0
#define FZ_DC_KID 1

static inline const char *fz_dc_cipher(unsigned i)
{
	return (i & 1) ? "CHACHA20-POLY1305" : "AES-256-GCM";
}

static inline int fz_dc_new(struct braid_dc **out, bool receiver, bool v2, const char *cipher,
			    bool long_form)
{
	struct braid_dc_config cfg = { .long_form = long_form, .epoch = FZ_DC_EPOCH };
	struct braid_key2 k0, k1;
	int dir = receiver ? BRAID_KEY_DIR_INVERSE : BRAID_KEY_DIR_NORMAL;
	int r;

	cfg.peer_id = (receiver || v2) ? FZ_DC_PEER_ID : BRAID_DC_PEER_ID_NONE;
	r = braid_dc_new(out, &cfg);
	if (r)
		return r;
	fz_key2(&k0, 1);
	fz_key2(&k1, 2);
	r = braid_dc_key_install(*out, FZ_DC_OLD_KID, cipher, &k0, dir);
	if (!r)
		r = braid_dc_key_install(*out, FZ_DC_KID, cipher, &k1, dir);
	if (r) {
		braid_dc_free(*out);
		*out = NULL;
	}
	return r;
}

#endif /* BRAID_FUZZ_DCKEYS_H */
