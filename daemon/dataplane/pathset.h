/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pathset.h - the paths between the data channel and the sockets.
 *
 * A path is (socket, peer address). The data plane asks the path set which
 * path carries each outgoing packet, and tells it on which path each
 * incoming packet arrived, before and after authentication. Today the set
 * holds one path and the choice is trivial; the multipath engine (daemon/mp)
 * plugs in here: braid_pathset_select() becomes the engine's scheduling
 * decision and braid_pathset_rx_confirm() its per-path receive hook, without
 * changes to tunnel.c's packet loop.
 *
 * Peer learning follows OpenVPN's point-to-point rules:
 *  - with `remote`, packets go to the configured address;
 *  - without, the peer is learned from the first *authenticated* packet
 *    (an unauthenticated one never moves it);
 *  - once known, datagrams from another address are dropped before
 *    decryption unless `float` is set; with `float`, an authenticated packet
 *    from a new address moves the peer there.
 */
#ifndef BRAID_PATHSET_H
#define BRAID_PATHSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/sock.h"

#define BRAID_PATHSET_MAX 8

struct braid_path {
	int fd;				/* the socket this path uses */
	union braid_sockaddr peer;	/* valid when has_peer */
	bool has_peer;
	uint64_t tx_packets, tx_bytes;
	uint64_t rx_packets, rx_bytes;	/* authenticated only */
};

struct braid_pathset {
	struct braid_path path[BRAID_PATHSET_MAX];
	unsigned int n;
	bool float_ok;
	uint64_t rx_wrong_peer;		/* dropped before decryption: not our peer */
	uint64_t peer_changes;
};

/* One path on socket fd; remote (NULL = learn the peer) in the socket's family. */
void braid_pathset_init(struct braid_pathset *ps, int fd, const union braid_sockaddr *remote,
			bool float_ok);
/* Restart: forget or reset the peer (remote NULL = learn again). Counters stay. */
void braid_pathset_reset(struct braid_pathset *ps, const union braid_sockaddr *remote);

/* TX: the path for this packet, or -EDESTADDRREQ while no peer is known. */
int braid_pathset_select(struct braid_pathset *ps, const uint8_t *pkt, size_t len);
/* Account a sent packet. */
void braid_pathset_tx_done(struct braid_pathset *ps, int path, size_t len);

/*
 * RX before authentication: the path a datagram from `from` on socket fd
 * belongs to, or -EPERM (counted) if it must be dropped unread.
 */
int braid_pathset_rx_lookup(struct braid_pathset *ps, int fd, const union braid_sockaddr *from);
/*
 * RX after authentication: learn or float the peer. Returns 1 if the peer
 * address changed (old address in *old if non-NULL), else 0.
 */
int braid_pathset_rx_confirm(struct braid_pathset *ps, int path, const union braid_sockaddr *from,
			     size_t len, union braid_sockaddr *old, bool *had_peer);

#endif /* BRAID_PATHSET_H */
