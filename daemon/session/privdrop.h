/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * privdrop.h - `user`, `group` and `chroot`: the privilege drop at the end of
 * set-up (gateway, p2p: after the TUN device is open and the sockets are
 * bound, main.c; the TLS client: after its first connection, as OpenVPN,
 * client_setup.c), keeping only the capabilities braidd still needs
 * afterwards (docs/braidd.md "Privileges": the capability table).
 *
 * Order, as OpenVPN's do_uid_gid_chroot plus the capability step:
 *   chroot DIR (+ chdir /), PR_SET_KEEPCAPS, setgroups(1, {gid}),
 *   setresgid, setresuid, capset(kept set) and the ambient set cleared.
 * The user and group were resolved by the options' finalize (uid/gid).
 */
#ifndef BRAID_PRIVDROP_H
#define BRAID_PRIVDROP_H

#include <stdint.h>

#include "config/options.h"

/* The capabilities kept after the drop (bit numbers of linux/capability.h). */
#define BRAID_PRIVDROP_CAP_NET_ADMIN (1ull << 12)
#define BRAID_PRIVDROP_CAP_NET_BIND_SERVICE (1ull << 10)
#define BRAID_PRIVDROP_CAP_BPF (1ull << 39)

/*
 * The set kept for these options (docs/braidd.md "Privileges"): the TLS
 * client keeps CAP_NET_ADMIN (it installs the pushed addresses and routes
 * again at every reconnect and removes them at restart and exit), plus
 * CAP_NET_BIND_SERVICE when it re-binds an lport below 1024 at every
 * reconnect (no nobind). The gateway and the
 * point-to-point mode change nothing in the kernel after their set-up (the
 * gateway routes client networks inside braidd; multipath path sockets are
 * bound at set-up): they keep no capability.
 */
uint64_t braid_privdrop_keep(const struct braid_options *o);

/*
 * Drop privileges as configured (nothing if neither user, group nor chroot).
 * Logs what it did and what restarts keep. 0 or -errno (the daemon must
 * exit: it would otherwise run with more rights than configured).
 */
int braid_privdrop_apply(const struct braid_options *o);

#endif /* BRAID_PRIVDROP_H */
