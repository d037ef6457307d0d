/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nfq.h - NFQUEUE I/O over libmnl: bind a queue copying 1 byte of payload (COPY_META gives no length), read
 * packet ids and lengths, and send verdicts, per packet or batched (NFQNL_MSG_VERDICT_BATCH). Fail closed: no fail-open flag,
 * and the iptables rules are expected without --queue-bypass.
 */
#ifndef PATHEMU_NFQ_H
#define PATHEMU_NFQ_H

#include <stddef.h>
#include <stdint.h>

struct mnl_socket;

struct nfqio {
	struct mnl_socket *nl;
	uint16_t qnum;
	uint32_t portid;
	char *txbuf;          /* pending verdict messages */
	size_t txlen;
	char *rxbuf;          /* recvmmsg buffers */
	uint64_t errors;      /* netlink error replies (e.g. verdict for an unknown id) */
	int last_error;
};

/* Called for each queued packet: NFQUEUE id and IP length. */
typedef void (*nfqio_packet_cb)(void *ctx, uint32_t id, uint32_t len);

int nfqio_open(struct nfqio *q, uint16_t qnum, uint32_t maxlen, int rcvbuf);
void nfqio_close(struct nfqio *q);
int nfqio_fd(const struct nfqio *q);
/* Read what is waiting (at most max_msgs messages, non-blocking). Returns messages read or -errno. */
int nfqio_recv(struct nfqio *q, nfqio_packet_cb cb, void *ctx, int max_msgs);
/* Queue a verdict (NF_ACCEPT / NF_DROP) for one packet, or for every held packet with id <= the given one. */
int nfqio_verdict(struct nfqio *q, uint32_t id, int verdict);
int nfqio_verdict_batch(struct nfqio *q, uint32_t id, int verdict);
/* Send the queued verdicts. */
int nfqio_flush(struct nfqio *q);

#endif
