// SPDX-License-Identifier: GPL-2.0-only
/*
 * braid-sched-attach - load a path scheduler (bpf/sched.bpf.c or an operator's own object), configure
 * its chain and path tables, pin its maps and attach it to a braid_dco device through the module's
 * prog-attach operation (docs/bpf-sched.md). Usage:
 *   braid-sched-attach attach DEV OBJ PINDIR [-e ENTRY] [-w W,..] [-r RTT_US,..] [-u ID,..] [STEP ..]
 *       STEP = PROG[:key=val,...] for steps 0, 1, ...; keys: next miss proto dscp sport dport lmin lmax
 *       src dst (A.B.C.D/N) mark mask paths (ids, '+'-separated) backup
 *   braid-sched-attach pinned DEV PROG_PIN    a program pinned in bpffs (bpftool prog load ... type classifier)
 *   braid-sched-attach set PINDIR [-w ..] [-r ..] [-u ..]   publish path weights/RTTs/up set
 *   braid-sched-attach detach DEV [PINDIR]    back to round robin; PINDIR's pins removed
 *   braid-sched-attach show DEV               attached program id, runs, fallbacks, copies
 * The maps are pinned because a prog array loses its entries when no user reference is left.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "braid_sched.h"
#include "sched_load.h"
#include "sched_nl.h"

static int usage(void)
{
	fprintf(stderr, "usage: braid-sched-attach attach DEV OBJ PINDIR [-e ENTRY] [-w W,..] [-r RTT,..] "
		"[-u ID,..] [PROG[:k=v,..] ..]\n"
		"       braid-sched-attach pinned DEV PROG_PIN | set PINDIR [-w|-r|-u ..] | "
		"detach DEV [PINDIR] | show DEV\n");
	return 2;
}

static unsigned int ifindex_of(const char *dev)
{
	unsigned int i = if_nametoindex(dev);

	if (!i)
		fprintf(stderr, "braid-sched-attach: no interface %s\n", dev);
	return i;
}

/* a comma-separated list of up to BRAID_SCHED_PATHS numbers; its length or -1 */
static int numbers(const char *s, unsigned long *v)
{
	char *end;
	int n = 0;

	while (*s && n < BRAID_SCHED_PATHS) {
		v[n++] = strtoul(s, &end, 0);
		if (end == s || (*end && *end != ','))
			return -1;
		s = *end ? end + 1 : end;
	}
	return *s ? -1 : n;
}

/* -w/-r/-u from argv[i..]; applied to the paths map @fd; returns the next index or -1 */
static int path_options(int argc, char **argv, int i, int fd)
{
	struct braid_sched_path p;
	unsigned long v[BRAID_SCHED_PATHS];
	unsigned int id;
	int n, k;

	for (; i + 1 < argc && argv[i][0] == '-' && strchr("wru", argv[i][1]); i += 2) {
		n = numbers(argv[i + 1], v);
		if (n < 0)
			return -1;
		if (argv[i][1] == 'u') {
			for (id = 0; id < BRAID_SCHED_PATHS; id++) {
				if (bpf_map_lookup_elem(fd, &id, &p))
					return -1;
				p.flags &= ~BRAID_SCHED_PATH_UP;
				for (k = 0; k < n; k++)
					if (v[k] == id)
						p.flags |= BRAID_SCHED_PATH_UP;
				bpf_map_update_elem(fd, &id, &p, 0);
			}
			continue;
		}
		for (id = 0; id < (unsigned int)n; id++) {
			if (bpf_map_lookup_elem(fd, &id, &p))
				return -1;
			if (argv[i][1] == 'w')
				p.weight = (__u32)v[id];
			else
				p.rtt_us = (__u32)v[id];
			bpf_map_update_elem(fd, &id, &p, 0);
		}
	}
	return i;
}

static int attach_fd(const char *dev, int fd)
{
	unsigned int ifindex = ifindex_of(dev);
	char err[256] = "";
	int rc;

	if (!ifindex)
		return 1;
	rc = sched_nl_attach(ifindex, fd, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "braid-sched-attach: prog-attach on %s: %s (%s)\n", dev, strerror(-rc),
			err);
		return 1;
	}
	printf("attached to %s\n", dev);
	return 0;
}

static int cmd_attach(int argc, char **argv)
{
	const char *dev = argv[2], *path = argv[3], *pindir = argv[4], *entry = "braid_sched";
	struct bpf_object *obj;
	char err[256] = "";
	int i = 5, fd, rc = 1, paths, first;

	if (argc > 6 && !strcmp(argv[5], "-e")) {
		entry = argv[6];
		i = 7;
	}
	/* the -w/-r/-u options come first, the steps after them */
	for (first = i; first + 1 < argc && argv[first][0] == '-' && strchr("wru", argv[first][1]);)
		first += 2;
	if (braid_sched_load(path, entry, argv + first, argc - first, &obj, &fd, err, sizeof(err))) {
		fprintf(stderr, "braid-sched-attach: %s\n", err);
		return 1;
	}
	paths = braid_sched_paths_fd(obj);
	if (first != i && (paths < 0 || path_options(argc, argv, i, paths) != first)) {
		rc = usage();
		goto out;
	}
	mkdir(pindir, 0700);
	if (bpf_object__pin_maps(obj, pindir)) {
		fprintf(stderr, "braid-sched-attach: pinning the maps under %s: %s\n", pindir,
			strerror(errno));
		goto out;
	}
	rc = attach_fd(dev, fd);
	if (rc)
		bpf_object__unpin_maps(obj, pindir);
out:
	bpf_object__close(obj);
	return rc;
}

static int cmd_set(int argc, char **argv)
{
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s/braid_sched_paths", argv[2]);
	fd = bpf_obj_get(p);
	if (fd < 0) {
		fprintf(stderr, "braid-sched-attach: %s: %s\n", p, strerror(errno));
		return 1;
	}
	if (path_options(argc, argv, 3, fd) != argc) {
		close(fd);
		return usage();
	}
	close(fd);
	return 0;
}

static int cmd_detach(int argc, char **argv)
{
	static const char *const maps[] = { "braid_sched_progs", "braid_sched_chain",
					    "braid_sched_paths", "braid_sched_state" };
	unsigned int ifindex = ifindex_of(argv[2]), k;
	char err[256] = "", p[512];
	int rc;

	if (!ifindex)
		return 1;
	rc = sched_nl_detach(ifindex, err, sizeof(err));
	if (rc)
		fprintf(stderr, "braid-sched-attach: prog-detach on %s: %s (%s)\n", argv[2],
			strerror(-rc), err);
	for (k = 0; argc > 3 && k < sizeof(maps) / sizeof(maps[0]); k++) {
		snprintf(p, sizeof(p), "%s/%s", argv[3], maps[k]);
		unlink(p);
	}
	if (argc > 3)
		rmdir(argv[3]);
	return rc ? 1 : 0;
}

static int cmd_show(const char *dev)
{
	unsigned int ifindex = ifindex_of(dev);
	struct sched_nl_info in;
	char err[256] = "";
	int rc;

	if (!ifindex)
		return 1;
	rc = sched_nl_get(ifindex, &in, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "braid-sched-attach: prog-get on %s: %s (%s)\n", dev, strerror(-rc), err);
		return 1;
	}
	printf("prog_id=%u\nruns=%llu\nfallbacks=%llu\ncopies=%llu\n", in.prog_id,
	       (unsigned long long)in.runs, (unsigned long long)in.fallbacks,
	       (unsigned long long)in.copies);
	return 0;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "attach") && argc >= 5)
		return cmd_attach(argc, argv);
	if (!strcmp(argv[1], "pinned") && argc == 4) {
		int rc;

		fd = bpf_obj_get(argv[3]);
		if (fd < 0) {
			fprintf(stderr, "braid-sched-attach: %s: %s\n", argv[3], strerror(errno));
			return 1;
		}
		rc = attach_fd(argv[2], fd);
		close(fd);
		return rc;
	}
	if (!strcmp(argv[1], "set"))
		return cmd_set(argc, argv);
	if (!strcmp(argv[1], "detach") && argc <= 4)
		return cmd_detach(argc, argv);
	if (!strcmp(argv[1], "show") && argc == 3)
		return cmd_show(argv[2]);
	return usage();
}
