/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath.h - the multipath data plane of braidd: sockets, paths and the
 * engine (daemon/mp) on the libev loop.
 *
 *   TUN --read--> mssfix --> classify --> reserve packet-id --> engine queue
 *   engine timer (braid_mp_next_deadline) --> poll_tx --> seal once
 *            (encrypt_reserved, ciphertext kept for re-sends) --> path socket
 *   socket --> decrypt (authenticated) --> learn path (new address tuple)
 *            --> control: braid_mp_rx_control / data: braid_mp_rx_data
 *            --> poll_rx (packet-id order) --> hooks.deliver (IP to the TUN, ping, OCC)
 *   rtnetlink link/address change --> braid_mp_path_link_event
 *
 * Sockets: one UDP socket per local address (`mp-path LOCAL ...`), bound to
 * it so that the host's source policy routing sends it out on its own path;
 * replies therefore leave from the address the peer sent to. Without
 * mp-path lines, one socket as in single-path mode (`local` or wildcard).
 * braid_mpath_new_shared (the gateway, one engine per multipath client):
 * the gateway's socket is the only one; the gateway reads it and hands
 * each client's datagrams in by braid_mpath_input (docs/multipath-negotiation.md).
 *
 * Paths: an engine path is (socket, peer address). Configured ones
 * (mp-path LOCAL REMOTE, or LOCAL x every `remote`) are added at start;
 * any other tuple is added only after a packet from it authenticated and
 * passed the replay check (never before decryption), and the engine carries
 * data on it only after its PATH_CHALLENGE was answered on that same path.
 * A learned path that stays failed for mp-path-timeout seconds is removed.
 *
 * Packet-ids: 64-bit engine ids are key generation << 32 | data-channel
 * packet-id; with a static key the generation is 0 (a restart recreates
 * the engine along with the data channel). With TLS the generation counts
 * key_id changes (0, 1..7, 1..7, ...): a renegotiated key's ids follow
 * every id of the key before it.
 */
#ifndef BRAID_MPATH_H
#define BRAID_MPATH_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dc/dc.h"
#include "dataplane/mssfix.h"
#include "config/options.h"
#include "os/sock.h"
#include "dataplane/tunstats.h"

#include "dataplane/mpath_types.h"
#include "dataplane/mpath_tx.h"

/*
 * Open the path sockets and the link monitor, create the engine on dc and
 * add the configured paths. mss: the tunnel's clamp (read at each packet).
 * 0 or -errno (logged).
 */
int braid_mpath_new(struct braid_mpath **out, struct ev_loop *loop, const struct braid_options *o,
		    struct braid_dc *dc, const struct braid_mssfix *mss,
		    struct braid_tunnel_stats *st, const struct braid_mpath_hooks *hooks);
/*
 * The gateway's form (docs/multipath-negotiation.md): the one path socket is
 * fd, the caller's (shared by many sessions, never read or closed here);
 * no configured paths: every path is learned from an authenticated packet
 * the caller hands to braid_mpath_input() and validated by PATH_CHALLENGE.
 * name: log prefix for this session. 0 or -errno.
 */
int braid_mpath_new_shared(struct braid_mpath **out, struct ev_loop *loop,
			   const struct braid_options *o, struct braid_dc *dc,
			   const struct braid_mssfix *mss, struct braid_tunnel_stats *st,
			   const struct braid_mpath_hooks *hooks, int fd, const char *name);
/*
 * Where the caller keeps the local address (IP_PKTINFO) of the datagram it hands to
 * braid_mpath_input(): a path learned from it answers from that address (a gateway with
 * several addresses, bound to the wildcard). NULL: the source routing picks.
 */
void braid_mpath_set_shared_local(struct braid_mpath *m, const struct braid_pktinfo *local);
/* A datagram the caller read from the shared socket for this session (not yet decrypted). */
void braid_mpath_input(struct braid_mpath *m, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from);
/* Session restart with a fresh data channel: new engine, configured paths only. */
int braid_mpath_restart(struct braid_mpath *m, struct braid_dc *dc);
/* At least one path has a peer address (configured or learned). */
bool braid_mpath_has_peer(const struct braid_mpath *m);
/* Largest outer IP header of the sockets (20 or 40), for mssfix. */
int braid_mpath_outer_hdr(const struct braid_mpath *m);

/* Fill up to max entries; returns the number of paths. */
int braid_mpath_paths(const struct braid_mpath *m, struct braid_mpath_path_info *out, int max);
void braid_mpath_stats(const struct braid_mpath *m, struct braid_mpath_stats *st);
const char *braid_mpath_sched_name(const struct braid_mpath *m);
/*
 * Run-time changes (control socket). set_sched: an mp-scheduler value
 * ("ratio 1:0"); it also holds for the engines of later session restarts.
 * path_set: braid_mp_path_set() on the current engine. 0 or -errno.
 */
int braid_mpath_set_sched(struct braid_mpath *m, const char *spec);
int braid_mpath_path_set(struct braid_mpath *m, int path, unsigned int flags, uint64_t cap_bps);
/*
 * The ratio weight (0..BRAID_MP_WEIGHT_MAX) of a path by name (its interface,
 * or its numeric mp-path LOCAL as written): kept for the paths of that name
 * to come (re-added, re-bound, after a session restart); or by path number
 * ("1"): that path only, until it is re-added. Counts under the ratio
 * scheduler. 0, -EINVAL, -ENOENT (no such path number), -ENOSPC (8 names).
 */
int braid_mpath_set_weight(struct braid_mpath *m, const char *path, uint32_t weight);
/* Take path out of use (held down, shown disabled; with it the other paths of its socket) or back. */
int braid_mpath_path_enable(struct braid_mpath *m, int path, bool on);
/*
 * At run time: one mp-path line more (a copy of p is kept) / the paths of
 * mp-path LOCAL removed and its socket closed. 0 or -errno, the reason in err.
 */
int braid_mpath_path_cfg_add(struct braid_mpath *m, const struct braid_opt_mp_path *p, char *err,
			     size_t errlen);
int braid_mpath_path_cfg_remove(struct braid_mpath *m, const char *local, char *err, size_t errlen);

void braid_mpath_free(struct braid_mpath *m);

#endif /* BRAID_MPATH_H */
