/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dc.h - the OpenVPN 2.6 AEAD data channel of one session.
 *
 * Wire format (fact sheet §4.1):
 *   P_DATA_V2: [0x48|kid] [peer-id 3B BE] [pkt-id 4B BE] [tag 16B] [ciphertext]
 *              AAD = bytes 0..7 (opcode, peer-id, pkt-id)
 *   P_DATA_V1: [0x30|kid] [pkt-id 4B BE] [tag 16B] [ciphertext]
 *              AAD = pkt-id only (the opcode byte is NOT authenticated)
 *   nonce = pkt-id (4B BE) || implicit IV (8B, prefix of the direction's hmac slot)
 *
 * Key slots: a primary key (encrypts and decrypts) and a lame-duck secondary
 * (decrypts only) left from the last renegotiation. Installing a key makes it
 * primary, demotes the old primary and drops the old lame duck.
 *
 * Errors (negative errno), each with its own counter:
 *   -EMSGSIZE  truncated packet (shorter than header + tag)
 *   -EPROTO    opcode is not P_DATA_V1/V2
 *   -ENXIO     P_DATA_V2 with a peer-id that is not ours
 *   -ENOKEY    no key with that key_id (or no key at all, when encrypting)
 *   -EBADMSG   authentication failed
 *   -EALREADY  replay: packet-id seen before
 *   -ESTALE    replay: packet-id too old (outside the window or time window,
 *              or packet-id 0)
 *   -ENOBUFS   output buffer too small
 *   -EOVERFLOW (encrypt) packet-id space of the primary key exhausted
 *
 * Not thread-safe: one session, one thread.
 */
#ifndef BRAID_DC_DC_H
#define BRAID_DC_DC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aead.h"
#include "static_key.h"

#define BRAID_OP_DATA_V1 6
#define BRAID_OP_DATA_V2 9
#define BRAID_DC_V1_HDR_LEN 5    /* op + pkt-id */
#define BRAID_DC_V2_HDR_LEN 8    /* op + peer-id + pkt-id */
#define BRAID_DC_V1_OVERHEAD (BRAID_DC_V1_HDR_LEN + BRAID_AEAD_TAG_LEN) /* 21 */
#define BRAID_DC_V2_OVERHEAD (BRAID_DC_V2_HDR_LEN + BRAID_AEAD_TAG_LEN) /* 24 */
#define BRAID_DC_IMPLICIT_IV_LEN 8
#define BRAID_DC_MAX_KEY_ID 7
/* No peer-id negotiated: send P_DATA_V1 (receiving V1 is always allowed). */
#define BRAID_DC_PEER_ID_NONE 0xffffffffu
#define BRAID_DC_PEER_ID_MAX 0xffffffu
/* Packet-id at which the owner should renegotiate (OpenVPN PACKET_ID_WRAP_TRIGGER). */
#define BRAID_DC_PKTID_WRAP_TRIGGER 0xff000000u

struct braid_dc_config {
	uint32_t peer_id;        /* 0..0xFFFFFF, or BRAID_DC_PEER_ID_NONE */
	uint32_t replay_window;  /* 0 = OpenVPN default 64 */
	uint32_t replay_time;    /* seconds, 0 = OpenVPN default 15 */
	enum braid_aead_backend backend; /* AUTO normally; forced in tests */
};

struct braid_dc_key_stats {
	uint64_t tx_packets, tx_bytes;   /* bytes = plaintext bytes */
	uint64_t rx_packets, rx_bytes;
	uint64_t rx_auth_failures;
	uint64_t rx_replays;             /* duplicates + too old */
	uint32_t tx_last_packet_id;
};

struct braid_dc_stats {
	uint64_t rx_truncated;
	uint64_t rx_bad_opcode;
	uint64_t rx_bad_peer_id;
	uint64_t rx_unknown_key;
};

struct braid_dc_rx_info {
	uint32_t packet_id;
	uint8_t key_id;
	uint8_t opcode;    /* BRAID_OP_DATA_V1 or _V2 */
};

struct braid_dc;

int braid_dc_new(struct braid_dc **out, const struct braid_dc_config *cfg);
/* Wipes all keys. NULL is fine. */
void braid_dc_free(struct braid_dc *dc);

/*
 * Install data keys for key_id (0..7) from a 256-byte key2 (EKM/PRF output or
 * a static key) with the given direction (TLS client: BRAID_KEY_DIR_NORMAL,
 * TLS server: BRAID_KEY_DIR_INVERSE). cipher: OpenVPN name. The new key
 * becomes primary; tx packet-ids restart at 1.
 * -EINVAL (bad key_id, direction or cipher name), -EEXIST (primary already
 * has this key_id), -ENOMEM, -ENOTSUP, -EIO.
 */
int braid_dc_key_install(struct braid_dc *dc, unsigned key_id, const char *cipher,
			 const struct braid_key2 *k2, int direction);
/* Drop the key with this id (e.g. the lame duck after --tran-window). -ENOKEY. */
int braid_dc_key_remove(struct braid_dc *dc, unsigned key_id);
/* key_id of the primary key, -ENOKEY if none. */
int braid_dc_primary_key_id(const struct braid_dc *dc);
int braid_dc_key_stats(const struct braid_dc *dc, unsigned key_id, struct braid_dc_key_stats *st);
void braid_dc_stats(const struct braid_dc *dc, struct braid_dc_stats *st);

/* True once the primary key's tx packet-id reached the wrap trigger. */
bool braid_dc_needs_renegotiation(const struct braid_dc *dc);
/* Tests/vectors only: the next packet sent on key_id uses packet-id `next`. */
int braid_dc_key_set_next_tx_packet_id(struct braid_dc *dc, unsigned key_id, uint32_t next);

/* Header + tag bytes this session adds to each packet (21 or 24). */
size_t braid_dc_overhead(const struct braid_dc *dc);

/*
 * Encrypt one payload with the primary key into out (needs pt_len +
 * braid_dc_overhead() bytes). pt may be exactly out + braid_dc_overhead()
 * (in place) or must not overlap out. packet_id (optional) gets the id used.
 */
int braid_dc_encrypt(struct braid_dc *dc, const uint8_t *pt, size_t pt_len, uint8_t *out,
		     size_t cap, size_t *out_len, uint32_t *packet_id);

/*
 * Authenticate and decrypt one packet. The replay check runs after
 * authentication. out needs len - overhead bytes; it may be exactly
 * pkt + overhead (in place) or must not overlap pkt. `now` = monotonic
 * seconds (replay time window). info is optional.
 */
int braid_dc_decrypt(struct braid_dc *dc, const uint8_t *pkt, size_t len, int64_t now,
		     uint8_t *out, size_t cap, size_t *out_len, struct braid_dc_rx_info *info);

/*
 * Header peek for demultiplexing before decryption: opcode, key_id and (V2)
 * peer-id, or BRAID_DC_PEER_ID_NONE for V1. -EMSGSIZE / -EPROTO.
 */
int braid_dc_peek(const uint8_t *pkt, size_t len, uint8_t *opcode, uint8_t *key_id,
		  uint32_t *peer_id);

#endif /* BRAID_DC_DC_H */
