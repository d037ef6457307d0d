/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_mem.h - the engine's zeroed arrays (its struct, slots, rings, reorder
 * arrays). A large one (MP_MEM_MAP_MIN bytes and up) is anonymous memory of
 * its own, page-aligned, so only the pages the engine writes become resident
 * and an array whose content no longer matters can give its pages back
 * (braid_mp_trim, mp_trim.c): an idle gateway client then costs the pages in
 * use, not the arrays' bounds (docs/scaling.md, memory). Small ones are
 * calloc'ed. The caller passes the same n and size to every call of one array.
 */
#ifndef BRAID_MP_MEM_H
#define BRAID_MP_MEM_H

#include <stddef.h>

#define MP_MEM_MAP_MIN (8u * 1024)	/* two pages: a gateway client's 2048-entry rings */

/* Like calloc(n, size); NULL on overflow or no memory. */
void *mp_zalloc(size_t n, size_t size);
/* Free what mp_zalloc(n, size) returned; NULL is fine. */
void mp_zfree(void *p, size_t n, size_t size);
/* A large array reads as zeroes again and its pages are returned; a small one is left as it is. */
void mp_zdrop(void *p, size_t n, size_t size);
/* The whole pages inside [from, to) (part of a live object whose bytes there no longer matter) read as
 * zeroes again and are returned. */
void mp_zdrop_range(void *from, void *to);

#endif /* BRAID_MP_MEM_H */
