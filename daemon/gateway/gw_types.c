// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_types.c - the accessors of gw_types.h that every gateway file uses:
 * the monotonic clock in milliseconds, a client's name for log lines, an
 * IPv4 address as text.
 */
#include "gateway/gw_types.h"

#include <arpa/inet.h>

int64_t braid_gw_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *braid_gw_cname(const struct gw_client *c)
{
	return c->cn[0] ? c->cn : "UNDEF";
}

void braid_gw_v4str(uint32_t a, char *buf, size_t len)
{
	struct in_addr in = { .s_addr = htonl(a) };

	inet_ntop(AF_INET, &in, buf, (socklen_t)len);
}
