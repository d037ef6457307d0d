/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile_check.h - braid-helper's allow-list check of a user's profile.
 *
 * braid-helper runs braidd as root for an unprivileged user, so a profile may
 * hold only directives known not to run code, write files or read files as
 * root (docs/gui.md, "Privileges"). Everything else is refused with an error
 * that names the line and the directive. Pure: no I/O, no allocation.
 */
#ifndef BRAID_HELPER_PROFILE_CHECK_H
#define BRAID_HELPER_PROFILE_CHECK_H

#include <stddef.h>

#define BH_PROFILE_MAX	(1u << 20)	/* bytes: a profile with inline keys is a few KiB */
#define BH_LINE_MAX	8192u		/* bytes per line, inline PEM lines included */

struct bh_check_err {
	unsigned line;		/* 1-based line of the refusal, 0 = the whole text */
	char msg[400];		/* "line N: 'up' runs a program as root: ..." */
};

/*
 * Checks text[0..len). Returns 0 when every line is allowed, -EPERM when a
 * directive is refused, -EINVAL when the text is malformed (NUL byte, an
 * unclosed or mis-closed inline block, a line too long, an unterminated
 * quote), -E2BIG when it is over BH_PROFILE_MAX; err says which line and why.
 */
int bh_profile_check(const char *text, size_t len, struct bh_check_err *err);

#endif
