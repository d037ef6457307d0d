// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_msg.c - encode / parse Braid multipath control messages.
 */
#include <errno.h>
#include <string.h>

#include "util/wire.h"
#include "mp_msg.h"

/* "BRAID-MP" followed by eight fixed bytes; never valid as an IP header
 * (first nibble 4 = IPv4 with IHL 2, which no IPv4 stack accepts). */
const uint8_t braid_mp_magic[BRAID_MP_MAGIC_LEN] = {
	0x42, 0x52, 0x41, 0x49, 0x44, 0x2d, 0x4d, 0x50,
	0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15,
};

int braid_mp_msg_is_control(const uint8_t *buf, size_t len)
{
	return len >= BRAID_MP_HDR_LEN &&
	       memcmp(buf, braid_mp_magic, BRAID_MP_MAGIC_LEN) == 0;
}

static void put_i64(uint8_t *p, int64_t v)
{
	wire_put_be64(p, (uint64_t)v);
}

static int64_t get_i64(const uint8_t *p)
{
	return (int64_t)wire_get_be64(p);
}

static void put_entry(uint8_t *p, const struct braid_mp_report_entry *e)
{
	wire_put_be32(p, e->path_id);
	wire_put_be32(p + 4, e->rx_pkts);
	wire_put_be64(p + 8, e->rx_bytes);
	wire_put_be64(p + 16, e->last_pid);
	wire_put_be32(p + 24, e->span_us);
	wire_put_be32(p + 28, e->span_bytes);
	put_i64(p + 32, e->owd_min_us);
	put_i64(p + 40, e->owd_last_us);
	wire_put_be32(p + 48, e->probe_seq_hi);
	wire_put_be32(p + 52, e->probes_lost);
}

static void get_entry(const uint8_t *p, struct braid_mp_report_entry *e)
{
	e->path_id = wire_get_be32(p);
	e->rx_pkts = wire_get_be32(p + 4);
	e->rx_bytes = wire_get_be64(p + 8);
	e->last_pid = wire_get_be64(p + 16);
	e->span_us = wire_get_be32(p + 24);
	e->span_bytes = wire_get_be32(p + 28);
	e->owd_min_us = get_i64(p + 32);
	e->owd_last_us = get_i64(p + 40);
	e->probe_seq_hi = wire_get_be32(p + 48);
	e->probes_lost = wire_get_be32(p + 52);
}

static size_t msg_len(const struct braid_mp_msg *m)
{
	switch (m->type) {
	case BRAID_MP_MSG_PROBE:
		return BRAID_MP_PROBE_LEN;
	case BRAID_MP_MSG_PROBE_ECHO:
		return BRAID_MP_ECHO_LEN;
	case BRAID_MP_MSG_REPORT:
		if (m->u.report.n < 1 || m->u.report.n > BRAID_MP_REPORT_MAX)
			return 0;
		if (m->u.report.nack_bits % 8 || m->u.report.nack_bits > BRAID_MP_NACK_MAX_BITS)
			return 0;
		return BRAID_MP_REPORT_LEN(m->u.report.n) +
		       (m->u.report.nack_bits ? BRAID_MP_NACK_LEN(m->u.report.nack_bits) : 0);
	case BRAID_MP_MSG_PATH_CHALLENGE:
	case BRAID_MP_MSG_PATH_RESPONSE:
		return BRAID_MP_CHALLENGE_LEN;
	case BRAID_MP_MSG_PATH_CLOSE:
		return BRAID_MP_CLOSE_LEN;
	case BRAID_MP_MSG_SKIP:
		return BRAID_MP_SKIP_LEN;
	case BRAID_MP_MSG_MTU_PROBE:
		if (m->u.mtu.size < BRAID_MP_MTU_HDR_LEN || m->u.mtu.size > BRAID_MP_MTU_PROBE_MAX)
			return 0;
		return m->u.mtu.size;
	case BRAID_MP_MSG_MTU_ACK:
		return BRAID_MP_MTU_ACK_LEN;
	case BRAID_MP_MSG_PATH_STATUS:
		return BRAID_MP_STATUS_LEN;
	}
	return 0;
}

int braid_mp_msg_encode(const struct braid_mp_msg *m, uint8_t *buf, size_t cap)
{
	size_t len = msg_len(m);
	uint8_t *p = buf + BRAID_MP_HDR_LEN;
	unsigned int i;

	if (!len)
		return -EINVAL;
	if (cap < len)
		return -ENOSPC;
	memcpy(buf, braid_mp_magic, BRAID_MP_MAGIC_LEN);
	buf[BRAID_MP_MAGIC_LEN] = (uint8_t)m->type;

	switch (m->type) {
	case BRAID_MP_MSG_PROBE:
		wire_put_be32(p, m->path_id);
		wire_put_be32(p + 4, m->u.probe.seq);
		wire_put_be64(p + 8, m->u.probe.tx_us);
		break;
	case BRAID_MP_MSG_PROBE_ECHO:
		wire_put_be32(p, m->path_id);
		wire_put_be32(p + 4, m->u.echo.seq);
		wire_put_be64(p + 8, m->u.echo.tx_us);
		wire_put_be32(p + 16, m->u.echo.hold_us);
		put_i64(p + 20, m->u.echo.owd_us);
		break;
	case BRAID_MP_MSG_REPORT:
		p[0] = m->u.report.n;
		for (i = 0; i < m->u.report.n; i++)
			put_entry(p + 1 + i * BRAID_MP_REPORT_ENTRY_LEN, &m->u.report.e[i]);
		if (m->u.report.nack_bits) {
			p += 1 + m->u.report.n * BRAID_MP_REPORT_ENTRY_LEN;
			wire_put_be64(p, m->u.report.nack_hi);
			wire_put_be16(p + 8, m->u.report.nack_bits);
			memcpy(p + 10, m->u.report.nack, m->u.report.nack_bits / 8);
		}
		break;
	case BRAID_MP_MSG_PATH_CHALLENGE:
	case BRAID_MP_MSG_PATH_RESPONSE:
		wire_put_be32(p, m->path_id);
		memcpy(p + 4, m->u.token, BRAID_MP_TOKEN_LEN);
		break;
	case BRAID_MP_MSG_PATH_CLOSE:
		wire_put_be32(p, m->path_id);
		p[4] = m->u.close_reason;
		break;
	case BRAID_MP_MSG_SKIP:
		wire_put_be32(p, m->path_id);
		wire_put_be64(p + 4, m->u.skip_pid);
		break;
	case BRAID_MP_MSG_MTU_PROBE:
	case BRAID_MP_MSG_MTU_ACK:
		wire_put_be32(p, m->path_id);
		wire_put_be32(p + 4, m->u.mtu.seq);
		wire_put_be16(p + 8, m->u.mtu.size);
		memset(p + 10, 0, len - BRAID_MP_MTU_HDR_LEN);
		break;
	case BRAID_MP_MSG_PATH_STATUS:
		wire_put_be32(p, m->path_id);
		p[4] = m->u.status.slot;
		p[5] = m->u.status.flags;
		p[6] = p[7] = 0;
		break;
	}
	return (int)len;
}

int braid_mp_msg_parse(const uint8_t *buf, size_t len, struct braid_mp_msg *m)
{
	const uint8_t *p = buf + BRAID_MP_HDR_LEN;
	unsigned int i, n;

	if (!braid_mp_msg_is_control(buf, len))
		return -ENOMSG;
	memset(m, 0, sizeof(*m));
	m->type = (enum braid_mp_msg_type)buf[BRAID_MP_MAGIC_LEN];

	switch (m->type) {
	case BRAID_MP_MSG_PROBE:
		if (len != BRAID_MP_PROBE_LEN)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		m->u.probe.seq = wire_get_be32(p + 4);
		m->u.probe.tx_us = wire_get_be64(p + 8);
		return 0;
	case BRAID_MP_MSG_PROBE_ECHO:
		if (len != BRAID_MP_ECHO_LEN)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		m->u.echo.seq = wire_get_be32(p + 4);
		m->u.echo.tx_us = wire_get_be64(p + 8);
		m->u.echo.hold_us = wire_get_be32(p + 16);
		m->u.echo.owd_us = get_i64(p + 20);
		return 0;
	case BRAID_MP_MSG_REPORT:
		if (len < BRAID_MP_HDR_LEN + 1)
			return -EBADMSG;
		n = p[0];
		if (n < 1 || n > BRAID_MP_REPORT_MAX || len < BRAID_MP_REPORT_LEN(n))
			return -EBADMSG;
		m->u.report.n = (uint8_t)n;
		for (i = 0; i < n; i++)
			get_entry(p + 1 + i * BRAID_MP_REPORT_ENTRY_LEN, &m->u.report.e[i]);
		if (len == BRAID_MP_REPORT_LEN(n))
			return 0;
		p += 1 + n * BRAID_MP_REPORT_ENTRY_LEN;
		if (len < BRAID_MP_REPORT_LEN(n) + BRAID_MP_NACK_LEN(0))
			return -EBADMSG;
		i = wire_get_be16(p + 8);
		if (!i || i % 8 || i > BRAID_MP_NACK_MAX_BITS ||
		    len != BRAID_MP_REPORT_LEN(n) + BRAID_MP_NACK_LEN(i))
			return -EBADMSG;
		m->u.report.nack_hi = wire_get_be64(p);
		m->u.report.nack_bits = (uint16_t)i;
		memcpy(m->u.report.nack, p + 10, i / 8);
		return 0;
	case BRAID_MP_MSG_PATH_CHALLENGE:
	case BRAID_MP_MSG_PATH_RESPONSE:
		if (len != BRAID_MP_CHALLENGE_LEN)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		memcpy(m->u.token, p + 4, BRAID_MP_TOKEN_LEN);
		return 0;
	case BRAID_MP_MSG_PATH_CLOSE:
		if (len != BRAID_MP_CLOSE_LEN)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		m->u.close_reason = p[4];
		return 0;
	case BRAID_MP_MSG_SKIP:
		if (len != BRAID_MP_SKIP_LEN)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		m->u.skip_pid = wire_get_be64(p + 4);
		return 0;
	case BRAID_MP_MSG_MTU_PROBE:
	case BRAID_MP_MSG_MTU_ACK:
		if (len < BRAID_MP_MTU_HDR_LEN)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		m->u.mtu.seq = wire_get_be32(p + 4);
		m->u.mtu.size = wire_get_be16(p + 8);
		if (m->type == BRAID_MP_MSG_MTU_ACK)
			return len == BRAID_MP_MTU_ACK_LEN && m->u.mtu.size >= BRAID_MP_MTU_HDR_LEN &&
			       m->u.mtu.size <= BRAID_MP_MTU_PROBE_MAX ? 0 : -EBADMSG;
		if (m->u.mtu.size != len || len > BRAID_MP_MTU_PROBE_MAX)
			return -EBADMSG;
		for (i = BRAID_MP_MTU_HDR_LEN; i < len; i++)	/* padding: zeros only */
			if (buf[i])
				return -EBADMSG;
		return 0;
	case BRAID_MP_MSG_PATH_STATUS:
		/* longer: a later version's fields follow, ignored here */
		if (len < BRAID_MP_STATUS_LEN || len > BRAID_MP_MSG_MAX)
			return -EBADMSG;
		m->path_id = wire_get_be32(p);
		m->u.status.slot = p[4];
		m->u.status.flags = p[5];
		return 0;
	}
	return -EBADMSG;
}
