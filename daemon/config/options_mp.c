// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_mp.c - multipath directives (multipath, mp-path, mp-backup, mp-cap,
 * mp-scheduler, mp-reorder-ms, mp-path-timeout, mp-class) and their checks.
 */
#include "config/options_mp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "mp/mp.h"
#include "mp/mp_wnames.h"
#include "config/options_check.h"
#include "config/options_int.h"
#include "config/options_parse.h"

int opt_multipath(struct ctx *c, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "on") || !strcmp(argv[1], "yes")) {
		c->o->multipath = 1;
		return 0;
	}
	if (!strcmp(argv[1], "off") || !strcmp(argv[1], "no")) {
		c->o->multipath = 0;
		return 0;
	}
	return opt_fail(c, "expected 'on' or 'off', got '%s'", argv[1]);
}

/*
 * What an mp-path / mp-backup / mp-cap LOCAL names: a numeric address, `auto`
 * (mp-path only) or an interface name (what the kernel accepts: 1..15
 * bytes, no '/', ':' or white space; the interface need not exist yet).
 * Host names are not accepted: a path is a local address or an interface.
 */
static int local_kind(struct ctx *c, const char *what, const char *s, bool auto_ok, int *kind)
{
	struct in6_addr a6;
	struct in_addr a4;
	size_t n = strlen(s);

	if (inet_pton(AF_INET, s, &a4) == 1 || inet_pton(AF_INET6, s, &a6) == 1) {
		*kind = BRAID_MP_LOCAL_ADDR;
		return 0;
	}
	if (!strcmp(s, "auto")) {
		if (!auto_ok)
			return opt_fail(c, "%s 'auto': name an interface or an address (auto paths "
					"take their settings by interface name)", what);
		*kind = BRAID_MP_LOCAL_AUTO;
		return 0;
	}
	if (n == 0 || n >= IF_NAMESIZE || strpbrk(s, "/: \t") || !strcmp(s, ".") || !strcmp(s, ".."))
		return opt_fail(c, "%s '%s' is neither a numeric IPv4 or IPv6 address nor an interface "
				"name (1..%d characters, no '/' or ':')", what, s, IF_NAMESIZE - 1);
	*kind = BRAID_MP_LOCAL_IF;
	return 0;
}

int opt_mp_path(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;
	struct braid_opt_mp_path *p;
	uint16_t port = 0;
	int e, kind;

	if (o->n_mp_paths >= BRAID_OPT_MAX_MP_PATHS)
		return opt_fail(c, "too many paths (max %d)", BRAID_OPT_MAX_MP_PATHS);
	e = local_kind(c, "local address", argv[1], true, &kind);
	if (e)
		return e;
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (!strcmp(o->mp_paths[i].local, argv[1]) &&
		    (argc < 3 ? !o->mp_paths[i].remote
			      : o->mp_paths[i].remote && !strcmp(o->mp_paths[i].remote, argv[2])))
			return opt_fail(c, "path %s%s%s is given twice", argv[1], argc >= 3 ? " -> " : "",
					argc >= 3 ? argv[2] : "");
	if (argc >= 4) {
		e = opt_parse_port(c, argv[3], &port);
		if (e)
			return e;
	}
	p = &o->mp_paths[o->n_mp_paths];
	memset(p, 0, sizeof(*p));
	p->local = strdup(argv[1]);
	p->remote = argc >= 3 ? strdup(argv[2]) : NULL;
	if (!p->local || (argc >= 3 && !p->remote)) {
		free(p->local);
		free(p->remote);
		return opt_fail(c, "out of memory");
	}
	p->port = port;
	p->kind = kind;
	o->n_mp_paths++;
	return 0;
}

static int mp_attr(struct ctx *c, const char *local, bool backup, uint64_t cap)
{
	struct braid_options *o = c->o;
	struct braid_opt_mp_attr *a;
	int kind, e = local_kind(c, "local address", local, false, &kind);

	(void)kind;
	if (e)
		return e;
	if (o->n_mp_attrs >= sizeof(o->mp_attrs) / sizeof(o->mp_attrs[0]))
		return opt_fail(c, "too many mp-backup/mp-cap lines (max %zu)",
				sizeof(o->mp_attrs) / sizeof(o->mp_attrs[0]));
	a = &o->mp_attrs[o->n_mp_attrs];
	memset(a, 0, sizeof(*a));
	a->local = strdup(local);
	a->file = c->loc && c->loc->file ? strdup(c->loc->file) : NULL;
	if (!a->local || (c->loc && c->loc->file && !a->file)) {
		free(a->local);
		free(a->file);
		return opt_fail(c, "out of memory");
	}
	a->line = c->loc ? c->loc->line : 0;
	a->backup = backup;
	a->cap_bps = cap;
	o->n_mp_attrs++;
	return 0;
}

int opt_mp_backup(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	return mp_attr(c, argv[1], true, 0);
}

int opt_mp_cap(struct ctx *c, int argc, char **argv)
{
	char *end;
	double v;

	(void)argc;
	errno = 0;
	v = strtod(argv[2], &end);
	if (!argv[2][0] || *end || errno || !(v > 0.0) || v > 100000.0)
		return opt_fail(c, "cap '%s' is not a rate in Mbit/s (0 < MBIT <= 100000)", argv[2]);
	return mp_attr(c, argv[1], false, (uint64_t)(v * 1e6));
}

/* mp-auto-include / mp-auto-exclude GLOB...: interface name patterns (fnmatch) for `mp-path auto`. */
int opt_mp_auto_pat(struct ctx *c, int argc, char **argv)
{
	bool incl = !strcmp(argv[0], "mp-auto-include");
	char **v = incl ? c->o->mp_auto_incl : c->o->mp_auto_excl;
	unsigned int *n = incl ? &c->o->n_mp_auto_incl : &c->o->n_mp_auto_excl;

	for (int i = 1; i < argc; i++) {
		if (*n >= BRAID_OPT_MAX_MP_AUTO_PAT)
			return opt_fail(c, "too many patterns (max %d)", BRAID_OPT_MAX_MP_AUTO_PAT);
		if (!argv[i][0] || strlen(argv[i]) >= 64)
			return opt_fail(c, "pattern '%s' is not an interface name pattern", argv[i]);
		v[*n] = strdup(argv[i]);
		if (!v[*n])
			return opt_fail(c, "out of memory");
		(*n)++;
	}
	return 0;
}

int opt_mp_scheduler(struct ctx *c, int argc, char **argv)
{
	char buf[BRAID_OPT_MP_SCHED_LEN];
	struct braid_mp_wnames wn;
	enum braid_mp_sched s;
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	unsigned int n = 0, sum = 0;
	size_t at = 0;

	/* "ratio 3:1" (by slot) or "ratio wlan0=3 lte0=1" (by path name): one string */
	for (int i = 1; i < argc; i++) {
		int k = snprintf(buf + at, sizeof(buf) - at, "%s%s", i > 1 ? " " : "", argv[i]);

		if (k < 0 || (size_t)k >= sizeof(buf) - at)
			return opt_fail(c, "'%s...' is too long (max %d bytes)", argv[1],
					BRAID_OPT_MP_SCHED_LEN - 1);
		at += (size_t)k;
	}
	if (argc >= 3 && strcmp(argv[1], "ratio"))
		return opt_fail(c, "scheduler '%s' takes no weights, got '%s'", argv[1], argv[2]);
	if (argc >= 3 && strchr(argv[2], '=')) {
		if (braid_mp_wnames_parse(buf, &wn) != 1)
			return opt_fail(c, "'ratio' by name needs NAME=WEIGHT pairs like wlan0=3 lte0=1 "
					"(distinct names, weights 0..%u, one above 0, max %d), got '%s'",
					BRAID_MP_WEIGHT_MAX, BRAID_MP_MAX_PATHS, buf + 6);
		strcpy(c->o->mp_sched, buf);
		return 0;
	}
	if (argc > 3)
		return opt_fail(c, "unexpected argument '%s'", argv[3]);
	if (braid_mp_sched_parse(buf, &s, ratio, &n)) {
		if (!strcmp(argv[1], "ratio"))
			return opt_fail(c, "'ratio' needs weights like 3:1 (one per path, max %d) or "
					"NAME=WEIGHT pairs, got '%s'",
					BRAID_MP_MAX_PATHS, argc >= 3 ? argv[2] : "");
		return opt_fail(c,
				"unknown scheduler '%s' (expected edf, rtt, ratio A:B..., mpip, lowest-rtt, "
				"backup or redundant)",
				buf);
	}
	for (unsigned int i = 0; i < n; i++)
		sum += ratio[i];
	if (s == BRAID_MP_SCHED_RATIO && !sum)
		return opt_fail(c, "ratio '%s' has no non-zero weight", argv[2]);
	strcpy(c->o->mp_sched, buf);
	return 0;
}

int opt_mp_reorder_ms(struct ctx *c, int argc, char **argv)
{
	int v, e;

	(void)argc;
	e = opt_parse_int(c, "milliseconds", argv[1], 1, 2000, &v);
	if (!e)
		c->o->mp_reorder_ms = (uint32_t)v;
	return e;
}

int opt_mp_path_timeout(struct ctx *c, int argc, char **argv)
{
	int v, e;

	(void)argc;
	e = opt_parse_int(c, "seconds", argv[1], 1, 86400, &v);
	if (!e)
		c->o->mp_path_timeout = (uint32_t)v;
	return e;
}

int opt_mp_class(struct ctx *c, int argc, char **argv)
{
	struct braid_mpclass_rule r;
	char msg[256];

	if (braid_mpclass_parse(&r, argc - 1, argv + 1, msg, sizeof(msg)))
		return opt_fail(c, "%s", msg);
	if (braid_mpclass_add(&c->o->mp_classes, &r))
		return opt_fail(c, "too many rules (max %d)", BRAID_MPCLASS_MAX_RULES);
	return 0;
}

bool opt_mp_has_remote(const struct braid_options *o)
{
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (o->mp_paths[i].remote)
			return true;
	return false;
}

bool opt_mp_has_auto(const struct braid_options *o)
{
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (o->mp_paths[i].kind == BRAID_MP_LOCAL_AUTO)
			return true;
	return false;
}

int opt_finalize_mp(struct braid_options *o, char *err, size_t err_len)
{
	unsigned int n_auto = 0;

	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		n_auto += o->mp_paths[i].kind == BRAID_MP_LOCAL_AUTO;
	if (n_auto > 1)
		return opt_ffail(err, err_len, "option 'mp-path auto' given %u times: one is enough "
				 "(it finds every interface)", n_auto);
	if ((o->n_mp_auto_incl || o->n_mp_auto_excl) && !n_auto)
		return opt_ffail(err, err_len, "option 'mp-auto-%s' needs 'mp-path auto'",
				 o->n_mp_auto_incl ? "include" : "exclude");
	if (o->multipath < 0)
		o->multipath = o->n_mp_paths > 0;
	for (unsigned int i = 0; i < o->n_mp_attrs; i++) {
		const struct braid_opt_mp_attr *a = &o->mp_attrs[i];
		bool found = false;

		for (unsigned int k = 0; k < o->n_mp_paths; k++) {
			if (strcmp(o->mp_paths[k].local, a->local))
				continue;
			found = true;
			if (a->backup)
				o->mp_paths[k].backup = true;
			if (a->cap_bps)
				o->mp_paths[k].cap_bps = a->cap_bps;
		}
		if (!found && opt_mp_has_auto(o))
			continue;	/* an interface `mp-path auto` may find: applied by name then */
		if (!found) {
			char where[300] = "";

			if (a->file)
				snprintf(where, sizeof(where), "%s:%d: ", a->file, a->line);
			return opt_ffail(err, err_len,
					 "%soption '%s': no 'mp-path %s' names this local address", where,
					 a->backup ? "mp-backup" : "mp-cap", a->local);
		}
	}
	if (!o->multipath) {
		if (o->n_mp_paths)
			return opt_ffail(err, err_len,
					 "option 'mp-path' given with 'multipath off': remove one of them");
		return 0;
	}
	if (o->nobind && !o->n_mp_paths)
		return opt_ffail(err, err_len, "option 'multipath': 'nobind' needs 'mp-path' lines");
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (!o->mp_paths[i].remote && o->n_remotes == 0 && o->nobind)
			return opt_ffail(err, err_len,
					 "option 'mp-path %s': no remote on the line and no 'remote': with "
					 "'nobind' the peer could never reach this path",
					 o->mp_paths[i].local);
	if (o->float_ok)
		braid_warn("option 'float' has no effect with multipath (authenticated paths are "
			   "learned and validated)");
	if (!o->replay_window)
		o->replay_window = 65536;	/* the reorder depth of several paths at full rate */
	return 0;
}

int opt_finalize_mp_tls(struct braid_options *o, char *err, size_t err_len)
{
	bool server = o->mode == BRAID_MODE_SERVER;
	int r;

	if (server && o->n_mp_paths)
		return opt_ffail(err, err_len,
				 "option 'mp-path': not used by a gateway (it learns its clients' paths); "
				 "'multipath on' offers multipath to Braid clients");
	for (unsigned int i = 0; i < o->n_mp_paths; i++)
		if (o->mp_paths[i].remote)
			return opt_ffail(err, err_len,
					 "option 'mp-path %s %s': a TLS client's paths go to the server it "
					 "connected to: give only the local address",
					 o->mp_paths[i].local, o->mp_paths[i].remote);
	if (server) {
		if (o->multipath < 0)
			o->multipath = 0;
		if (o->multipath && o->proto != BRAID_PROTO_UDP)
			return opt_ffail(err, err_len,
					 "option 'multipath': a gateway offers multipath over UDP only");
		return 0;
	}
	/* negotiated unless `multipath off`: used only when the server pushes braid-mp */
	o->mp_refuse = o->multipath == 0;
	if (o->mp_refuse && o->n_mp_paths)
		return opt_ffail(err, err_len,
				 "option 'mp-path' given with 'multipath off': remove one of them");
	if (o->multipath < 0)
		o->multipath = o->n_mp_paths > 0;
	if (!o->multipath)
		return 0;
	/* mp-backup / mp-cap folding and their checks, as in static-key mode */
	{
		bool nobind = o->nobind;
		uint32_t rw = o->replay_window;

		o->nobind = false;	/* the client's sockets never need a fixed port */
		r = opt_finalize_mp(o, err, err_len);
		o->nobind = nobind;
		o->replay_window = rw;	/* the gateway's braid-mp push sets it when negotiated */
	}
	return r;
}

int braid_options_mp_path_line(int argc, char **argv, struct braid_opt_mp_path *out, char *err,
			       size_t errlen)
{
	struct braid_options *o;
	struct ctx c = { .name = "mp-path", .err = err, .err_len = errlen };
	int r;

	memset(out, 0, sizeof(*out));
	if (argc < 2 || argc > 4) {
		snprintf(err, errlen, "mp-path takes LOCAL [REMOTE [PORT]]");
		return -EINVAL;
	}
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	c.o = o;
	r = opt_mp_path(&c, argc, argv);
	if (!r)
		*out = o->mp_paths[0];	/* its strings move to out */
	free(o);
	return r;
}
