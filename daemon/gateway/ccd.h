/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ccd.h - `client-config-dir` files: per-client options, read when a client
 * has authenticated, from DIR/<common name>.
 *
 * Directives (OpenVPN 2.6 names and syntax; anything else in the file is an
 * error naming the line, as OpenVPN refuses options not allowed there):
 *   ifconfig-push LOCAL REMOTE-NETMASK [alias]   fixed v4 address (subnet:
 *                                              LOCAL + netmask; net30: LOCAL + peer)
 *   ifconfig-ipv6-push ADDR/BITS [REMOTE]      fixed v6 address
 *   iroute NET [MASK]                          network behind this client (v4; MASK default /32)
 *   iroute-ipv6 NET/BITS                       network behind this client (v6)
 *   push "OPTION"                              extra push for this client
 *   push-reset                                 drop the global push list for this client
 *   disable                                    refuse the client
 * Comments, empty lines, quoting: as config files (config.h).
 *
 * Common names are looked up only if they are safe file names: no '/',
 * not "." / "..", no control characters (OpenVPN's string_mod class check
 * for CCD_OPT); an unsafe name has no ccd file.
 * With `ccd-exclusive` a client without a file is refused
 * (braid_ccd_load returns -ENOENT and the caller refuses).
 */
#ifndef BRAID_CCD_H
#define BRAID_CCD_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BRAID_CCD_MAX_PUSH 64
#define BRAID_CCD_MAX_IROUTE 64

struct braid_ccd_iroute {
	int family;
	uint8_t addr[16];	/* network byte order */
	uint8_t prefix;
};

struct braid_ccd {
	bool found;		/* a file existed */
	bool disable;
	bool push_reset;
	bool has_ifconfig;
	uint32_t ifc_local, ifc_remote;	/* host order; remote = netmask (subnet) or peer (net30) */
	bool has_ifconfig6;
	struct in6_addr ifc6;
	uint8_t ifc6_prefix;
	char *push[BRAID_CCD_MAX_PUSH];
	unsigned n_push;
	struct braid_ccd_iroute iroute[BRAID_CCD_MAX_IROUTE];
	unsigned n_iroute;
};

/* True if cn may name a file in the ccd dir. */
bool braid_ccd_name_ok(const char *cn);

/*
 * Parse ccd text (name for messages). 0, -EINVAL with "NAME:LINE: ..." in
 * err, -ENOMEM. c is zeroed first; free with braid_ccd_free.
 */
int braid_ccd_parse(struct braid_ccd *c, const char *name, const char *text, char *err,
		    size_t err_len);
/*
 * Read DIR/CN. A missing file (or an unsafe cn) gives 0 with c->found
 * false. -errno on read errors, -EINVAL as parse.
 */
int braid_ccd_load(struct braid_ccd *c, const char *dir, const char *cn, char *err,
		   size_t err_len);
void braid_ccd_free(struct braid_ccd *c);

#endif /* BRAID_CCD_H */
