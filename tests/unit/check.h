/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - the assertion helpers of every C unit test.
 *
 * A failed check prints file:line, the expression and (CHECKM) a message; the
 * test goes on, and CHECK_DONE() in main() prints the totals and returns
 * non-zero when anything failed.
 */
#ifndef BRAID_TESTS_CHECK_H
#define BRAID_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECKM(cond, ...) do { \
	check_count++; \
	if (!(cond)) { \
		check_failures++; \
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define CHECK(cond) CHECKM(cond, "check failed")

#define CHECK_EQ(a, b) do { \
	long long va_ = (long long)(a), vb_ = (long long)(b); \
	CHECKM(va_ == vb_, "%s = %lld, %s = %lld", #a, va_, #b, vb_); \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *sa_ = (a), *sb_ = (b); \
	CHECKM(sa_ && sb_ && strcmp(sa_, sb_) == 0, "got \"%s\", want \"%s\"", \
	       sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)"); \
} while (0)

#define CHECK_MEM(a, b, n) CHECKM(memcmp((a), (b), (n)) == 0, "%zu bytes differ", (size_t)(n))

#define CHECK_DONE() do { \
	fprintf(stderr, "%s: %d checks, %d failed\n", __FILE__, check_count, check_failures); \
	return check_failures ? 1 : 0; \
} while (0)

#endif /* BRAID_TESTS_CHECK_H */
