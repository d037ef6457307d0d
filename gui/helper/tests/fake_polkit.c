// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake_polkit.c - a stand-in for polkitd in helper.polkit_async: owns
 * org.freedesktop.PolicyKit1 and answers CheckAuthorization "authorized" only
 * after --delay-ms, as polkit does while its agent shows a password prompt.
 * It writes one line per check to stdout ("check <action> <subject>") so the
 * test can see the question was asked. Test tool only.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

static sd_event *ev;
static uint64_t delay_us = 3000000;

static int answer(sd_event_source *s, uint64_t usec, void *ud)
{
	sd_bus_message *m = ud;

	(void)usec;
	sd_bus_reply_method_return(m, "(bba{ss})", 1, 0, 0);
	sd_bus_message_unref(m);
	sd_event_source_unref(s);
	return 0;
}

static int m_check(sd_bus_message *m, void *ud, sd_bus_error *e)
{
	const char *kind, *key, *subject = "?", *action;
	uint64_t now;
	int rc;

	(void)ud;
	(void)e;
	if ((rc = sd_bus_message_enter_container(m, 'r', "sa{sv}")) < 0 ||
	    (rc = sd_bus_message_read(m, "s", &kind)) < 0 ||
	    (rc = sd_bus_message_enter_container(m, 'a', "{sv}")) < 0)
		return rc;
	while ((rc = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		if ((rc = sd_bus_message_read(m, "s", &key)) < 0 || (rc = sd_bus_message_read(m, "v", "s", &subject)) < 0 ||
		    (rc = sd_bus_message_exit_container(m)) < 0)
			return rc;
	}
	if (rc < 0 || (rc = sd_bus_message_exit_container(m)) < 0 || (rc = sd_bus_message_exit_container(m)) < 0 ||
	    (rc = sd_bus_message_read(m, "s", &action)) < 0)
		return rc;
	printf("check %s %s\n", action, subject);
	fflush(stdout);
	sd_event_now(ev, CLOCK_MONOTONIC, &now);
	rc = sd_event_add_time(ev, NULL, CLOCK_MONOTONIC, now + delay_us, 0, answer, sd_bus_message_ref(m));
	return rc < 0 ? rc : 1;
}

static const sd_bus_vtable vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("CheckAuthorization", "(sa{sv})sa{ss}us", "(bba{ss})", m_check, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

int main(int argc, char **argv)
{
	sd_bus *bus = NULL;
	sigset_t ss;
	int rc;

	if (argc == 3 && !strcmp(argv[1], "--delay-ms"))
		delay_us = strtoull(argv[2], NULL, 10) * 1000u;
	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigprocmask(SIG_BLOCK, &ss, NULL);
	rc = sd_event_default(&ev);
	if (rc >= 0)
		rc = sd_event_add_signal(ev, NULL, SIGTERM, NULL, NULL);
	if (rc >= 0)
		rc = sd_bus_open_system(&bus);
	if (rc >= 0)
		rc = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/PolicyKit1/Authority",
					      "org.freedesktop.PolicyKit1.Authority", vtable, NULL);
	if (rc >= 0)
		rc = sd_bus_request_name(bus, "org.freedesktop.PolicyKit1", 0);
	if (rc >= 0)
		rc = sd_bus_attach_event(bus, ev, 0);
	if (rc < 0) {
		fprintf(stderr, "fake_polkit: %s\n", strerror(-rc));
		return 1;
	}
	rc = sd_event_loop(ev);
	sd_bus_flush_close_unref(bus);
	sd_event_unref(ev);
	return rc < 0 ? 1 : 0;
}
