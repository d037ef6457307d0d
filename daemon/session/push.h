/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * push.h - the push/pull control-message layer (fact sheet §6), shared by
 * the TLS client and the gateway. The messages are in push_msg.h, what a
 * reply configures in push_types.h, applying it in push_apply.h; this header
 * includes them all and declares the parser (push.c).
 *
 *   server: option list --braid_push_split--> "PUSH_REPLY,a,b,...,push-continuation 2"
 *                                               ... "PUSH_REPLY,...,push-continuation 1"
 *   client: "PUSH_REPLY,..." --braid_push_accumulate--> option list (until the last part)
 *           --braid_push_filter (pull-filter, route-nopull)--> --braid_push_parse--> braid_pushed
 *           --braid_push_apply--> addresses and routes on the TUN (braid_push_unapply undoes it)
 *
 * Messages are comma-separated options; options never contain commas. A
 * message is at most BRAID_PUSH_MSG_MAX bytes (without the NUL). A reply
 * without `push-continuation` is complete; `push-continuation 2` means more
 * parts follow, `push-continuation 1` marks the last one.
 */
#ifndef BRAID_PUSH_H
#define BRAID_PUSH_H

#include <stddef.h>

#include "session/push_apply.h"
#include "session/push_msg.h"
#include "session/push_types.h"

void braid_pushed_free(struct braid_pushed *p);

/*
 * Parse a (filtered) list into *out. Unknown options are logged and
 * skipped, as OpenVPN does for pushed options; a malformed known option
 * (bad address, bad number) fails: -EINVAL with err naming it.
 */
int braid_push_parse(const struct braid_push_list *l, struct braid_pushed *out, char *err,
		     size_t err_len);

#endif /* BRAID_PUSH_H */
