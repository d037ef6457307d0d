/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_classify.h - traffic classes of inner IP packets (DESIGN §5, MPIP
 * Table 6, ATSSS): which packets go on the lowest-delay path.
 */
#ifndef BRAID_MP_CLASSIFY_H
#define BRAID_MP_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

enum braid_mp_class {
	BRAID_MP_CLASS_BULK = 0,	/* scheduled by the session's scheduler */
	BRAID_MP_CLASS_SMALL = 1,	/* total length <= small_max */
	BRAID_MP_CLASS_ACK = 2,		/* pure TCP ACK (no payload, no SYN/FIN/RST) */
	BRAID_MP_CLASS_DNS = 3,		/* UDP or TCP port 53 (either direction) */
	BRAID_MP_CLASS_EF = 4,		/* DSCP EF (46): VoIP */
};

#define BRAID_MP_META_CLASS 0x07u	/* mask of the class in a meta value */
#define BRAID_MP_META_ECT 0x08u		/* inner packet is ECN-capable (ECT/CE) */
/* braid_mp_enqueue: a copy on every usable path whatever the scheduler (a
 * `redundant` mp-class rule, config/mpclass.h); never set by braid_mp_classify */
#define BRAID_MP_META_REDUNDANT 0x10u
#define BRAID_MP_SMALL_MAX_DEFAULT 160u

/*
 * Classify an inner IPv4/IPv6 packet. Returns a meta value: class | ECT flag.
 * Anything that does not parse is BULK (or SMALL by size); never fails.
 * small_max = 0 means BRAID_MP_SMALL_MAX_DEFAULT.
 */
unsigned int braid_mp_classify(const uint8_t *ip, size_t len, uint32_t small_max);

/*
 * Set ECN CE on an ECN-capable inner packet in place (IPv4 header checksum
 * updated). 0, or -EINVAL if the packet is not IPv4/IPv6 or not ECN-capable.
 */
int braid_mp_set_ce(uint8_t *ip, size_t len);

const char *braid_mp_class_name(enum braid_mp_class c);

#endif /* BRAID_MP_CLASSIFY_H */
