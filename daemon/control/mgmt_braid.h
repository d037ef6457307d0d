/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_braid.h - the management interface's multipath extension
 * (mgmt_braid.c): the `braid ...` commands and the >BRAID-PATH: events,
 * specified in docs/management.md "Braid extensions" and gui/README.md
 * (the GUI's contract). A stock client never sees any of it unless it
 * sends `braid ...`.
 */
#ifndef BRAID_MGMT_BRAID_H
#define BRAID_MGMT_BRAID_H

#include "control/mgmt_int.h"

/* Answer `braid ...` (a->argv[0] is "braid"). */
void mgmt_braid_cmd(struct mgmt_conn *k, const struct braid_mgmt_argv *a);
/* The event poll follows the role's loop: stop it (the role ends) / start it again if wanted. */
void mgmt_braid_detach(struct braid_mgmt *m);
void mgmt_braid_attach(struct braid_mgmt *m);
/* Free what the extension holds (m is destroyed). */
void mgmt_braid_free(struct braid_mgmt *m);

#endif /* BRAID_MGMT_BRAID_H */
