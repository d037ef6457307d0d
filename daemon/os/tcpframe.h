/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tcpframe.h - OpenVPN's stream framing on the receive side: every packet,
 * control or data, is preceded by its length as u16 BE (fact sheet §1.1).
 * An incremental reassembler with no I/O: the owner reads the socket into
 * braid_tcpframe_space(), commits what it read, and takes whole packets
 * with braid_tcpframe_next().
 *
 * Every length is checked against max_pkt before a byte of the packet is
 * touched: a length of 0 or above max_pkt is -EMSGSIZE (as stock's "Bad
 * encapsulated packet length from peer"), and the stream cannot be resynced:
 * the owner closes the connection. The buffer holds two maximal frames, so
 * memory per connection is bounded by 2 * (max_pkt + 2).
 */
#ifndef BRAID_TCPFRAME_H
#define BRAID_TCPFRAME_H

#include <stddef.h>
#include <stdint.h>

/*
 * The largest packet braidd accepts on a stream: the receive buffers hold
 * the largest tun MTU (9000) plus 192 bytes of headers; stock's limit is
 * its buffer size, in the same range. Our own packets never exceed it.
 */
#define BRAID_TCPFRAME_MAX_PKT 9192

struct braid_tcpframe {
	uint8_t *buf;
	size_t cap, len, off;	/* bytes [off, len) are unread */
	size_t max_pkt;
	size_t bad_len;		/* the length that made next() fail, for the log */
};

/* max_pkt in 1..65535. 0, -EINVAL, -ENOMEM. */
int braid_tcpframe_init(struct braid_tcpframe *f, size_t max_pkt);
/* Raise max_pkt (never lowers it), keeping what is buffered: a session that negotiated
 * larger frames (TCP super-packet frames, os/tun_super.h). 0, -EINVAL, -ENOMEM. */
int braid_tcpframe_grow(struct braid_tcpframe *f, size_t max_pkt);
void braid_tcpframe_free(struct braid_tcpframe *f);
/* Forget buffered bytes (a new connection). */
void braid_tcpframe_reset(struct braid_tcpframe *f);

/*
 * Where to read the next bytes to, and how many fit (*room; 0 only while a
 * whole packet is still waiting to be taken). Moves unread bytes to the front.
 */
uint8_t *braid_tcpframe_space(struct braid_tcpframe *f, size_t *room);
/* n bytes were written at braid_tcpframe_space(); n <= room. */
void braid_tcpframe_commit(struct braid_tcpframe *f, size_t n);
/* Copy up to n bytes in (space + commit); returns how many were taken. */
size_t braid_tcpframe_feed(struct braid_tcpframe *f, const uint8_t *data, size_t n);

/*
 * The next whole packet: 0 with *pkt and *len (valid until the next space() or
 * feed()), -EAGAIN (incomplete), -EMSGSIZE (length 0 or above max_pkt; the
 * length is in f->bad_len; the stream is unusable).
 */
int braid_tcpframe_next(struct braid_tcpframe *f, const uint8_t **pkt, size_t *len);
/* Bytes buffered but not yet returned as packets. */
size_t braid_tcpframe_pending(const struct braid_tcpframe *f);

#endif /* BRAID_TCPFRAME_H */
