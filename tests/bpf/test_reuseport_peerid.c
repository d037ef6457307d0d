// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_reuseport_peerid.c - bpf/reuseport_peerid.bpf.c on the running
 * kernel, through the gateway's loader (daemon/gateway/gw_reuseport.c), in
 * a fresh network namespace: for 2 and then 3 workers, an SO_REUSEPORT
 * group of UDP sockets on 127.0.0.1 with the program attached;
 *  - P_DATA_V2 packets with many peer-ids (plain and cluster-style
 *    gateway_id << 16 | index, every key-id), each sent from two source
 *    ports (two "paths"): every packet reaches the socket of worker
 *    braid_gw_worker_of(peer_id), the map's per-worker by_pid counters equal
 *    the exact numbers sent to each worker;
 *  - control packets (P_CONTROL_HARD_RESET_CLIENT_V2, P_ACK), the undefined
 *    peer-id 0xffffff and a 1-byte packet from 40 source ports: all packets
 *    of one source reach one socket, more than one socket gets sources, the
 *    by_hash counters sum to the number sent;
 *  - without privileges (a child as uid 65534, no capabilities) the loader
 *    answers -EPERM, the gateway's cue to log one line and run one worker;
 *  - BPF_PROG_TEST_RUN is tried and its answer printed (sk_reuseport has no
 *    test_run on kernels up to at least 6.18: the map counts above are the
 *    check of the peer-id -> worker rule).
 * Needs root (exit 77, a skip, otherwise).
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateway/gw_reuseport.h"

#include "check.h"	/* tests/unit/check.h */


#define NSRC 40

static int lo_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), r = 0;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		r = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!r && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		r = -errno;
	close(fd);
	return r;
}

static int client(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void send_pkt(int fd, const struct sockaddr_in *to, const unsigned char *p, size_t n)
{
	CHECKM(sendto(fd, p, n, 0, (const struct sockaddr *)to, sizeof(*to)) == (ssize_t)n, "sendto: %s",
	      strerror(errno));
}

/* Reads every datagram waiting on the n sockets into cb(worker, data, len, src port). */
static void drain(const int *fds, unsigned n, void (*cb)(unsigned, const unsigned char *, ssize_t, unsigned, void *),
		  void *arg)
{
	unsigned char buf[256];
	struct sockaddr_in from;
	socklen_t fl;
	ssize_t got;
	unsigned w;

	usleep(100 * 1000); /* the loopback delivers synchronously; a margin for a loaded host */
	for (w = 0; w < n; w++)
		for (;;) {
			fl = sizeof(from);
			got = recvfrom(fds[w], buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
			if (got < 0)
				break;
			cb(w, buf, got, ntohs(from.sin_port), arg);
		}
}

struct data_seen {
	unsigned n, got[BRAID_GW_MAX_WORKERS], wrong;
};

static void on_data(unsigned w, const unsigned char *p, ssize_t len, unsigned sport, void *arg)
{
	struct data_seen *s = arg;
	uint32_t pid;

	(void)sport;
	if (len < 4) {
		s->wrong++;
		return;
	}
	pid = (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	s->got[w]++;
	if (braid_gw_worker_of(pid, s->n) != w) {
		s->wrong++;
		fprintf(stderr, "peer-id 0x%06x on worker %u, owner %u\n", pid, w, braid_gw_worker_of(pid, s->n));
	}
}

struct ctl_seen {
	unsigned ports[NSRC];
	int worker[NSRC];
	unsigned total, split;
};

static void on_ctl(unsigned w, const unsigned char *p, ssize_t len, unsigned sport, void *arg)
{
	struct ctl_seen *s = arg;
	unsigned i;

	(void)p;
	(void)len;
	s->total++;
	for (i = 0; i < NSRC; i++)
		if (s->ports[i] == sport) {
			if (s->worker[i] < 0)
				s->worker[i] = (int)w;
			else if (s->worker[i] != (int)w)
				s->split++;
		}
}

static void one_group(unsigned n)
{
	struct sockaddr_in srv = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct braid_gw_reuseport *rp = NULL;
	unsigned expect[BRAID_GW_MAX_WORKERS] = { 0 }, w, i, k, used = 0, sent_ctl = 0;
	struct data_seen ds = { .n = n };
	struct ctl_seen cs = { .total = 0 };
	int fds[BRAID_GW_MAX_WORKERS], path[2], src[NSRC], r;
	socklen_t sl = sizeof(srv);
	unsigned long long hashed = 0;

	r = braid_gw_reuseport_open((struct sockaddr *)&srv, sizeof(srv), n, fds);
	CHECKM(!r, "open %u sockets: %s", n, strerror(-r));
	if (r)
		return;
	getsockname(fds[0], (struct sockaddr *)&srv, &sl);
	r = braid_gw_reuseport_attach(fds, n, &rp);
	CHECKM(!r, "attach for %u workers: %s", n, strerror(-r));
	if (r)
		goto out;
	if (n == 2) {
		r = braid_gw_reuseport_test_run(rp);
		/* 524: the kernel's internal ENOTSUPP, no test_run for this program type */
		printf("BPF_PROG_TEST_RUN on sk_reuseport: %s (%d)\n",
		       r == -524 ? "not supported by this kernel" : r ? strerror(-r) : "runs", r);
	}
	/* data: peer-ids 0..63 and 0x030000..0x03003f (cluster gateway 3), key-ids 0..7, two paths each */
	path[0] = client();
	path[1] = client();
	CHECKM(path[0] >= 0 && path[1] >= 0, "client sockets");
	for (k = 0; k < 2; k++)
		for (i = 0; i < 128; i++) {
			uint32_t pid = (i < 64 ? 0 : 0x030000) | (i & 63);
			unsigned char pkt[24] = { (unsigned char)(9 << 3 | (i & 7)), (unsigned char)(pid >> 16),
						  (unsigned char)(pid >> 8), (unsigned char)pid };

			send_pkt(path[k], &srv, pkt, sizeof(pkt));
			expect[braid_gw_worker_of(pid, n)]++;
		}
	drain(fds, n, on_data, &ds);
	CHECKM(!ds.wrong, "%u data packets on a worker that does not own their peer-id (%u workers)", ds.wrong, n);
	for (w = 0; w < n; w++) {
		struct braid_gw_rp_count c;

		CHECKM(ds.got[w] == expect[w], "worker %u of %u received %u data packets, expected %u", w, n, ds.got[w],
		      expect[w]);
		r = braid_gw_reuseport_count(rp, w, &c);
		CHECKM(!r && c.by_pid == expect[w] && c.by_hash == 0,
		      "map: worker %u of %u by_pid %llu by_hash %llu, expected %u and 0", w, n,
		      (unsigned long long)c.by_pid, (unsigned long long)c.by_hash, expect[w]);
		printf("workers %u: worker %u got %u data packets (map by_pid %llu)\n", n, w, ds.got[w],
		       (unsigned long long)c.by_pid);
	}
	close(path[0]);
	close(path[1]);

	/* packets without a peer-id: spread by the 4-tuple hash, one source on one worker */
	for (i = 0; i < NSRC; i++) {
		struct sockaddr_in a;
		socklen_t al = sizeof(a);

		src[i] = client();
		CHECKM(src[i] >= 0, "client socket %u", i);
		getsockname(src[i], (struct sockaddr *)&a, &al);
		cs.ports[i] = ntohs(a.sin_port);
		cs.worker[i] = -1;
	}
	for (i = 0; i < NSRC; i++) {
		static const unsigned char hard_reset[14] = { 7 << 3 }, ack[14] = { 5 << 3 },
					   undef[8] = { 9 << 3, 0xff, 0xff, 0xff }, tiny[1] = { 9 << 3 };

		send_pkt(src[i], &srv, hard_reset, sizeof(hard_reset));
		send_pkt(src[i], &srv, ack, sizeof(ack));
		send_pkt(src[i], &srv, undef, sizeof(undef));
		send_pkt(src[i], &srv, tiny, sizeof(tiny));
		sent_ctl += 4;
	}
	drain(fds, n, on_ctl, &cs);
	CHECKM(cs.total == sent_ctl, "%u of %u packets without a peer-id received", cs.total, sent_ctl);
	CHECKM(!cs.split, "%u packets of one source on another worker", cs.split);
	for (w = 0; w < n; w++) {
		struct braid_gw_rp_count c;
		int on = 0;

		for (i = 0; i < NSRC; i++)
			on |= cs.worker[i] == (int)w;
		used += on;
		braid_gw_reuseport_count(rp, w, &c);
		hashed += c.by_hash;
	}
	CHECKM(used >= 2, "sources without a peer-id reached %u worker(s) only", used);
	CHECKM(hashed == sent_ctl, "map by_hash sums to %llu, sent %u", hashed, sent_ctl);
	printf("workers %u: %u sources without a peer-id spread over %u workers, each on one\n", n, NSRC, used);
	for (i = 0; i < NSRC; i++)
		close(src[i]);
out:
	braid_gw_reuseport_free(rp);
	for (w = 0; w < n; w++)
		close(fds[w]);
}

/* In a child without privileges: the loader must refuse with -EPERM, nothing attached. */
static void unprivileged(void)
{
	struct sockaddr_in srv = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int st = 0, fds[2];
	pid_t p = fork();

	CHECKM(p >= 0, "fork: %s", strerror(errno));
	if (p == 0) {
		struct braid_gw_reuseport *rp = NULL;
		int r;

		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		if (braid_gw_reuseport_open((struct sockaddr *)&srv, sizeof(srv), 2, fds))
			_exit(3);
		r = braid_gw_reuseport_attach(fds, 2, &rp);
		fprintf(stderr, "unprivileged attach: %s\n", strerror(-r));
		_exit(r == -EPERM && !rp ? 0 : 4);
	}
	waitpid(p, &st, 0);
	CHECKM(WIFEXITED(st) && WEXITSTATUS(st) == 0, "unprivileged attach: child status %d (2 setuid, 3 sockets, "
	      "4 not -EPERM)", st);
}

int main(void)
{
	int r;

	if (geteuid()) {
		fprintf(stderr, "SKIP: needs root (unshare, CAP_BPF)\n");
		return 77;
	}
	r = unshare(CLONE_NEWNET) ? -errno : lo_up();
	if (r) {
		fprintf(stderr, "FAIL: no network namespace with the loopback up: %s\n", strerror(-r));
		return 1;
	}
	one_group(2);
	one_group(3);
	unprivileged();
	if (check_failures) {
		fprintf(stderr, "%d check(s) failed\n", check_failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
