// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_netwatch.c - the TLS client's view of the host's addresses
 * (client_netwatch.h). An rtnetlink event only says "something changed";
 * the client then compares a fingerprint of the addresses on the interfaces
 * that are up (the loopback and its own TUN left out, so its own set-up and
 * teardown never count) with the last one, and acts only on a real change:
 *   - connected (UDP, single path) and the socket's local address is gone:
 *     restart now ("local-address-gone") rather than after ping-restart; a
 *     multipath session is left to its data plane (failover, re-binding);
 *   - not connected (a restart pause, or a handshake begun on the old
 *     network): connect now, the failure count cleared, so a long outage's
 *     connect-retry backoff does not delay the return.
 * At most one reaction a second.
 */
#include "client/client_netwatch.h"

#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client_connect.h"
#include "client/client_state.h"
#include "os/linkmon.h"
#include "util/log.h"

#define KICK_MIN_S 1.0

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* The addresses of the interfaces that are up, but lo and our TUN; 0 if there is none. */
static uint64_t fingerprint(const struct braid_client *c, unsigned *n_addr)
{
	struct ifaddrs *list, *i;
	uint64_t h = 0;

	*n_addr = 0;
	if (getifaddrs(&list) < 0)
		return 0;
	for (i = list; i; i = i->ifa_next) {
		const struct sockaddr *a = i->ifa_addr;

		if (!a || !(i->ifa_flags & IFF_UP) || !(i->ifa_flags & IFF_RUNNING) ||
		    (i->ifa_flags & IFF_LOOPBACK) || !strcmp(i->ifa_name, c->tun.name))
			continue;
		if (a->sa_family == AF_INET) {
			h = fnv(h ? h : 14695981039346656037ull, i->ifa_name, strlen(i->ifa_name));
			h = fnv(h, &((const struct sockaddr_in *)(const void *)a)->sin_addr, 4);
		} else if (a->sa_family == AF_INET6) {
			h = fnv(h ? h : 14695981039346656037ull, i->ifa_name, strlen(i->ifa_name));
			h = fnv(h, &((const struct sockaddr_in6 *)(const void *)a)->sin6_addr, 16);
		} else {
			continue;
		}
		(*n_addr)++;
	}
	freeifaddrs(list);
	return h;
}

/* Is the UDP socket's local address still on an interface that is up? */
static bool local_gone(const struct braid_client *c)
{
	union braid_sockaddr la;
	socklen_t l = sizeof(la);

	if (c->tcp || c->ufd < 0 || getsockname(c->ufd, &la.sa, &l) < 0)
		return false;
	return braid_linkmon_addr_up(&la) == 0;
}

static void net_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;
	ev_tstamp now = ev_now(loop);
	unsigned n;
	uint64_t fp;

	(void)revents;
	if (braid_linkmon_drain(c->nl_fd) <= 0)
		return;
	fp = fingerprint(c, &n);
	if (fp == c->net_fp)
		return;
	c->net_fp = fp;
	if (c->exit_req || c->restart_reason || !n || now - c->net_kick < KICK_MIN_S)
		return;
	if (c->st == CS_UP) {
		/* multipath: one path's address going is the data plane's business (it fails the path
		 * over and re-binds it); the session never drops while another path works, and if all
		 * are gone ping-restart reconnects */
		if (c->mp || !local_gone(c))
			return;
		c->net_kick = now;
		braid_info("network change: the local address of the link is gone; reconnecting now");
		c->next_pause = 0;
		client_request_restart(c, "local-address-gone", false);
		return;
	}
	c->net_kick = now;
	c->failures = 0;
	if (ev_is_active(&c->retry_t)) {
		braid_info("network change (%u address(es) up): connecting now", n);
		ev_timer_stop(loop, &c->retry_t);
		client_start_connect(c);
		return;
	}
	braid_info("network change (%u address(es) up): starting the connection again", n);
	c->next_pause = 0;
	client_request_restart(c, "network-change", false);
}

void client_netwatch_start(struct braid_client *c)
{
	unsigned n;
	int r = braid_linkmon_open(&c->nl_fd);

	if (r) {
		c->nl_fd = -1;
		braid_warn("cannot follow the host's addresses (rtnetlink: %s): reconnects wait for "
			   "ping-restart and connect-retry", strerror(-r));
		return;
	}
	c->net_fp = fingerprint(c, &n);
	ev_io_init(&c->nl_r, net_cb, c->nl_fd, EV_READ);
	c->nl_r.data = c;
	ev_io_start(c->loop, &c->nl_r);
}

void client_netwatch_stop(struct braid_client *c)
{
	if (c->nl_fd < 0)
		return;
	ev_io_stop(c->loop, &c->nl_r);
	close(c->nl_fd);
	c->nl_fd = -1;
}
