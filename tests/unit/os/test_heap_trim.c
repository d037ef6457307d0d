// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_heap_trim.c - os/heap_trim.c: below the threshold nothing runs; 64 MiB
 * of 16 KiB buffers freed between live 64-byte blocks (so the heap's top stays
 * in use and glibc keeps the pages) are given back to the kernel: the
 * resident set falls by at least 40 MiB (the whole pages inside each free
 * chunk, 3 of its 4). Under a sanitizer's allocator the
 * arenas are empty: only the first part runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "os/heap_trim.h"

#define BUFS 4096
#define BUF_SIZE 16384	/* below the mmap threshold: in the arena; 3 of its 4 pages can be discarded */

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifndef SANITIZED
static void *bufs[BUFS], *keep[BUFS];
#endif

int main(void)
{
	struct braid_heap_trim t;
	long rss0;

	rss0 = braid_heap_rss_kb();
	CHECKM(rss0 > 0, "RSS %ld kB", rss0);
	CHECK_EQ(braid_heap_trim(SIZE_MAX, &t), 0);
	CHECKM(!t.trimmed && t.rss_before_kb == -1 && t.rss_after_kb == -1,
	       "trimmed %d below the threshold", t.trimmed);
#ifndef SANITIZED
	for (int i = 0; i < BUFS; i++) {
		bufs[i] = malloc(BUF_SIZE);
		keep[i] = malloc(64);
		if (!bufs[i] || !keep[i])
			return 1;
		memset(bufs[i], 0xa5, BUF_SIZE);
		memset(keep[i], 0x5a, 64);
	}
	for (int i = 0; i < BUFS; i++)
		free(bufs[i]);
	CHECK_EQ(braid_heap_trim((size_t)32 << 20, &t), 0);
	CHECKM(t.free_bytes >= (size_t)60 << 20, "%zu bytes free in the arenas", t.free_bytes);
	CHECKM(t.trimmed, "not trimmed with %zu bytes free", t.free_bytes);
	CHECKM(t.rss_before_kb - t.rss_after_kb >= 40 * 1024, "RSS %ld -> %ld kB", t.rss_before_kb,
	       t.rss_after_kb);
	for (int i = 0; i < BUFS; i++)
		CHECK(((unsigned char *)keep[i])[63] == 0x5a);
	for (int i = 0; i < BUFS; i++)
		free(keep[i]);
	printf("heap trim: %zu kB free, RSS %ld -> %ld kB\n", t.free_bytes / 1024, t.rss_before_kb,
	       t.rss_after_kb);
#endif
	CHECK_DONE();
}
