/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_braid_json.h - the formatting of the management interface's braid
 * extension (mgmt_braid_json.c): the path object of the GUI's contract
 * (gui/README.md, docs/management.md "Braid extensions") as one JSON line
 * and as one text line, and a gateway's client object. Every line is built
 * in a caller's buffer of at most BRAID_MGMT_BRAID_LINE_MAX bytes; strings
 * are JSON-escaped and bounded. Pure functions: no I/O.
 */
#ifndef BRAID_MGMT_BRAID_JSON_H
#define BRAID_MGMT_BRAID_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "control/mgmt_types.h"
#include "dataplane/mpath_types.h"

#define BRAID_MGMT_BRAID_LINE_MAX 8192	/* a reply line, CRLF included (the contract's bound) */

/* One path as the contract shows it. */
struct mgmt_bpath {
	long cid;			/* a gateway's client ID, -1: not shown */
	int id;
	char ifname[65];		/* the interface, or "pathN" when unbound */
	char local[81], remote[81];	/* "192.0.2.1:1194", "[2001:db8::1]:1194" */
	const char *state;		/* up probing degraded down disabled removed */
	bool backup;
	double rtt_ms, loss_pct;	/* < 0: null */
	uint64_t tx_bps, rx_bps, tx_bytes, rx_bytes;
	double share_pct;		/* < 0: left out */
	uint64_t cap_bps;
	long weight;			/* the ratio scheduler's weight, < 0: left out */
	char route[73];			/* the route check flagged the path: the kernel's route, else "" */
};

/* The contract's state of a path (the engine state; disabled first). */
const char *mgmt_bpath_state(const struct braid_mpath_path_info *p);
/*
 * Fill o from a data path's path p; tx_sum: the bits per second the session sent on all
 * its paths (for share_pct), weight: its ratio weight or -1.
 */
void mgmt_bpath_from_info(struct mgmt_bpath *o, long cid, const struct braid_mpath_path_info *p,
			  uint64_t tx_sum, long weight);
/* A single-path session (a gateway's stock client, a role's own) as its one path. */
void mgmt_bpath_from_client(struct mgmt_bpath *o, const struct braid_mgmt_client *c);
/* "[AF_INET]a:p" / "[AF_INET6]a:p" (braid_sockaddr_str) as "a:p" / "[a]:p" into out. */
void mgmt_braid_addr(const char *in, char *out, size_t outlen);

/* The path object (no CRLF) into buf[0..cap); its length (< cap). */
size_t mgmt_bpath_json(char *buf, size_t cap, const struct mgmt_bpath *p);
/* The text form's header line, and one path's line (no CRLF). */
const char *mgmt_bpath_text_header(bool with_cid);
size_t mgmt_bpath_text(char *buf, size_t cap, const struct mgmt_bpath *p);
/* {"cid":0,"cn":"client1","braid":true,"paths":2,"paths_up":2} */
size_t mgmt_bclient_json(char *buf, size_t cap, const struct braid_mgmt_client *c, int paths,
			 int paths_up);
/* s as a JSON string (quotes included, at most max bytes of s, invalid UTF-8 as U+FFFD) appended at buf[*len]. */
void mgmt_json_str(char *buf, size_t cap, size_t *len, const char *s, size_t max);

#endif /* BRAID_MGMT_BRAID_JSON_H */
