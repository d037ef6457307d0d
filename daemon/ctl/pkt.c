// SPDX-License-Identifier: GPL-2.0-only
/*
 * pkt.c - OpenVPN 2.6 control packet encode/decode and TCP framing.
 */
#include "pkt.h"

#include <errno.h>
#include <string.h>

#include "util/wire.h"

static int bad(const char **why, const char *msg, int err)
{
	if (why)
		*why = msg;
	return err;
}

bool braid_ctl_op_is_control(uint8_t opcode)
{
	switch (opcode) {
	case BRAID_OP_SOFT_RESET_V1:
	case BRAID_OP_CONTROL_V1:
	case BRAID_OP_ACK_V1:
	case BRAID_OP_HARD_RESET_CLIENT_V2:
	case BRAID_OP_HARD_RESET_SERVER_V2:
	case BRAID_OP_HARD_RESET_CLIENT_V3:
	case BRAID_OP_CONTROL_WKC_V1:
		return true;
	default:
		return false;
	}
}

bool braid_ctl_op_is_data(uint8_t opcode)
{
	return opcode == BRAID_OP_DATA_V1 || opcode == BRAID_OP_DATA_V2;
}

const char *braid_ctl_op_name(uint8_t opcode)
{
	static const char *const names[] = {
		[BRAID_OP_HARD_RESET_CLIENT_V1] = "P_CONTROL_HARD_RESET_CLIENT_V1",
		[BRAID_OP_HARD_RESET_SERVER_V1] = "P_CONTROL_HARD_RESET_SERVER_V1",
		[BRAID_OP_SOFT_RESET_V1] = "P_CONTROL_SOFT_RESET_V1",
		[BRAID_OP_CONTROL_V1] = "P_CONTROL_V1",
		[BRAID_OP_ACK_V1] = "P_ACK_V1",
		[BRAID_OP_DATA_V1] = "P_DATA_V1",
		[BRAID_OP_HARD_RESET_CLIENT_V2] = "P_CONTROL_HARD_RESET_CLIENT_V2",
		[BRAID_OP_HARD_RESET_SERVER_V2] = "P_CONTROL_HARD_RESET_SERVER_V2",
		[BRAID_OP_DATA_V2] = "P_DATA_V2",
		[BRAID_OP_HARD_RESET_CLIENT_V3] = "P_CONTROL_HARD_RESET_CLIENT_V3",
		[BRAID_OP_CONTROL_WKC_V1] = "P_CONTROL_WKC_V1",
	};

	if (opcode < sizeof(names) / sizeof(names[0]) && names[opcode])
		return names[opcode];
	return "P_UNKNOWN";
}

size_t braid_ctl_inner_len(const struct braid_ctl_pkt *p)
{
	size_t n = 1 + (size_t)p->n_acks * 4;

	if (p->n_acks)
		n += BRAID_CTL_SID_LEN;
	if (p->has_msg_pid)
		n += 4;
	return n + p->payload_len;
}

int braid_ctl_inner_encode(const struct braid_ctl_pkt *p, uint8_t *out, size_t cap, size_t *len)
{
	size_t n, pos = 0;

	if (!braid_ctl_op_is_control(p->opcode) || p->n_acks > BRAID_CTL_ACK_MAX)
		return -EINVAL;
	if (p->has_msg_pid != (p->opcode != BRAID_OP_ACK_V1))
		return -EINVAL;
	if (p->payload_len && !p->payload)
		return -EINVAL;
	n = braid_ctl_inner_len(p);
	if (n > cap)
		return -ENOBUFS;
	out[pos++] = p->n_acks;
	for (unsigned i = 0; i < p->n_acks; i++, pos += 4)
		wire_put_be32(out + pos, p->acks[i]);
	if (p->n_acks) {
		memcpy(out + pos, p->ack_sid, BRAID_CTL_SID_LEN);
		pos += BRAID_CTL_SID_LEN;
	}
	if (p->has_msg_pid) {
		wire_put_be32(out + pos, p->msg_pid);
		pos += 4;
	}
	if (p->payload_len)
		memmove(out + pos, p->payload, p->payload_len);
	*len = n;
	return 0;
}

int braid_ctl_pkt_encode(const struct braid_ctl_pkt *p, uint8_t *out, size_t cap, size_t *len)
{
	size_t ilen;
	int ret;

	if (p->key_id > BRAID_CTL_KEY_ID_MASK)
		return -EINVAL;
	if (cap < BRAID_CTL_PLAIN_HDR)
		return -ENOBUFS;
	/* inner first: the payload may alias out (memmove) */
	ret = braid_ctl_inner_encode(p, out + BRAID_CTL_PLAIN_HDR, cap - BRAID_CTL_PLAIN_HDR, &ilen);
	if (ret)
		return ret;
	out[0] = braid_ctl_byte0(p->opcode, p->key_id);
	memcpy(out + 1, p->sid, BRAID_CTL_SID_LEN);
	*len = BRAID_CTL_PLAIN_HDR + ilen;
	return 0;
}

int braid_ctl_inner_decode(uint8_t opcode, const uint8_t *buf, size_t len,
			   struct braid_ctl_pkt *p, const char **why)
{
	size_t pos = 0;

	if (!braid_ctl_op_is_control(opcode))
		return bad(why, "not a control opcode", -EPROTO);
	p->opcode = opcode;
	if (len < 1)
		return bad(why, "truncated: no ACK count", -EBADMSG);
	p->n_acks = buf[pos++];
	if (p->n_acks > BRAID_CTL_ACK_MAX)
		return bad(why, "more than 8 ACKs", -EBADMSG);
	if (len - pos < (size_t)p->n_acks * 4 + (p->n_acks ? BRAID_CTL_SID_LEN : 0))
		return bad(why, "truncated ACK block", -EBADMSG);
	for (unsigned i = 0; i < p->n_acks; i++, pos += 4)
		p->acks[i] = wire_get_be32(buf + pos);
	if (p->n_acks) {
		memcpy(p->ack_sid, buf + pos, BRAID_CTL_SID_LEN);
		pos += BRAID_CTL_SID_LEN;
	} else {
		memset(p->ack_sid, 0, BRAID_CTL_SID_LEN);
	}
	p->has_msg_pid = opcode != BRAID_OP_ACK_V1;
	p->msg_pid = 0;
	if (p->has_msg_pid) {
		if (len - pos < 4)
			return bad(why, "truncated: no message packet-id", -EBADMSG);
		p->msg_pid = wire_get_be32(buf + pos);
		pos += 4;
	}
	p->payload = buf + pos;
	p->payload_len = len - pos;
	if (opcode == BRAID_OP_ACK_V1 && p->payload_len)
		return bad(why, "P_ACK_V1 with trailing bytes", -EBADMSG);
	return 0;
}

int braid_ctl_hdr_decode(const uint8_t *buf, size_t len, uint8_t *opcode, uint8_t *key_id,
			 uint8_t sid[BRAID_CTL_SID_LEN], const char **why)
{
	uint8_t op;

	if (len < 1)
		return bad(why, "empty packet", -EBADMSG);
	op = buf[0] >> BRAID_CTL_OP_SHIFT;
	if (!braid_ctl_op_is_control(op))
		return bad(why, op == BRAID_OP_HARD_RESET_CLIENT_V1 || op == BRAID_OP_HARD_RESET_SERVER_V1 ?
				"unsupported key-method 1 reset" : "not a control opcode", -EPROTO);
	if ((op == BRAID_OP_HARD_RESET_CLIENT_V2 || op == BRAID_OP_HARD_RESET_CLIENT_V3) &&
	    (buf[0] & BRAID_CTL_KEY_ID_MASK))
		return bad(why, "client hard reset with key_id != 0", -EPROTO);
	if (len < BRAID_CTL_PLAIN_HDR)
		return bad(why, "truncated: no session id", -EBADMSG);
	*opcode = op;
	*key_id = buf[0] & BRAID_CTL_KEY_ID_MASK;
	memcpy(sid, buf + 1, BRAID_CTL_SID_LEN);
	return 0;
}

int braid_ctl_pkt_decode(const uint8_t *buf, size_t len, struct braid_ctl_pkt *p,
			 const char **why)
{
	int ret;

	ret = braid_ctl_hdr_decode(buf, len, &p->opcode, &p->key_id, p->sid, why);
	if (ret)
		return ret;
	return braid_ctl_inner_decode(p->opcode, buf + BRAID_CTL_PLAIN_HDR,
				      len - BRAID_CTL_PLAIN_HDR, p, why);
}

int braid_ctl_tcp_frame(const uint8_t *pkt, size_t len, uint8_t *out, size_t cap, size_t *olen)
{
	if (len == 0 || len > 0xffff)
		return -EINVAL;
	if (cap < len + BRAID_CTL_TCP_LEN)
		return -ENOBUFS;
	memmove(out + BRAID_CTL_TCP_LEN, pkt, len);
	wire_put_be16(out, (uint16_t)len);
	*olen = len + BRAID_CTL_TCP_LEN;
	return 0;
}

int braid_ctl_tcp_next(const uint8_t *stream, size_t avail, size_t max_len,
		       const uint8_t **pkt, size_t *pkt_len, size_t *consumed, const char **why)
{
	size_t n;

	if (avail < BRAID_CTL_TCP_LEN)
		return -EAGAIN;
	n = wire_get_be16(stream);
	if (n == 0)
		return bad(why, "TCP packet length 0", -EBADMSG);
	if (n > max_len)
		return bad(why, "TCP packet length above the maximum", -EBADMSG);
	if (avail - BRAID_CTL_TCP_LEN < n)
		return -EAGAIN;
	*pkt = stream + BRAID_CTL_TCP_LEN;
	*pkt_len = n;
	*consumed = n + BRAID_CTL_TCP_LEN;
	return 0;
}
