/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - the braidd processes braid-helper started: one per Connect, each
 * in its own root-owned directory under the run directory with the checked
 * profile, braidd's log and the management socket only its user may open.
 */
#ifndef BRAID_HELPER_SESSION_H
#define BRAID_HELPER_SESSION_H

#include <stddef.h>
#include <sys/types.h>
#include <systemd/sd-event.h>

#define BH_SESSIONS_PER_USER	4
#define BH_SESSIONS_MAX		32

struct bh_session {
	struct bh_session *next;
	char id[24];		/* "1", "2", ...: never reused while the helper runs */
	char name[64];		/* the caller's label for List (printable ASCII) */
	char dir[256];		/* RUNDIR/ID, root 0711 */
	char sock[300];		/* DIR/mgmt.sock, 0666, braidd checks the peer's uid */
	uid_t uid;
	pid_t pid;
	sd_event_source *child;
};

struct bh_config {
	const char *braidd;	/* the braidd binary (default /usr/sbin/braidd) */
	const char *rundir;	/* default /run/braid-helper */
};

/* Called when a session's braidd has exited, before the session is freed. */
typedef void (*bh_session_ended_fn)(const struct bh_session *s, int status, void *arg);

void bh_sessions_init(const struct bh_config *cfg, sd_event *ev, bh_session_ended_fn ended, void *arg);

/*
 * Starts braidd for uid with the (already checked) profile; waits until the
 * management socket exists. Returns 0 and *out, or -errno with why[] filled
 * (braidd's last log line when it exited at once).
 */
int bh_session_start(uid_t uid, const char *name, const char *profile, size_t len,
		     struct bh_session **out, char *why, size_t whylen);

struct bh_session *bh_session_find(const char *id);
struct bh_session *bh_session_first(void);
unsigned bh_sessions_of(uid_t uid);
int bh_session_stop(struct bh_session *s);	/* SIGTERM; the exit is reaped later */
void bh_sessions_stop_all(void);		/* at the helper's exit: SIGTERM, wait, remove */

#endif
