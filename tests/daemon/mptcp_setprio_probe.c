// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_setprio_probe.c - does this kernel take the userspace path
 * manager's SET_FLAGS by token (os/mptcp_pm.h braid_mptcp_pm_set_prio)?
 * Run as root in a namespace of its own (the 6.1 VM: tests/bpf/vm_core.sh):
 * sets net.mptcp.pm_type=1, brings lo up, opens an MPTCP connection
 * 127.0.0.1 -> 127.0.0.1, takes the client connection's token from the
 * path manager's events, sets its subflow backup by token (local and remote
 * address and port) and waits for the listener's end to report the MP_PRIO
 * it received (a sub-priority event with backup, other token). 0 passed.
 */
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "os/mptcp_pm.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static uint32_t cli_token, prio_token;
static int prio_backup = -1;

static void on_event(const struct braid_mptcp_pm_msg *m, void *arg)
{
	(void)arg;
	if ((m->cmd == BRAID_MPTCP_EV_CREATED || m->cmd == BRAID_MPTCP_EV_ESTABLISHED) &&
	    !m->server_side && !cli_token)
		cli_token = m->token;
	if (m->cmd == BRAID_MPTCP_EV_SUB_PRIORITY) {
		prio_token = m->token;
		prio_backup = m->backup;
	}
}

static int wait_events(int fd, int ms, int (*done)(void))
{
	for (int i = 0; i < ms / 50 && !done(); i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 50) > 0 && braid_mptcp_pm_events_read(fd, on_event, NULL) < 0)
			return -EIO;
	}
	return done() ? 0 : -ETIMEDOUT;
}

static int have_token(void) { return cli_token != 0; }
static int have_prio(void) { return prio_backup >= 0; }

static void endp(int fd, bool peer, struct braid_mptcp_endp *e)
{
	struct sockaddr_in a;
	socklen_t l = sizeof(a);

	memset(e, 0, sizeof(*e));
	if (peer)
		getpeername(fd, (struct sockaddr *)&a, &l);
	else
		getsockname(fd, (struct sockaddr *)&a, &l);
	e->family = AF_INET;
	e->addr.v4 = a.sin_addr;
	e->port = ntohs(a.sin_port);
}

int main(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	struct braid_mptcp_endp l, r;
	struct braid_mptcp_pm *pm;
	struct ifreq ifr = { .ifr_name = "lo" };
	int ls, cs, as, ev, s = socket(AF_INET, SOCK_DGRAM, 0), rc;
	FILE *f = fopen("/proc/sys/net/mptcp/pm_type", "w");

	if (!f || fprintf(f, "1\n") < 0 || fclose(f)) {
		printf("FAIL: cannot set net.mptcp.pm_type=1 (%s)\n", strerror(errno));
		return 1;
	}
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	rc = braid_mptcp_pm_open(&pm);
	ev = rc ? rc : braid_mptcp_pm_events_open(pm);
	if (rc || ev < 0) {
		printf("FAIL: mptcp_pm netlink family / events: %s\n", strerror(-(rc ? rc : ev)));
		return 1;
	}
	ls = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	cs = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	if (ls < 0 || cs < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1) ||
	    getsockname(ls, (struct sockaddr *)&sa, &sl) || connect(cs, (struct sockaddr *)&sa, sizeof(sa)) ||
	    (as = accept(ls, NULL, NULL)) < 0 || write(cs, "x", 1) != 1) {
		printf("FAIL: MPTCP connection on lo: %s\n", strerror(errno));
		return 1;
	}
	if (wait_events(ev, 5000, have_token)) {
		printf("FAIL: no created/established event of the client connection\n");
		return 1;
	}
	endp(cs, false, &l);
	endp(cs, true, &r);
	rc = braid_mptcp_pm_set_prio(pm, cli_token, &l, &r, true);
	printf("SET_FLAGS token %08x 127.0.0.1 port %u -> port %u backup: %d (%s)\n", cli_token, l.port,
	       r.port, rc, rc ? strerror(-rc) : "accepted");
	if (rc)
		return 1;
	if (wait_events(ev, 5000, have_prio)) {
		printf("FAIL: the listener's end reported no MP_PRIO (sub-priority event)\n");
		return 1;
	}
	printf("sub-priority event: token %08x backup %d\n", prio_token, prio_backup);
	if (prio_backup != 1 || prio_token == cli_token) {
		printf("FAIL: want the peer's token with backup 1\n");
		return 1;
	}
	printf("ok: SET_FLAGS by token accepted, MP_PRIO backup received by the peer\n");
	close(as);
	close(cs);
	close(ls);
	braid_mptcp_pm_close(pm);
	return 0;
}
