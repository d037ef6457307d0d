// SPDX-License-Identifier: GPL-2.0-only
/*
 * authorize.h - braid-helper's polkit check, asynchronous: CheckAuthorization
 * (interactive: an agent may ask the user for a password) is sent and the
 * helper's event loop keeps serving other callers until polkit answers.
 */
#ifndef BH_AUTHORIZE_H
#define BH_AUTHORIZE_H

#include <systemd/sd-bus.h>

#define BH_AUTH_PENDING_MAX	16	/* checks waiting for polkit at once (each holds a profile) */
#define BH_AUTH_TIMEOUT_S	300	/* a password prompt left open longer is a denial */

/*
 * done(arg, NULL) when polkit said yes; done(arg, error) otherwise, error a
 * net.braid.Helper1.Error.NotAuthorized with the reason (valid during the call).
 */
typedef void (*bh_auth_done_fn)(void *arg, const sd_bus_error *error);

/*
 * Ask polkit whether the sender of call may do action. 0: asked, done will be
 * called exactly once (also by bh_authorize_cancel_all); -EBUSY when
 * BH_AUTH_PENDING_MAX checks wait already; other -errno: not asked, done not called.
 */
int bh_authorize(sd_bus *bus, sd_bus_message *call, const char *action, bh_auth_done_fn done, void *arg);

/* checks still waiting (tests, limits) */
unsigned bh_authorize_pending(void);

/* at exit: every waiting check is answered with a denial ("the helper is stopping") */
void bh_authorize_cancel_all(void);

#endif
