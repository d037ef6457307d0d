/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * backend.h - the data-plane backend seam: the one interface a role (client/,
 * gateway/, later p2p/) uses for a session's data path, as an ops table and
 * an opaque handle. The role never names the implementation behind it.
 *
 * Backends:
 *  - userspace multipath (backend_user.c): dataplane/mpath* (the multipath
 *    engine of mp/ on the libev loop) through dataplane/mpsession.c;
 *  - userspace single path (backend_sp.c): stock OpenVPN's data channel
 *    (dc/) over the role's own UDP socket or TCP stream (role->xmit);
 *  - kernel module (backend_kmod.c: kmod/braid_dco over generic netlink): each op
 *    below says which netlink command it maps to (BRAID_DCO_CMD_*);
 *  - MPTCP transport (to come): the kernel's MPTCP path manager carries the
 *    paths (one IPPROTO_MPTCP socket; path ops map to MPTCP_PM_CMD_* of the
 *    "mptcp_pm" generic netlink family), the keys stay in user space.
 *
 * Life of a handle: open -> (path_add / path_set / key_install / send /
 * input / tun_readable)* -> close. Every op is called from the role's libev
 * loop; none blocks. What the data path decrypts goes up through the role's
 * deliver callback (struct braid_dp_role), never by a call into the role.
 * Functions return 0 or -errno; an op a backend does not have is NULL and
 * the braid_dp_*() wrappers below answer -EOPNOTSUPP (or nothing / 0).
 */
#ifndef BRAID_DP_BACKEND_H
#define BRAID_DP_BACKEND_H

#include <errno.h>
#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "dataplane/mpath_types.h"
#include "dataplane/mssfix.h"
#include "dataplane/tunstats.h"
#include "dc/dc.h"
#include "os/sock.h"

struct braid_dp_ops;
struct braid_key2;

/*
 * The head of every backend's handle (the backend's own state follows it,
 * opaque to the role). The role holds a struct braid_dp * and calls the
 * braid_dp_*() wrappers.
 */
struct braid_dp {
	const struct braid_dp_ops *ops;
};

/* What the role does with the data path's events; user is the role's session. */
struct braid_dp_role {
	/* an authenticated payload that is not a data-plane message, in packet-id order */
	void (*deliver)(void *user, uint8_t *payload, size_t len);
	/* rx: a packet authenticated; !rx: at least one datagram was sent */
	void (*activity)(void *user, bool rx);
	/*
	 * Single-path backends only (NULL otherwise):
	 * xmit - send one sealed packet on the role's link; 0 or -errno.
	 * rx_auth - a packet from `from` (NULL: the role's stream) authenticated,
	 *   len bytes on the wire: the role may learn or float its peer; nonzero
	 *   drops the packet (e.g. a float the role refuses). Multipath backends
	 *   call it too when set (len 0, the return ignored), before activity.
	 * rx_drop - a packet did not open: err is -EBADMSG (authentication),
	 *   -EALREADY/-ESTALE (replay) or another -errno (malformed, unknown key);
	 *   the role counts and logs it in its own words.
	 */
	int (*xmit)(void *user, const uint8_t *pkt, size_t len);
	int (*rx_auth)(void *user, const union braid_sockaddr *from, size_t len);
	void (*rx_drop)(void *user, int err, const uint8_t *pkt, size_t len,
			const union braid_sockaddr *from);
	void *user;
};

/* How to open a session's data path. */
struct braid_dp_config {
	struct ev_loop *loop;
	const struct braid_options *o;	/* mp-path lines, remotes, mp-* tuning; kept, not copied */
	struct braid_dc *dc;		/* the session's data channel (keys, packet-ids) */
	const struct braid_mssfix *mss;	/* the tunnel's clamp, read at each packet */
	int shared_fd;			/* >= 0: the role's socket, read by the role (input op) */
	/* shared_fd: where the role keeps the local address of the datagram it hands to input()
	 * (IP_PKTINFO); a learned path answers from it. NULL: the source routing picks. */
	const struct braid_pktinfo *shared_local;
	const char *name;		/* log prefix of this session (shared_fd form; copied), or NULL */
	struct braid_tunnel_stats *st;	/* where to count (the role's), or NULL: the backend's own */
	bool tun_attach;		/* the data path writes what it receives to tun_fd itself */
	int tun_fd;			/* with tun_attach */
	bool tun_vnet;			/* tun_fd has IFF_VNET_HDR (coalesced writes, super-packet reads) */
	/* kmod (backend_kmod.c): the braid_dco device (dco_dev.h), the peer id the server pushed,
	 * and with shared_fd the address it is connected to (the one path) */
	int dco_ifindex;
	uint32_t dco_peer_id;
	const union braid_sockaddr *dco_remote;
};

/* A backend: its ops (kernel-doc per op: what it does, what kmod and MPTCP map it to). */
struct braid_dp_ops {
	const char *name;	/* "user", "kmod", "mptcp" */
	/**
	 * open() - create a session's data path on cfg with the role's callbacks.
	 * Without shared_fd: open the path sockets (one per `mp-path LOCAL`) and
	 * add the configured paths; with it, every path is learned from an
	 * authenticated packet handed in by input(). 0 and *out, or -errno.
	 * kmod: BRAID_DCO_CMD_NEW_PEER (+ the UDP socket fd); mptcp: connect().
	 */
	int (*open)(struct braid_dp **out, const struct braid_dp_config *cfg,
		    const struct braid_dp_role *role);
	/**
	 * close() - stop the data path and free the handle (NULL is fine). After
	 * it no callback of the role runs. kmod: BRAID_DCO_CMD_DEL_PEER.
	 */
	void (*close)(struct braid_dp *dp);
	/**
	 * restart() - the session restarts on a fresh data channel dc (static-key
	 * SIGUSR1/ping-restart): learned paths and engine state go, configured
	 * paths are revalidated. 0 or -errno. kmod: DEL_PEER + NEW_PEER.
	 */
	int (*restart)(struct braid_dp *dp, struct braid_dc *dc);
	/** has_peer() - at least one path has a peer address (configured or learned). */
	bool (*has_peer)(const struct braid_dp *dp);
	/** outer_hdr() - the largest outer IP header of the paths (20 or 40), for mssfix. */
	int (*outer_hdr)(const struct braid_dp *dp);
	/**
	 * path_add() - add a path local -> remote; it carries data only once
	 * validated (PATH_CHALLENGE). Returns the path index or -errno.
	 * user: NULL (paths come from the options or are learned);
	 * kmod: BRAID_DCO_CMD_NEW_PATH; mptcp: MPTCP_PM_CMD_SUBFLOW_CREATE.
	 */
	int (*path_add)(struct braid_dp *dp, const union braid_sockaddr *local,
			const union braid_sockaddr *remote);
	/**
	 * path_remove() - remove path index. user: NULL (a failed learned path
	 * goes by itself after mp-path-timeout); kmod: BRAID_DCO_CMD_DEL_PATH;
	 * mptcp: MPTCP_PM_CMD_SUBFLOW_DESTROY.
	 */
	int (*path_remove)(struct braid_dp *dp, int path);
	/**
	 * path_set() - set path index's flags (BRAID_MP_PATH_F_BACKUP) and rate
	 * cap (bit/s, 0 = none). 0 or -errno (-ENOENT: no such path).
	 * kmod: BRAID_DCO_CMD_SET_PATH; mptcp: MPTCP_PM_CMD_SET_FLAGS (backup).
	 */
	int (*path_set)(struct braid_dp *dp, int path, unsigned int flags, uint64_t cap_bps);
	/**
	 * path_enable() - take path index out of use (down, not probed, shown
	 * "disabled") or give it back (validated again). 0 or -errno.
	 * kmod: BRAID_DCO_CMD_SET_PATH; mptcp: SUBFLOW_DESTROY / _CREATE.
	 */
	int (*path_enable)(struct braid_dp *dp, int path, bool on);
	/**
	 * path_cfg_add() / path_cfg_remove() - at run time, an mp-path line
	 * more (its socket and its paths, as at start) / the paths of the
	 * mp-path LOCAL given (its socket closed). 0 or -errno with the reason
	 * in err. user: configured paths only (not a gateway's learned ones).
	 */
	int (*path_cfg_add)(struct braid_dp *dp, const struct braid_opt_mp_path *p, char *err,
			    size_t errlen);
	int (*path_cfg_remove)(struct braid_dp *dp, const char *local, char *err, size_t errlen);
	/**
	 * set_sched() - the scheduler (an mp-scheduler value, e.g. "ratio 1:0");
	 * it holds for later restarts too. kmod: BRAID_DCO_CMD_SET_PEER;
	 * mptcp: net.mptcp.scheduler (per socket where the kernel allows).
	 */
	int (*set_sched)(struct braid_dp *dp, const char *spec);
	/**
	 * set_weight() - the ratio weight (0..1000000) of a path by name (its
	 * interface or numeric mp-path LOCAL: kept for that name's paths to
	 * come) or by number ("1": that path until it is re-added); counts under
	 * the ratio scheduler (docs/braidd.md "Ratio weights by name"). 0,
	 * -EINVAL, -ENOENT, -ENOSPC. user: braid_mpath_set_weight.
	 */
	int (*set_weight)(struct braid_dp *dp, const char *path, uint32_t weight);
	/**
	 * key_install() - a new data-channel key (key_id, from the key block k2
	 * for cipher and direction, as braid_dc_key_install) is in cfg->dc and
	 * is the one to send with from now on. user: NULL (the engine seals and
	 * opens with cfg->dc itself, so a key installed there is used at once);
	 * kmod: BRAID_DCO_CMD_KEY_NEW (the first key primary, a later one
	 * secondary, then KEY_SWAP); mptcp: NULL (user-space crypto).
	 */
	int (*key_install)(struct braid_dp *dp, int key_id, const char *cipher,
			   const struct braid_key2 *k2, int direction);
	/**
	 * key_remove() - key_id is retired (lame duck over). user: NULL (as
	 * key_install); kmod: BRAID_DCO_CMD_DEL_KEY; mptcp: NULL.
	 */
	int (*key_remove)(struct braid_dp *dp, int key_id);
	/**
	 * send() - one payload for the peer as it is (a ping, an OCC message, or
	 * the client's framed payload): sealed and queued. 0 or -errno (counted).
	 * kmod: BRAID_DCO_CMD_SEND (control-path payloads); mptcp: write().
	 */
	int (*send)(struct braid_dp *dp, const uint8_t *p, size_t len);
	/**
	 * seal() - seal one payload into the caller's buffer (out, cap; pt may
	 * sit at out + overhead: sealed in place) without sending it, for a role
	 * that batches its own sends (the static-key mode's sendmmsg). 0 and
	 * *out_len, or -errno (-EOVERFLOW: packet-ids used up, restart).
	 * user: NULL; kmod: NULL (the kernel sends); mptcp: NULL.
	 */
	int (*seal)(struct braid_dp *dp, const uint8_t *pt, size_t len, uint8_t *out, size_t cap,
		    size_t *out_len);
	/**
	 * send_ip() - one IP packet the role read or routed (the gateway's TUN
	 * read, client-to-client): MSS-clamped, classified, queued. 0 or -errno.
	 * kmod: NULL (the kernel device forwards it); mptcp: as send().
	 */
	int (*send_ip)(struct braid_dp *dp, const uint8_t *ip, size_t len);
	/**
	 * input() - receive: a datagram the role read from shared_fd for this
	 * session, not yet decrypted; what authenticates goes up through
	 * role->deliver. kmod/mptcp: NULL (the kernel receives).
	 */
	void (*input)(struct braid_dp *dp, const uint8_t *pkt, size_t len,
		      const union braid_sockaddr *from);
	/**
	 * tun_readable() - the TUN fd is readable: read a batch and send it.
	 * kmod: NULL (the kernel device is the TUN); mptcp: read + write().
	 */
	void (*tun_readable)(struct braid_dp *dp, int tun_fd);
	/**
	 * stats() - the traffic counters of this data path (link bytes, auth
	 * failures, replays, ...). kmod: BRAID_DCO_CMD_GET_PEER (stats attrs);
	 * mptcp: MPTCP_INFO.
	 */
	void (*stats)(const struct braid_dp *dp, struct braid_tunnel_stats *st);
	/**
	 * paths() - the per-path table, up to max entries; returns how many paths
	 * there are. kmod: BRAID_DCO_CMD_GET_PATH (dump); mptcp: MPTCP_FULL_INFO.
	 */
	int (*paths)(const struct braid_dp *dp, struct braid_mpath_path_info *out, int max);
	/** sched_name() - the scheduler's name for status lines. */
	const char *(*sched_name)(const struct braid_dp *dp);
	/**
	 * engine_stats() - the multipath engine's session-wide counters (paths
	 * learned and removed, reordering, AQM, ...) for the status "engine"
	 * object and the SIGUSR2 line. 0 or -errno. kmod:
	 * BRAID_DCO_CMD_GET_PEER (engine attrs); mptcp: NULL.
	 */
	int (*engine_stats)(const struct braid_dp *dp, struct braid_mpath_stats *st);
};

/* The wrappers a role calls; dp must be non-NULL (close: NULL is fine). */
static inline int braid_dp_open(const struct braid_dp_ops *ops, struct braid_dp **out,
				const struct braid_dp_config *cfg, const struct braid_dp_role *role)
{
	return ops->open(out, cfg, role);
}

static inline void braid_dp_close(struct braid_dp *dp)
{
	if (dp)
		dp->ops->close(dp);
}

static inline int braid_dp_restart(struct braid_dp *dp, struct braid_dc *dc)
{
	return dp->ops->restart ? dp->ops->restart(dp, dc) : -EOPNOTSUPP;
}

static inline bool braid_dp_has_peer(const struct braid_dp *dp)
{
	return dp->ops->has_peer ? dp->ops->has_peer(dp) : true;
}

static inline int braid_dp_outer_hdr(const struct braid_dp *dp)
{
	return dp->ops->outer_hdr ? dp->ops->outer_hdr(dp) : 40;
}

static inline int braid_dp_path_add(struct braid_dp *dp, const union braid_sockaddr *local,
				    const union braid_sockaddr *remote)
{
	return dp->ops->path_add ? dp->ops->path_add(dp, local, remote) : -EOPNOTSUPP;
}

static inline int braid_dp_path_remove(struct braid_dp *dp, int path)
{
	return dp->ops->path_remove ? dp->ops->path_remove(dp, path) : -EOPNOTSUPP;
}

static inline int braid_dp_path_set(struct braid_dp *dp, int path, unsigned int flags,
				    uint64_t cap_bps)
{
	return dp->ops->path_set ? dp->ops->path_set(dp, path, flags, cap_bps) : -EOPNOTSUPP;
}

static inline int braid_dp_path_enable(struct braid_dp *dp, int path, bool on)
{
	return dp->ops->path_enable ? dp->ops->path_enable(dp, path, on) : -EOPNOTSUPP;
}

static inline int braid_dp_path_cfg_add(struct braid_dp *dp, const struct braid_opt_mp_path *p,
					char *err, size_t errlen)
{
	return dp->ops->path_cfg_add ? dp->ops->path_cfg_add(dp, p, err, errlen) : -EOPNOTSUPP;
}

static inline int braid_dp_path_cfg_remove(struct braid_dp *dp, const char *local, char *err,
					   size_t errlen)
{
	return dp->ops->path_cfg_remove ? dp->ops->path_cfg_remove(dp, local, err, errlen)
					: -EOPNOTSUPP;
}

static inline int braid_dp_set_sched(struct braid_dp *dp, const char *spec)
{
	return dp->ops->set_sched ? dp->ops->set_sched(dp, spec) : -EOPNOTSUPP;
}

static inline int braid_dp_set_weight(struct braid_dp *dp, const char *path, uint32_t weight)
{
	return dp->ops->set_weight ? dp->ops->set_weight(dp, path, weight) : -EOPNOTSUPP;
}

static inline int braid_dp_key_install(struct braid_dp *dp, int key_id, const char *cipher,
				       const struct braid_key2 *k2, int direction)
{
	return dp->ops->key_install ? dp->ops->key_install(dp, key_id, cipher, k2, direction) : 0;
}

static inline int braid_dp_key_remove(struct braid_dp *dp, int key_id)
{
	return dp->ops->key_remove ? dp->ops->key_remove(dp, key_id) : 0;
}

static inline int braid_dp_send(struct braid_dp *dp, const uint8_t *p, size_t len)
{
	return dp->ops->send(dp, p, len);
}

static inline int braid_dp_seal(struct braid_dp *dp, const uint8_t *pt, size_t len,
				uint8_t *out, size_t cap, size_t *out_len)
{
	return dp->ops->seal ? dp->ops->seal(dp, pt, len, out, cap, out_len) : -EOPNOTSUPP;
}

static inline int braid_dp_send_ip(struct braid_dp *dp, const uint8_t *ip, size_t len)
{
	return dp->ops->send_ip ? dp->ops->send_ip(dp, ip, len) : dp->ops->send(dp, ip, len);
}

static inline void braid_dp_input(struct braid_dp *dp, const uint8_t *pkt, size_t len,
				  const union braid_sockaddr *from)
{
	if (dp->ops->input)
		dp->ops->input(dp, pkt, len, from);
}

static inline void braid_dp_tun_readable(struct braid_dp *dp, int tun_fd)
{
	if (dp->ops->tun_readable)
		dp->ops->tun_readable(dp, tun_fd);
}

static inline void braid_dp_stats(const struct braid_dp *dp, struct braid_tunnel_stats *st)
{
	dp->ops->stats(dp, st);
}

static inline int braid_dp_paths(const struct braid_dp *dp, struct braid_mpath_path_info *out,
				 int max)
{
	return dp->ops->paths ? dp->ops->paths(dp, out, max) : 0;
}

static inline const char *braid_dp_sched_name(const struct braid_dp *dp)
{
	return dp->ops->sched_name ? dp->ops->sched_name(dp) : "";
}

static inline int braid_dp_engine_stats(const struct braid_dp *dp, struct braid_mpath_stats *st)
{
	return dp->ops->engine_stats ? dp->ops->engine_stats(dp, st) : -EOPNOTSUPP;
}

#endif /* BRAID_DP_BACKEND_H */
