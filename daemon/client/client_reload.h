/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_reload.h - the TLS client's live reload (client_reload.c), started
 * by the reload signal (session/reload.h); the session is kept.
 */
#ifndef BRAID_CLIENT_RELOAD_H
#define BRAID_CLIENT_RELOAD_H

struct braid_client;

/* Watch the reload signal for c (after braid_client_new). */
void client_reload_listen(struct braid_client *c);
/* Stop watching it (before braid_client_free). */
void client_reload_unlisten(struct braid_client *c);

#endif /* BRAID_CLIENT_RELOAD_H */
