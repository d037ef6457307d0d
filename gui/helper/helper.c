// SPDX-License-Identifier: GPL-2.0-only
/*
 * helper.c - braid-helper: the privileged helper of braid-gui on the D-Bus
 * system bus (net.braid.Helper1, object /net/braid/Helper1).
 *
 *   Connect(s profile, a{sv} options) -> (s id, s socket)
 *       polkit action net.braid.connect for the caller (asynchronous,
 *       authorize.c: other calls are served during a password prompt), then the allow-list
 *       check (profile_check.c), then braidd as root with the management
 *       socket only the caller may open (session.c).
 *   Disconnect(s id)              the caller's own sessions only (root: any)
 *   List() -> a(sssu)             the caller's sessions: id, name, socket, pid
 *   signal Ended(s id, i status)  a session's braidd exited
 *
 * The caller is the bus's word for the sender (GetConnectionUnixUser), never
 * anything the message says. Errors are net.braid.Helper1.Error.*.
 */
#include "authorize.h"
#include "profile_check.h"
#include "session.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#define BH_NAME		"net.braid.Helper1"
#define BH_PATH		"/net/braid/Helper1"
#define BH_ERR		"net.braid.Helper1.Error."
#define BH_ACTION	"net.braid.connect"

static sd_bus *bus;

static int caller_uid(sd_bus_message *m, uid_t *uid, sd_bus_error *e)
{
	sd_bus_message *r = NULL;
	uint32_t u;
	int rc;

	rc = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
				"GetConnectionUnixUser", e, &r, "s", sd_bus_message_get_sender(m));
	if (rc >= 0)
		rc = sd_bus_message_read(r, "u", &u);
	sd_bus_message_unref(r);
	if (rc < 0)
		return rc;
	*uid = u;
	return 0;
}

/* options: "name" (s) only; anything else is refused so a newer GUI's wish is never silently dropped */
static int read_options(sd_bus_message *m, char *name, size_t namelen, sd_bus_error *e)
{
	int rc = sd_bus_message_enter_container(m, 'a', "{sv}");

	if (rc < 0)
		return rc;
	while ((rc = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key, *val;
		if ((rc = sd_bus_message_read(m, "s", &key)) < 0)
			return rc;
		if (strcmp(key, "name")) {
			sd_bus_error_setf(e, BH_ERR "InvalidArgs", "unknown option '%s'", key);
			return -EINVAL;
		}
		if ((rc = sd_bus_message_read(m, "v", "s", &val)) < 0)
			return rc;
		size_t i;
		for (i = 0; val[i] && i + 1 < namelen; i++)	/* printable ASCII for the logs */
			name[i] = (val[i] >= 0x20 && val[i] < 0x7f) ? val[i] : '?';
		name[i] = '\0';
		if ((rc = sd_bus_message_exit_container(m)) < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	return sd_bus_message_exit_container(m);
}

/* a Connect waiting for polkit (authorize.c): the call, its caller and a copy of the profile */
struct connect_req {
	sd_bus_message *call;
	uid_t uid;
	char name[64];
	size_t len;
	char text[];
};

static void reply_error(sd_bus_message *m, const char *name, const char *fmt, const char *arg)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;

	sd_bus_error_setf(&e, name, fmt, arg);
	sd_bus_reply_method_error(m, &e);
	sd_bus_error_free(&e);
}

/* polkit answered: the allow list, the limits, then braidd */
static void connect_authorized(void *arg, const sd_bus_error *denied)
{
	struct connect_req *q = arg;
	struct bh_check_err ce;
	struct bh_session *s;
	char why[512] = "", lim[96];
	unsigned total = 0;
	int rc;

	if (denied) {
		sd_bus_reply_method_error(q->call, denied);
		goto out;
	}
	if (bh_profile_check(q->text, q->len, &ce)) {
		fprintf(stderr, "braid-helper: uid %u: profile refused: %s\n", (unsigned)q->uid, ce.msg);
		reply_error(q->call, BH_ERR "Refused", "%s", ce.msg);
		goto out;
	}
	if (bh_sessions_of(q->uid) >= BH_SESSIONS_PER_USER) {
		snprintf(lim, sizeof(lim), "uid %u has %d sessions already", (unsigned)q->uid, BH_SESSIONS_PER_USER);
		reply_error(q->call, BH_ERR "Limit", "%s", lim);
		goto out;
	}
	for (struct bh_session *i = bh_session_first(); i; i = i->next)
		total++;
	if (total >= BH_SESSIONS_MAX) {
		snprintf(lim, sizeof(lim), "the helper runs %d sessions already", BH_SESSIONS_MAX);
		reply_error(q->call, BH_ERR "Limit", "%s", lim);
		goto out;
	}
	rc = bh_session_start(q->uid, q->name, q->text, q->len, &s, why, sizeof(why));
	if (rc)
		reply_error(q->call, BH_ERR "Failed", "%s", why[0] ? why : strerror(-rc));
	else
		sd_bus_reply_method_return(q->call, "ss", s->id, s->sock);
out:
	sd_bus_message_unref(q->call);
	free(q);
}

/* Connect: read the call, then ask polkit without blocking; the reply comes from connect_authorized() */
static int m_connect(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	struct connect_req *q;
	char name[64] = "";
	const void *text;
	size_t len;
	uid_t uid;
	int rc;

	(void)ud;
	if ((rc = caller_uid(m, &uid, e)) < 0)
		return rc;
	if ((rc = sd_bus_message_read_array(m, 'y', &text, &len)) < 0)
		return rc;
	if ((rc = read_options(m, name, sizeof(name), e)) < 0)
		return rc;
	if (len > BH_PROFILE_MAX)	/* the copy below is bounded; the allow list says the same after polkit */
		return sd_bus_error_setf(e, BH_ERR "Refused", "the profile is over %u bytes", BH_PROFILE_MAX);
	q = malloc(sizeof(*q) + len);
	if (!q)
		return -ENOMEM;
	q->call = sd_bus_message_ref(m);
	q->uid = uid;
	memcpy(q->name, name, sizeof(q->name));
	q->len = len;
	memcpy(q->text, text, len);
	rc = bh_authorize(bus, m, BH_ACTION, connect_authorized, q);
	if (rc < 0) {
		sd_bus_message_unref(q->call);
		free(q);
		if (rc == -EBUSY)
			return sd_bus_error_setf(e, BH_ERR "Limit", "%d connections wait for polkit already; try again",
						 BH_AUTH_PENDING_MAX);
		return sd_bus_error_setf(e, BH_ERR "NotAuthorized", "polkit could not be asked for %s: %s", BH_ACTION,
					 strerror(-rc));
	}
	return 1;	/* answered later */
}

static int m_disconnect(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	struct bh_session *s;
	const char *id;
	uid_t uid;
	int rc;

	(void)ud;
	if ((rc = caller_uid(m, &uid, e)) < 0)
		return rc;
	if ((rc = sd_bus_message_read(m, "s", &id)) < 0)
		return rc;
	s = bh_session_find(id);
	if (!s || (uid != 0 && s->uid != uid))	/* another user's session does not exist for you */
		return sd_bus_error_setf(e, BH_ERR "NoSession", "no session '%s' of yours", id);
	if ((rc = bh_session_stop(s)) < 0)
		return sd_bus_error_setf(e, BH_ERR "Failed", "stopping braidd: %s", strerror(-rc));
	return sd_bus_reply_method_return(m, "");
}

static int m_list(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	sd_bus_message *r = NULL;
	uid_t uid;
	int rc;

	(void)ud;
	if ((rc = caller_uid(m, &uid, e)) < 0)
		return rc;
	if ((rc = sd_bus_message_new_method_return(m, &r)) < 0)
		return rc;
	rc = sd_bus_message_open_container(r, 'a', "(sssu)");
	for (struct bh_session *s = bh_session_first(); s && rc >= 0; s = s->next)
		if (uid == 0 || s->uid == uid)
			rc = sd_bus_message_append(r, "(sssu)", s->id, s->name, s->sock, (uint32_t)s->pid);
	if (rc >= 0)
		rc = sd_bus_message_close_container(r);
	if (rc >= 0)
		rc = sd_bus_send(NULL, r, NULL);
	sd_bus_message_unref(r);
	return rc;
}

static const sd_bus_vtable vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_ARGS("Connect", SD_BUS_ARGS("ay", profile, "a{sv}", options),
				SD_BUS_RESULT("s", id, "s", socket), m_connect, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Disconnect", SD_BUS_ARGS("s", id), SD_BUS_NO_RESULT, m_disconnect,
				SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("List", SD_BUS_NO_ARGS, SD_BUS_RESULT("a(sssu)", sessions), m_list,
				SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL_WITH_ARGS("Ended", SD_BUS_ARGS("s", id, "i", status), 0),
	SD_BUS_VTABLE_END
};

static void ended(const struct bh_session *s, int status, void *arg)
{
	(void)arg;
	sd_bus_emit_signal(bus, BH_PATH, BH_NAME, "Ended", "si", s->id, status);
}

/* SIGTERM/SIGINT: answer the Connects still waiting for polkit while the bus is open (sd-bus closes it when
 * the event loop exits), then leave the loop */
static int on_term(sd_event_source *s, const struct signalfd_siginfo *si, void *ud)
{
	(void)si;
	(void)ud;
	bh_authorize_cancel_all();
	sd_bus_flush(bus);
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

static void usage(void)
{
	printf("Usage: braid-helper [--braidd PATH] [--rundir DIR]\n"
	       "braid-gui's privileged helper on the D-Bus system bus (" BH_NAME "); runs as root,\n"
	       "started by D-Bus activation. DBUS_SYSTEM_BUS_ADDRESS names another bus (tests).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "braidd", required_argument, NULL, 'b' },
		{ "rundir", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bh_config cfg = { "/usr/sbin/braidd", "/run/braid-helper" };
	sd_event *ev = NULL;
	sigset_t ss;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': cfg.braidd = optarg; break;
		case 'r': cfg.rundir = optarg; break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
	}
	sigemptyset(&ss);
	sigaddset(&ss, SIGCHLD);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	umask(0077);
	rc = sd_event_default(&ev);
	if (rc >= 0)
		rc = sd_event_add_signal(ev, NULL, SIGTERM, on_term, NULL);
	if (rc >= 0)
		rc = sd_event_add_signal(ev, NULL, SIGINT, on_term, NULL);
	if (rc >= 0)
		rc = sd_bus_open_system(&bus);
	if (rc >= 0)
		rc = sd_bus_add_object_vtable(bus, NULL, BH_PATH, BH_NAME, vtable, NULL);
	if (rc >= 0)
		rc = sd_bus_request_name(bus, BH_NAME, 0);
	if (rc >= 0)
		rc = sd_bus_attach_event(bus, ev, 0);
	if (rc < 0) {
		fprintf(stderr, "braid-helper: cannot serve %s on the system bus: %s\n", BH_NAME, strerror(-rc));
		return 1;
	}
	bh_sessions_init(&cfg, ev, ended, NULL);
	fprintf(stderr, "braid-helper: serving %s (braidd %s, run directory %s)\n", BH_NAME, cfg.braidd,
		cfg.rundir);
	rc = sd_event_loop(ev);
	bh_authorize_cancel_all();	/* none left after on_term; a loop ended otherwise frees them here */
	bh_sessions_stop_all();
	sd_bus_flush_close_unref(bus);
	sd_event_unref(ev);
	return rc < 0 ? 1 : 0;
}
