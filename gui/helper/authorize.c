// SPDX-License-Identifier: GPL-2.0-only
/*
 * authorize.c - polkit's CheckAuthorization for braid-helper, asynchronous
 * (see authorize.h). While a user types a password into the polkit agent the
 * helper keeps answering List, Disconnect and other users' Connect.
 */
#include "authorize.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BH_ERR_NOT_AUTH	"net.braid.Helper1.Error.NotAuthorized"

struct pending {
	struct pending *next;
	sd_bus_slot *slot;
	const char *action;
	bh_auth_done_fn done;
	void *arg;
};

static struct pending *pending;
static unsigned npending;

static void unlink_pending(struct pending *p)
{
	for (struct pending **pp = &pending; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			npending--;
			return;
		}
}

static void finish(struct pending *p, const sd_bus_error *error)
{
	unlink_pending(p);
	p->slot = sd_bus_slot_unref(p->slot);
	p->done(p->arg, error);
	free(p);
}

static int answered(sd_bus_message *r, void *ud, sd_bus_error *ret)
{
	struct pending *p = ud;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int is_auth = 0, is_challenge = 0, rc;

	(void)ret;
	if (sd_bus_message_is_method_error(r, NULL)) {
		const sd_bus_error *pe = sd_bus_message_get_error(r);
		fprintf(stderr, "braid-helper: polkit CheckAuthorization failed: %s\n",
			pe && pe->message ? pe->message : "(no message)");
		sd_bus_error_setf(&e, BH_ERR_NOT_AUTH, "polkit could not be asked for %s: %s", p->action,
				  pe && pe->message ? pe->message : "(no message)");
		goto out;
	}
	rc = sd_bus_message_enter_container(r, 'r', "bba{ss}");
	if (rc >= 0)
		rc = sd_bus_message_read(r, "bb", &is_auth, &is_challenge);
	if (rc < 0) {
		fprintf(stderr, "braid-helper: polkit's answer unreadable: %s\n", strerror(-rc));
		sd_bus_error_setf(&e, BH_ERR_NOT_AUTH, "polkit could not be asked for %s: %s", p->action,
				  strerror(-rc));
	} else if (!is_auth) {
		sd_bus_error_setf(&e, BH_ERR_NOT_AUTH, "not authorized by polkit for %s%s", p->action,
				  is_challenge ? " (authentication was needed and not given)" : "");
	}
out:
	finish(p, sd_bus_error_is_set(&e) ? &e : NULL);
	sd_bus_error_free(&e);
	return 0;
}

int bh_authorize(sd_bus *bus, sd_bus_message *call, const char *action, bh_auth_done_fn done, void *arg)
{
	sd_bus_message *q = NULL;
	struct pending *p;
	int rc;

	if (npending >= BH_AUTH_PENDING_MAX)
		return -EBUSY;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->action = action;
	p->done = done;
	p->arg = arg;
	rc = sd_bus_message_new_method_call(bus, &q, "org.freedesktop.PolicyKit1", "/org/freedesktop/PolicyKit1/Authority",
					    "org.freedesktop.PolicyKit1.Authority", "CheckAuthorization");
	if (rc >= 0)
		rc = sd_bus_message_append(q, "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s",
					   sd_bus_message_get_sender(call), action, 0, 1u /* AllowUserInteraction */, "");
	if (rc >= 0)
		rc = sd_bus_call_async(bus, &p->slot, q, answered, p, (uint64_t)BH_AUTH_TIMEOUT_S * 1000000u);
	sd_bus_message_unref(q);
	if (rc < 0) {
		free(p);
		return rc;
	}
	p->next = pending;
	pending = p;
	npending++;
	return 0;
}

unsigned bh_authorize_pending(void)
{
	return npending;
}

void bh_authorize_cancel_all(void)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;

	sd_bus_error_set(&e, BH_ERR_NOT_AUTH, "braid-helper is stopping");
	while (pending)
		finish(pending, &e);
	sd_bus_error_free(&e);
}
