// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_helper_profile.c - braid-helper's allow-list check of a profile an
 * unprivileged user sends over the system bus (gui/helper/profile_check.c
 * bh_profile_check): the text root would hand to braidd.
 *
 * Feeds: the whole input as the profile text (not NUL-terminated; a malloc'd
 * copy of exactly its size, so a read past the end is caught).
 * Asserts: the result is 0, -EPERM, -EINVAL or -E2BIG only; a refusal's
 * message is non-empty, NUL-terminated inside its field and names a line no
 * later than the text has; an accepted text holds no NUL byte; the verdict
 * is the same when the check runs again (pure).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "profile_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bh_check_err e, e2;
	unsigned lines = 1;
	char *text;
	int r, r2;

	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	memset(&e, 0xa5, sizeof(e));
	r = bh_profile_check(text, size, &e);
	FZ_ASSERT(r == 0 || r == -EPERM || r == -EINVAL || r == -E2BIG);
	if (r) {
		FZ_ASSERT(memchr(e.msg, '\0', sizeof(e.msg)) != NULL);
		FZ_ASSERT(e.msg[0] != '\0');
		FZ_ASSERT(e.line <= lines);
	} else {
		FZ_ASSERT(memchr(text, '\0', size) == NULL);
	}
	r2 = bh_profile_check(text, size, &e2);
	FZ_ASSERT(r2 == r);
	if (r)
		FZ_ASSERT(e2.line == e.line && !strcmp(e2.msg, e.msg));
	free(text);
	return 0;
}
