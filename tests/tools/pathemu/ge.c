// SPDX-License-Identifier: GPL-2.0-only
/* ge.c - Gilbert-Elliott loss model and its analytic stationary values. */
#include "ge.h"

void ge_init(struct ge *m, const struct ge_params *par)
{
	m->par = *par;
	m->bad = false; /* the seed's model starts in Gap mode */
}

bool ge_step(struct ge *m, struct prng *g)
{
	double loss = (m->bad ? m->par.lb : m->par.lg) / 100.0;
	bool lost = prng_uniform(g) < loss;
	double u = prng_uniform(g);

	if (m->bad) {
		if (u < m->par.r / 100.0)
			m->bad = false;
	} else if (u < m->par.p / 100.0) {
		m->bad = true;
	}
	return lost;
}

/* Stationary probability of the bad state: p / (p + r); with p = r = 0 the chain never leaves good. */
static double pi_bad(const struct ge_params *par)
{
	double p = par->p / 100.0, r = par->r / 100.0;

	return p + r > 0 ? p / (p + r) : 0.0;
}

double ge_stationary_loss(const struct ge_params *par)
{
	double pb = pi_bad(par);

	return (1.0 - pb) * par->lg / 100.0 + pb * par->lb / 100.0;
}

/*
 * Mean length of a run of consecutive losses = P(loss) / P(loss run starts), where
 * P(start) = P(loss) - P(loss at n-1 and at n); the state used for packet n is the one after n-1's transition.
 */
double ge_mean_burst(const struct ge_params *par)
{
	double p = par->p / 100.0, r = par->r / 100.0;
	double lg = par->lg / 100.0, lb = par->lb / 100.0;
	double pb = pi_bad(par), pg = 1.0 - pb;
	double next_g = (1.0 - p) * lg + p * lb; /* P(next lost | now good) */
	double next_b = r * lg + (1.0 - r) * lb;
	double pl = pg * lg + pb * lb;
	double pll = pg * lg * next_g + pb * lb * next_b;

	return pl - pll > 0 ? pl / (pl - pll) : 0.0;
}
