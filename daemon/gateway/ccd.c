// SPDX-License-Identifier: GPL-2.0-only
/*
 * ccd.c - client-config-dir files (see ccd.h).
 */
#include "gateway/ccd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "config/config.h"

#define CCD_MAX_SIZE (256 * 1024)

bool braid_ccd_name_ok(const char *cn)
{
	if (!cn || !*cn || !strcmp(cn, ".") || !strcmp(cn, ".."))
		return false;
	for (const unsigned char *p = (const unsigned char *)cn; *p; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return false;
	return strlen(cn) < 256;
}

static int perr(char *err, size_t len, const char *name, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int perr(char *err, size_t len, const char *name, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "%s:%d: ", name, line);

	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool parse_v4(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return false;
	*out = ntohl(a.s_addr);
	return true;
}

static bool parse_v6_prefix(const char *s, struct in6_addr *a, uint8_t *prefix)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(s, '/');
	char *end;
	long bits;

	if (!slash || (size_t)(slash - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(slash - s));
	buf[slash - s] = 0;
	bits = strtol(slash + 1, &end, 10);
	if (!slash[1] || *end || bits < 0 || bits > 128)
		return false;
	if (inet_pton(AF_INET6, buf, a) != 1)
		return false;
	*prefix = (uint8_t)bits;
	return true;
}

static int mask_bits(uint32_t mask)
{
	int n = 0;

	while (n < 32 && (mask & (0x80000000u >> n)))
		n++;
	return (n == 32 || !(mask << n)) ? n : -1;
}

static int apply(struct braid_ccd *c, char **tok, int n, const char *name, int line, char *err,
		 size_t err_len)
{
	const char *d = tok[0];

	if (d[0] == '-' && d[1] == '-')
		d += 2;
	if (!strcmp(d, "disable")) {
		if (n != 1)
			return perr(err, err_len, name, line, "option 'disable': takes no argument");
		c->disable = true;
	} else if (!strcmp(d, "push-reset")) {
		if (n != 1)
			return perr(err, err_len, name, line, "option 'push-reset': takes no argument");
		c->push_reset = true;
	} else if (!strcmp(d, "push")) {
		if (n != 2)
			return perr(err, err_len, name, line, "option 'push': needs one argument");
		if (strchr(tok[1], ','))
			return perr(err, err_len, name, line,
				    "option 'push': '%s' contains a comma", tok[1]);
		if (c->n_push >= BRAID_CCD_MAX_PUSH)
			return perr(err, err_len, name, line, "option 'push': more than %d",
				    BRAID_CCD_MAX_PUSH);
		c->push[c->n_push] = strdup(tok[1]);
		if (!c->push[c->n_push])
			return -ENOMEM;
		c->n_push++;
	} else if (!strcmp(d, "ifconfig-push")) {
		if (n < 3 || n > 4)
			return perr(err, err_len, name, line,
				    "option 'ifconfig-push': needs LOCAL REMOTE-NETMASK");
		if (!parse_v4(tok[1], &c->ifc_local) || !parse_v4(tok[2], &c->ifc_remote))
			return perr(err, err_len, name, line,
				    "option 'ifconfig-push': '%s %s' is not two IPv4 addresses",
				    tok[1], tok[2]);
		c->has_ifconfig = true;
	} else if (!strcmp(d, "ifconfig-ipv6-push")) {
		if (n < 2 || n > 3)
			return perr(err, err_len, name, line,
				    "option 'ifconfig-ipv6-push': needs ADDR/BITS [REMOTE]");
		if (!parse_v6_prefix(tok[1], &c->ifc6, &c->ifc6_prefix))
			return perr(err, err_len, name, line,
				    "option 'ifconfig-ipv6-push': '%s' is not ADDR/BITS", tok[1]);
		c->has_ifconfig6 = true;
	} else if (!strcmp(d, "iroute")) {
		uint32_t net, mask = 0xffffffffu;
		int bits;
		struct braid_ccd_iroute *r;

		if (n < 2 || n > 3)
			return perr(err, err_len, name, line, "option 'iroute': needs NET [MASK]");
		if (!parse_v4(tok[1], &net) || (n == 3 && !parse_v4(tok[2], &mask)))
			return perr(err, err_len, name, line,
				    "option 'iroute': '%s' is not an IPv4 network", tok[1]);
		bits = mask_bits(mask);
		if (bits < 0)
			return perr(err, err_len, name, line,
				    "option 'iroute': '%s' is not a contiguous netmask", tok[2]);
		if (net & ~mask)
			return perr(err, err_len, name, line,
				    "option 'iroute': %s has bits outside the netmask", tok[1]);
		if (c->n_iroute >= BRAID_CCD_MAX_IROUTE)
			return perr(err, err_len, name, line, "option 'iroute': more than %d",
				    BRAID_CCD_MAX_IROUTE);
		r = &c->iroute[c->n_iroute++];
		memset(r, 0, sizeof(*r));
		r->family = AF_INET;
		net = htonl(net);
		memcpy(r->addr, &net, 4);
		r->prefix = (uint8_t)bits;
	} else if (!strcmp(d, "iroute-ipv6")) {
		struct in6_addr a;
		uint8_t bits;
		struct braid_ccd_iroute *r;

		if (n != 2 || !parse_v6_prefix(tok[1], &a, &bits))
			return perr(err, err_len, name, line,
				    "option 'iroute-ipv6': needs NET/BITS");
		if (c->n_iroute >= BRAID_CCD_MAX_IROUTE)
			return perr(err, err_len, name, line, "option 'iroute-ipv6': more than %d",
				    BRAID_CCD_MAX_IROUTE);
		r = &c->iroute[c->n_iroute++];
		r->family = AF_INET6;
		memcpy(r->addr, &a, 16);
		r->prefix = bits;
	} else {
		return perr(err, err_len, name, line,
			    "option '%s' is not allowed in a client-config-dir file", d);
	}
	return 0;
}

int braid_ccd_parse(struct braid_ccd *c, const char *name, const char *text, char *err,
		    size_t err_len)
{
	const char *p = text;
	int line = 0, r = 0;

	memset(c, 0, sizeof(*c));
	c->found = true;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *ln = strndup(p, len);
		char *tok[BRAID_CONFIG_MAX_PARMS];
		char terr[256];
		int n = 0;

		line++;
		if (!ln) {
			r = -ENOMEM;
			break;
		}
		r = braid_config_tokenize(ln, tok, BRAID_CONFIG_MAX_PARMS, &n, terr, sizeof(terr));
		free(ln);
		if (r) {
			if (r == -EINVAL)
				perr(err, err_len, name, line, "%s", terr);
			break;
		}
		if (n > 0)
			r = apply(c, tok, n, name, line, err, err_len);
		braid_config_free_tokens(tok, n);
		if (r)
			break;
		p += len + (nl ? 1 : 0);
	}
	if (r)
		braid_ccd_free(c);
	return r;
}

int braid_ccd_load(struct braid_ccd *c, const char *dir, const char *cn, char *err,
		   size_t err_len)
{
	char path[4096];
	FILE *f;
	char *text;
	size_t n;
	int r;

	memset(c, 0, sizeof(*c));
	if (!braid_ccd_name_ok(cn))
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, cn) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		r = -errno;
		snprintf(err, err_len, "client-config-dir: cannot open '%s': %s", path, strerror(-r));
		return r;
	}
	text = malloc(CCD_MAX_SIZE + 1);
	if (!text) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(text, 1, CCD_MAX_SIZE + 1, f);
	if (ferror(f) || n > CCD_MAX_SIZE) {
		snprintf(err, err_len, "client-config-dir: cannot read '%s' (%s)", path,
			 n > CCD_MAX_SIZE ? "larger than 256 KiB" : "read error");
		fclose(f);
		free(text);
		return n > CCD_MAX_SIZE ? -EFBIG : -EIO;
	}
	fclose(f);
	text[n] = 0;
	r = braid_ccd_parse(c, path, text, err, err_len);
	free(text);
	return r;
}

void braid_ccd_free(struct braid_ccd *c)
{
	for (unsigned i = 0; i < c->n_push; i++)
		free(c->push[i]);
	memset(c, 0, sizeof(*c));
}
