/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkseeds.h - the seed maker's parts (mkseeds.c: key files, cookie flows,
 * key-method-2, multipath messages; mkseeds_dc.c: sealed data packets) and
 * its seed-file writer. See make-corpus.sh.
 */
#ifndef BRAID_FUZZ_MKSEEDS_H
#define BRAID_FUZZ_MKSEEDS_H

#include <stddef.h>
#include <stdint.h>

/* A seed being built: flag bytes and u16-BE-length chunks (fuzz_common.h). */
struct seed {
	uint8_t b[65536];
	size_t n;
};

void seed_start(struct seed *s, int flags);	/* flags < 0: no flag byte */
void seed_raw(struct seed *s, const void *p, size_t len);
void seed_chunk(struct seed *s, const void *p, size_t len);
/* Write DIR/NAME; exits on error. */
void seed_write(const struct seed *s, const char *dir, const char *name);
/* Read a whole file (at most cap bytes); -1 on error. */
long read_file(const char *path, uint8_t *buf, size_t cap);

/* Multipath control messages of every type (mkseeds.c), for the data
 * channel's seeds too: returns how many were written into msgs[i]/lens[i]. */
#define MKSEEDS_MP_MAX 16
unsigned mkseeds_mp_msgs(uint8_t msgs[MKSEEDS_MP_MAX][2048], size_t lens[MKSEEDS_MP_MAX]);

int mkseeds_dc(const char *outdir, int n_inner, char **inner);

#endif /* BRAID_FUZZ_MKSEEDS_H */
