/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_mpctl.h - the kernel backend's answers to the peer's multipath control
 * messages (dco_mpctl.c). With braid_dco the data packets never reach
 * userspace; the peer's engine still validates each path it learned
 * (PATH_CHALLENGE), measures it (PROBE) and searches its MTU (MTU_PROBE).
 * The module hands these up (dco_up.h); they are answered here on the path
 * they came on, the answer sent by the module (PACKET_SEND). The rest
 * (REPORT, PATH_STATUS, SKIP, ...) is counted and needs no answer.
 */
#ifndef BRAID_DP_DCO_MPCTL_H
#define BRAID_DP_DCO_MPCTL_H

#include <stddef.h>
#include <stdint.h>

struct braid_dco_mpctl_stats {
	uint64_t challenges, probes, mtu_probes;	/* answered */
	uint64_t other;		/* understood, no answer needed */
	uint64_t malformed;	/* the magic, but not parsable */
};

/**
 * braid_dco_mpctl_answer() - the answer to one handed-up payload msg that
 * starts with the multipath magic, received at now_us (CLOCK_MONOTONIC).
 * Returns the answer's length in out (cap at least BRAID_MP_MSG_MAX is
 * plenty), 0 when none is due, -ENOMSG when msg is not a multipath control
 * message (no magic: the role's), -EBADMSG when it is malformed (counted).
 */
int braid_dco_mpctl_answer(const uint8_t *msg, size_t len, uint64_t now_us, uint8_t *out, size_t cap,
			   struct braid_dco_mpctl_stats *st);

#endif /* BRAID_DP_DCO_MPCTL_H */
