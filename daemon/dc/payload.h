/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * payload.h - what a decrypted data-channel payload is, and the builders for
 * the payloads the daemon generates itself.
 *
 * Receive order (OpenVPN forward.c): decrypt -> [defragment] -> undo the
 * compression framing -> ping / OCC check -> TUN. Only IPV4/IPV6 results may
 * be written to the TUN device.
 *
 * Compression framing (OpenVPN comp.h/compstub.c; real compression is
 * refused, as 2.6's default `allow-compression no` does):
 *   NONE      no framing (2.6 default)
 *   LZO       `comp-lzo no`/`comp-lzo`: 0xFA + payload; 0x66 = LZO data
 *   STUB      `compress` / `compress lz4` (swap): byte0 moved to the end,
 *             replaced by 0xFB; 0x69 = LZ4 data
 *   STUB_V2   `compress stub-v2`/`lz4-v2`: no byte unless payload[0] == 0x50,
 *             then 0x50 0x00 + payload; 0x50 0x01 = LZ4 data
 * Empty payloads are never framed.
 */
#ifndef BRAID_DC_PAYLOAD_H
#define BRAID_DC_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_PING_LEN 16
#define BRAID_OCC_MAGIC_LEN 16

extern const uint8_t braid_ping_magic[BRAID_PING_LEN];
extern const uint8_t braid_occ_magic[BRAID_OCC_MAGIC_LEN];

enum braid_comp_framing {
	BRAID_COMP_NONE,
	BRAID_COMP_LZO,
	BRAID_COMP_STUB,
	BRAID_COMP_STUB_V2,
};

/* OCC message types (occ.h). */
enum braid_occ_type {
	BRAID_OCC_REQUEST = 0,
	BRAID_OCC_REPLY = 1,
	BRAID_OCC_MTU_LOAD_REQUEST = 2,
	BRAID_OCC_MTU_LOAD = 3,
	BRAID_OCC_MTU_REQUEST = 4,
	BRAID_OCC_MTU_REPLY = 5,
	BRAID_OCC_EXIT = 6,
};

enum braid_payload_kind {
	BRAID_PAYLOAD_IPV4,        /* write to TUN */
	BRAID_PAYLOAD_IPV6,        /* write to TUN */
	BRAID_PAYLOAD_PING,        /* keepalive: drop (it already reset ping-restart) */
	BRAID_PAYLOAD_OCC,         /* OCC message: occ_type, body after the type byte */
	BRAID_PAYLOAD_EMPTY,       /* nothing left: drop */
	BRAID_PAYLOAD_COMPRESSED,  /* real LZO/LZ4 data: refused, drop */
	BRAID_PAYLOAD_BAD_FRAMING, /* framing byte not valid for the configured mode */
	BRAID_PAYLOAD_NOT_IP,      /* version nibble not 4/6, or shorter than its header */
};

struct braid_payload {
	enum braid_payload_kind kind;
	int occ_type;         /* OCC: the type byte, -1 if the message had none */
	const uint8_t *data;  /* the unframed payload (IP packet / OCC body) */
	size_t len;
};

/*
 * Undo the framing in place (the STUB mode moves one byte) and classify.
 * Never fails: the result says what to do.
 */
void braid_payload_classify(enum braid_comp_framing framing, uint8_t *buf, size_t len,
			    struct braid_payload *out);

/* Frame a payload for sending. Output needs len + 2 bytes at most. -ENOBUFS. */
int braid_payload_frame(enum braid_comp_framing framing, const uint8_t *in, size_t len,
			uint8_t *out, size_t cap, size_t *out_len);

/* Keepalive ping (16 bytes + framing). */
int braid_payload_build_ping(enum braid_comp_framing framing, uint8_t *out, size_t cap,
			     size_t *out_len);
/* OCC EXIT (explicit-exit-notify without cc-exit): magic + 0x06. */
int braid_payload_build_occ_exit(enum braid_comp_framing framing, uint8_t *out, size_t cap,
				 size_t *out_len);

const char *braid_payload_kind_str(enum braid_payload_kind k);

#endif /* BRAID_DC_PAYLOAD_H */
