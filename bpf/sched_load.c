// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_load.c - a path scheduler object loaded and its chain configured (sched_load.h).
 */
#include "sched_load.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int prefix(const char *s, __u32 *addr, __u32 *mask)
{
	char buf[32], *slash;
	int bits = 32;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = 0;
		bits = atoi(slash + 1);
	}
	if (inet_pton(AF_INET, buf, addr) != 1 || bits < 0 || bits > 32)
		return -EINVAL;
	*mask = bits ? htonl(~0u << (32 - bits)) : 0;
	return 0;
}

int braid_sched_step_parse(const char *arg, char *name, size_t cap, struct braid_sched_step *st)
{
	char buf[256], *kv, *save = NULL, *val;
	unsigned long n;

	memset(st, 0, sizeof(*st));
	st->next = st->miss = BRAID_SCHED_END;
	snprintf(buf, sizeof(buf), "%s", arg);
	kv = strchr(buf, ':');
	if (kv)
		*kv++ = 0;
	if (strlen(buf) >= cap)
		return -EINVAL;
	memcpy(name, buf, strlen(buf) + 1);
	for (kv = kv ? strtok_r(kv, ",", &save) : NULL; kv; kv = strtok_r(NULL, ",", &save)) {
		val = strchr(kv, '=');
		if (!val)
			return -EINVAL;
		*val++ = 0;
		n = strtoul(val, NULL, 0);
		if (!strcmp(kv, "src") || !strcmp(kv, "dst")) {
			if (prefix(val, kv[0] == 's' ? &st->saddr : &st->daddr,
				   kv[0] == 's' ? &st->smask : &st->dmask))
				return -EINVAL;
		} else if (!strcmp(kv, "paths")) {
			for (st->paths = 0; *val; val += *val == '+') {
				st->paths |= 1u << (strtoul(val, &val, 0) & 31);
				if (*val && *val != '+')
					return -EINVAL;
			}
		} else if (!strcmp(kv, "next")) {
			st->next = (__u32)n;
		} else if (!strcmp(kv, "miss")) {
			st->miss = (__u32)n;
		} else if (!strcmp(kv, "proto")) {
			st->proto = (__u8)n;
		} else if (!strcmp(kv, "dscp")) {
			st->dscp = (__u8)n;
		} else if (!strcmp(kv, "sport")) {
			st->sport = (__u16)n;
		} else if (!strcmp(kv, "dport")) {
			st->dport = (__u16)n;
		} else if (!strcmp(kv, "lmin")) {
			st->len_min = (__u16)n;
		} else if (!strcmp(kv, "lmax")) {
			st->len_max = (__u16)n;
		} else if (!strcmp(kv, "mark")) {
			st->mark = (__u32)n;
		} else if (!strcmp(kv, "mask")) {
			st->mark_mask = (__u32)n;
		} else if (!strcmp(kv, "backup")) {
			st->backup = (__u32)n;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

int braid_sched_load(const char *path, const char *entry, char *const *steps, int n,
		     struct bpf_object **out, int *entry_fd, char *err, size_t errlen)
{
	struct bpf_program *prog, *ep;
	struct bpf_map *progs, *chain;
	struct braid_sched_step st;
	struct bpf_object *obj;
	char name[64];
	int fd, r;

	obj = bpf_object__open_file(path, NULL);
	if (!obj || libbpf_get_error(obj)) {
		r = errno ? -errno : -EINVAL;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(-r));
		return r;
	}
	if (bpf_object__load(obj)) {
		r = errno ? -errno : -EINVAL;
		snprintf(err, errlen, "%s does not load: %s", path, strerror(-r));
		goto fail;
	}
	r = -ENOENT;
	ep = bpf_object__find_program_by_name(obj, entry);
	if (!ep) {
		snprintf(err, errlen, "%s has no program %s", path, entry);
		goto fail;
	}
	progs = bpf_object__find_map_by_name(obj, "braid_sched_progs");
	chain = bpf_object__find_map_by_name(obj, "braid_sched_chain");
	for (int step = 0; step < n; step++) {
		r = -EINVAL;
		if (!progs || !chain || step >= BRAID_SCHED_STEPS ||
		    braid_sched_step_parse(steps[step], name, sizeof(name), &st)) {
			snprintf(err, errlen, "bad step %s", steps[step]);
			goto fail;
		}
		prog = bpf_object__find_program_by_name(obj, name);
		fd = prog ? bpf_program__fd(prog) : -1;
		if (fd < 0 || bpf_map_update_elem(bpf_map__fd(progs), &step, &fd, 0) ||
		    bpf_map_update_elem(bpf_map__fd(chain), &step, &st, 0)) {
			snprintf(err, errlen, "step %d: no program %s", step, name);
			goto fail;
		}
	}
	*entry_fd = bpf_program__fd(ep);
	*out = obj;
	return 0;
fail:
	bpf_object__close(obj);
	return r;
}

int braid_sched_paths_fd(struct bpf_object *obj)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, "braid_sched_paths");

	return m ? bpf_map__fd(m) : -ENOENT;
}
