// SPDX-License-Identifier: GPL-2.0-only
/*
 * lg_push.c - the load generator's PUSH_REPLY reader (lg_push.h): copies the
 * message into a bounded buffer, splits on commas, reads the few options a
 * test client needs and ignores the rest.
 */
#include "lg_push.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int addr4(const char *s, uint32_t *a)
{
	struct in_addr in;

	if (inet_pton(AF_INET, s, &in) != 1)
		return -EBADMSG;
	*a = in.s_addr;
	return 0;
}

static int num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EBADMSG;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end || *v > max)
		return -EBADMSG;
	return 0;
}

/* "ifconfig A B": B is a netmask (topology subnet) or the remote end (net30/p2p). */
static int ifconfig(char *v, struct lg_push *out)
{
	char *sp = strchr(v, ' ');
	uint32_t b;

	if (!sp)
		return -EBADMSG;
	*sp++ = 0;
	if (addr4(v, &out->local) || addr4(sp, &b))
		return -EBADMSG;
	if (!out->gateway && (ntohl(b) >> 24) != 255)
		out->gateway = b;
	return 0;
}

/* "braid-mp VERSION WINDOW": version 1..65535 without a leading zero, window 64..65536 */
static int braid_mp(char *v, struct lg_push *out)
{
	char *sp = strchr(v, ' ');
	unsigned long ver, win;

	if (!sp)
		return -EBADMSG;
	*sp++ = 0;
	if (v[0] == '0' || num(v, 65535, &ver) || ver < 1 || num(sp, 65536, &win) || win < 64)
		return -EBADMSG;
	out->mp_version = (unsigned)ver;
	out->mp_window = (unsigned)win;
	return 0;
}

static int option(char *opt, struct lg_push *out, const char **why)
{
	unsigned long v;

	if (strncmp(opt, "cipher ", 7) == 0) {
		if (strlen(opt + 7) >= sizeof(out->cipher) || !opt[7])
			return *why = "cipher", -EBADMSG;
		snprintf(out->cipher, sizeof(out->cipher), "%s", opt + 7);
	} else if (strncmp(opt, "peer-id ", 8) == 0) {
		if (num(opt + 8, 0xfffffe, &v))
			return *why = "peer-id", -EBADMSG;
		out->peer_id = (uint32_t)v;
	} else if (strncmp(opt, "ifconfig ", 9) == 0) {
		if (ifconfig(opt + 9, out))
			return *why = "ifconfig", -EBADMSG;
	} else if (strncmp(opt, "route-gateway ", 14) == 0) {
		if (addr4(opt + 14, &out->gateway))
			return *why = "route-gateway", -EBADMSG;
	} else if (strncmp(opt, "ping ", 5) == 0) {
		if (num(opt + 5, 86400, &v))
			return *why = "ping", -EBADMSG;
		out->ping_s = (unsigned)v;
	} else if (strncmp(opt, "braid-mp ", 9) == 0) {
		if (braid_mp(opt + 9, out))
			return *why = "braid-mp", -EBADMSG;
	} else if (strncmp(opt, "protocol-flags ", 15) == 0 || strncmp(opt, "key-derivation ", 15) == 0) {
		if (strstr(opt + 15, "tls-ekm"))
			out->ekm = true;
	}
	return 0;
}

int lg_push_parse(const char *msg, size_t len, struct lg_push *out, const char **why)
{
	char buf[LG_PUSH_MAX + 1], *save = NULL, *opt;
	size_t n = strnlen(msg, len);
	int ret;

	*why = NULL;
	memset(out, 0, sizeof(*out));
	out->peer_id = UINT32_MAX;
	if (n > LG_PUSH_MAX)
		return *why = "too long", -EMSGSIZE;
	memcpy(buf, msg, n);
	buf[n] = 0;
	if (strncmp(buf, "PUSH_REPLY", 10) != 0 || (buf[10] && buf[10] != ','))
		return *why = "not a PUSH_REPLY", -EPROTO;
	/* route-gateway wins over ifconfig's remote end, in either order */
	for (opt = strtok_r(buf + 10, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		ret = option(opt, out, why);
		if (ret)
			return ret;
	}
	return 0;
}
