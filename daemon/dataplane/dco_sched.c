// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_sched.c - the eBPF path scheduler braidd attaches to its braid_dco device (dco_sched.h).
 */
#include "dataplane/dco_sched.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/log.h"

#ifdef BRAID_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "sched_load.h"

static struct bpf_object *obj;
static int prog_fd = -1, paths_fd = -1;
static char desc[320];

int braid_dco_sched_load(const struct braid_options *o)
{
	char err[320];
	int r;

	if (!o->dco_sched_file || obj)
		return 0;
	r = braid_sched_load(o->dco_sched_file, "braid_sched", o->dco_sched_steps,
			     (int)o->n_dco_sched_steps, &obj, &prog_fd, err, sizeof(err));
	if (r) {
		braid_err("dco-scheduler: %s", err);
		return r;
	}
	paths_fd = braid_sched_paths_fd(obj);
	if (paths_fd < 0) {
		braid_err("dco-scheduler: %s has no braid_sched_paths map (bpf/braid_sched.h): braidd "
			  "could not publish its paths' state", o->dco_sched_file);
		braid_dco_sched_unload();
		return -ENOENT;
	}
	snprintf(desc, sizeof(desc), "%s%s%s (%u step%s)", o->dco_sched_file,
		 o->n_dco_sched_steps ? ": " : "", o->n_dco_sched_steps ? o->dco_sched_steps[0] : "",
		 o->n_dco_sched_steps, o->n_dco_sched_steps == 1 ? "" : "s");
	for (unsigned int id = 0; id < BRAID_SCHED_PATHS; id++)
		braid_dco_sched_publish(id, 0, 0, false);	/* no path until braidd has one */
	braid_info("dco-scheduler: %s loaded", desc);
	return 0;
}

int braid_dco_sched_prog_fd(void)
{
	return prog_fd;
}

const char *braid_dco_sched_desc(void)
{
	return desc;
}

int braid_dco_sched_publish(unsigned int id, uint32_t weight, uint32_t rtt_us, bool up)
{
	struct braid_sched_path p;

	if (paths_fd < 0)
		return 0;
	if (id >= BRAID_SCHED_PATHS)
		return -EINVAL;
	memset(&p, 0, sizeof(p));
	p.weight = weight;
	p.rtt_us = rtt_us;
	p.flags = up ? BRAID_SCHED_PATH_UP : 0;
	return bpf_map_update_elem(paths_fd, &id, &p, 0) ? -errno : 0;
}

void braid_dco_sched_unload(void)
{
	if (obj)
		bpf_object__close(obj);
	obj = NULL;
	prog_fd = paths_fd = -1;
	desc[0] = '\0';
}

#else /* !BRAID_HAVE_BPF */

int braid_dco_sched_load(const struct braid_options *o)
{
	if (!o->dco_sched_file)
		return 0;
	braid_err("dco-scheduler: this braidd was built without eBPF (clang, bpftool or libbpf missing)");
	return -EOPNOTSUPP;
}

int braid_dco_sched_prog_fd(void)
{
	return -1;
}

const char *braid_dco_sched_desc(void)
{
	return "";
}

int braid_dco_sched_publish(unsigned int id, uint32_t weight, uint32_t rtt_us, bool up)
{
	(void)id, (void)weight, (void)rtt_us, (void)up;
	return 0;
}

void braid_dco_sched_unload(void)
{
}

#endif
