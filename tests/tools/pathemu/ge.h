/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ge.h - Gilbert-Elliott packet loss (seed 004 §3.1.1): two states, Gap (good) and Burst (bad). The model starts
 * in Gap; each packet is dropped with probability 1-k in Gap and 1-h in Burst, and after each packet the state
 * moves Gap->Burst with probability p and Burst->Gap with probability r. Parameters are percentages.
 */
#ifndef PATHEMU_GE_H
#define PATHEMU_GE_H

#include <stdbool.h>

#include "prng.h"

struct ge_params {
	double p;   /* % P(good -> bad) */
	double r;   /* % P(bad -> good) */
	double lg;  /* % 1-k: loss in good */
	double lb;  /* % 1-h: loss in bad */
};

struct ge {
	struct ge_params par;
	bool bad;
};

void ge_init(struct ge *m, const struct ge_params *par);
/* Decide one packet's fate (true = lost), then make the state transition. Two draws from g per call. */
bool ge_step(struct ge *m, struct prng *g);
/* Analytic stationary loss probability (0..1) and mean loss-burst length (consecutive losses). */
double ge_stationary_loss(const struct ge_params *par);
double ge_mean_burst(const struct ge_params *par);

#endif
