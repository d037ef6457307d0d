/* SPDX-License-Identifier: GPL-2.0-only */
/* params.h - the emulated link's parameters, their defaults, parsing of single values and JSON output. */
#ifndef PATHEMU_PARAMS_H
#define PATHEMU_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ge.h"

#define PE_MAX_HELD 200000u /* packets held at most (also the kernel queue maxlen) */

struct pe_params {
	double rate_mbit;   /* serialisation rate, 0 = unlimited */
	double delay_ms;    /* one-way delay */
	double jitter_ms;   /* sigma of the normal jitter */
	bool reorder;       /* let jitter reorder packets (per-packet verdicts) */
	double qms;         /* tail drop when the serialisation backlog exceeds this (ms), 0 = off */
	uint32_t qpkts;     /* tail drop when this many packets wait for serialisation, 0 = off */
	double loss_pct;    /* uniform loss */
	bool ge_on;
	struct ge_params ge;
	uint64_t seed;
	uint32_t stream;    /* PRNG stream within the seed (pathemu uses the queue number) */
	uint32_t batch_us;  /* release everything due within this window */
	bool delay_only;    /* delay-only mode (-D): rate, qms and qpkts stay 0; rate and queue are left to
			     * another shaper (tbf/htb in the bed); only delay, jitter and loss are modelled */
};

void params_default(struct pe_params *p);

/*
 * Parse one value of the named parameter into p. Names (shared by the command line and the control socket):
 * rate delay jitter qms qpkts loss ge seed batch. Returns 0, -ENOENT for an unknown name, -EINVAL for a bad
 * value (in delay-only mode also for a non-zero rate, qms or qpkts); on error err holds a message naming the
 * bad token.
 */
int params_set(struct pe_params *p, const char *name, const char *value, char *err, size_t errlen);

/* Parse "p,r,1-k,1-h" (percentages) or "off". */
int params_parse_ge(const char *s, bool *on, struct ge_params *ge);

/* Append the parameters as JSON members (no braces) to buf; returns chars written like snprintf. */
int params_json(const struct pe_params *p, char *buf, size_t len);

#endif
