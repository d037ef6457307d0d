// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_reuseport.c - the worker sockets' SO_REUSEPORT group and the loader of
 * its sk_reuseport steering program (gw_reuseport.h).
 */
#include "gateway/gw_reuseport.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int braid_gw_reuseport_open(const struct sockaddr *addr, socklen_t len, unsigned n, int *fds)
{
	struct sockaddr_storage ss;
	socklen_t sl = len;
	unsigned i;
	int one = 1, zero = 0, bufsz = 4 << 20, r = 0;

	if (!n || n > BRAID_GW_MAX_WORKERS || len > sizeof(ss))
		return -EINVAL;
	memcpy(&ss, addr, len);
	for (i = 0; i < n; i++) {
		fds[i] = socket(ss.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fds[i] < 0) {
			r = -errno;
			break;
		}
		/* as braid_sock_open_udp: dual-stack, large buffers (a burst from the TUN) */
		if (ss.ss_family == AF_INET6)
			setsockopt(fds[i], IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		setsockopt(fds[i], SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
		setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
		if (setsockopt(fds[i], SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) ||
		    bind(fds[i], (struct sockaddr *)&ss, len)) {
			r = -errno;
			close(fds[i]);
			break;
		}
		/* port 0: the group shares the port the first socket got */
		if (!i && getsockname(fds[0], (struct sockaddr *)&ss, &sl)) {
			r = -errno;
			close(fds[0]);
			break;
		}
	}
	if (r)
		while (i--)
			close(fds[i]);
	return r;
}

#ifdef BRAID_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "reuseport_peerid.skel.h"

struct braid_gw_reuseport {
	struct braid_reuseport_peerid *skel;
	unsigned n;
};

static int silent(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	(void)l;
	(void)fmt;
	(void)ap;
	return 0;
}

int braid_gw_reuseport_attach(const int *fds, unsigned n, struct braid_gw_reuseport **out)
{
	libbpf_print_fn_t old;
	struct braid_gw_reuseport *rp;
	int r = 0, pfd, msock;
	unsigned w;

	*out = NULL;
	if (!n || n > BRAID_GW_MAX_WORKERS)
		return -EINVAL;
	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -ENOMEM;
	rp->n = n;
	old = libbpf_set_print(silent); /* the caller logs the one line that matters */
	rp->skel = braid_reuseport_peerid__open();
	if (!rp->skel) {
		r = errno ? -errno : -EINVAL;
		libbpf_set_print(old);
		goto fail;
	}
	rp->skel->rodata->nworkers = n;
	r = braid_reuseport_peerid__load(rp->skel);
	libbpf_set_print(old);
	if (r)
		goto fail;
	msock = bpf_map__fd(rp->skel->maps.braid_rp_socks);
	for (w = 0; w < n && !r; w++) {
		uint64_t v = (uint64_t)fds[w];

		r = bpf_map_update_elem(msock, &w, &v, BPF_ANY) ? -errno : 0;
	}
	if (r)
		goto fail;
	pfd = bpf_program__fd(rp->skel->progs.braid_rp_select);
	if (setsockopt(fds[0], SOL_SOCKET, SO_ATTACH_REUSEPORT_EBPF, &pfd, sizeof(pfd))) {
		r = -errno;
		goto fail;
	}
	*out = rp;
	return 0;
fail:
	braid_gw_reuseport_free(rp);
	return r < 0 ? r : -EINVAL;
}

int braid_gw_reuseport_count(const struct braid_gw_reuseport *rp, unsigned w, struct braid_gw_rp_count *out)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	struct braid_gw_rp_count *v;

	memset(out, 0, sizeof(*out));
	if (!rp || w > BRAID_GW_MAX_WORKERS)
		return -EINVAL;
	if (ncpu <= 0)
		return ncpu < 0 ? ncpu : -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(rp->skel->maps.braid_rp_stats), &w, v)) {
		i = -errno;
		free(v);
		return i;
	}
	for (i = 0; i < ncpu; i++) {
		out->by_pid += v[i].by_pid;
		out->by_hash += v[i].by_hash;
	}
	free(v);
	return 0;
}

int braid_gw_reuseport_test_run(const struct braid_gw_reuseport *rp)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt), .repeat = 1);

	if (!rp)
		return -EINVAL;
	pkt[8] = 9 << 3; /* a P_DATA_V2 after an 8-byte UDP header */
	if (bpf_prog_test_run_opts(bpf_program__fd(rp->skel->progs.braid_rp_select), &o))
		return -errno;
	return 0;
}

void braid_gw_reuseport_free(struct braid_gw_reuseport *rp)
{
	if (!rp)
		return;
	braid_reuseport_peerid__destroy(rp->skel);
	free(rp);
}

#else /* !BRAID_HAVE_BPF */

struct braid_gw_reuseport {
	unsigned n;
};

int braid_gw_reuseport_attach(const int *fds, unsigned n, struct braid_gw_reuseport **out)
{
	(void)fds;
	(void)n;
	*out = NULL;
	return -ENOTSUP;
}

int braid_gw_reuseport_count(const struct braid_gw_reuseport *rp, unsigned w, struct braid_gw_rp_count *out)
{
	(void)rp;
	(void)w;
	memset(out, 0, sizeof(*out));
	return -ENOTSUP;
}

int braid_gw_reuseport_test_run(const struct braid_gw_reuseport *rp)
{
	(void)rp;
	return -ENOTSUP;
}

void braid_gw_reuseport_free(struct braid_gw_reuseport *rp)
{
	free(rp);
}
#endif
