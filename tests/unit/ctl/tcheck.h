/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcheck.h - minimal assertion helpers for the ctl unit tests.
 * A failed check prints file:line and the expression, the test continues,
 * and main() returns non-zero via TCHECK_DONE().
 */
#ifndef BRAID_TESTS_CTL_TCHECK_H
#define BRAID_TESTS_CTL_TCHECK_H

#include <stdio.h>
#include <string.h>

static int tcheck_failures;
static int tcheck_count;

#define CHECK(cond) do { \
	tcheck_count++; \
	if (!(cond)) { \
		tcheck_failures++; \
		fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long va_ = (long long)(a), vb_ = (long long)(b); \
	tcheck_count++; \
	if (va_ != vb_) { \
		tcheck_failures++; \
		fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", \
			__FILE__, __LINE__, #a, va_, #b, vb_); \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *sa_ = (a), *sb_ = (b); \
	tcheck_count++; \
	if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) { \
		tcheck_failures++; \
		fprintf(stderr, "%s:%d: CHECK_STR failed:\n  got:  \"%s\"\n  want: \"%s\"\n", \
			__FILE__, __LINE__, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)"); \
	} \
} while (0)

#define CHECK_MEM(a, b, n) CHECK(memcmp((a), (b), (n)) == 0)

#define TCHECK_DONE() do { \
	fprintf(stderr, "%s: %d checks, %d failed\n", __FILE__, tcheck_count, tcheck_failures); \
	return tcheck_failures ? 1 : 0; \
} while (0)

#endif /* BRAID_TESTS_CTL_TCHECK_H */
