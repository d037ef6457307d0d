/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sdnotify.h - systemd's service notification protocol (sd_notify(3)), spoken
 * directly: one datagram per state change to $NOTIFY_SOCKET, and the watchdog
 * keep-alive as a libev timer on the role's loop (so a stuck loop misses it).
 * Without $NOTIFY_SOCKET every call is a no-op.
 */
#ifndef BRAID_SDNOTIFY_H
#define BRAID_SDNOTIFY_H

#include <stdbool.h>

struct ev_loop;

/*
 * Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID and connects the socket
 * (call before a chroot or privilege drop: the path is resolved here). 0 (also
 * when there is no socket) or -errno.
 */
int braid_sd_init(void);
/* Is a notification socket connected? */
bool braid_sd_enabled(void);
/* Watchdog interval in microseconds (0 = none). */
unsigned long long braid_sd_watchdog_usec(void);

/* READY=1 + MAINPID + STATUS=..., and the watchdog timer on loop (once). */
void braid_sd_ready(struct ev_loop *loop, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* STATUS=... */
void braid_sd_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* RELOADING=1 + STATUS=... (a SIGHUP restart; the next braid_sd_ready ends it). */
void braid_sd_reloading(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* STOPPING=1 + STATUS=... */
void braid_sd_stopping(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Raw message (tests, e.g. "WATCHDOG=1"); 0 or -errno (-ENOTCONN without a socket). */
int braid_sd_send(const char *msg);
/* Stops nothing on a loop; closes the socket. */
void braid_sd_close(void);

#endif /* BRAID_SDNOTIFY_H */
