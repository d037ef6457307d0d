/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_sock.h - sockets and paths of the multipath data plane (mpath_sock.c),
 * internal to the mpath files.
 */
#ifndef BRAID_MPATH_SOCK_H
#define BRAID_MPATH_SOCK_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/mpath_int.h"

/* Path MTU discovery on a path socket: probe (DF, the engine searches) or off. 0 or -errno. */
int mpath_set_pmtudisc(int fd, int family, bool probe);

/* "N (local -> remote)" for the logs, in buf. */
const char *mpath_ep_str(const struct braid_mpath *m, int i, char *buf, size_t len);
/* Add the path (socket, peer) to the engine: its index or -errno. */
int mpath_ep_add(struct braid_mpath *m, int sock, const union braid_sockaddr *peer, bool learned,
		 uint64_t now);
void mpath_ep_del(struct braid_mpath *m, int i, uint64_t now, const char *why);
/* The path of (socket, from) or -ENOENT. */
int mpath_ep_find(const struct braid_mpath *m, int sock, const union braid_sockaddr *from);
/* A learned path that has been failed longest, to make room; -1 if none. */
int mpath_ep_victim(const struct braid_mpath *m);

/* Send the batch; per-datagram results go to the path counters. */
void mpath_tx_flush(struct braid_mpath *m);
/* Queue one datagram for the batch: pkt must stay valid until mpath_tx_flush(). */
void mpath_send_on(struct braid_mpath *m, int path, const uint8_t *pkt, size_t len);

/* A free socket slot (counted in n_sock), or -ENOSPC. */
int mpath_sock_slot(struct braid_mpath *m);
/* Log and set the options of a freshly bound path socket (s->fd, s->local). */
void mpath_sock_setup(struct braid_mpath *m, struct msock *s);
/* A socket of the caller's as the only path socket (braid_mpath_new_shared). 0 or -errno. */
int mpath_shared_sock(struct braid_mpath *m, int fd);

#endif /* BRAID_MPATH_SOCK_H */
