// SPDX-License-Identifier: GPL-2.0-only
/*
 * heap_trim.c - malloc_trim when the arenas hold enough free memory (heap_trim.h).
 */
#include "os/heap_trim.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long braid_heap_rss_kb(void)
{
	unsigned long size, resident;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/statm", "re");
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%lu %lu", &size, &resident);
	fclose(f);
	if (n != 2 || page <= 0)
		return -1;
	return (long)(resident * (unsigned long)(page / 1024));
}

void braid_heap_stats(struct braid_heap_stats *out)
{
	struct mallinfo2 mi = mallinfo2();

	out->in_use = mi.uordblks;
	out->free = mi.fordblks;
	out->mapped = mi.hblkhd;
}

int braid_heap_trim(size_t min_free, struct braid_heap_trim *out)
{
	struct braid_heap_stats hs;

	braid_heap_stats(&hs);
	memset(out, 0, sizeof(*out));
	out->free_bytes = hs.free;
	out->rss_before_kb = out->rss_after_kb = -1;
	if (hs.free < min_free)
		return 0;
	out->rss_before_kb = braid_heap_rss_kb();
	malloc_trim(0);
	out->rss_after_kb = braid_heap_rss_kb();
	out->trimmed = true;
	return 0;
}
