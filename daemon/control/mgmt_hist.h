/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_hist.h - the management interface's histories (mgmt_hist.c): the
 * last N log lines, state changes and echo messages with their times, as
 * `log all`, `state 5`, `echo all` print them (OpenVPN's
 * management-log-cache N: one size for the three). A ring of owned
 * strings; the oldest entry is dropped when it is full.
 */
#ifndef BRAID_MGMT_HIST_H
#define BRAID_MGMT_HIST_H

#include <stddef.h>
#include <time.h>

#define BRAID_MGMT_HIST_DEFAULT 250	/* OpenVPN's default management-log-cache */
#define BRAID_MGMT_HIST_MAX 100000

struct braid_mgmt_hist_ent {
	time_t t;
	char *text;		/* what follows "time," in a history line */
};

struct braid_mgmt_hist {
	struct braid_mgmt_hist_ent *e;
	size_t cap, n, head;	/* head: index of the oldest */
};

/* cap entries (1..BRAID_MGMT_HIST_MAX). 0 or -ENOMEM / -EINVAL. */
int braid_mgmt_hist_init(struct braid_mgmt_hist *h, size_t cap);
void braid_mgmt_hist_free(struct braid_mgmt_hist *h);
/* Append (a copy of text). 0 or -ENOMEM (the entry is then lost). */
int braid_mgmt_hist_add(struct braid_mgmt_hist *h, time_t t, const char *text);
/* The i-th newest-but-(n-1-i) entry: 0 = oldest kept, n-1 = newest; NULL past the end. */
const struct braid_mgmt_hist_ent *braid_mgmt_hist_at(const struct braid_mgmt_hist *h, size_t i);
/* The newest entry, or NULL. */
const struct braid_mgmt_hist_ent *braid_mgmt_hist_last(const struct braid_mgmt_hist *h);

#endif /* BRAID_MGMT_HIST_H */
