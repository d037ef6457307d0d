// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_remote.c - remote-entry-count, remote-entry-get, remote and
 * client-pending-auth (see mgmt_remote.h). The texts are stock 2.6.14's,
 * captured from /usr/sbin/openvpn (tests/daemon/mgmt_client.script and
 * mgmt_gateway*.script compare them): a role without the callback, or a
 * client before its first connection attempt, gets stock's "not supported
 * by the current daemon mode".
 */
#include "control/mgmt_remote.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "control/mgmt_conn.h"

#define NOT_MODE "ERROR: The '%s' command is not supported by the current daemon mode"
#define ENTRY_MAX 512

static void need(struct mgmt_conn *k, const char *cmd, int n, bool at_least)
{
	mgmt_reject(k->m, BRAID_MGMT_REJ_ARGS, "a command without its parameters");
	mgmt_printf(k, "ERROR: the '%s' command requires %s%d parameter%s", cmd,
		    at_least ? "at least " : "", n, n == 1 ? "" : "s");
}

/* stock reads the indexes with atoi(): a non-number is 0 */
static long atoi_like(const char *s)
{
	long v = strtol(s, NULL, 10);

	return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : v;
}

static bool served(struct mgmt_conn *k, const char *cmd, unsigned *count)
{
	struct braid_mgmt *m = k->m;
	char e[ENTRY_MAX];
	unsigned n = 0;
	int r;

	if (!m->ops.remote_entry) {
		mgmt_printf(k, NOT_MODE, cmd);
		return false;
	}
	while ((r = m->ops.remote_entry(m->ops.user, n, e, sizeof(e))) == 0)
		n++;
	if (r != -ENOENT) {	/* -EAGAIN: not yet (as stock before the first attempt) */
		mgmt_printf(k, NOT_MODE, cmd);
		return false;
	}
	*count = n;
	return true;
}

static void remote_entry_count(struct mgmt_conn *k)
{
	unsigned n;

	if (!served(k, "remote-entry-count", &n))
		return;
	mgmt_printf(k, "%u", n);
	mgmt_printf(k, "END");
}

static void remote_entry_get(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	char e[ENTRY_MAX];
	unsigned n;
	long from, to;

	if (a->argc < 2) {
		need(k, a->argv[0], 1, true);
		return;
	}
	if (!served(k, "remote-entry-get", &n))
		return;
	if (!strcmp(a->argv[1], "all")) {
		from = 0;
		to = n;
	} else {
		from = atoi_like(a->argv[1]);
		to = a->argc > 2 ? atoi_like(a->argv[2]) : from + 1;
	}
	if (to > (long)n)
		to = n;
	for (long i = from < 0 ? to : from; i < to; i++)
		if (!m->ops.remote_entry(m->ops.user, (unsigned)i, e, sizeof(e)))
			mgmt_printf(k, "%ld,%s", i, e);
	mgmt_printf(k, "END");
}

/* remote ACCEPT | SKIP | MOD host port: the answer to the open >REMOTE query */
static void remote(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	enum braid_mgmt_remote what;
	unsigned n;

	if (a->argc < 2) {
		need(k, a->argv[0], 1, true);
		return;
	}
	if (!m->ops.remote) {
		mgmt_printf(k, NOT_MODE, "remote");
		return;
	}
	if (!served(k, "remote", &n))
		return;
	if (!strcmp(a->argv[1], "ACCEPT")) {
		what = BRAID_MGMT_REMOTE_ACCEPT;
	} else if (!strcmp(a->argv[1], "SKIP")) {
		what = BRAID_MGMT_REMOTE_SKIP;
	} else if (!strcmp(a->argv[1], "MOD") && a->argc > 3 && a->argv[2][0] &&
		   strlen(a->argv[2]) < 256 && a->argv[3][0] && strlen(a->argv[3]) < 8) {
		what = BRAID_MGMT_REMOTE_MOD;
	} else {
		mgmt_reject(m, BRAID_MGMT_REJ_ARGS, "bad remote parameters");
		mgmt_printf(k, "ERROR: remote command failed");
		return;
	}
	if (!m->remote_wanted) {
		mgmt_printf(k, "ERROR: remote command failed");
		return;
	}
	m->remote_wanted = false;
	mgmt_defer(m, true);	/* the next >REMOTE (SKIP) comes after the reply, as stock */
	mgmt_printf(k, "SUCCESS: remote command succeeded");
	m->ops.remote(m->ops.user, what, what == BRAID_MGMT_REMOTE_MOD ? a->argv[2] : NULL,
		      what == BRAID_MGMT_REMOTE_MOD ? a->argv[3] : NULL);
	mgmt_defer(m, false);
}

static bool parse_u(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s[0] || s[0] == '-' || s[0] == '+')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && !*end && *v <= max;
}

/* client-pending-auth CID KID EXTRA TIMEOUT */
static void pending_auth(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	unsigned long cid, kid, timeout;

	if (a->argc < 5) {
		need(k, a->argv[0], 4, false);
		return;
	}
	if (!parse_u(a->argv[1], ULONG_MAX, &cid) || !parse_u(a->argv[2], UINT_MAX, &kid) ||
	    !parse_u(a->argv[4], UINT_MAX, &timeout)) {
		/* stock's parse_cid / parse_uint complain and answer nothing else */
		mgmt_reject(m, BRAID_MGMT_REJ_ARGS, "bad client-pending-auth numbers");
		mgmt_printf(k, "ERROR: cannot parse CID, KID or TIMEOUT");
		return;
	}
	if (!m->ops.gateway || !m->ops.pending_auth) {
		mgmt_printf(k, "ERROR: The client-pending-auth command is not supported by the "
			    "current daemon mode");
		return;
	}
	if (m->ops.pending_auth(m->ops.user, cid, (unsigned)kid, a->argv[3], (unsigned)timeout))
		mgmt_printf(k, "ERROR: client-pending-auth command failed. Extra parameter might "
			    "be too long");
	else
		mgmt_printf(k, "SUCCESS: client-pending-auth command succeeded");
}

bool mgmt_remote_cmd(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	const char *c = a->argv[0];

	if (!strcmp(c, "remote-entry-count"))
		remote_entry_count(k);
	else if (!strcmp(c, "remote-entry-get"))
		remote_entry_get(k, a);
	else if (!strcmp(c, "remote"))
		remote(k, a);
	else if (!strcmp(c, "client-pending-auth"))
		pending_auth(k, a);
	else
		return false;
	return true;
}
