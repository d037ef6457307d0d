/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_reuseport.h - the gateway's worker sockets: one UDP socket per worker
 * in an SO_REUSEPORT group on one address/port, and the sk_reuseport program
 * (bpf/reuseport_peerid.bpf.c) that steers each P_DATA_V2 packet to the
 * worker owning its peer-id and every other packet by the 4-tuple hash.
 *
 * Peer-id layout (docs/scaling.md "Workers"): the wire peer-id is
 * gateway_id << 16 | local index (the cluster's high byte, 0 without a
 * cluster); the worker of a session is local_index % nworkers, so worker w
 * hands out only local indices i with i % nworkers == w. Any worker count
 * and any table size work; the cluster's 8-bit gateway id is untouched.
 */
#ifndef BRAID_GATEWAY_GW_REUSEPORT_H
#define BRAID_GATEWAY_GW_REUSEPORT_H

#include <stdint.h>
#include <sys/socket.h>

#define BRAID_GW_MAX_WORKERS 64

/* The worker that owns a wire peer-id among n workers (n >= 1). */
static inline unsigned braid_gw_worker_of(uint32_t wire_pid, unsigned n)
{
	return n ? (wire_pid & 0xffffu) % n : 0;
}

/* Packets the program steered to one worker: by peer-id, by hash. */
struct braid_gw_rp_count {
	uint64_t by_pid;
	uint64_t by_hash;
};

struct braid_gw_reuseport;

/* Opens n UDP sockets (non-blocking, close-on-exec, SO_REUSEPORT) bound to
 * addr; with port 0 the first one's port is taken by the others. On error
 * none is left open. Returns 0 or -errno. */
int braid_gw_reuseport_open(const struct sockaddr *addr, socklen_t len, unsigned n, int *fds);

/* Loads the program for n workers, puts fds[w] in slot w and attaches it to
 * the group (SO_ATTACH_REUSEPORT_EBPF on fds[0]). Returns 0 or -errno:
 * -ENOTSUP when braidd was built without bpf/, -EPERM without CAP_BPF
 * (the caller logs one line and falls back to one worker). */
int braid_gw_reuseport_attach(const int *fds, unsigned n, struct braid_gw_reuseport **out);

/* Worker w's counters (summed over CPUs); w == BRAID_GW_MAX_WORKERS gives
 * the packets whose worker had no socket. Returns 0 or -errno. */
int braid_gw_reuseport_count(const struct braid_gw_reuseport *rp, unsigned w, struct braid_gw_rp_count *out);

/* Tries BPF_PROG_TEST_RUN on the program with a UDP payload: 0 when the
 * kernel runs sk_reuseport programs that way, -errno (e.g. -ENOTSUP) when
 * it does not (tests report which). */
int braid_gw_reuseport_test_run(const struct braid_gw_reuseport *rp);

/* Detaches nothing (the program stays with the group until its sockets
 * close) and frees the loader's state. NULL is a no-op. */
void braid_gw_reuseport_free(struct braid_gw_reuseport *rp);

#endif
