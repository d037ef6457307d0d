// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkseeds_dc.c - data-channel seeds for fuzz_dc: captured inner IP packets
 * (and ping, OCC and multipath control payloads) sealed with the harness's
 * keys (fuzz_dckeys.h) by the library's own braid_dc_encrypt, for both
 * ciphers, P_DATA_V1 and V2, the primary key and the lame duck, with each
 * compression framing, and in the static-key long form.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dc.h"
#include "fuzz_dckeys.h"
#include "mkseeds.h"
#include "mp_msg.h"
#include "payload.h"

#define MAX_PLAIN 96

static uint8_t plain[MAX_PLAIN][2048];
static size_t plain_len[MAX_PLAIN];
static unsigned n_plain;

static void add_plain(const uint8_t *p, size_t len)
{
	if (n_plain < MAX_PLAIN && len <= sizeof(plain[0])) {
		memcpy(plain[n_plain], p, len);
		plain_len[n_plain++] = len;
	}
}

/* One seed: flags, then `count` payloads from `first` sealed with the sender
 * of (v2, cipher); old: the lame-duck key (sealed before the second key). */
static void one(const char *dir, unsigned flags, bool v2, bool old, unsigned first,
		unsigned count)
{
	const char *cipher = fz_dc_cipher(flags);
	enum braid_comp_framing fr = (enum braid_comp_framing)(flags >> 1 & 3);
	struct braid_dc_config cfg = { 0 };
	struct braid_dc *tx;
	struct braid_key2 k;
	struct seed s;
	char name[128];

	cfg.peer_id = v2 ? FZ_DC_PEER_ID : BRAID_DC_PEER_ID_NONE;
	if (old) {	/* only the first key installed: it seals as primary */
		if (braid_dc_new(&tx, &cfg))
			exit(1);
		fz_key2(&k, 1);
		if (braid_dc_key_install(tx, FZ_DC_OLD_KID, cipher, &k, BRAID_KEY_DIR_NORMAL))
			exit(1);
	} else if (fz_dc_new(&tx, false, v2, cipher, (flags & 16) != 0)) {
		exit(1);
	}
	seed_start(&s, (int)flags);
	for (unsigned i = 0; i < count; i++) {
		uint8_t fb[2100], out[2200];
		size_t fl, ol;
		const uint8_t *pl = plain[(first + i) % n_plain];
		size_t pll = plain_len[(first + i) % n_plain];

		if (braid_payload_frame(fr, pl, pll, fb, sizeof(fb), &fl) ||
		    braid_dc_encrypt(tx, fb, fl, out, sizeof(out), &ol, NULL))
			exit(1);
		seed_chunk(&s, out, ol);
	}
	braid_dc_free(tx);
	snprintf(name, sizeof(name), "sealed-%s-%s-%s-fr%u-%u%s", flags & 1 ? "chacha" : "aes",
		 v2 ? "v2" : "v1", old ? "oldkey" : "key", flags >> 1 & 3, first,
		 flags & 16 ? "-long" : "");
	seed_write(&s, dir, name);
}

int mkseeds_dc(const char *outdir, int n_inner, char **inner)
{
	uint8_t mp[MKSEEDS_MP_MAX][2048], buf[2048];
	size_t mpl[MKSEEDS_MP_MAX];
	unsigned n_mp = mkseeds_mp_msgs(mp, mpl);

	for (int i = 0; i < n_inner; i++) {
		long r = read_file(inner[i], buf, sizeof(buf));

		if (r > 0)
			add_plain(buf, (size_t)r);
	}
	/* the daemon's own payloads: ping, OCC, multipath control */
	add_plain(braid_ping_magic, BRAID_PING_LEN);
	memcpy(buf, braid_occ_magic, BRAID_OCC_MAGIC_LEN);
	for (uint8_t t = 0; t <= BRAID_OCC_EXIT; t++) {
		buf[BRAID_OCC_MAGIC_LEN] = t;
		add_plain(buf, BRAID_OCC_MAGIC_LEN + 1);
	}
	for (unsigned i = 0; i < n_mp; i++)
		add_plain(mp[i], mpl[i]);
	fprintf(stderr, "mkseeds dc: %u payloads (%d captured)\n", n_plain, n_inner);
	for (unsigned flags = 0; flags < 2; flags++)
		for (unsigned v2 = 0; v2 < 2; v2++)
			for (unsigned first = 0; first < n_plain; first += 6)
				one(outdir, flags, v2, first % 4 == 0 && first, first, 6);
	/* framings and in-place decrypt on a few */
	for (unsigned fr = 1; fr < 4; fr++)
		one(outdir, fr << 1 | 8, true, false, 0, 8);
	/* the static-key long form (packet-id + time), V1 and V2 */
	for (unsigned v2 = 0; v2 < 2; v2++)
		one(outdir, 16, v2, false, 0, 8);
	return 0;
}
