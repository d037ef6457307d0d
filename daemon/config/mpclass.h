/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpclass.h - user traffic-class rules (`mp-class MATCH... POLICY`).
 *
 * The engine knows two kinds of inner packets (mp_classify.h): BULK, which
 * the session's scheduler places, and the latency classes (small, pure ACK,
 * DNS, DSCP EF), which go on the path with the earliest expected delivery,
 * ahead of bulk in its send queue. A rule overrides that built-in choice
 * for the packets it matches; the first matching rule wins, and a packet no
 * rule matches keeps the built-in class. The result is an ordinary meta
 * value for braid_mp_enqueue() / braid_mp_rx_data_meta(): no engine hook.
 *
 * Matches (all given ones must hold):
 *   proto tcp|udp|icmp      (icmp = ICMP for IPv4, ICMPv6 for IPv6)
 *   port N | port N-M       source or destination port of TCP/UDP
 *   dscp N|NAME             0-63, ef, af11..af43, cs0..cs7, va, le
 *   size <=N                total IP length at most N bytes
 *   tcp-ack                 pure TCP ACK (no payload, no SYN/FIN/RST)
 * Policies:
 *   lowest-delay            a latency class (earliest-delivery path, priority)
 *   bulk                    the session's scheduler, normal queue
 *   redundant               a copy on every usable path (BRAID_MP_META_REDUNDANT,
 *                           the redundant scheduler's queue budget), as a
 *                           latency class (priority, no reorder hold at a
 *                           receiver with the same rule); the receiver's
 *                           replay window drops the later copies
 */
#ifndef BRAID_MPCLASS_H
#define BRAID_MPCLASS_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_MPCLASS_MAX_RULES 32

enum braid_mpclass_policy {
	BRAID_MPCLASS_LOWEST_DELAY = 1,
	BRAID_MPCLASS_BULK,
	BRAID_MPCLASS_REDUNDANT,
};

#define BRAID_MPCLASS_M_PROTO 0x01u
#define BRAID_MPCLASS_M_PORT 0x02u
#define BRAID_MPCLASS_M_DSCP 0x04u
#define BRAID_MPCLASS_M_SIZE 0x08u
#define BRAID_MPCLASS_M_TCPACK 0x10u

struct braid_mpclass_rule {
	unsigned int has;		/* BRAID_MPCLASS_M_* */
	uint8_t proto;			/* 6, 17, or 1 (ICMP / ICMPv6) */
	uint8_t dscp;
	uint16_t port_lo, port_hi;
	uint32_t size_max;
	enum braid_mpclass_policy policy;
};

struct braid_mpclass_rules {
	unsigned int n;
	struct braid_mpclass_rule r[BRAID_MPCLASS_MAX_RULES];
};

/*
 * Parse the words of one rule (argv after `mp-class`). 0, or -EINVAL with a
 * message naming the offending word in err (never NULL, errlen > 0).
 */
int braid_mpclass_parse(struct braid_mpclass_rule *out, int argc, char *const *argv, char *err,
			size_t errlen);
/* Append a rule: 0 or -ENOSPC. */
int braid_mpclass_add(struct braid_mpclass_rules *rs, const struct braid_mpclass_rule *r);
/*
 * Class of an inner IPv4/IPv6 packet: the engine's meta value (class | ECT).
 * rs NULL or empty = braid_mp_classify(). Never fails.
 */
unsigned int braid_mpclass_classify(const struct braid_mpclass_rules *rs, const uint8_t *ip,
				    size_t len);
/* The rule in config syntax ("proto tcp port 5201 lowest-delay"). */
void braid_mpclass_format(const struct braid_mpclass_rule *r, char *buf, size_t len);

#endif /* BRAID_MPCLASS_H */
