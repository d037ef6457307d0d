// SPDX-License-Identifier: GPL-2.0-only
/*
 * path_match.c - a user's name for a path against the path (path_match.h).
 */
#include "dataplane/path_match.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

/* The address of a printable path address "[AF_INET]10.0.1.1:1194" into a (its family, or 0). */
static int path_addr(const char *s, unsigned char a[16])
{
	const char *b = strchr(s, ']'), *colon = strrchr(s, ':');
	char ip[INET6_ADDRSTRLEN];
	size_t n;

	if (!b || !colon || colon <= b || (n = (size_t)(colon - b - 1)) >= sizeof(ip))
		return 0;
	memcpy(ip, b + 1, n);
	ip[n] = '\0';
	if (inet_pton(AF_INET, ip, a) == 1)
		return AF_INET;
	return inet_pton(AF_INET6, ip, a) == 1 ? AF_INET6 : 0;
}

bool braid_path_named(const char *name, const struct braid_mpath_path_info *p)
{
	unsigned char want[16], have[16];
	int wf, hf;

	if (p->dev[0] && !strcmp(name, p->dev))
		return true;
	wf = inet_pton(AF_INET, name, want) == 1 ? AF_INET :
	     inet_pton(AF_INET6, name, want) == 1 ? AF_INET6 : 0;
	if (!wf)
		return false;
	hf = path_addr(p->local, have);
	return wf == hf && !memcmp(want, have, wf == AF_INET ? 4 : 16);
}
