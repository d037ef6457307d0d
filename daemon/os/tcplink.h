/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcplink.h - the TCP transport of `proto tcp-client`: a non-blocking
 * connect, OpenVPN's stream framing (each packet, control or data, preceded
 * by its length as u16 BE, fact sheet §1.1), partial reads and writes.
 *
 * No event loop inside: the owner watches braid_tcplink_fd() for reading,
 * and for writing while braid_tcplink_want_write() is true (connect in
 * progress or output queued). A reconnect is close + connect again.
 */
#ifndef BRAID_TCPLINK_H
#define BRAID_TCPLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/sock.h"
#include "os/tcpframe.h"

#define BRAID_TCPLINK_MAX_PKT 65535
/* Output queue limit: above it braid_tcplink_send refuses (-ENOBUFS). */
#define BRAID_TCPLINK_WQ_MAX (512 * 1024)

/* How to open the socket: plain TCP (mptcp 0) or MPTCP (os/mptcp.h modes), buffer sizes (0: the kernel's). */
struct braid_tcplink_opts {
	int mptcp;
	int sndbuf, rcvbuf;
};

struct braid_tcplink {
	int fd;
	bool connecting, connected;
	bool mptcp_socket;	/* the socket is IPPROTO_MPTCP */
	int mptcp_refused;	/* MPTCP wanted, the kernel refused it: errno (positive), else 0 */
	union braid_sockaddr remote;
	struct braid_tcpframe rx;	/* stream bytes not yet returned as packets */
	uint8_t *wbuf;		/* framed packets not yet written */
	size_t wlen, woff, wcap;
	uint64_t rx_bytes, tx_bytes;
};

void braid_tcplink_init(struct braid_tcplink *l);
/*
 * Start a non-blocking connect to remote (bound to local if not NULL) on a
 * socket opened as opts says (NULL: plain TCP). 0 (in progress or done),
 * -errno. Any previous connection is closed.
 */
int braid_tcplink_connect(struct braid_tcplink *l, const union braid_sockaddr *remote,
			  const union braid_sockaddr *local, const struct braid_tcplink_opts *opts);
/* Writable while connecting: 0 connected, -EINPROGRESS still waiting, -errno failed. */
int braid_tcplink_connect_done(struct braid_tcplink *l);
int braid_tcplink_fd(const struct braid_tcplink *l);
bool braid_tcplink_want_write(const struct braid_tcplink *l);
size_t braid_tcplink_pending(const struct braid_tcplink *l);

/* Queue one packet (framed) and try to write. 0, -EMSGSIZE, -ENOBUFS (queue full), -ENOTCONN. */
int braid_tcplink_send(struct braid_tcplink *l, const uint8_t *pkt, size_t len);
/* Write queued bytes: 0 all written, -EAGAIN some left, -errno (connection broken). */
int braid_tcplink_flush(struct braid_tcplink *l);
/*
 * Read what the socket has: 0 (maybe new data), -ECONNRESET (peer closed:
 * EOF), -errno. Then take packets with braid_tcplink_next.
 */
int braid_tcplink_read(struct braid_tcplink *l);
/*
 * Next whole packet (valid until the next read): 0, -EAGAIN (incomplete),
 * -EMSGSIZE (length 0 or above BRAID_TCPFRAME_MAX_PKT, in l->rx.bad_len: close).
 */
int braid_tcplink_next(struct braid_tcplink *l, const uint8_t **pkt, size_t *len);
void braid_tcplink_close(struct braid_tcplink *l);

#endif /* BRAID_TCPLINK_H */
