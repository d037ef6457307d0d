/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * statfile.h - rewriting a file braidd keeps up to date (status files, the
 * ifconfig-pool-persist file): FILE.tmp renamed over FILE, so a reader never
 * sees half a file; or, when the directory is not writable (after the
 * privilege drop, docs/braidd.md "Privileges"), FILE itself truncated and
 * rewritten in place, as OpenVPN rewrites its status file.
 */
#ifndef BRAID_STATFILE_H
#define BRAID_STATFILE_H

#include <stdbool.h>
#include <stdio.h>

struct braid_statfile {
	FILE *f;		/* write the new contents here */
	const char *path;
	char tmp[4096];		/* path.tmp; unused in place */
	bool inplace;
};

/* Open the replacement of path. 0 or -errno (-ENAMETOOLONG, fopen's). */
int braid_statfile_open(struct braid_statfile *sf, const char *path);
/*
 * Close it and put it in place (rename); with err (the writer's own error) or
 * on any error the old file stays (FILE.tmp removed). 0 or -errno (err first).
 */
int braid_statfile_commit(struct braid_statfile *sf, int err);

#endif /* BRAID_STATFILE_H */
