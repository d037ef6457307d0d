/* SPDX-License-Identifier: GPL-2.0-only */
/* test.h - tiny assertion helpers for the mp unit tests. */
#ifndef BRAID_MP_TEST_H
#define BRAID_MP_TEST_H

#include <stdio.h>

static int test_failures;

#define CHECK(cond, ...)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			test_failures++;                                              \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                 \
			fputc('\n', stderr);                                          \
		}                                                                     \
	} while (0)

#define CHECK_EQ(a, b)                                                                \
	do {                                                                          \
		long long a_ = (long long)(a), b_ = (long long)(b);                   \
		CHECK(a_ == b_, "%lld != %lld", a_, b_);                              \
	} while (0)

#define TEST_DONE()                                                                   \
	do {                                                                          \
		if (test_failures)                                                    \
			fprintf(stderr, "%d check(s) failed\n", test_failures);       \
		return test_failures ? 1 : 0;                                         \
	} while (0)

#endif
