/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctlcmd.h - the control protocol: one text command in, one reply line out ("ok ..." or "error: <reason>").
 *   set rate=M delay=MS jitter=MS loss=PCT ge=p,r,1-k,1-h|off qms=MS qpkts=N batch=US   (any non-empty subset)
 *   down | blackhole | up | stats | quit
 */
#ifndef PATHEMU_CTLCMD_H
#define PATHEMU_CTLCMD_H

#include <stddef.h>

#include "link.h"

enum ctl_action {
	CTL_NONE,     /* nothing more to do */
	CTL_FLUSHED,  /* the link dropped what it held: tell the kernel to drop every held packet */
	CTL_QUIT,     /* leave the main loop */
};

/* Execute one command on l; reply gets one line without newline. Never fails: errors go into reply. */
enum ctl_action ctlcmd_exec(struct link *l, const char *req, char *reply, size_t len);

#endif
