// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dc.c - the data channel's receive path (daemon/dc/dc.c braid_dc_decrypt,
 * braid_dc_peek; daemon/dc/payload.c braid_payload_classify).
 *
 * Feeds: flags(1) then packets as chunks (fuzz_common.h). flags bit 0 picks
 * the cipher (AES-256-GCM / CHACHA20-POLY1305), bits 1-2 the compression
 * framing, bit 3 decrypts in place, bit 4 the static-key long form (packet-id
 * + time; a newer time restarts the replay sequence). The receiver holds two keys (fuzz_setup.h)
 * and its replay window lives across the packets of one input.
 * Asserts: decrypt never writes past the output length it was given (the
 * buffer is exactly that long, ASan checks the rest) and reports at most that
 * many bytes; a packet that opens is re-sealed bit for bit by the matching
 * sender with the same packet-id (no other bytes can be authentic).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dc.h"
#include "dclog.h"
#include "fuzz_dckeys.h"
#include "payload.h"

static void one(struct braid_dc *rx, struct braid_dc *tx1, struct braid_dc *tx2,
		const uint8_t *pkt, size_t len, unsigned flags)
{
	struct braid_dc_rx_info info;
	struct braid_payload pl;
	uint8_t op = 0, kid = 0, *buf, *out, *re;
	uint32_t pid = 0;
	size_t ovh, cap, olen = 0, rlen = 0;
	int r;

	if (braid_dc_peek(pkt, len, &op, &kid, &pid))
		ovh = BRAID_DC_V2_OVERHEAD;
	else
		ovh = op == BRAID_OP_DATA_V1 ? BRAID_DC_V1_OVERHEAD : BRAID_DC_V2_OVERHEAD;
	if (flags & 16)
		ovh += 4;	/* the long form's time */
	cap = len > ovh ? len - ovh : 0;
	if (flags & 8) {	/* in place: out = pkt + overhead */
		buf = malloc(len ? len : 1);
		if (!buf)
			return;
		memcpy(buf, pkt, len);
		out = buf + (len > ovh ? ovh : len);
		r = braid_dc_decrypt(rx, buf, len, FZ_NOW_S, out, cap, &olen, &info);
	} else {
		buf = malloc(cap ? cap : 1);
		if (!buf)
			return;
		out = buf;
		r = braid_dc_decrypt(rx, pkt, len, FZ_NOW_S, out, cap, &olen, &info);
	}
	if (r) {
		free(buf);
		return;
	}
	FZ_ASSERT(olen <= cap && olen + ovh == len);
	FZ_ASSERT(info.key_id == (pkt[0] & 7) && info.packet_id != 0);

	/* re-seal with the sender's key: must give the same bytes (long form: the sender's epoch only) */
	if (info.key_id == FZ_DC_KID && (!(flags & 16) || info.time == FZ_DC_EPOCH)) {
		struct braid_dc *tx = info.opcode == BRAID_OP_DATA_V2 ? tx2 : tx1;

		re = malloc(len);
		FZ_ASSERT(re);
		FZ_ASSERT(!braid_dc_key_set_next_tx_packet_id(tx, FZ_DC_KID, info.packet_id));
		r = braid_dc_encrypt(tx, out, olen, re, len, &rlen, NULL);
		FZ_ASSERT(r == 0 && rlen == len && !memcmp(re, pkt, len));
		free(re);
	}
	braid_payload_classify((enum braid_comp_framing)(flags >> 1 & 3), out, olen, &pl);
	FZ_ASSERT(pl.len <= olen);
	FZ_ASSERT(!pl.len || (pl.data >= out && pl.data + pl.len <= out + olen));
	free(buf);
}

static void quiet(int level, const char *msg, void *ctx)
{
	(void)level, (void)msg, (void)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct braid_dc *rx = NULL, *tx1 = NULL, *tx2 = NULL;
	unsigned flags = fz_u8(&f);
	const char *cipher = fz_dc_cipher(flags);
	const uint8_t *pkt;
	size_t len;
	bool lf = flags & 16;

	braid_dc_log_set(quiet, NULL);
	if (fz_dc_new(&rx, true, true, cipher, lf) || fz_dc_new(&tx1, false, false, cipher, lf) ||
	    fz_dc_new(&tx2, false, true, cipher, lf))
		abort();
	while (fz_chunk(&f, &pkt, &len))
		one(rx, tx1, tx2, pkt, len, flags);
	braid_dc_free(rx);
	braid_dc_free(tx1);
	braid_dc_free(tx2);
	return 0;
}
