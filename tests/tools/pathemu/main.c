// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - pathemu: an NFQUEUE "verdict later" path emulator. One process serves one queue (one path and
 * direction). Packets are held in the kernel; we only see their ids and lengths, run them through the link
 * model and give each its verdict when due (a batch verdict when delivery is monotonic, per-packet verdicts
 * with --reorder). Fail closed: on exit, everything still held is dropped.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include <linux/netfilter.h>

#include "ctlcmd.h"
#include "ctlsock.h"
#include "link.h"
#include "nfq.h"
#include "options.h"

#define RCVBUF_BYTES (16 * 1024 * 1024)
#define RELEASE_CHUNK 4096
#define RX_ROUNDS 16 /* at most 16 x 64 packets read before we look at the clock and the queue again */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct emu {
	struct link link;
	struct nfqio nfq;
	int ctl_fd;
	int clients[CTL_MAX_CLIENTS];
	int nclients;
	bool verbose;
	bool have_id;       /* last_id is valid */
	uint32_t last_id;   /* newest packet id seen */
	int verdict_err;
	struct link_pkt out[RELEASE_CHUNK];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void on_packet(void *ctx, uint32_t id, uint32_t len)
{
	struct emu *e = ctx;
	enum link_fate f = link_arrive(&e->link, now_ns(), id, len);
	int rc;

	e->have_id = true;
	e->last_id = id;
	if (f != LINK_QUEUED) {
		rc = nfqio_verdict(&e->nfq, id, NF_DROP);
		if (rc)
			e->verdict_err = rc;
	}
}

static int release_due(struct emu *e)
{
	uint64_t window = (uint64_t)e->link.par.batch_us * 1000;
	size_t n, k;
	int rc;

	do {
		n = link_release(&e->link, now_ns(), window, e->out, RELEASE_CHUNK);
		if (!n)
			break;
		if (e->link.par.reorder) {
			for (k = 0; k < n; k++) {
				rc = nfqio_verdict(&e->nfq, e->out[k].id, NF_ACCEPT);
				if (rc)
					return rc;
			}
		} else {
			/* monotonic delivery: the released packets are exactly the held ones up to the newest id */
			rc = nfqio_verdict_batch(&e->nfq, e->out[n - 1].id, NF_ACCEPT);
			if (rc)
				return rc;
		}
	} while (n == RELEASE_CHUNK);
	return 0;
}

static int drop_all_held(struct emu *e)
{
	if (!e->have_id)
		return 0;
	return nfqio_verdict_batch(&e->nfq, e->last_id, NF_DROP);
}

static void client_drop(struct emu *e, int k)
{
	close(e->clients[k]);
	e->clients[k] = e->clients[--e->nclients];
}

/* Serve pending requests of client k; returns true when asked to quit. */
static bool serve_client(struct emu *e, int k)
{
	char req[CTL_MSG_MAX], reply[CTL_MSG_MAX];
	enum ctl_action a;
	bool quit = false;
	int rc;

	while ((rc = ctlsock_recv(e->clients[k], req, sizeof(req))) > 0) {
		a = ctlcmd_exec(&e->link, req, reply, sizeof(reply));
		if (a == CTL_FLUSHED)
			drop_all_held(e);
		if (a == CTL_QUIT)
			quit = true;
		if (e->verbose)
			fprintf(stderr, "pathemu[q%u]: ctl '%s' -> %s\n", e->nfq.qnum, req, reply);
		rc = ctlsock_send(e->clients[k], reply);
		if (rc)
			break;
	}
	if (rc < 0)
		client_drop(e, k);
	return quit;
}

static void accept_clients(struct emu *e)
{
	int fd;

	while ((fd = ctlsock_accept(e->ctl_fd)) > 0) {
		if (e->nclients == CTL_MAX_CLIENTS) {
			ctlsock_send(fd, "error: too many control clients");
			close(fd);
			continue;
		}
		e->clients[e->nclients++] = fd;
	}
	if (fd < 0)
		fprintf(stderr, "pathemu[q%u]: control socket: %s\n", e->nfq.qnum, strerror(-fd));
}

static int run(struct emu *e, const sigset_t *waitmask)
{
	struct pollfd pfd[2 + CTL_MAX_CLIENTS];
	struct timespec ts, *tsp;
	uint64_t due, now;
	int rc, n, round, k, nfds, ncl;

	pfd[0].fd = nfqio_fd(&e->nfq);
	pfd[0].events = POLLIN;
	pfd[1].fd = e->ctl_fd;
	pfd[1].events = POLLIN;
	while (!stop_requested) {
		ncl = e->nclients;
		for (k = 0; k < ncl; k++) {
			pfd[2 + k].fd = e->clients[k];
			pfd[2 + k].events = POLLIN;
			pfd[2 + k].revents = 0;
		}
		nfds = 2 + ncl;
		pfd[0].revents = 0;
		pfd[1].revents = 0;
		tsp = NULL;
		if (link_next_due(&e->link, &due) == 0) {
			now = now_ns();
			due = due > now ? due - now : 0;
			ts.tv_sec = (time_t)(due / 1000000000ULL);
			ts.tv_nsec = (long)(due % 1000000000ULL);
			tsp = &ts;
		}
		rc = ppoll(pfd, (nfds_t)nfds, tsp, waitmask);
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (stop_requested)
			break;
		if (rc > 0 && (pfd[0].revents & POLLIN)) {
			for (round = 0; round < RX_ROUNDS; round++) {
				n = nfqio_recv(&e->nfq, on_packet, e, 64);
				if (n < 0)
					return n;
				if (n < 64)
					break;
			}
		}
		rc = release_due(e);
		if (!rc && e->verdict_err)
			rc = e->verdict_err;
		if (rc)
			return rc;
		/* clients from the last end: client_drop moves the last one into the freed slot */
		for (k = ncl - 1; k >= 0; k--)
			if (pfd[2 + k].revents && serve_client(e, k))
				stop_requested = 1;
		if (pfd[1].revents & POLLIN)
			accept_clients(e);
		rc = nfqio_flush(&e->nfq);
		if (rc)
			return rc;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct pe_options o;
	struct sigaction sa;
	sigset_t block, waitmask;
	struct emu *e;
	char err[256];
	int rc, ret = 1;

	if (options_parse(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "pathemu: %s\n", err);
		options_usage(stderr);
		return 2;
	}
	if (o.help) {
		options_usage(stdout);
		return 0;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		fprintf(stderr, "pathemu: out of memory\n");
		return 1;
	}
	e->verbose = o.verbose;
	e->ctl_fd = -1;

	/* signals: blocked except inside ppoll, where the handler only sets a flag */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGINT);
	prctl(PR_SET_TIMERSLACK, 1UL); /* 1 ns slack: wake-ups as close to due times as the kernel allows */

	o.par.stream = o.qnum; /* same seed on both directions of a path, still independent draws */
	rc = link_init(&e->link, &o.par);
	if (rc) {
		fprintf(stderr, "pathemu: link model: %s\n", strerror(-rc));
		goto out_free;
	}
	rc = ctlsock_open(o.ctl_path);
	if (rc < 0) {
		fprintf(stderr, "pathemu: control socket '%s': %s\n", o.ctl_path,
			rc == -EADDRINUSE ? "another process answers there" : strerror(-rc));
		goto out_link;
	}
	e->ctl_fd = rc;
	rc = nfqio_open(&e->nfq, o.qnum, PE_MAX_HELD, RCVBUF_BYTES);
	if (rc) {
		fprintf(stderr, "pathemu: NFQUEUE %u: %s%s\n", o.qnum, strerror(-rc),
			rc == -EPERM ? " (queue bound by another process, or no CAP_NET_ADMIN)" : "");
		goto out_ctl;
	}
	if (e->verbose)
		fprintf(stderr, "pathemu[q%u]: serving, control at %s\n", o.qnum, o.ctl_path);

	rc = run(e, &waitmask);
	if (rc)
		fprintf(stderr, "pathemu[q%u]: stopped on error: %s\n", o.qnum, strerror(-rc));
	else
		ret = 0;
	/* fail closed: what is still held is dropped, not released */
	if (link_queued(&e->link)) {
		link_flush(&e->link);
		drop_all_held(e);
		nfqio_flush(&e->nfq);
	}
	if (e->verbose)
		fprintf(stderr, "pathemu[q%u]: exit, %" PRIu64 " received, %" PRIu64 " sent, %" PRIu64
			" netlink errors\n", o.qnum, e->link.st.received, e->link.st.sent, e->nfq.errors);
	nfqio_close(&e->nfq);
	while (e->nclients)
		client_drop(e, e->nclients - 1);
out_ctl:
	ctlsock_close(e->ctl_fd, o.ctl_path);
out_link:
	link_free(&e->link);
out_free:
	free(e);
	return ret;
}
