// SPDX-License-Identifier: GPL-2.0-only
/*
 * sdnotify.c - the sd_notify datagram protocol without libsystemd: a
 * SOCK_DGRAM AF_UNIX socket connected once to $NOTIFY_SOCKET (a path, or
 * "@name" in the abstract namespace), "KEY=VALUE\n" lines per datagram, and
 * WATCHDOG=1 every half WATCHDOG_USEC from a timer on the role's event loop.
 */
#include "os/sdnotify.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <ev.h>

#include "util/log.h"

static int sd_fd = -1;
static unsigned long long wd_usec;
static ev_timer wd_timer;
static struct ev_loop *wd_loop;

int braid_sd_init(void)
{
	const char *path = getenv("NOTIFY_SOCKET");
	const char *wd = getenv("WATCHDOG_USEC");
	const char *wdpid = getenv("WATCHDOG_PID");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len;
	socklen_t salen;

	if (wd && (!wdpid || strtol(wdpid, NULL, 10) == (long)getpid()))
		wd_usec = strtoull(wd, NULL, 10);
	if (!path || !*path || sd_fd >= 0)
		return 0;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len >= sizeof(sa.sun_path)) {
		braid_warn("NOTIFY_SOCKET '%s' is not a socket path: no service notifications", path);
		return -EINVAL;
	}
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';	/* abstract namespace: not NUL-terminated */
	salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (path[0] == '/'));
	sd_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sd_fd < 0)
		return -errno;
	if (connect(sd_fd, (struct sockaddr *)&sa, salen)) {
		int e = -errno;

		braid_warn("NOTIFY_SOCKET '%s': %s: no service notifications", path, strerror(-e));
		close(sd_fd);
		sd_fd = -1;
		return e;
	}
	return 0;
}

bool braid_sd_enabled(void)
{
	return sd_fd >= 0;
}

unsigned long long braid_sd_watchdog_usec(void)
{
	return wd_usec;
}

int braid_sd_send(const char *msg)
{
	if (sd_fd < 0)
		return -ENOTCONN;
	if (send(sd_fd, msg, strlen(msg), MSG_NOSIGNAL) < 0) {
		int e = -errno;

		braid_dbg("sd_notify '%s': %s", msg, strerror(-e));
		return e;
	}
	return 0;
}

/* "HEAD" + "STATUS=<formatted>" in one datagram */
static void send_status(const char *head, const char *fmt, va_list ap)
{
	char msg[512];
	int n;

	if (sd_fd < 0)
		return;
	n = snprintf(msg, sizeof(msg), "%sSTATUS=", head);
	if (n < 0 || (size_t)n >= sizeof(msg))
		return;
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	for (char *p = msg + n; *p; p++)	/* one line: STATUS ends at the newline */
		if (*p == '\n')
			*p = ' ';
	braid_sd_send(msg);
}

static void wd_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)w, (void)revents;
	braid_sd_send("WATCHDOG=1");
}

void braid_sd_ready(struct ev_loop *loop, const char *fmt, ...)
{
	va_list ap;

	char head[64];

	/* MAINPID as OpenVPN sends it: after `daemon` the notifying process is the fork */
	snprintf(head, sizeof(head), "READY=1\nMAINPID=%ld\n", (long)getpid());
	va_start(ap, fmt);
	send_status(head, fmt, ap);
	va_end(ap);
	if (sd_fd < 0 || !wd_usec || !loop || wd_loop == loop)
		return;
	wd_loop = loop;
	ev_timer_init(&wd_timer, wd_cb, 0., (double)wd_usec / 2e6);
	ev_timer_again(loop, &wd_timer);
	ev_unref(loop);	/* the keep-alive alone never keeps the loop running */
	braid_sd_send("WATCHDOG=1");
}

void braid_sd_status(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	send_status("", fmt, ap);
	va_end(ap);
}

void braid_sd_reloading(const char *fmt, ...)
{
	struct timespec ts;
	char head[64];
	va_list ap;

	/* MONOTONIC_USEC: systemd 253+ (Type=notify-reload) wants it, older ones ignore it */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(head, sizeof(head), "RELOADING=1\nMONOTONIC_USEC=%llu\n",
		 (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000);
	va_start(ap, fmt);
	send_status(head, fmt, ap);
	va_end(ap);
}

void braid_sd_stopping(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	send_status("STOPPING=1\n", fmt, ap);
	va_end(ap);
}

void braid_sd_close(void)
{
	if (sd_fd >= 0)
		close(sd_fd);
	sd_fd = -1;
}
