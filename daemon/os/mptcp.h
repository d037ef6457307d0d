/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mptcp.h - kernel MPTCP sockets for the TCP transport (`mptcp on|auto`):
 * open an IPPROTO_MPTCP stream socket with a fallback to plain TCP when the
 * kernel refuses, tell after connect/accept whether the connection really
 * is MPTCP (the peer or a middlebox may have made it fall back), and read
 * the per-subflow telemetry (MPTCP_FULL_INFO, or MPTCP_TCPINFO +
 * MPTCP_SUBFLOW_ADDRS on kernels without it, such as 6.1).
 *
 * Debian 12's <linux/mptcp.h> stops at MPTCP_SUBFLOW_ADDRS: the newer
 * definitions are carried in mptcp.c. Every size the kernel reports back is
 * bounded by what was handed in before it is used.
 */
#ifndef BRAID_MPTCP_H
#define BRAID_MPTCP_H

#include <stdbool.h>
#include <stdint.h>

#include "os/sock.h"

/* The `mptcp` option. */
enum braid_mptcp_mode {
	BRAID_MPTCP_OFF = 0,
	BRAID_MPTCP_ON,		/* MPTCP; plain TCP (with a warning) when the kernel refuses */
	BRAID_MPTCP_AUTO,	/* MPTCP when net.mptcp.enabled is 1, else plain TCP (info) */
};

/* At most this many subflows are reported. */
#define BRAID_MPTCP_MAX_SUBFLOWS 8

/* One subflow's telemetry. */
struct braid_mptcp_subflow {
	uint32_t id;			/* the subflow's id (FULL_INFO) or its position */
	union braid_sockaddr local, remote;
	uint8_t state;			/* TCP state (tcpi_state) */
	bool backup;			/* this side or the peer marked it backup */
	uint32_t rtt_us, rttvar_us;
	uint32_t snd_cwnd, total_retrans;
	uint64_t bytes_sent;		/* tcpi_bytes_sent (with retransmissions) */
	uint64_t bytes_acked, bytes_received;
	uint32_t segs_out, segs_in;
	uint64_t pacing_rate, delivery_rate;	/* bytes/s */
};

/* The connection's telemetry. */
struct braid_mptcp_conn {
	bool mptcp;			/* false: fell back to TCP (or is plain TCP) */
	bool full_info;			/* MPTCP_FULL_INFO answered (else the 6.1 fallback) */
	uint32_t token;
	uint8_t subflows;		/* additional subflows (MPTCP_INFO's count) */
	uint8_t subflows_max, add_addr_accepted, add_addr_accepted_max;
	int n;				/* entries in sf[] */
	struct braid_mptcp_subflow sf[BRAID_MPTCP_MAX_SUBFLOWS];
};

/* "off" / "on" / "auto" */
const char *braid_mptcp_mode_name(int mode);
/* net.mptcp.enabled of this network namespace: 1, 0, or -errno (no MPTCP in the kernel). */
int braid_mptcp_sysctl_enabled(void);

/*
 * A non-blocking stream socket of family for mode: IPPROTO_MPTCP when mode
 * is not off (and, for auto, net.mptcp.enabled is 1), else TCP. When the
 * kernel refuses MPTCP (EPROTONOSUPPORT, ENOPROTOOPT, EINVAL, EAFNOSUPPORT:
 * no MPTCP or net.mptcp.enabled=0) a TCP socket instead, *why = the errno
 * (positive; 0 when MPTCP or when mode is off). TCP_NODELAY is set; sndbuf /
 * rcvbuf (> 0) are applied. 0 and *fd, *is_mptcp, or -errno.
 */
int braid_mptcp_socket(int family, int mode, int sndbuf, int rcvbuf, int *fd, bool *is_mptcp,
		       int *why);
/* Socket buffers and TCP_NODELAY on an accepted stream socket (sndbuf/rcvbuf > 0 applied). */
void braid_mptcp_stream_opts(int fd, int sndbuf, int rcvbuf);
/*
 * Is the connected socket fd speaking MPTCP now? 1 yes, 0 no (plain TCP, or
 * an MPTCP socket that fell back: peer or middlebox without MPTCP), -errno.
 */
int braid_mptcp_active(int fd);
/*
 * The connection's telemetry: the subflows of an MPTCP connection; after a
 * fallback (or on plain TCP) c->mptcp is false and sf[0] is the one TCP
 * connection (TCP_INFO). 0 or -errno.
 */
int braid_mptcp_telemetry(int fd, struct braid_mptcp_conn *c);

#endif /* BRAID_MPTCP_H */
