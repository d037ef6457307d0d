// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mptcp_sockops.c - bpf/mptcp_sockops.bpf.c on the running kernel:
 * the CO-RE object loads through its skeleton, attaches (bpf_link) to a
 * fresh cgroup v2; a child moved into that cgroup, in a new network
 * namespace, makes one MPTCP connection and one plain TCP connection over
 * the loopback; the map then holds exactly the two MPTCP ends (one active
 * subflow under one token, one passive under the other) and nothing of the
 * plain TCP one; the link is destroyed and the cgroup has no sockops
 * program left. Needs root and cgroup v2 (else exit 77, a skip).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "mptcp_sockops.skel.h"

#include "check.h"	/* tests/unit/check.h */

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

struct sf_count {
	__u32 active, passive;
};


static int cgroup2_root(char *out, size_t n)
{
	char dev[256], dir[512], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (fscanf(f, "%255s %511s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "cgroup2")) {
			snprintf(out, n, "%s", dir);
			r = 0;
			break;
		}
	fclose(f);
	return r;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* One connection of proto over the loopback: a few bytes each way. 0 or -1. */
static int one_conn(int proto, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int l = socket(AF_INET, SOCK_STREAM, proto), c = socket(AF_INET, SOCK_STREAM, proto), s;
	char b[8];

	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	s = accept(l, NULL, NULL);
	if (s < 0 || write(c, "ping", 4) != 4 || read(s, b, 4) != 4 || write(s, "pong", 4) != 4 ||
	    read(c, b, 4) != 4)
		return -1;
	close(s);
	close(c);
	close(l);
	return 0;
}

static int child(const char *cg)
{
	char procs[700], pid[32];
	struct ifreq ifr;
	int fd;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cg);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_file(procs, pid) || unshare(CLONE_NEWNET))
		return 2;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	ifr.ifr_flags = IFF_UP;
	if (fd < 0 || ioctl(fd, SIOCSIFFLAGS, &ifr))
		return 3;
	write_file("/proc/sys/net/mptcp/enabled", "1");
	if (one_conn(IPPROTO_MPTCP, 5001))
		return 4;
	if (one_conn(0, 5002))
		return 5;
	return 0;
}

int main(void)
{
	struct braid_mptcp_sockops *skel;
	struct bpf_link *link;
	struct bpf_prog_info info;
	__u32 ilen = sizeof(info), key, next, *prev = NULL, ids[4], cnt = 4;
	char root[512], cg[600];
	unsigned int tokens = 0, active = 0, passive = 0;
	int cg_fd, status, mfd;
	pid_t pid;

	if (geteuid() != 0 || cgroup2_root(root, sizeof(root))) {
		printf("SKIP: needs root and a cgroup v2 mount\n");
		return 77;
	}
	snprintf(cg, sizeof(cg), "%s/braid-bpf-test-%d", root, getpid());
	if (mkdir(cg, 0755)) {
		printf("SKIP: cannot create cgroup %s: %s\n", cg, strerror(errno));
		return 77;
	}
	skel = braid_mptcp_sockops__open_and_load();
	CHECKM(skel, "open_and_load: %s", strerror(errno));
	if (!skel)
		goto out;
	cg_fd = open(cg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	link = bpf_program__attach_cgroup(skel->progs.braid_mptcp_sockops, cg_fd);
	CHECKM(link, "attach_cgroup: %s", strerror(errno));
	if (!link)
		goto out_skel;
	memset(&info, 0, sizeof(info));
	bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.braid_mptcp_sockops), &info, &ilen);
	printf("ok: loaded and attached (prog id %u) to %s\n", info.id, cg);

	pid = fork();
	if (pid == 0)
		_exit(child(cg));
	waitpid(pid, &status, 0);
	CHECKM(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status %d", status);

	mfd = bpf_map__fd(skel->maps.braid_mptcp_subflows);
	while (!bpf_map_get_next_key(mfd, prev, &next)) {
		struct sf_count c;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(mfd, &key, &c))
			continue;
		tokens++;
		active += c.active;
		passive += c.passive;
		printf("  token %08x: active %u, passive %u\n", key, c.active, c.passive);
	}
	CHECKM(tokens == 2 && active == 1 && passive == 1,
	      "want 2 tokens, 1 active + 1 passive subflow (the plain TCP connection not counted), "
	      "got %u tokens, %u + %u", tokens, active, passive);
	if (tokens == 2 && active == 1 && passive == 1)
		printf("ok: the MPTCP connection's two ends counted under their tokens, plain TCP not\n");

	bpf_link__destroy(link);
	CHECKM(!bpf_prog_query(cg_fd, BPF_CGROUP_SOCK_OPS, 0, NULL, ids, &cnt) && cnt == 0,
	      "after detach: %u sockops programs on the cgroup", cnt);
	if (!cnt)
		printf("ok: detached (no sockops program on the cgroup)\n");
	close(cg_fd);
out_skel:
	braid_mptcp_sockops__destroy(skel);
out:
	if (rmdir(cg))
		CHECKM(0, "rmdir %s: %s", cg, strerror(errno));
	return check_failures ? 1 : 0;
}
