// SPDX-License-Identifier: GPL-2.0-only
/* params.c - defaults and strict parsing of link parameters. */
#include "params.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void params_default(struct pe_params *p)
{
	memset(p, 0, sizeof(*p));
	p->qms = 100.0;
	p->seed = 1;
	p->batch_us = 250;
}

/* A finite decimal number in [lo, hi], nothing after it. */
static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_u64(const char *s, uint64_t hi, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

int params_parse_ge(const char *s, bool *on, struct ge_params *ge)
{
	double v[4];
	char buf[128], *tok, *save = NULL;
	int n = 0;

	if (!strcmp(s, "off")) {
		*on = false;
		return 0;
	}
	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 4 || parse_double(tok, 0.0, 100.0, &v[n]))
			return -EINVAL;
		n++;
	}
	/* strtok_r skips empty fields: "1,,2,3" would pass as 3 fields, so count commas too */
	if (n != 4 || s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return -EINVAL;
	ge->p = v[0];
	ge->r = v[1];
	ge->lg = v[2];
	ge->lb = v[3];
	*on = true;
	return 0;
}

int params_set(struct pe_params *p, const char *name, const char *value, char *err, size_t errlen)
{
	const char *what;
	uint64_t u;
	int rc = 0;

	if (!strcmp(name, "rate")) {
		what = "a rate in Mbit/s, 0..100000";
		rc = parse_double(value, 0.0, 100000.0, &p->rate_mbit);
	} else if (!strcmp(name, "delay")) {
		what = "a delay in ms, 0..60000";
		rc = parse_double(value, 0.0, 60000.0, &p->delay_ms);
	} else if (!strcmp(name, "jitter")) {
		what = "a jitter sigma in ms, 0..60000";
		rc = parse_double(value, 0.0, 60000.0, &p->jitter_ms);
	} else if (!strcmp(name, "qms")) {
		what = "a queue limit in ms, 0..60000 (0 = off)";
		rc = parse_double(value, 0.0, 60000.0, &p->qms);
	} else if (!strcmp(name, "qpkts")) {
		what = "a queue limit in packets, 0..200000 (0 = off)";
		rc = parse_u64(value, PE_MAX_HELD, &u);
		if (!rc)
			p->qpkts = (uint32_t)u;
	} else if (!strcmp(name, "loss")) {
		what = "a loss percentage, 0..100";
		rc = parse_double(value, 0.0, 100.0, &p->loss_pct);
	} else if (!strcmp(name, "ge")) {
		what = "p,r,1-k,1-h as four percentages 0..100, or off";
		rc = value ? params_parse_ge(value, &p->ge_on, &p->ge) : -EINVAL;
	} else if (!strcmp(name, "seed")) {
		what = "an unsigned 64-bit seed";
		rc = parse_u64(value, UINT64_MAX, &p->seed);
	} else if (!strcmp(name, "batch")) {
		what = "a batching window in us, 0..100000";
		rc = parse_u64(value, 100000, &u);
		if (!rc)
			p->batch_us = (uint32_t)u;
	} else {
		snprintf(err, errlen, "unknown parameter '%s'", name);
		return -ENOENT;
	}
	if (rc) {
		snprintf(err, errlen, "bad value '%s' for %s (want %s)", value ? value : "", name, what);
		return -EINVAL;
	}
	if (p->delay_only && ((!strcmp(name, "rate") && p->rate_mbit > 0) || (!strcmp(name, "qms") && p->qms > 0) ||
			      (!strcmp(name, "qpkts") && p->qpkts))) {
		snprintf(err, errlen, "%s=%s refused in delay-only mode (no rate or queue model; use 0)", name, value);
		return -EINVAL;
	}
	return 0;
}

int params_json(const struct pe_params *p, char *buf, size_t len)
{
	char ge[160];

	if (p->ge_on)
		snprintf(ge, sizeof(ge), "[%g,%g,%g,%g]", p->ge.p, p->ge.r, p->ge.lg, p->ge.lb);
	else
		strcpy(ge, "null");
	return snprintf(buf, len,
			"\"rate_mbit\":%g,\"delay_ms\":%g,\"jitter_ms\":%g,\"reorder\":%s,\"qms\":%g,"
			"\"qpkts\":%" PRIu32 ",\"loss_pct\":%g,\"ge\":%s,\"seed\":%" PRIu64 ",\"batch_us\":%" PRIu32
			",\"delay_only\":%s",
			p->rate_mbit, p->delay_ms, p->jitter_ms, p->reorder ? "true" : "false", p->qms, p->qpkts,
			p->loss_pct, ge, p->seed, p->batch_us, p->delay_only ? "true" : "false");
}
