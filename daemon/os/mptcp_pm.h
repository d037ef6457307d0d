/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mptcp_pm.h - the kernel MPTCP path manager over generic netlink (family
 * "mptcp_pm", Documentation/netlink/specs/mptcp_pm.yaml): endpoints
 * (ADD_ADDR, DEL_ADDR, GET_ADDR dump, SET_FLAGS), limits (SET_LIMITS,
 * GET_LIMITS), the userspace path manager's per-connection commands
 * (ANNOUNCE, SUBFLOW_CREATE, SUBFLOW_DESTROY, SET_FLAGS of one subflow, by
 * the connection's token)
 * and the "mptcp_pm_events" multicast group.
 *
 * Requests wait for the kernel's answer and return 0 or its -errno (they
 * need CAP_NET_ADMIN). The parser of what the kernel sends (replies, dump
 * entries, events, the family lookup) is braid_mptcp_pm_parse: every length
 * is bounded by the received buffer, unknown attributes are skipped, a
 * malformed message is -EPROTO (tests/fuzz/fuzz_mptcp_pm.c).
 */
#ifndef BRAID_MPTCP_PM_H
#define BRAID_MPTCP_PM_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Endpoint flags (MPTCP_PM_ADDR_FLAG_*). */
#define BRAID_MPTCP_F_SIGNAL 0x1u
#define BRAID_MPTCP_F_SUBFLOW 0x2u
#define BRAID_MPTCP_F_BACKUP 0x4u
#define BRAID_MPTCP_F_FULLMESH 0x8u

/* Events (MPTCP_EVENT_*) the daemon follows. */
#define BRAID_MPTCP_EV_CREATED 1
#define BRAID_MPTCP_EV_ESTABLISHED 2
#define BRAID_MPTCP_EV_CLOSED 3
#define BRAID_MPTCP_EV_SUB_ESTABLISHED 10
#define BRAID_MPTCP_EV_SUB_CLOSED 11
#define BRAID_MPTCP_EV_SUB_PRIORITY 13

/* An endpoint (MPTCP_PM_ATTR_ADDR), or an event's local / remote address. */
struct braid_mptcp_endp {
	uint8_t id;			/* 0: none (add: the kernel picks) */
	int family;			/* AF_INET / AF_INET6 / 0 (none) */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	} addr;
	uint16_t port;			/* host order; 0 none */
	uint32_t flags;			/* BRAID_MPTCP_F_* */
	int32_t ifindex;		/* 0 none */
};

/* What one message from the kernel said (fields the message lacks stay 0). */
struct braid_mptcp_pm_msg {
	uint32_t seq;			/* nlmsg_seq */
	uint16_t type;			/* nlmsg_type (the family id, GENL_ID_CTRL, NLMSG_*) */
	uint8_t cmd;			/* genl command: MPTCP_PM_CMD_* or, events, MPTCP_EVENT_* */
	int error;			/* NLMSG_ERROR: its -errno (0 = the ACK) */
	bool done;			/* NLMSG_DONE */
	/* replies */
	bool has_endp;
	struct braid_mptcp_endp endp;	/* GET_ADDR dump entry */
	bool has_limits;
	uint32_t subflows, rcv_add_addrs;	/* GET_LIMITS */
	/* the family lookup (CTRL_CMD_NEWFAMILY) */
	uint16_t family_id;
	uint32_t event_group;		/* "mptcp_pm_events" multicast group id, 0 none */
	/* events (MPTCP_ATTR_*) */
	uint32_t token;
	uint8_t loc_id, rem_id;
	struct braid_mptcp_endp saddr, daddr;	/* addresses and ports */
	bool backup;
	int32_t ev_ifindex;
	uint8_t ev_error;
	bool server_side;		/* created / established: the listener's end */
};

/* Parse as: a reply of the mptcp_pm family, an event, a generic-netlink controller reply. */
enum braid_mptcp_pm_kind {
	BRAID_MPTCP_PM_REPLY,
	BRAID_MPTCP_PM_EVENT,
	BRAID_MPTCP_PM_CTRL,
};

/*
 * The next message of buf (len bytes) at *off: 0 and *m (and *off moved on),
 * -ENOENT none left, -EPROTO malformed (stop reading this buffer).
 */
int braid_mptcp_pm_parse(const void *buf, size_t len, size_t *off, enum braid_mptcp_pm_kind kind,
			 struct braid_mptcp_pm_msg *m);

struct braid_mptcp_pm;

/* A generic-netlink socket with the family resolved. 0 or -errno (-ENOENT: no MPTCP PM). */
int braid_mptcp_pm_open(struct braid_mptcp_pm **out);
void braid_mptcp_pm_close(struct braid_mptcp_pm *pm);

/* Add an endpoint (e->id 0: the kernel picks one). */
int braid_mptcp_pm_add(struct braid_mptcp_pm *pm, const struct braid_mptcp_endp *e);
/* Delete endpoint id (id > 0). */
int braid_mptcp_pm_del(struct braid_mptcp_pm *pm, uint8_t id);
/* Change endpoint id's flags (only backup / fullmesh can change). */
int braid_mptcp_pm_set_flags(struct braid_mptcp_pm *pm, uint8_t id, uint32_t flags);
/*
 * The userspace path manager (net.mptcp.pm_type 1), one connection (token):
 * announce local address e (e->id > 0) to the peer (ADD_ADDR); open a
 * subflow from local (id > 0, address, optional ifindex and backup flag)
 * to remote (address and port); close the subflow of these two addresses
 * and ports.
 */
int braid_mptcp_pm_announce(struct braid_mptcp_pm *pm, uint32_t token, const struct braid_mptcp_endp *e);
int braid_mptcp_pm_subflow_create(struct braid_mptcp_pm *pm, uint32_t token,
				  const struct braid_mptcp_endp *local,
				  const struct braid_mptcp_endp *remote);
int braid_mptcp_pm_subflow_destroy(struct braid_mptcp_pm *pm, uint32_t token,
				   const struct braid_mptcp_endp *local,
				   const struct braid_mptcp_endp *remote);
/*
 * The userspace path manager, one subflow of connection token: backup or
 * not (SET_FLAGS with the token, the subflow's local address and port as
 * ADDR and its remote address and port as ADDR_REMOTE; Linux 5.19+, run on 6.1).
 * The kernel sends MP_PRIO on that subflow, so the peer stops (or resumes)
 * sending on it; this side's scheduler follows too. -EINVAL: no such
 * subflow, not a userspace-PM connection, or a kernel without it.
 */
int braid_mptcp_pm_set_prio(struct braid_mptcp_pm *pm, uint32_t token,
			    const struct braid_mptcp_endp *local,
			    const struct braid_mptcp_endp *remote, bool backup);
/* The endpoints of this network namespace: up to max into out, returns how many there are. */
int braid_mptcp_pm_dump(struct braid_mptcp_pm *pm, struct braid_mptcp_endp *out, int max);
int braid_mptcp_pm_set_limits(struct braid_mptcp_pm *pm, uint32_t subflows, uint32_t rcv_add_addrs);
int braid_mptcp_pm_get_limits(struct braid_mptcp_pm *pm, uint32_t *subflows, uint32_t *rcv_add_addrs);
/*
 * A non-blocking socket that receives the path manager's events (the
 * "mptcp_pm_events" group): fd or -errno (-ENOENT: the kernel has no group).
 */
int braid_mptcp_pm_events_open(const struct braid_mptcp_pm *pm);
/*
 * Read every pending event of fd, cb for each (m->cmd: MPTCP_EVENT_*).
 * Returns how many buffers were malformed (skipped), or -errno.
 */
int braid_mptcp_pm_events_read(int fd, void (*cb)(const struct braid_mptcp_pm_msg *m, void *arg),
			       void *arg);
/* "10.2.1.2" / "fd00::2" (with " port N" / " dev IFINDEX" when set) into b. */
const char *braid_mptcp_endp_str(const struct braid_mptcp_endp *e, char *b, size_t n);

#endif /* BRAID_MPTCP_PM_H */
