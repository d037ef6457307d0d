/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_up.h - the datagrams braid_dco hands up to a path socket's reader
 * (docs/kmod.md "Hand-up to userspace"): an authenticated P_DATA_V2 payload
 * that is not an IP packet (OpenVPN ping, OCC, Braid multipath control),
 * rewritten by the module as [31 << 3 | key id] [peer id, 3B] [packet id, 4B]
 * [16 zero bytes] [plaintext]. The kernel backend's socket reader parses them
 * here; the module drops every datagram with this opcode that arrives from the
 * network, so one read from a socket passed to PATH_ADD is authenticated.
 */
#ifndef BRAID_DP_DCO_UP_H
#define BRAID_DP_DCO_UP_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_DCO_UP_OPCODE_V 31	/* BRAID_DCO_UP_OPCODE of kmod/uapi/linux/braid_dco.h */
#define BRAID_DCO_UP_HDR 24		/* opcode/key id, peer id, packet id, zeroed tag */

/* One handed-up datagram; payload points into the parsed buffer. */
struct braid_dco_up {
	uint32_t peer_id;
	uint8_t key_id;
	uint32_t packet_id;
	const uint8_t *payload;
	size_t len;
};

/**
 * braid_dco_up_parse() - read a datagram from a path socket of the module.
 * Returns 0 and *out (a payload of at least one byte), -ENOMSG when it is not
 * an up-opcode datagram (the control channel: the role's), -EBADMSG when it
 * has the opcode but not the layout (too short, a nonzero tag, an empty
 * payload, or an IP packet, which the module never hands up).
 */
int braid_dco_up_parse(const uint8_t *buf, size_t len, struct braid_dco_up *out);

#endif /* BRAID_DP_DCO_UP_H */
