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
 * Long form (static-key mode, cfg.long_form; braidd only, as OpenVPN's static-key
 * mode sends a long-form packet-id): a u32 time follows the pkt-id, the
 * sender's epoch (its start time in seconds, at least one more than its last
 * epoch in this process), authenticated with the header:
 *   P_DATA_V2: [0x48|kid] [peer-id 3B] [pkt-id 4B] [time 4B] [tag 16B] [ciphertext]
 *   P_DATA_V1: [0x30|kid] [pkt-id 4B] [time 4B] [tag 16B] [ciphertext]
 *   AAD = bytes 0..11 (V2) / pkt-id + time (V1);
 *   nonce = pkt-id || (implicit IV with its first 4 bytes XOR time)
 * A static key never changes, so the time keeps (key, nonce) unique when a
 * restarted sender starts its packet-ids at 1 again; and as in OpenVPN's
 * packet_id.c, a packet with a newer time starts a new replay sequence (the
 * peer restarted: braid_dc_rx_info.peer_restarted), an older one is refused
 * as a replay ("time backtrack").
 *
 * Key slots: a primary key (encrypts and decrypts) and a lame-duck secondary
 * (decrypts only, except for packet-ids reserved while it was primary: see
 * braid_dc_encrypt_reserved) left from the last renegotiation. Installing a
 * key makes it primary, demotes the old primary and drops the old lame duck.
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
 *   -EINVAL    (encrypt_reserved) packet-id never reserved
 *   -EALREADY  (encrypt_reserved) packet-id already sealed once
 *   -ESTALE    (encrypt_reserved) packet-id older than the reservation window
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
#include "txpid.h"

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
	bool long_form;          /* static-key mode: pkt-id + time (see above) */
	uint32_t epoch;          /* long form: our time; 0 = braid_dc_epoch_next() */
};

struct braid_dc_key_stats {
	uint64_t tx_packets, tx_bytes;   /* bytes = plaintext bytes */
	uint64_t rx_packets, rx_bytes;
	uint64_t rx_auth_failures;
	uint64_t rx_replays;             /* duplicates + too old */
	uint32_t tx_last_packet_id;      /* sent or reserved (the high-water mark) */
	uint64_t tx_reserved;            /* ids taken by braid_dc_reserve_packet_id */
	uint64_t tx_reserve_refused;     /* encrypt_reserved: -EINVAL/-EALREADY/-ESTALE */
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
	bool peer_restarted; /* long form: this packet's newer time replaced the sequence */
	uint32_t time;     /* long form: the sender's epoch */
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
/*
 * Tests/vectors only: the next packet sent on key_id uses packet-id `next`.
 * Ids skipped forward can no longer be sealed by encrypt_reserved. Moving it
 * back hands out ids again, i.e. reuses nonces: never outside tests.
 */
int braid_dc_key_set_next_tx_packet_id(struct braid_dc *dc, unsigned key_id, uint32_t next);

/*
 * The next long-form epoch of this process: the wall clock in seconds plus
 * one (a new process started within the second of another one's last
 * session still gets a newer epoch), and at least one more than the last one
 * handed out (two restarts within a second still get two epochs).
 */
uint32_t braid_dc_epoch_next(uint32_t now_s);

/* Header + tag bytes this session adds to each packet (21 or 24; long form 25 or 28). */
size_t braid_dc_overhead(const struct braid_dc *dc);

/*
 * Encrypt one payload with the primary key into out (needs pt_len +
 * braid_dc_overhead() bytes). pt may be exactly out + braid_dc_overhead()
 * (in place) or must not overlap out. packet_id (optional) gets the id used.
 */
int braid_dc_encrypt(struct braid_dc *dc, const uint8_t *pt, size_t pt_len, uint8_t *out,
		     size_t cap, size_t *out_len, uint32_t *packet_id);

/*
 * Packet-ids reserved ahead of encryption (the multipath engine, docs/multipath.md §1).
 *
 * The engine numbers a data packet when it queues it and the daemon seals it
 * when the engine sends it, which may be after packets with higher ids (EDF
 * sends early on a slow path) and after a renegotiation. So:
 *
 * braid_dc_reserve_packet_id() takes the next packet-id of the primary key,
 * from the same counter braid_dc_encrypt() uses: a reserved id and a plain
 * one are never equal. *key_id says which key it belongs to. -ENOKEY (no
 * primary key), -EOVERFLOW (id space used up; braid_dc_needs_renegotiation()
 * turns true at the wrap trigger as for encrypt), -ENOMEM (the key's first
 * reservation allocates an 8 KiB bitmap). An id that is reserved and never
 * sealed is just a gap for the receiver.
 *
 * braid_dc_encrypt_reserved() seals pt with exactly (key_id, packet_id). The
 * key may be the primary or, after a renegotiation, the lame duck: the peer
 * still decrypts with its lame duck. Buffers as for braid_dc_encrypt().
 *   -ENOKEY    no key with that key_id any more (lame duck dropped)
 *   -ENOBUFS   out too small (the id stays unsealed and usable)
 *   -EINVAL    packet_id 0 or above the key's last reserved/sent id
 *   -EALREADY  this id was sealed before (by either function)
 *   -ESTALE    more than BRAID_TXPID_WINDOW (65536) ids behind the key's
 *              newest id: it can no longer be checked, and no receiver's
 *              replay window (max 65536) would accept it anyway
 * An id whose sealing failed inside the cipher (-EIO) is burnt.
 *
 * Why each (key, packet-id) is sealed at most once: the AEAD nonce is
 * packet-id || implicit IV, fixed per key. Two different plaintexts under
 * one nonce give away their XOR (AES-GCM and ChaCha20 are stream ciphers) and
 * let an observer forge packets (GCM: the GHASH key falls out of two tags;
 * Poly1305: the one-time key is used twice). A re-send of the same packet
 * (multipath failover, the redundant scheduler) must therefore re-transmit
 * the SAME ciphertext bytes, which the daemon keeps until the engine
 * releases the packet; the receiver's replay window drops the extra copies.
 * Sealing the same plaintext again would be harmless (deterministic, same
 * bytes), but the library cannot know the bytes are the same (e.g. a CE mark
 * set since), so it refuses any second sealing.
 *
 * key_id is 3 bits and is reused after 7 renegotiations: a reservation held
 * that long could name a newer key with the same key_id. That cannot break
 * the once-only rule (it is kept per installed key), it only means the
 * packet may go out under the newer key or be refused.
 */
int braid_dc_reserve_packet_id(struct braid_dc *dc, uint8_t *key_id, uint32_t *packet_id);
int braid_dc_encrypt_reserved(struct braid_dc *dc, unsigned key_id, uint32_t packet_id,
			      const uint8_t *pt, size_t pt_len, uint8_t *out, size_t cap,
			      size_t *out_len);

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
