// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_braid.c - the `braid ...` commands of the management interface and
 * the >BRAID-PATH: events (see mgmt_braid.h; the objects are formatted by
 * mgmt_braid_json.c). The values come from the data plane's per-path table
 * (braid_dp_paths), the changes go through the data-plane seam
 * (dataplane/backend.h). Every ERROR reply is counted as a rejection.
 *
 * Events: while a connection has `braid paths on N`, a timer polls the
 * paths every MGMT_BRAID_POLL_S: a state (or backup flag) that differs from
 * the one last sent goes out at once to every such connection (so a path the detector
 * declares failed is reported within that poll), a path gone goes out once
 * as "removed", and each connection gets every path every N seconds.
 */
#include "control/mgmt_braid.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/options.h"
#include "control/mgmt_braid_view.h"
#include "control/mgmt_conn.h"
#include "dataplane/backend.h"
#include "dataplane/path_match.h"
#include "mp/mp.h"
#include "mp/mp_wnames.h"
#include "util/log.h"

#define MGMT_BRAID_POLL_S 0.1
#define EV_PREFIX ">BRAID-PATH:"
#define SEEN_MAX 65536			/* paths followed for events at most */

/* ---- replies ---- */

static void fail(struct mgmt_conn *k, enum braid_mgmt_rej why, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct mgmt_conn *k, enum braid_mgmt_rej why, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (char *p = msg; *p; p++)	/* names from the data plane or a config parser: one clean line */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	mgmt_reject(k->m, why, "braid command refused: %s", msg);
	mgmt_printf(k, "ERROR: %s", msg);
}

static void send_path(struct mgmt_conn *k, const struct mgmt_bpath *p, bool text, bool event)
{
	char line[BRAID_MGMT_BRAID_LINE_MAX - 2 - sizeof(EV_PREFIX)];

	if (text)
		mgmt_bpath_text(line, sizeof(line), p);
	else
		mgmt_bpath_json(line, sizeof(line), p);
	mgmt_printf(k, "%s%s", event ? EV_PREFIX : "", line);
}

static void cmd_paths_list(struct mgmt_conn *k, long cid, bool text)
{
	struct mgmt_bview v;

	if (mgmt_bview_collect(k->m, cid, &v)) {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid paths: out of memory");
		return;
	}
	if (cid >= 0) {
		bool found = false;

		for (int i = 0; i < v.nc; i++)
			found |= v.c[i].cid == (unsigned long)cid;
		if (!found) {
			mgmt_bview_free(&v);
			fail(k, BRAID_MGMT_REJ_ARGS, "no client %ld", cid);
			return;
		}
	}
	if (text)
		mgmt_printf(k, "%s", mgmt_bpath_text_header(k->m->ops.braid_clients != NULL));
	for (int i = 0; i < v.n; i++)
		send_path(k, &v.p[i], text, false);
	mgmt_printf(k, "END");
	mgmt_bview_free(&v);
}

static bool parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s[0] || s[0] < '0' || s[0] > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > max)
		return false;
	*v = x;
	return true;
}

/* ---- events ---- */

static void poll_cb(struct ev_loop *loop, ev_timer *w, int revents);

static bool events_wanted(const struct braid_mgmt *m)
{
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++)
		if (m->conn[i] && m->conn[i]->authed && !m->conn[i]->closing &&
		    m->conn[i]->braid_ev_s)
			return true;
	return false;
}

void mgmt_braid_detach(struct braid_mgmt *m)
{
	if (m->loop)
		ev_timer_stop(m->loop, &m->braid_t);
}

void mgmt_braid_attach(struct braid_mgmt *m)
{
	if (!m->loop)
		return;
	ev_timer_stop(m->loop, &m->braid_t);
	if (!events_wanted(m))
		return;
	ev_timer_init(&m->braid_t, poll_cb, MGMT_BRAID_POLL_S, MGMT_BRAID_POLL_S);
	m->braid_t.data = m;
	ev_timer_start(m->loop, &m->braid_t);
}

void mgmt_braid_free(struct braid_mgmt *m)
{
	mgmt_braid_detach(m);
	free(m->braid_seen);
	m->braid_seen = NULL;
	m->n_braid_seen = m->cap_braid_seen = 0;
}

static void to_listeners(struct braid_mgmt *m, const struct mgmt_bpath *p)
{
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++) {
		struct mgmt_conn *k = m->conn[i];

		if (k && k->authed && !k->closing && k->braid_ev_s)
			send_path(k, p, false, true);
	}
}

/* The entry of (cid, id); *hint: where to look first (the view comes in the same order each poll). */
static struct mgmt_braid_seen *seen_find(struct braid_mgmt *m, long cid, int id, size_t *hint)
{
	size_t n = m->n_braid_seen;

	for (size_t k = 0; k < n; k++) {
		size_t i = (*hint + k) % n;

		if (m->braid_seen[i].cid == cid && m->braid_seen[i].id == id) {
			*hint = i + 1;
			return &m->braid_seen[i];
		}
	}
	return NULL;
}

static struct mgmt_braid_seen *seen_add(struct braid_mgmt *m, const struct mgmt_bpath *p)
{
	struct mgmt_braid_seen *s;

	if (m->n_braid_seen == m->cap_braid_seen) {
		size_t nc = m->cap_braid_seen ? m->cap_braid_seen * 2 : 16;

		if (nc > SEEN_MAX)
			return NULL;
		s = realloc(m->braid_seen, nc * sizeof(*s));
		if (!s)
			return NULL;
		m->braid_seen = s;
		m->cap_braid_seen = nc;
	}
	s = &m->braid_seen[m->n_braid_seen++];
	s->cid = p->cid;
	s->id = p->id;
	s->state = NULL;
	return s;
}

/* Compare with what was sent: changes out at once (announce), the states kept. */
static void track(struct braid_mgmt *m, const struct mgmt_bview *v, bool announce)
{
	size_t j = 0, hint = 0;

	for (size_t i = 0; i < m->n_braid_seen; i++)
		m->braid_seen[i].mark = false;
	for (int i = 0; i < v->n; i++) {
		const struct mgmt_bpath *p = &v->p[i];
		struct mgmt_braid_seen *s = seen_find(m, p->cid, p->id, &hint);

		if (!s)
			s = seen_add(m, p);
		if (!s)
			continue;
		/* a path re-learned under the same id on another address is a new path */
		if (s->state && (strcmp(s->last.local, p->local) || strcmp(s->last.remote, p->remote))) {
			if (announce) {
				struct mgmt_bpath gone = s->last;

				gone.state = "removed";
				to_listeners(m, &gone);
			}
			s->state = NULL;
		}
		if (announce && (!s->state || strcmp(s->state, p->state) || s->last.backup != p->backup))
			to_listeners(m, p);
		s->state = p->state;
		s->last = *p;
		s->mark = true;
	}
	for (size_t i = 0; i < m->n_braid_seen; i++) {
		struct mgmt_braid_seen *s = &m->braid_seen[i];

		if (!s->mark) {
			if (announce && s->state) {
				struct mgmt_bpath gone = s->last;

				gone.state = "removed";
				to_listeners(m, &gone);
			}
			continue;
		}
		m->braid_seen[j++] = *s;
	}
	m->n_braid_seen = j;
}

static void poll_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_mgmt *m = w->data;
	ev_tstamp now = ev_now(loop);
	struct mgmt_bview v;

	(void)revents;
	if (!events_wanted(m)) {
		ev_timer_stop(loop, w);
		m->n_braid_seen = 0;
		return;
	}
	if (mgmt_bview_collect(m, -1, &v))
		return;
	track(m, &v, true);
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++) {
		struct mgmt_conn *k = m->conn[i];

		if (!k || !k->authed || k->closing || !k->braid_ev_s || now < k->braid_next)
			continue;
		for (int j = 0; j < v.n; j++)
			send_path(k, &v.p[j], false, true);
		k->braid_next = now + k->braid_ev_s;
	}
	mgmt_bview_free(&v);
}

static void cmd_events(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	uint64_t n = 5;

	if (!strcmp(a->argv[2], "off")) {
		k->braid_ev_s = 0;
		mgmt_printf(k, "SUCCESS: braid path events off");
		return;
	}
	if (a->argc > 4 || (a->argc == 4 && !parse_u64(a->argv[3], 86400, &n)) || !n) {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid paths on N: N is 1..86400 seconds");
		return;
	}
	if (!events_wanted(m) && m->loop) {
		/* first listener: take the states now, so only later changes count as changes */
		struct mgmt_bview v;

		m->n_braid_seen = 0;
		if (!mgmt_bview_collect(m, -1, &v)) {
			track(m, &v, false);
			mgmt_bview_free(&v);
		}
	}
	k->braid_ev_s = (unsigned)n;
	k->braid_next = m->loop ? ev_now(m->loop) : 0;	/* the first round at the next poll */
	mgmt_printf(k, "SUCCESS: braid path events on");
	mgmt_braid_attach(m);
}

/* ---- changes ---- */

/* The data path a change goes to: the role's own, or (gateway) client cid's. */
static struct braid_dp *target(struct mgmt_conn *k, long cid, const char *cmd)
{
	struct braid_mgmt *m = k->m;
	struct braid_dp *dp = NULL;

	if (cid < 0) {
		if (!m->ops.braid_dp) {
			fail(k, BRAID_MGMT_REJ_ARGS, "braid %s: a gateway names the client: "
			     "braid client-%s CID ...", cmd, cmd);
			return NULL;
		}
		dp = m->ops.braid_dp(m->ops.user);
		if (!dp)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid %s: not in multipath mode", cmd);
		return dp;
	}
	if (m->ops.braid_clients) {
		struct mgmt_bview v = { 0 };
		bool found = false;

		if (mgmt_bview_clients(m, &v)) {
			mgmt_bview_free(&v);
			fail(k, BRAID_MGMT_REJ_ARGS, "braid %s: out of memory", cmd);
			return NULL;
		}
		for (int i = 0; i < v.nc; i++)
			if (v.c[i].cid == (unsigned long)cid) {
				found = true;
				dp = v.c[i].dp;
			}
		mgmt_bview_free(&v);
		if (!found)
			fail(k, BRAID_MGMT_REJ_ARGS, "no client %ld", cid);
		else if (!dp)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid %s: client %ld is a single-path client",
			     cmd, cid);
		return dp;
	}
	fail(k, BRAID_MGMT_REJ_ARGS, "braid client-%s: not a gateway", cmd);
	return NULL;
}

/* Does IF name path p: its interface or local address (path_match.h), its label pathN, or its id. */
static bool names(const char *ifn, const struct braid_mpath_path_info *p)
{
	char label[16];

	if (braid_path_named(ifn, p))
		return true;
	snprintf(label, sizeof(label), "path%d", p->index);
	if (!strcmp(ifn, label))
		return true;
	return ifn[0] && strspn(ifn, "0123456789") == strlen(ifn) && strlen(ifn) <= 3 &&
	       atoi(ifn) == p->index;
}

/* The name a by-name ratio weight binds to: the path's interface, else its engine number. */
static const char *pi_name(const struct braid_mpath_path_info *p, char *num, size_t len)
{
	if (p->dev[0])
		return p->dev;
	snprintf(num, len, "%d", p->index);
	return num;
}

/* weight W of path p: the scheduler's ratio list with p's slot set to w (positional form), or
 * the path's name's weight (by-name form). */
static int set_weight(struct mgmt_conn *k, struct braid_dp *dp,
		      const struct braid_mpath_path_info *p, uint64_t w)
{
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	unsigned n;
	int slot = mgmt_bview_slot(p), r;
	char spec[BRAID_MP_MAX_PATHS * 8 + 8];
	size_t len;

	if (mgmt_bview_named(dp, NULL)) {
		/* ratio by name (mp-scheduler ratio wlan0=3 ...): the weight follows the path's name
		 * (its interface) for the paths to come; a path without a name by its number */
		char num[16];
		const char *name = pi_name(p, num, sizeof(num));

		r = braid_dp_set_weight(dp, name, (uint32_t)w);
		if (r)
			fail(k, BRAID_MGMT_REJ_ARGS, "the engine refused weight %llu for '%s': %s",
			     (unsigned long long)w, name, strerror(-r));
		return r;
	}
	mgmt_bview_weights(dp, ratio, &n);
	if (!n) {
		fail(k, BRAID_MGMT_REJ_ARGS, "the scheduler is '%s': a weight needs 'ratio' "
		     "(braid scheduler ratio W0:W1...)", braid_dp_sched_name(dp));
		return -EINVAL;
	}
	if (slot < 0 || slot >= BRAID_MP_MAX_PATHS) {
		fail(k, BRAID_MGMT_REJ_ARGS, "path %d has no ratio slot yet", p->index);
		return -EINVAL;
	}
	for (unsigned i = n; i <= (unsigned)slot; i++)
		ratio[i] = 1;
	if ((unsigned)slot >= n)
		n = (unsigned)slot + 1;
	ratio[slot] = (uint32_t)w;
	len = (size_t)snprintf(spec, sizeof(spec), "ratio ");
	for (unsigned i = 0; i < n && len < sizeof(spec); i++)
		len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%s%u", i ? ":" : "", ratio[i]);
	r = braid_dp_set_sched(dp, spec);
	if (r)
		fail(k, BRAID_MGMT_REJ_ARGS, "the engine refused '%s': %s", spec, strerror(-r));
	return r;
}

enum pop { P_BACKUP, P_ACTIVE, P_DISABLE, P_ENABLE, P_CAP, P_WEIGHT };

/* braid [client-]path [CID] IF OP [ARG] (w: the index of IF in argv) */
static void cmd_path(struct mgmt_conn *k, const struct braid_mgmt_argv *a, long cid, int w)
{
	struct braid_mpath_path_info pi[BRAID_MP_MAX_PATHS];
	const char *ifn = a->argv[w], *op = a->argv[w + 1], *arg = a->argv[w + 2];
	struct braid_dp *dp;
	enum pop o;
	uint64_t v = 0;
	int n, hits = 0, r = 0;

	if (!strcmp(op, "backup") && arg && (!strcmp(arg, "on") || !strcmp(arg, "off")))
		o = arg[1] == 'n' ? P_BACKUP : P_ACTIVE;
	else if (!strcmp(op, "disable") && !arg)
		o = P_DISABLE;
	else if (!strcmp(op, "enable") && !arg)
		o = P_ENABLE;
	else if (!strcmp(op, "cap") && arg && parse_u64(arg, 1000000000000ull, &v))
		o = P_CAP;
	else if (!strcmp(op, "weight") && arg && parse_u64(arg, 1000000, &v))
		o = P_WEIGHT;
	else {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid path IF backup on|off | disable | enable | "
		     "cap BPS (0..10^12) | weight W (0..1000000)");
		return;
	}
	if (a->argc > w + 2 + (arg ? 1 : 0)) {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid path: too many parameters");
		return;
	}
	dp = target(k, cid, "path");
	if (!dp)
		return;
	n = braid_dp_paths(dp, pi, BRAID_MP_MAX_PATHS);
	for (int i = 0; i < n && !r; i++) {
		unsigned flags = pi[i].mp.flags;
		uint64_t capv = pi[i].mp.cap_bps;

		if (!names(ifn, &pi[i]))
			continue;
		hits++;
		switch (o) {
		case P_BACKUP: flags |= BRAID_MP_PATH_F_BACKUP; break;
		case P_ACTIVE: flags &= ~BRAID_MP_PATH_F_BACKUP; break;
		case P_CAP: capv = v; break;
		default: break;
		}
		if (o == P_DISABLE || o == P_ENABLE) {
			r = braid_dp_path_enable(dp, pi[i].index, o == P_ENABLE);
		} else if (o == P_WEIGHT) {
			if (set_weight(k, dp, &pi[i], v))
				return;
		} else {
			r = braid_dp_path_set(dp, pi[i].index, flags, capv);
		}
		if (r) {
			fail(k, BRAID_MGMT_REJ_ARGS, "braid path %s: path %d refused the change: %s",
			     ifn, pi[i].index, r == -EOPNOTSUPP ? "not supported by this data path" :
			     strerror(-r));
			return;
		}
	}
	if (!hits) {
		fail(k, BRAID_MGMT_REJ_ARGS, "no path %s", ifn);
		return;
	}
	braid_info("MANAGEMENT: braid path %s %s%s%s (%d path%s)", ifn, op, arg ? " " : "",
		   arg ? arg : "", hits, hits == 1 ? "" : "s");
	mgmt_printf(k, "SUCCESS: braid path %s updated", ifn);
}

/* braid [client-]scheduler [CID] NAME... (w: the index of NAME) */
static void cmd_sched(struct mgmt_conn *k, const struct braid_mgmt_argv *a, long cid, int w)
{
	char spec[BRAID_MGMT_LINE_MAX];
	enum braid_mp_sched s;
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	struct braid_mp_wnames wn;
	unsigned nr;
	size_t len = 0;
	struct braid_dp *dp;
	int r;

	spec[0] = '\0';
	for (int i = w; i < a->argc && len < sizeof(spec); i++)
		len += (size_t)snprintf(spec + len, sizeof(spec) - len, "%s%s", i > w ? " " : "",
					a->argv[i]);
	if (len >= sizeof(spec) ||
	    (braid_mp_sched_parse(spec, &s, ratio, &nr) && braid_mp_wnames_parse(spec, &wn) != 1)) {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid scheduler: '%.64s' is not a scheduler (edf, rtt, "
		     "ratio W0:W1... or ratio IF=W ..., mpip, lowest-rtt, backup, redundant)", spec);
		return;
	}
	dp = target(k, cid, "scheduler");
	if (!dp)
		return;
	r = braid_dp_set_sched(dp, spec);
	if (r) {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid scheduler: '%s' refused by the engine: %s", spec,
		     strerror(-r));
		return;
	}
	braid_info("MANAGEMENT: braid scheduler set to %s", spec);
	mgmt_printf(k, "SUCCESS: braid scheduler set to %s", spec);
}

/* braid path-add LOCAL [REMOTE [PORT]] / braid path-remove LOCAL */
static void cmd_path_add_remove(struct mgmt_conn *k, const struct braid_mgmt_argv *a, bool add)
{
	char err[512];
	struct braid_dp *dp;
	int r;

	if (a->argc < 3 || a->argc > (add ? 5 : 3)) {
		fail(k, BRAID_MGMT_REJ_ARGS, add ? "braid path-add LOCAL [REMOTE [PORT]] (as mp-path)"
						 : "braid path-remove LOCAL");
		return;
	}
	dp = target(k, -1, add ? "path-add" : "path-remove");
	if (!dp)
		return;
	err[0] = '\0';
	if (add) {
		struct braid_opt_mp_path p;
		char *argv[4] = { "mp-path", a->argv[2], a->argc > 3 ? a->argv[3] : NULL,
				  a->argc > 4 ? a->argv[4] : NULL };

		r = braid_options_mp_path_line(a->argc - 1, argv, &p, err, sizeof(err));
		if (!r) {
			r = braid_dp_path_cfg_add(dp, &p, err, sizeof(err));
			free(p.local);
			free(p.remote);
		}
	} else {
		r = braid_dp_path_cfg_remove(dp, a->argv[2], err, sizeof(err));
	}
	if (r) {
		if (!err[0])
			snprintf(err, sizeof(err), "%s", r == -EOPNOTSUPP ?
				 "not supported by this data path" : strerror(-r));
		fail(k, BRAID_MGMT_REJ_ARGS, "braid %s %s: %s", a->argv[1], a->argv[2], err);
		return;
	}
	braid_info("MANAGEMENT: braid %s %s", a->argv[1], a->argv[2]);
	mgmt_printf(k, "SUCCESS: braid %s %s done", a->argv[1], a->argv[2]);
}

static void cmd_clients(struct mgmt_conn *k)
{
	struct braid_mgmt *m = k->m;
	struct mgmt_bview v = { 0 };
	char line[BRAID_MGMT_BRAID_LINE_MAX - 2];

	if (!m->ops.braid_clients) {
		fail(k, BRAID_MGMT_REJ_ARGS, "braid clients: not a gateway");
		return;
	}
	if (mgmt_bview_clients(m, &v)) {
		mgmt_bview_free(&v);
		fail(k, BRAID_MGMT_REJ_ARGS, "braid clients: out of memory");
		return;
	}
	for (int i = 0; i < v.nc; i++) {
		struct braid_mpath_path_info pi[BRAID_MP_MAX_PATHS];
		int n = 1, up = 1;

		if (v.c[i].dp) {
			n = braid_dp_paths(v.c[i].dp, pi, BRAID_MP_MAX_PATHS);
			up = 0;
			for (int j = 0; j < n; j++)
				up += !strcmp(mgmt_bpath_state(&pi[j]), "up");
		}
		mgmt_bclient_json(line, sizeof(line), &v.c[i], n, up);
		mgmt_printf(k, "%s", line);
	}
	mgmt_printf(k, "END");
	mgmt_bview_free(&v);
}

static const char *const braid_help[] = {
	"Braid extensions (docs/management.md):",
	"braid paths [json|text]         : The paths, one JSON object (or text line) each.",
	"braid paths on [N] | off        : >BRAID-PATH: events every N s (5) and on each change.",
	"braid path IF backup on|off     : Use path(s) IF only when no other path is up.",
	"braid path IF disable|enable    : Take path(s) IF out of use / back.",
	"braid path IF cap BPS           : Cap path(s) IF at BPS bit/s (0 = none).",
	"braid path IF weight W          : Path(s) IF's weight in the ratio scheduler.",
	"braid scheduler NAME            : edf, rtt, ratio W0:W1... or IF=W ..., mpip, lowest-rtt, backup, redundant.",
	"braid path-add LOCAL [REMOTE [PORT]] : Add a path as mp-path does.",
	"braid path-remove LOCAL         : Remove the path(s) of an mp-path LOCAL.",
	"braid clients                   : A gateway's clients, one JSON object each.",
	"braid client-paths CID          : A gateway client's paths.",
	"braid client-path CID IF ...    : As braid path, on a gateway client's path(s).",
	"braid client-scheduler CID NAME : As braid scheduler, for a gateway client.",
	"END",
};

static bool parse_cid(struct mgmt_conn *k, const char *s, long *cid)
{
	uint64_t v;

	if (!parse_u64(s, 0x7fffffffffffull, &v)) {
		fail(k, BRAID_MGMT_REJ_ARGS, "no client %.32s", s);
		return false;
	}
	*cid = (long)v;
	return true;
}

void mgmt_braid_cmd(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	const char *c = a->argc > 1 ? a->argv[1] : "help";
	long cid;

	if (!strcmp(c, "help")) {
		for (size_t i = 0; i < sizeof(braid_help) / sizeof(braid_help[0]); i++)
			mgmt_printf(k, "%s", braid_help[i]);
	} else if (!strcmp(c, "paths")) {
		if (a->argc == 2 || (a->argc == 3 && !strcmp(a->argv[2], "json")))
			cmd_paths_list(k, -1, false);
		else if (a->argc == 3 && !strcmp(a->argv[2], "text"))
			cmd_paths_list(k, -1, true);
		else if (!strcmp(a->argv[2], "on") || (!strcmp(a->argv[2], "off") && a->argc == 3))
			cmd_events(k, a);
		else
			fail(k, BRAID_MGMT_REJ_ARGS, "braid paths [json|text] | on [N] | off");
	} else if (!strcmp(c, "path")) {
		if (a->argc < 4)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid path IF backup on|off | disable | enable | "
			     "cap BPS | weight W");
		else
			cmd_path(k, a, -1, 2);
	} else if (!strcmp(c, "client-path")) {
		if (a->argc < 5)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid client-path CID IF OP [ARG]");
		else if (parse_cid(k, a->argv[2], &cid))
			cmd_path(k, a, cid, 3);
	} else if (!strcmp(c, "scheduler")) {
		if (a->argc < 3)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid scheduler NAME");
		else
			cmd_sched(k, a, -1, 2);
	} else if (!strcmp(c, "client-scheduler")) {
		if (a->argc < 4)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid client-scheduler CID NAME");
		else if (parse_cid(k, a->argv[2], &cid))
			cmd_sched(k, a, cid, 3);
	} else if (!strcmp(c, "path-add") || !strcmp(c, "path-remove")) {
		cmd_path_add_remove(k, a, c[5] == 'a');
	} else if (!strcmp(c, "clients")) {
		if (a->argc != 2)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid clients: no parameters");
		else
			cmd_clients(k);
	} else if (!strcmp(c, "client-paths")) {
		if (a->argc != 3)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid client-paths CID");
		else if (!k->m->ops.braid_clients)
			fail(k, BRAID_MGMT_REJ_ARGS, "braid client-paths: not a gateway");
		else if (parse_cid(k, a->argv[2], &cid))
			cmd_paths_list(k, cid, false);
	} else {
		fail(k, BRAID_MGMT_REJ_UNKNOWN, "unknown braid command '%.32s', enter 'braid help'",
		     c);
	}
}
