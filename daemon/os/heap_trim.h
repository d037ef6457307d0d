/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * heap_trim.h - giving the heap's free pages back to the kernel (heap_trim.c).
 *
 * glibc keeps freed chunks in its arenas (one per thread that allocates: the
 * gateway's workers each get one) and returns memory to the kernel only from
 * the top of a heap. A gateway whose sessions carried traffic and went idle
 * keeps the pages of every buffer it freed in between (the idle cost per
 * session after a 1 MiB exchange each was 234 KB at 10,000 sessions and 112 KB
 * at 400, where the arenas held under 4 MiB freed: docs/scaling.md "The
 * acceptance run"). malloc_trim(0)
 * discards the free pages inside the arenas (MADV_DONTNEED); the chunks stay
 * free and are reused as before.
 */
#ifndef BRAID_OS_HEAP_TRIM_H
#define BRAID_OS_HEAP_TRIM_H

#include <stdbool.h>
#include <stddef.h>

struct braid_heap_trim {
	size_t free_bytes;	/* free bytes in the arenas before (mallinfo2 fordblks) */
	long rss_before_kb;	/* the process's resident set, before and after (-1: unknown) */
	long rss_after_kb;
	bool trimmed;		/* malloc_trim ran */
};

/**
 * braid_heap_trim() - run malloc_trim(0) when glibc's arenas hold at least
 * min_free free bytes; *out says what there was and what it gave back. The
 * call walks every arena under its lock (the other threads' allocations wait):
 * call it seldom (the gateway: every 30 s). Under a sanitizer's allocator the
 * arenas are empty and nothing runs. Returns 0.
 */
int braid_heap_trim(size_t min_free, struct braid_heap_trim *out);

/* The process's resident set in kB from /proc/self/statm, or -1. */
long braid_heap_rss_kb(void);

/* What glibc's arenas hold, summed over all of them (mallinfo2). */
struct braid_heap_stats {
	size_t in_use;		/* bytes handed out from the arenas (uordblks) */
	size_t free;		/* free bytes kept in the arenas (fordblks) */
	size_t mapped;		/* bytes in chunks mmap'ed on their own (hblkhd) */
};

/* Fill *out. Walks every arena under its lock: call it seldom (the gateway's status file, once a second). */
void braid_heap_stats(struct braid_heap_stats *out);

#endif /* BRAID_OS_HEAP_TRIM_H */
