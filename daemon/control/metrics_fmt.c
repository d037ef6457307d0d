// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics_fmt.c - the exposition formats (metrics_fmt.h).
 */
#include "control/metrics_fmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shortest of 9..17 significant digits that reads back as v: "%.9g" alone cut a Unix time
 * (braid_start_time_seconds, braid_session_since_seconds: 10 digits) to tens of seconds. */
static void real(FILE *f, double v)
{
	char b[32];

	for (int p = 9; p < 17; p++) {
		snprintf(b, sizeof(b), "%.*g", p, v);
		if (strtod(b, NULL) == v) {
			fputs(b, f);
			return;
		}
	}
	fprintf(f, "%.17g", v);
}

static void value(FILE *f, const struct braid_met_sample *s)
{
	if (s->is_u)
		fprintf(f, "%llu", (unsigned long long)s->u);
	else if (isnan(s->d))
		fputs("NaN", f);
	else if (isinf(s->d))
		fputs(s->d > 0 ? "+Inf" : "-Inf", f);
	else
		real(f, s->d);
}

static void help(FILE *f, const char *h)
{
	for (; *h; h++) {
		if (*h == '\\')
			fputs("\\\\", f);
		else if (*h == '\n')
			fputs("\\n", f);
		else
			fputc(*h, f);
	}
}

void braid_met_write(FILE *f, const struct braid_met_snap *m, bool om)
{
	/* each family's samples: counted, then listed in order (a counting sort) */
	size_t start[BRAID_MET_N + 1] = { 0 };
	size_t *order = m->n ? malloc(m->n * sizeof(*order)) : NULL;

	if (m->n && !order)
		return;
	for (size_t i = 0; i < m->n; i++)
		start[m->s[i].id + 1]++;
	for (int id = 0; id < BRAID_MET_N; id++)
		start[id + 1] += start[id];
	{
		size_t fill[BRAID_MET_N];

		memcpy(fill, start, sizeof(fill));
		for (size_t i = 0; i < m->n; i++)
			order[fill[m->s[i].id]++] = i;
	}
	for (int id = 0; id < BRAID_MET_N; id++) {
		const struct braid_met_family *fm = braid_met_family(id);
		const char *suffix = fm->type == BRAID_MET_COUNTER ? "_total" :
				     fm->type == BRAID_MET_INFO ? "_info" : "";
		const char *type = fm->type == BRAID_MET_COUNTER ? "counter" :
				   fm->type == BRAID_MET_INFO ? (om ? "info" : "gauge") : "gauge";
		/* 0.0.4 names a family by its sample name */
		const char *fsuf = om ? "" : suffix;

		if (start[id] == start[id + 1])
			continue;
		fprintf(f, "# TYPE %s%s %s\n", fm->name, fsuf, type);
		if (om && fm->unit)
			fprintf(f, "# UNIT %s %s\n", fm->name, fm->unit);
		fprintf(f, "# HELP %s%s ", fm->name, fsuf);
		help(f, fm->help);
		fputc('\n', f);
		for (size_t k = start[id]; k < start[id + 1]; k++) {
			const struct braid_met_sample *s = &m->s[order[k]];
			const char *ls = s->lset >= 0 && (size_t)s->lset < m->nl ? m->lsets[s->lset] : "";

			fprintf(f, "%s%s", fm->name, suffix);
			if (ls[0])
				fprintf(f, "{%s}", ls);
			fputc(' ', f);
			value(f, s);
			fputc('\n', f);
		}
	}
	if (om)
		fputs("# EOF\n", f);
	free(order);
}
