/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * info.h - what braidctl reads from braidd's management interface, parsed:
 * the state (`state`), the statistics (`status`), the counters
 * (`load-stats`), a gateway's clients (`status 3` + `braid clients`) and
 * path objects (`braid paths`, `braid client-paths CID`).
 */
#ifndef BRAIDCTL_INFO_H
#define BRAIDCTL_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "braidctl.h"
#include "json.h"

struct info_state {
	long long since;
	char name[32], desc[128], tun4[64], rip[80], rport[16], lip[80], lport[16], tun6[80];
};

struct info_stats {
	bool gateway;			/* `status 3` is a server's (TITLE ...) */
	uint64_t tun_read, tun_write, link_read, link_write;	/* client / point-to-point */
	unsigned nclients;		/* load-stats */
	uint64_t bytes_in, bytes_out;
};

struct info_client {
	unsigned long cid;
	char cn[128], real[96], virt[64], virt6[80], user[128];
	uint64_t rx, tx;
	long long since;
	int braid;			/* a Braid multipath client: 1, stock: 0, not known: -1 */
	int paths, paths_up;		/* -1: not known */
};

/* A list of path objects: each parsed, and its line as the daemon sent it. */
struct info_paths {
	struct json *p;
	char **raw;
	size_t n;
	char err[256];			/* the daemon's ERROR: text (not printed by info_paths) */
};

int info_state(struct braidctl *b, struct info_state *s);
int info_stats(struct braidctl *b, struct info_stats *st);
/* `status 3` (+ `braid clients` when braidd has it): *cl malloc'ed */
int info_clients(struct braidctl *b, struct info_client **cl, size_t *n);
/*
 * The client CID named by CN or ID (exactly one must match): 0 or the exit code
 * (the message printed).
 */
int info_find_client(const struct info_client *cl, size_t n, const char *name,
		     unsigned long *cid);
/*
 * cid < 0: `braid paths`, else `braid client-paths CID`. 0, or the exit code:
 * an ERROR: reply is left in ps->err (the caller says it), others are printed.
 */
int info_paths(struct braidctl *b, long cid, struct info_paths *ps);
void info_paths_free(struct info_paths *ps);

#endif
