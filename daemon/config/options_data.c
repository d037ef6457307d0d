// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_data.c - directives of the data channel and keepalive: keepalive, ping,
 * ping-restart, ping-exit, replay-window, peer-id, mssfix, compress, comp-lzo,
 * allow-compression.
 */
#include "config/options_data.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "config/options_int.h"
#include "config/options_parse.h"
#ifdef BRAID_HAVE_BPF
#include "sched_load.h"
#endif

int opt_keepalive(struct ctx *c, int argc, char **argv)
{
	int ping, restart, e;

	(void)argc;
	e = opt_parse_int(c, "ping interval", argv[1], 1, 86400, &ping);
	if (!e)
		e = opt_parse_int(c, "restart timeout", argv[2], 1, 86400 * 7, &restart);
	if (e)
		return e;
	if (restart < 2 * ping)
		return opt_fail(c, "restart timeout %d must be at least twice the ping interval %d",
				restart, ping);
	c->o->ping = ping;
	c->o->ping_restart = restart;
	c->o->keepalive_ping = ping;
	c->o->keepalive_restart = restart;
	return 0;
}

int opt_ping(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->ping_opt = c->def->name;
	return opt_parse_int(c, "interval", argv[1], 0, 86400, &c->o->ping);
}

int opt_ping_restart(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->ping_opt = c->def->name;
	return opt_parse_int(c, "timeout", argv[1], 0, 86400 * 7, &c->o->ping_restart);
}

int opt_ping_exit(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	c->o->ping_opt = c->def->name;
	return opt_parse_int(c, "timeout", argv[1], 0, 86400 * 7, &c->o->ping_exit);
}

int opt_replay_window(struct ctx *c, int argc, char **argv)
{
	long w, t;
	int e;

	e = opt_parse_long(c, "window", argv[1], 0, 65536, &w);
	if (e)
		return e;
	if (w == 0)
		return opt_fail(c, "a window of 0 (no reordering at all) is not supported; use 1..65536");
	if (argc >= 3) {
		e = opt_parse_long(c, "time", argv[2], 0, 600, &t);
		if (e)
			return e;
		/* the data channel reads 0 as "default 15 s"; turning the time rule off needs a dc change */
		if (t == 0)
			return opt_fail(c, "a time window of 0 (off) is not supported yet; use 1..600");
		c->o->replay_time = (uint32_t)t;
		c->o->has_replay_time = true;
	}
	c->o->replay_window = (uint32_t)w;
	return 0;
}

int opt_peer_id(struct ctx *c, int argc, char **argv)
{
	long v;
	int e;

	(void)argc;
	e = opt_parse_long(c, "peer-id", argv[1], 0, 0xfffffe, &v);
	if (!e)
		c->o->peer_id = (uint32_t)v;
	return e;
}

int opt_mssfix(struct ctx *c, int argc, char **argv)
{
	int v = BRAID_OPT_DEFAULT_MSSFIX, e;

	if (argc >= 2) {
		e = opt_parse_int(c, "size", argv[1], 0, 65535, &v);
		if (e)
			return e;
		if (v && v < 576)
			return opt_fail(c, "size %d is too small (0 turns mssfix off, else >= 576)", v);
	}
	if (argc >= 3 && strcmp(argv[2], "mtu"))
		return opt_fail(c, "unknown flag '%s' (only 'mtu' is supported)", argv[2]);
	c->o->mssfix = v;
	return 0;
}

#define VORACLE_MSG                                                                       \
	"compression is not supported (VORACLE); use 'compress' stub, 'comp-lzo no' or " \
	"'allow-compression no'"

int opt_compress(struct ctx *c, int argc, char **argv)
{
	const char *alg = argc >= 2 ? argv[1] : "stub";

	if (!strcmp(alg, "stub"))
		c->o->compress = BRAID_OPT_COMP_STUB;
	else if (!strcmp(alg, "stub-v2"))
		c->o->compress = BRAID_OPT_COMP_STUBV2;
	else if (!strcmp(alg, "migrate"))
		c->o->compress = BRAID_OPT_COMP_MIGRATE;
	else if (!strcmp(alg, "lzo") || !strcmp(alg, "lz4") || !strcmp(alg, "lz4-v2"))
		return opt_fail(c, "'%s': " VORACLE_MSG, alg);
	else
		return opt_fail(c, "unknown algorithm '%s' (braidd accepts stub, stub-v2 or migrate)",
				alg);
	return 0;
}

int opt_comp_lzo(struct ctx *c, int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "no")) {
		c->o->compress = BRAID_OPT_COMP_LZO_NO;
		return 0;
	}
	if (argc < 2 || !strcmp(argv[1], "yes") || !strcmp(argv[1], "adaptive"))
		return opt_fail(c, "'%s': " VORACLE_MSG, argc >= 2 ? argv[1] : "adaptive");
	return opt_fail(c, "bad comp-lzo option '%s' (must be 'yes', 'no', or 'adaptive')", argv[1]);
}

int opt_allow_compression(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "no"))
		return 0;	/* what braidd does anyway */
	if (!strcmp(argv[1], "yes") || !strcmp(argv[1], "asym"))
		return opt_fail(c, "'%s': " VORACLE_MSG, argv[1]);
	return opt_fail(c, "bad allow-compression option '%s' (must be 'yes', 'no', or 'asym')",
			argv[1]);
}


/* a dco-scheduler step's syntax (bpf/sched_load.h); without eBPF the option fails at start instead */
static bool braid_opt_sched_step_ok(const char *s)
{
#ifdef BRAID_HAVE_BPF
	struct braid_sched_step st;
	char name[64];

	return !braid_sched_step_parse(s, name, sizeof(name), &st);
#else
	(void)s;
	return true;
#endif
}

int opt_dco_scheduler(struct ctx *c, int argc, char **argv)
{
	struct braid_options *o = c->o;

	if (o->dco_sched_file)
		return opt_fail(c, "given twice");
	for (int i = 2; i < argc; i++) {
		if (braid_opt_sched_step_ok(argv[i]))
			continue;
		return opt_fail(c, "step '%s': expected PROG[:key=val,...] (keys next miss proto dscp "
				"sport dport lmin lmax src dst mark mask paths backup; docs/bpf-sched.md)",
				argv[i]);
	}
	o->dco_sched_file = strdup(argv[1]);
	if (!o->dco_sched_file)
		return opt_fail(c, "out of memory");
	for (int i = 2; i < argc; i++) {
		o->dco_sched_steps[o->n_dco_sched_steps] = strdup(argv[i]);
		if (!o->dco_sched_steps[o->n_dco_sched_steps])
			return opt_fail(c, "out of memory");
		o->n_dco_sched_steps++;
	}
	return 0;
}

int opt_dco(struct ctx *c, int argc, char **argv)
{
	if (!strcmp(argv[0], "disable-dco")) {
		c->o->dco = BRAID_DCO_OFF;
		return 0;
	}
	(void)argc;
	if (!strcmp(argv[1], "auto"))
		c->o->dco = BRAID_DCO_AUTO;
	else if (!strcmp(argv[1], "on"))
		c->o->dco = BRAID_DCO_ON;
	else if (!strcmp(argv[1], "off"))
		c->o->dco = BRAID_DCO_OFF;
	else
		return opt_fail(c, "'%s': expected auto, on or off", argv[1]);
	return 0;
}
