/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pkt.h - OpenVPN 2.6 control packets: opcodes, session ids, ACK arrays,
 * message packet-ids, and the TCP 2-byte length framing.
 *
 * A control packet without wrapping ("plain") is
 *   byte0 = opcode << 3 | key_id
 *   own session id (8)
 *   inner:  ack_len(u8) | ack_ids(u32 BE x ack_len) | ack_sid(8, if ack_len)
 *           | msg_pid(u32 BE, absent in P_ACK_V1) | payload
 * tls-auth and tls-crypt (tls_auth.h, tls_crypt.h) insert their fields between
 * the session id and the inner part; they take and return the plain form, so
 * every layer above them sees only plain packets.
 *
 * Decoding never reads outside the buffer. Errors:
 *   -EBADMSG  truncated or malformed (ack_len > 8, missing fields)
 *   -EPROTO   not a control opcode (data, V1 resets, unknown), or a client
 *             hard reset with key_id != 0
 * and *why (if not NULL) names the problem.
 */
#ifndef BRAID_CTL_PKT_H
#define BRAID_CTL_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum braid_ctl_op {
	BRAID_OP_HARD_RESET_CLIENT_V1 = 1, /* key-method 1: rejected */
	BRAID_OP_HARD_RESET_SERVER_V1 = 2, /* key-method 1: rejected */
	BRAID_OP_SOFT_RESET_V1 = 3,
	BRAID_OP_CONTROL_V1 = 4,
	BRAID_OP_ACK_V1 = 5,
	BRAID_OP_DATA_V1 = 6,
	BRAID_OP_HARD_RESET_CLIENT_V2 = 7,
	BRAID_OP_HARD_RESET_SERVER_V2 = 8,
	BRAID_OP_DATA_V2 = 9,
	BRAID_OP_HARD_RESET_CLIENT_V3 = 10,
	BRAID_OP_CONTROL_WKC_V1 = 11,
};

#define BRAID_CTL_OP_SHIFT 3
#define BRAID_CTL_KEY_ID_MASK 0x07
#define BRAID_CTL_SID_LEN 8
#define BRAID_CTL_ACK_MAX 8        /* RELIABLE_ACK_SIZE: more is a parse error */
#define BRAID_CTL_ACK_PIGGYBACK 4  /* CONTROL_SEND_ACK_MAX */
#define BRAID_CTL_PLAIN_HDR (1 + BRAID_CTL_SID_LEN)
/* Largest plain control packet we build or accept (rx buffers ~1600 B). */
#define BRAID_CTL_MAX_PKT 1600
#define BRAID_CTL_TCP_LEN 2

struct braid_ctl_pkt {
	uint8_t opcode;
	uint8_t key_id;
	uint8_t sid[BRAID_CTL_SID_LEN];     /* sender's own session id */
	uint8_t n_acks;
	uint32_t acks[BRAID_CTL_ACK_MAX];
	uint8_t ack_sid[BRAID_CTL_SID_LEN]; /* receiver's session id; only if n_acks */
	bool has_msg_pid;                   /* false exactly for P_ACK_V1 */
	uint32_t msg_pid;
	const uint8_t *payload;             /* points into the decoded buffer */
	size_t payload_len;
};

/* True for opcodes 3..11 except the data opcodes 6 and 9. */
bool braid_ctl_op_is_control(uint8_t opcode);
/* True for P_DATA_V1 / P_DATA_V2. */
bool braid_ctl_op_is_data(uint8_t opcode);
/* "P_CONTROL_V1" etc.; "P_UNKNOWN" for others. */
const char *braid_ctl_op_name(uint8_t opcode);

static inline uint8_t braid_ctl_byte0(uint8_t opcode, uint8_t key_id)
{
	return (uint8_t)(opcode << BRAID_CTL_OP_SHIFT | (key_id & BRAID_CTL_KEY_ID_MASK));
}

/* Bytes the inner part of p takes (ack block + msg_pid + payload). */
size_t braid_ctl_inner_len(const struct braid_ctl_pkt *p);

/*
 * Encode the inner part / the whole plain packet. -EINVAL (n_acks > 8, not a
 * control opcode, msg_pid presence wrong for the opcode), -ENOBUFS.
 */
int braid_ctl_inner_encode(const struct braid_ctl_pkt *p, uint8_t *out, size_t cap, size_t *len);
int braid_ctl_pkt_encode(const struct braid_ctl_pkt *p, uint8_t *out, size_t cap, size_t *len);

/*
 * Decode. p->payload points into buf. inner_decode takes the opcode (the
 * msg_pid is absent for P_ACK_V1) and fills only the inner fields.
 */
int braid_ctl_inner_decode(uint8_t opcode, const uint8_t *buf, size_t len,
			   struct braid_ctl_pkt *p, const char **why);
int braid_ctl_pkt_decode(const uint8_t *buf, size_t len, struct braid_ctl_pkt *p,
			 const char **why);

/* Only byte 0 and the session id (also valid for tls-auth/tls-crypt packets). */
int braid_ctl_hdr_decode(const uint8_t *buf, size_t len, uint8_t *opcode, uint8_t *key_id,
			 uint8_t sid[BRAID_CTL_SID_LEN], const char **why);

/*
 * TCP framing: each packet is preceded by its length as u16 BE.
 * tcp_frame writes len(2) | pkt into out (-EINVAL for 0 or > 65535, -ENOBUFS).
 * tcp_next looks at the start of a receive stream: 0 and pkt, pkt_len,
 * consumed for one complete packet, -EAGAIN if more bytes are needed,
 * -EBADMSG for a length of 0 or above max_len (the stream is then unusable).
 */
int braid_ctl_tcp_frame(const uint8_t *pkt, size_t len, uint8_t *out, size_t cap, size_t *olen);
int braid_ctl_tcp_next(const uint8_t *stream, size_t avail, size_t max_len,
		       const uint8_t **pkt, size_t *pkt_len, size_t *consumed, const char **why);

#endif /* BRAID_CTL_PKT_H */
