// SPDX-License-Identifier: GPL-2.0-only
/*
 * statline.c - the stats log line (statline.h).
 */
#include "control/statline.h"

#include <stdio.h>
#include <string.h>

#include "util/log.h"

void braid_statline_log(const char *what, const char *names, const uint64_t *v, size_t n)
{
	char line[1024];
	size_t len, i;
	int w;

	if (n < BRAID_STATLINE_N_TRAFFIC) {
		braid_err("%s: stats line with %zu values, fewer than the %d traffic counters",
			  what, n, BRAID_STATLINE_N_TRAFFIC);
		return;
	}
	w = snprintf(line, sizeof(line),
		     "tun_read=%llu/%lluB tun_write=%llu/%lluB link_tx=%llu/%lluB "
		     "link_rx=%llu/%lluB auth_failures=%llu replays=%llu malformed=%llu",
		     (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		     (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5],
		     (unsigned long long)v[6], (unsigned long long)v[7], (unsigned long long)v[8],
		     (unsigned long long)v[9], (unsigned long long)v[10]);
	len = w > 0 ? (size_t)w : 0;
	for (i = BRAID_STATLINE_N_TRAFFIC; i < n && *names && len < sizeof(line); i++) {
		size_t nl = strcspn(names, " ");

		w = snprintf(line + len, sizeof(line) - len, " %.*s=%llu", (int)nl, names,
			     (unsigned long long)v[i]);
		len += w > 0 ? (size_t)w : 0;
		names += nl;
		names += strspn(names, " ");
	}
	braid_info("%s: %s", what, line);
}
