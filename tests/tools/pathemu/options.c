// SPDX-License-Identifier: GPL-2.0-only
/* options.c - command line parsing for pathemu. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void options_usage(FILE *f)
{
	fputs("usage: pathemu -q QNUM -c CTLSOCK [-r MBIT] [-d MS] [-j MS] [--reorder] [-Q MS] [-P PKTS]\n"
	      "               [-l PCT] [-g p,r,1-k,1-h] [-s SEED] [-G US] [-D] [-v]\n"
	      "  -q, --queue QNUM      NFQUEUE number to serve (0..65535)\n"
	      "  -c, --ctl PATH        UNIX datagram control socket to create\n"
	      "  -r, --rate MBIT       serialisation rate in Mbit/s (IP length + 14 B), 0 = unlimited (default 0)\n"
	      "  -d, --delay MS        one-way delay in ms (default 0)\n"
	      "  -j, --jitter MS       normal jitter, sigma in ms (default 0)\n"
	      "      --reorder         let jitter reorder packets (default: delivery times clamped monotonic)\n"
	      "  -Q, --qms MS          tail drop above MS of serialisation backlog, 0 = off (default 100)\n"
	      "  -P, --qpkts PKTS      tail drop above PKTS packets waiting for serialisation, 0 = off (default 0)\n"
	      "  -l, --loss PCT        uniform loss in percent (default 0)\n"
	      "  -g, --ge p,r,1-k,1-h  Gilbert-Elliott loss, four percentages (default off)\n"
	      "  -s, --seed SEED       PRNG seed (default 1): same seed and queue, same drop pattern\n"
	      "  -G, --batch US        release everything due within US microseconds in one verdict (default 250)\n"
	      "  -D, --delay-only      delay, jitter and loss only: no rate, no queue (-r/-Q/-P refused; rate and\n"
	      "                        queue come from another shaper, e.g. tbf)\n"
	      "  -v, --verbose         log to stderr\n",
	      f);
}

static const struct option longopts[] = {
	{ "queue", required_argument, NULL, 'q' },  { "ctl", required_argument, NULL, 'c' },
	{ "rate", required_argument, NULL, 'r' },   { "delay", required_argument, NULL, 'd' },
	{ "jitter", required_argument, NULL, 'j' }, { "reorder", no_argument, NULL, 'R' },
	{ "qms", required_argument, NULL, 'Q' },    { "qpkts", required_argument, NULL, 'P' },
	{ "loss", required_argument, NULL, 'l' },   { "ge", required_argument, NULL, 'g' },
	{ "seed", required_argument, NULL, 's' },   { "batch", required_argument, NULL, 'G' },
	{ "verbose", no_argument, NULL, 'v' },      { "help", no_argument, NULL, 'h' },
	{ "delay-only", no_argument, NULL, 'D' },
	{ NULL, 0, NULL, 0 },
};

int options_parse(int argc, char **argv, struct pe_options *o, char *err, size_t errlen)
{
	static const struct {
		int opt;
		const char *name;
	} keys[] = { { 'r', "rate" }, { 'd', "delay" }, { 'j', "jitter" }, { 'Q', "qms" },   { 'P', "qpkts" },
		     { 'l', "loss" }, { 'g', "ge" },    { 's', "seed" },     { 'G', "batch" } };
	char perr[200], *end;
	unsigned long q;
	bool qms_given = false;
	size_t i;
	int c;

	perr[0] = '\0';
	memset(o, 0, sizeof(*o));
	params_default(&o->par);
	optind = 0; /* full reinitialisation of getopt */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":q:c:r:d:j:Q:P:l:g:s:G:Dvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			errno = 0;
			q = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || q > 65535 || optarg[0] == '-') {
				snprintf(err, errlen, "bad value '%s' for -q (want a queue number 0..65535)", optarg);
				return -EINVAL;
			}
			o->qnum = (uint16_t)q;
			o->have_qnum = true;
			break;
		case 'c':
			if (!*optarg) {
				snprintf(err, errlen, "empty path for -c");
				return -EINVAL;
			}
			o->ctl_path = optarg;
			break;
		case 'R':
			o->par.reorder = true;
			break;
		case 'D':
			o->par.delay_only = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			o->help = true;
			return 0;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		case '?':
			if (optopt)
				snprintf(err, errlen, "unknown option '-%c'", optopt);
			else
				snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -EINVAL;
		default:
			if (c == 'Q')
				qms_given = true;
			for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (keys[i].opt == c)
					break;
			if (i == sizeof(keys) / sizeof(keys[0]) ||
			    params_set(&o->par, keys[i].name, optarg, perr, sizeof(perr))) {
				snprintf(err, errlen, "option -%c: %s", c, perr);
				return -EINVAL;
			}
			break;
		}
	}
	if (o->par.delay_only) {
		if (o->par.rate_mbit > 0 || o->par.qpkts || (qms_given && o->par.qms > 0)) {
			snprintf(err, errlen, "-D (delay-only) takes no rate or queue: drop -r, -Q and -P or set them to 0");
			return -EINVAL;
		}
		o->par.qms = 0; /* the default queue limit belongs to the rate model */
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (!o->have_qnum) {
		snprintf(err, errlen, "missing -q QNUM");
		return -EINVAL;
	}
	if (!o->ctl_path) {
		snprintf(err, errlen, "missing -c CTLSOCK");
		return -EINVAL;
	}
	return 0;
}
