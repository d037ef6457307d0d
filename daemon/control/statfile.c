// SPDX-License-Identifier: GPL-2.0-only
/*
 * statfile.c - FILE.tmp + rename, or in place when the directory does not
 * let us create FILE.tmp (statfile.h).
 */
#include "control/statfile.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int braid_statfile_open(struct braid_statfile *sf, const char *path)
{
	sf->path = path;
	sf->inplace = false;
	if ((size_t)snprintf(sf->tmp, sizeof(sf->tmp), "%s.tmp", path) >= sizeof(sf->tmp))
		return -ENAMETOOLONG;
	sf->f = fopen(sf->tmp, "we");
	if (!sf->f && (errno == EACCES || errno == EPERM || errno == EROFS)) {
		sf->f = fopen(path, "we");	/* the directory is not ours (privileges dropped) */
		sf->inplace = sf->f != NULL;
	}
	return sf->f ? 0 : -errno;
}

int braid_statfile_commit(struct braid_statfile *sf, int err)
{
	int r = err;

	if (!r && (fflush(sf->f) || ferror(sf->f)))
		r = -EIO;
	if (fclose(sf->f) && !r)
		r = -errno;
	sf->f = NULL;
	if (sf->inplace)
		return r;
	if (!r && rename(sf->tmp, sf->path))
		r = -errno;
	if (r)
		unlink(sf->tmp);
	return r;
}
