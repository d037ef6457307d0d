// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tcpframe.c - daemon/os/tcpframe.c: whole frames in one feed and byte by
 * byte, lengths 0 / max / max+1 / 65535 refused before any body byte is
 * needed, a length split across feeds, the buffer bound (two maximal frames),
 * and a frame that never completes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "os/tcpframe.h"

static size_t put(uint8_t *b, size_t n, uint8_t fill)
{
	b[0] = (uint8_t)(n >> 8);
	b[1] = (uint8_t)n;
	memset(b + 2, fill, n);
	return n + 2;
}

static void test_whole_and_bytewise(void)
{
	struct braid_tcpframe f;
	uint8_t s[3 * (BRAID_TCPFRAME_MAX_PKT + 2)];
	const uint8_t *p;
	size_t n = 0, len, got = 0;

	CHECK_EQ(braid_tcpframe_init(&f, BRAID_TCPFRAME_MAX_PKT), 0);
	n += put(s + n, 1, 0xa1);
	n += put(s + n, BRAID_TCPFRAME_MAX_PKT, 0xa2);
	n += put(s + n, 100, 0xa3);
	/* byte by byte: every frame comes out whole, in order */
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(braid_tcpframe_feed(&f, s + i, 1), 1);
		while (braid_tcpframe_next(&f, &p, &len) == 0) {
			got++;
			CHECK(len == (got == 1 ? 1 : got == 2 ? BRAID_TCPFRAME_MAX_PKT : 100));
			CHECK(p[0] == 0xa0 + got && p[len - 1] == 0xa0 + got);
		}
	}
	CHECK_EQ(got, 3);
	CHECK_EQ(braid_tcpframe_pending(&f), 0);
	braid_tcpframe_free(&f);
}

static void test_bad_lengths(void)
{
	static const uint8_t lens[][2] = { { 0, 0 }, { 0x23, 0xe9 }, { 0xff, 0xff }, { 0x80, 0x00 } };
	static const size_t want[] = { 0, BRAID_TCPFRAME_MAX_PKT + 1, 65535, 32768 };
	struct braid_tcpframe f;
	const uint8_t *p;
	size_t len;

	CHECK_EQ(braid_tcpframe_init(&f, BRAID_TCPFRAME_MAX_PKT), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		braid_tcpframe_reset(&f);
		/* the length alone decides: no body byte is needed to refuse it */
		CHECK_EQ(braid_tcpframe_feed(&f, lens[i], 2), 2);
		CHECK_EQ(braid_tcpframe_next(&f, &p, &len), -EMSGSIZE);
		CHECK_EQ(f.bad_len, want[i]);
	}
	/* the largest legal frame, after a good one, split as 1 + rest */
	braid_tcpframe_reset(&f);
	{
		uint8_t s[BRAID_TCPFRAME_MAX_PKT + 2];
		size_t n = put(s, BRAID_TCPFRAME_MAX_PKT, 0x55);

		CHECK_EQ(braid_tcpframe_feed(&f, s, 1), 1);
		CHECK_EQ(braid_tcpframe_next(&f, &p, &len), -EAGAIN);
		CHECK_EQ(braid_tcpframe_feed(&f, s + 1, n - 2), n - 2);
		CHECK_EQ(braid_tcpframe_next(&f, &p, &len), -EAGAIN);	/* one body byte missing */
		CHECK_EQ(braid_tcpframe_feed(&f, s + n - 1, 1), 1);
		CHECK_EQ(braid_tcpframe_next(&f, &p, &len), 0);
		CHECK_EQ(len, BRAID_TCPFRAME_MAX_PKT);
	}
	braid_tcpframe_free(&f);
	CHECK_EQ(braid_tcpframe_init(&f, 0), -EINVAL);
	CHECK_EQ(braid_tcpframe_init(&f, 65536), -EINVAL);
}

static void test_bound(void)
{
	struct braid_tcpframe f;
	uint8_t *big = malloc(200000);
	const uint8_t *p;
	size_t len, taken, room;

	CHECK_EQ(braid_tcpframe_init(&f, 1000), 0);
	memset(big, 0, 200000);
	for (size_t i = 0; i + 1002 <= 200000; i += 1002)
		put(big + i, 1000, 7);
	/* never more than two maximal frames buffered */
	taken = braid_tcpframe_feed(&f, big, 200000);
	CHECK_EQ(taken, 2 * 1002);
	braid_tcpframe_space(&f, &room);
	CHECK_EQ(room, 0);
	CHECK_EQ(braid_tcpframe_next(&f, &p, &len), 0);
	braid_tcpframe_space(&f, &room);
	CHECK_EQ(room, 1002);
	/* a frame that never completes stays pending; nothing is returned */
	braid_tcpframe_reset(&f);
	CHECK_EQ(braid_tcpframe_feed(&f, (const uint8_t *)"\x00\x64" "0123456789", 12), 12);
	CHECK_EQ(braid_tcpframe_next(&f, &p, &len), -EAGAIN);
	CHECK_EQ(braid_tcpframe_pending(&f), 12);
	braid_tcpframe_free(&f);
	free(big);
}

int main(void)
{
	test_whole_and_bytewise();
	test_bad_lengths();
	test_bound();
	CHECK_DONE();
}
