// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_bpf.c - load and attach the MPTCP subflow actors, publish the
 * paths into their map (mptcp_bpf.h).
 */
#include "os/mptcp_bpf.h"

#include <errno.h>

#ifdef BRAID_HAVE_BPF
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "mptcp_sockops.skel.h"
#include "util/log.h"

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

/* The program's map layouts (bpf/mptcp_sockops.bpf.c). */
struct path_key {
	uint32_t family;
	uint32_t addr[4];
};

struct path_val {
	uint32_t slot, weight, mark, cap;
};

struct split_val {
	uint64_t acked[BRAID_MPTCP_BPF_SLOTS];
	uint32_t weight[BRAID_MPTCP_BPF_SLOTS];
	uint32_t throttled, throttles;
};

struct braid_mptcp_bpf {
	struct braid_mptcp_sockops *skel;
	struct bpf_link *link;
	int cg_fd;
};

static int libbpf_log(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	char b[512];
	size_t n;

	if (lvl == LIBBPF_DEBUG)
		return 0;
	vsnprintf(b, sizeof(b), fmt, ap);
	n = strlen(b);
	if (n && b[n - 1] == '\n')
		b[n - 1] = 0;
	braid_dbg("libbpf: %s", b);
	return 0;
}

/*
 * This process's cgroup v2 directory under root, opened. fd or -errno.
 */
static int open_cgroup(const char *root)
{
	char line[1024], path[1600];
	FILE *f;
	int fd;

	f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -errno;
	path[0] = 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, sizeof(path), "%s%s", root, line + 3);
			break;
		}
	fclose(f);
	if (!path[0])
		return -ENOENT;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * This process's cgroup v2, opened: through the cgroup2 mount when one is
 * visible; else (a mount namespace without it, as `ip netns exec` makes) a
 * cgroup2 mounted for a moment on a private directory, detached at once
 * (the directory fd stays valid for the attachment). fd or -errno.
 */
static int own_cgroup(void)
{
	char root[512] = "", dir[512], type[64], dev[256], tmp[] = "/tmp/braidd-cg2.XXXXXX";
	FILE *f = fopen("/proc/mounts", "r");
	int fd;

	if (!f)
		return -errno;
	while (fscanf(f, "%255s %511s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "cgroup2")) {
			snprintf(root, sizeof(root), "%s", dir);
			break;
		}
	fclose(f);
	if (root[0])
		return open_cgroup(root);
	if (!mkdtemp(tmp))
		return -errno;
	if (mount("cgroup2", tmp, "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		fd = -errno;
		rmdir(tmp);
		return fd;
	}
	fd = open_cgroup(tmp);
	umount2(tmp, MNT_DETACH);
	rmdir(tmp);
	return fd;
}

static uint64_t netns_cookie(void)
{
	uint64_t c = 0;
	socklen_t l = sizeof(c);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &c, &l))
		c = 0;	/* old kernel: act on every netns */
	close(fd);
	return c;
}

int braid_mptcp_bpf_start(struct braid_mptcp_bpf **out, const char **why)
{
	struct braid_mptcp_bpf *b;
	int r;

	*out = NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		*why = "out of memory";
		return -ENOMEM;
	}
	libbpf_set_print(libbpf_log);
	b->cg_fd = own_cgroup();
	if (b->cg_fd < 0) {
		r = b->cg_fd;
		*why = "no cgroup v2 of this process";
		goto fail;
	}
	b->skel = braid_mptcp_sockops__open();
	if (!b->skel) {
		r = -errno;
		*why = "open";
		goto fail;
	}
	b->skel->rodata->netns_cookie = netns_cookie();
	r = braid_mptcp_sockops__load(b->skel);
	if (r) {
		*why = "load (needs CAP_BPF + CAP_NET_ADMIN or root, and kernel BTF)";
		goto fail;
	}
	b->link = bpf_program__attach_cgroup(b->skel->progs.braid_mptcp_sockops, b->cg_fd);
	if (!b->link) {
		r = -errno;
		*why = "attach to the cgroup";
		goto fail;
	}
	*out = b;
	return 0;
fail:
	braid_mptcp_bpf_stop(b);
	return r < 0 ? r : -EIO;
}

static void key_of(const struct braid_mptcp_endp *a, struct path_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = (uint32_t)a->family;
	if (a->family == AF_INET)
		memcpy(k->addr, &a->addr.v4, 4);
	else
		memcpy(k->addr, &a->addr.v6, 16);
}

int braid_mptcp_bpf_set_path(struct braid_mptcp_bpf *b, const struct braid_mptcp_endp *a,
			     uint32_t slot, uint32_t weight, uint32_t cap_Bps)
{
	struct path_key k;
	struct path_val v = { .slot = slot, .weight = weight,
			      .mark = BRAID_MPTCP_MARK_BASE + slot + 1, .cap = cap_Bps };

	if (!b || slot >= BRAID_MPTCP_BPF_SLOTS)
		return -EINVAL;
	key_of(a, &k);
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.braid_mptcp_paths), &k, &v, BPF_ANY))
		return -errno;
	return 0;
}

void braid_mptcp_bpf_del_path(struct braid_mptcp_bpf *b, const struct braid_mptcp_endp *a)
{
	struct path_key k;

	if (!b)
		return;
	key_of(a, &k);
	bpf_map_delete_elem(bpf_map__fd(b->skel->maps.braid_mptcp_paths), &k);
}

uint64_t braid_mptcp_bpf_throttles(struct braid_mptcp_bpf *b)
{
	uint32_t key, *prev = NULL, next;
	struct split_val v;
	uint64_t n = 0;
	int fd;

	if (!b)
		return 0;
	fd = bpf_map__fd(b->skel->maps.braid_mptcp_split);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &v))
			n += v.throttles;
	}
	return n;
}

void braid_mptcp_bpf_stop(struct braid_mptcp_bpf *b)
{
	if (!b)
		return;
	bpf_link__destroy(b->link);
	braid_mptcp_sockops__destroy(b->skel);
	if (b->cg_fd >= 0)
		close(b->cg_fd);
	free(b);
}

#else /* !BRAID_HAVE_BPF */

int braid_mptcp_bpf_start(struct braid_mptcp_bpf **out, const char **why)
{
	*out = NULL;
	*why = "braidd was built without the eBPF objects (clang, bpftool, libbpf or BTF missing)";
	return -EOPNOTSUPP;
}

int braid_mptcp_bpf_set_path(struct braid_mptcp_bpf *b, const struct braid_mptcp_endp *a,
			     uint32_t slot, uint32_t weight, uint32_t cap_Bps)
{
	(void)b, (void)a, (void)slot, (void)weight, (void)cap_Bps;
	return -EOPNOTSUPP;
}

void braid_mptcp_bpf_del_path(struct braid_mptcp_bpf *b, const struct braid_mptcp_endp *a)
{
	(void)b, (void)a;
}

uint64_t braid_mptcp_bpf_throttles(struct braid_mptcp_bpf *b)
{
	(void)b;
	return 0;
}

void braid_mptcp_bpf_stop(struct braid_mptcp_bpf *b)
{
	(void)b;
}

#endif
