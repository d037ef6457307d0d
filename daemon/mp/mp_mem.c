// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_mem.c - the engine's zeroed arrays (mp_mem.h): calloc below
 * MP_MEM_MAP_MIN bytes, a private anonymous mapping from there on.
 */
#include "mp_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int mapped(size_t n, size_t size)
{
	return n * size >= MP_MEM_MAP_MIN;
}

void *mp_zalloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	if (!mapped(n, size))
		return calloc(n ? n : 1, size ? size : 1);
	p = mmap(NULL, n * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void mp_zfree(void *p, size_t n, size_t size)
{
	if (!p)
		return;
	if (mapped(n, size))
		munmap(p, n * size);
	else
		free(p);
}

void mp_zdrop(void *p, size_t n, size_t size)
{
	if (p && mapped(n, size))
		madvise(p, n * size, MADV_DONTNEED);
}

void mp_zdrop_range(void *from, void *to)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)from + pg - 1) & ~(pg - 1), b = (uintptr_t)to & ~(pg - 1);

	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}
