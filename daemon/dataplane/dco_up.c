// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_up.c - parse the up-opcode datagrams braid_dco queues on the path
 * sockets (dco_up.h): every length checked against the datagram's.
 */
#include "dataplane/dco_up.h"

#include <errno.h>

int braid_dco_up_parse(const uint8_t *buf, size_t len, struct braid_dco_up *out)
{
	size_t i;

	if (!len || buf[0] >> 3 != BRAID_DCO_UP_OPCODE_V)
		return -ENOMSG;
	if (len <= BRAID_DCO_UP_HDR)
		return -EBADMSG;
	for (i = 8; i < BRAID_DCO_UP_HDR; i++)
		if (buf[i])
			return -EBADMSG;
	/* an IP packet (IPv6, IPv4 with IHL >= 5: the module's braid_is_ip); Braid's magic 0x42 is not one */
	if (buf[BRAID_DCO_UP_HDR] >> 4 == 6 ||
	    (buf[BRAID_DCO_UP_HDR] >> 4 == 4 && (buf[BRAID_DCO_UP_HDR] & 0x0f) >= 5))
		return -EBADMSG;
	out->key_id = buf[0] & 7;
	out->peer_id = (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3];
	out->packet_id = (uint32_t)buf[4] << 24 | (uint32_t)buf[5] << 16 | (uint32_t)buf[6] << 8 | buf[7];
	out->payload = buf + BRAID_DCO_UP_HDR;
	out->len = len - BRAID_DCO_UP_HDR;
	return 0;
}
