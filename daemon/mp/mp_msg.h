/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_msg.h - Braid multipath control messages (encode / parse).
 *
 * Control messages travel inside the AEAD data channel, like OpenVPN's ping
 * and OCC messages: a 16-byte magic, a type byte, then fixed big-endian
 * fields. docs/multipath.md has the byte layouts; this header is the code's
 * copy of them. Parsers never trust lengths or counts and return -EBADMSG on
 * anything malformed, -ENOMSG when the buffer is not a Braid control message.
 */
#ifndef BRAID_MP_MSG_H
#define BRAID_MP_MSG_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_MP_MAGIC_LEN 16
#define BRAID_MP_TOKEN_LEN 8
#define BRAID_MP_REPORT_MAX 8	/* entries per REPORT (= max paths) */

extern const uint8_t braid_mp_magic[BRAID_MP_MAGIC_LEN];

enum braid_mp_msg_type {
	BRAID_MP_MSG_PROBE = 1,
	BRAID_MP_MSG_PROBE_ECHO = 2,
	BRAID_MP_MSG_REPORT = 3,
	BRAID_MP_MSG_PATH_CHALLENGE = 4,
	BRAID_MP_MSG_PATH_RESPONSE = 5,
	BRAID_MP_MSG_PATH_CLOSE = 6,
	BRAID_MP_MSG_SKIP = 7,		/* the sender dropped this data packet-id */
	BRAID_MP_MSG_MTU_PROBE = 8,	/* padded to its size field: path MTU search */
	BRAID_MP_MSG_MTU_ACK = 9,	/* that MTU_PROBE arrived */
	BRAID_MP_MSG_PATH_STATUS = 10,	/* the sender's slot and flags of this path */
};

/* Sizes on the wire (magic + type included). */
#define BRAID_MP_HDR_LEN (BRAID_MP_MAGIC_LEN + 1)
#define BRAID_MP_PROBE_LEN (BRAID_MP_HDR_LEN + 16)
#define BRAID_MP_ECHO_LEN (BRAID_MP_HDR_LEN + 28)
#define BRAID_MP_REPORT_ENTRY_LEN 56
#define BRAID_MP_REPORT_LEN(n) (BRAID_MP_HDR_LEN + 1 + (n) * BRAID_MP_REPORT_ENTRY_LEN)
#define BRAID_MP_CHALLENGE_LEN (BRAID_MP_HDR_LEN + 4 + BRAID_MP_TOKEN_LEN)
#define BRAID_MP_CLOSE_LEN (BRAID_MP_HDR_LEN + 5)
#define BRAID_MP_SKIP_LEN (BRAID_MP_HDR_LEN + 12)
/* PATH_STATUS: path_id u32, slot u8 (0xff = none), flags u8, reserved u16
 * (zero). A longer message parses (later fields are ignored); unknown flag
 * bits are ignored. */
#define BRAID_MP_STATUS_LEN (BRAID_MP_HDR_LEN + 8)
#define BRAID_MP_SLOT_NONE 0xffu
#define BRAID_MP_STATUS_F_BACKUP 0x01u	/* the sender marks the path backup */
/* MTU_PROBE: path_id u32, seq u32, size u16, zero padding up to size bytes
 * in all (magic and type included); MTU_ACK: the same fields, no padding. */
#define BRAID_MP_MTU_HDR_LEN (BRAID_MP_HDR_LEN + 10)
#define BRAID_MP_MTU_ACK_LEN BRAID_MP_MTU_HDR_LEN
#define BRAID_MP_MTU_PROBE_MAX 9000	/* largest MTU_PROBE (and PLPMTU) */
/* Optional NACK tail of a REPORT: nack_hi u64, nack_bits u16, bitmap. */
#define BRAID_MP_NACK_MAX_BITS 4096
#define BRAID_MP_NACK_LEN(bits) (10 + (bits) / 8)
#define BRAID_MP_MSG_MAX \
	(BRAID_MP_REPORT_LEN(BRAID_MP_REPORT_MAX) + BRAID_MP_NACK_LEN(BRAID_MP_NACK_MAX_BITS))
/* Largest control message of any kind (an MTU_PROBE): what a daemon's
 * buffer for poll_tx's CONTROL output must hold. */
#define BRAID_MP_CTL_MAX BRAID_MP_MTU_PROBE_MAX

struct braid_mp_report_entry {
	uint32_t path_id;	/* the data *sender's* id of the path */
	uint32_t rx_pkts;	/* cumulative data packets received (wraps) */
	uint64_t rx_bytes;	/* cumulative data bytes received */
	uint64_t last_pid;	/* packet-id of the last data packet that arrived */
	uint32_t span_us;	/* first..last arrival in this report interval */
	uint32_t span_bytes;	/* bytes that arrived after the first one */
	int64_t owd_min_us;	/* min relative one-way delay (probes) */
	int64_t owd_last_us;	/* last relative one-way delay sample */
	uint32_t probe_seq_hi;	/* highest probe sequence seen on this path */
	uint32_t probes_lost;	/* cumulative probe losses (seq gaps) */
};

struct braid_mp_msg {
	enum braid_mp_msg_type type;
	uint32_t path_id;
	union {
		struct {
			uint32_t seq;
			uint64_t tx_us;
		} probe;
		struct {
			uint32_t seq;
			uint64_t tx_us;		/* echoed sender timestamp */
			uint32_t hold_us;	/* time the echo waited at the receiver */
			int64_t owd_us;		/* receiver clock - tx_us */
		} echo;
		struct {
			uint8_t n;
			struct braid_mp_report_entry e[BRAID_MP_REPORT_MAX];
			/* NACK: bit k (MSB first) = packet-id nack_hi-1-k is
			 * missing at the receiver. nack_bits 0 = no NACK tail. */
			uint64_t nack_hi;
			uint16_t nack_bits;	/* multiple of 8, 8..4096 */
			uint8_t nack[BRAID_MP_NACK_MAX_BITS / 8];
		} report;
		uint8_t token[BRAID_MP_TOKEN_LEN];
		uint8_t close_reason;
		uint64_t skip_pid;
		struct {
			uint32_t seq;
			uint16_t size;	/* MTU_PROBE: its whole length */
		} mtu;
		struct {
			uint8_t slot;	/* sender's configuration slot, SLOT_NONE */
			uint8_t flags;	/* BRAID_MP_STATUS_F_* */
		} status;
	} u;
};

/* 1 if buf starts with the Braid magic, else 0. */
int braid_mp_msg_is_control(const uint8_t *buf, size_t len);
/* Encode into buf (capacity cap). Returns the length or -ENOSPC / -EINVAL
 * (an MTU_PROBE needs cap >= u.mtu.size, and size in MTU_HDR_LEN..PROBE_MAX). */
int braid_mp_msg_encode(const struct braid_mp_msg *m, uint8_t *buf, size_t cap);
/* Parse; 0, -ENOMSG (no magic) or -EBADMSG (malformed). */
int braid_mp_msg_parse(const uint8_t *buf, size_t len, struct braid_mp_msg *m);

#endif /* BRAID_MP_MSG_H */
