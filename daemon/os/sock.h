/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sock.h - UDP sockets and socket addresses: open/bind, resolve, compare,
 * print ("[AF_INET]10.1.2.2:1194", as OpenVPN prints peers).
 *
 * An IPv6 socket may be dual-stack; IPv4 peers then appear as v4-mapped
 * addresses. braid_sockaddr_to_family() converts an address to the form a
 * socket needs, braid_sockaddr_str() prints v4-mapped addresses as IPv4.
 */
#ifndef BRAID_SOCK_H
#define BRAID_SOCK_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

union braid_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage ss;
};

/*
 * The local side of a datagram: the address it was sent to (IP_PKTINFO /
 * IPV6_PKTINFO, read by os/pktinfo.c), used as the source of the answers.
 */
struct braid_pktinfo {
	int family;		/* AF_INET (also on a dual-stack socket), AF_INET6, or 0 = unknown */
	int ifindex;		/* the interface it came in on */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	} addr;
};
/*
 * Write the control message that makes src the source of a datagram at c,
 * room bytes there; with same_if also its interface. Its CMSG_SPACE, or 0
 * (src unknown, or no room).
 */
#define BRAID_SOCK_SRC_CMSG CMSG_SPACE(sizeof(struct in6_pktinfo))
size_t braid_sock_src_cmsg(void *c, size_t room, const struct braid_pktinfo *src, bool same_if);

socklen_t braid_sockaddr_len(const union braid_sockaddr *a);
bool braid_sockaddr_equal(const union braid_sockaddr *a, const union braid_sockaddr *b);
const char *braid_sockaddr_str(const union braid_sockaddr *a, char *buf, size_t len);
/* In place: a v4 address for an AF_INET6 socket becomes v4-mapped. -EAFNOSUPPORT if impossible. */
int braid_sockaddr_to_family(union braid_sockaddr *a, int family);

/*
 * getaddrinfo wrapper: host (NULL = wildcard when passive) and port into
 * out; family AF_UNSPEC/AF_INET/AF_INET6. 0 or -EHOSTUNREACH with a message
 * naming host and reason in err.
 */
int braid_sock_resolve(const char *host, uint16_t port, int family, bool passive,
		       union braid_sockaddr *out, char *err, size_t err_len);

/*
 * A non-blocking UDP socket of family; bound to bind_addr unless NULL. An
 * AF_INET6 socket is dual-stack when v6only is false. 0 or -errno.
 */
int braid_sock_open_udp(int family, const union braid_sockaddr *bind_addr, bool v6only, int *fd);

/*
 * UDP segmentation offload. braid_sock_gso_ok(): 1 if the kernel accepts
 * UDP_SEGMENT on fd (send one buffer of equal-sized datagrams in one call),
 * else 0. braid_sock_set_gro(): ask for UDP GRO on fd (recvmsg may return
 * several datagrams of one sender coalesced; braid_sock_gro_size() gives
 * their size, every one but the last exactly that long). 0 or -errno.
 */
int braid_sock_gso_ok(int fd);
int braid_sock_set_gro(int fd);
/* The UDP_GRO segment size in a received message's control data, 0 if none. */
size_t braid_sock_gro_size(const struct msghdr *h);
/* Control-data room a receive needs for braid_sock_gro_size(). */
#define BRAID_SOCK_GRO_CMSG CMSG_SPACE(sizeof(int))

/*
 * A batch of received messages (recvmmsg) in the caller's arrays: message i
 * reads into buf + i * bs, its source into addr[i] (addr NULL: none), its
 * control data into ctl + i * ctl_len (ctl NULL: none; with UDP GRO at least
 * BRAID_SOCK_GRO_CMSG). braid_sock_recvmmsg() sets the messages up and reads
 * up to vlen of them: their number (0 if none waits), or -errno (EINTR retried).
 */
struct braid_rxmm {
	struct mmsghdr *msg;
	struct iovec *iov;
	uint8_t *buf;
	size_t bs;
	union braid_sockaddr *addr;
	void *ctl;
	size_t ctl_len;
};
int braid_sock_recvmmsg(int fd, const struct braid_rxmm *r, unsigned int vlen);

/*
 * The datagrams of received message i: a UDP GRO message (gro: the socket
 * has UDP_GRO) holds several of one sender, every one but the last exactly
 * braid_sock_gro_size() long. begin: 0, or -EMSGSIZE for a message the
 * kernel truncated, or -ENOBUFS for one whose control data it cut (with
 * gro: the segment size may be lost), which the caller counts (next yields nothing). next: true
 * with the next datagram in *p, *len (an empty datagram once, as it came),
 * false when done.
 */
struct braid_sock_dgrams {
	const uint8_t *p;
	size_t len, seg, off;
	bool empty;		/* an empty datagram not yet yielded */
};
int braid_sock_dgrams_begin(struct braid_sock_dgrams *d, const struct braid_rxmm *r, unsigned int i,
			    bool gro);
bool braid_sock_dgrams_next(struct braid_sock_dgrams *d, const uint8_t **p, size_t *len);

/*
 * A batch of datagrams sent by braid_txb_flush() with sendmmsg(): grouped by
 * destination (fd, peer), keeping the order within each destination (a
 * scheduler that alternates paths still gets long runs), then runs of equal
 * length (the last of a run may be shorter) as one UDP GSO message when the
 * entry says the socket can.
 *
 * Entries point at the caller's bytes and peer address: both must stay valid
 * until the flush. After the flush res[i] is 0 (sent) or -errno for entry i,
 * in the order added. A GSO message the kernel refuses (EIO: the route
 * cannot offload; EINVAL/EMSGSIZE: a segment does not fit the path MTU) is
 * sent again one datagram at a time; on EIO *gso of the entry is cleared so
 * that the caller stops asking for it on that socket.
 */
#define BRAID_TXB_MAX 64		/* datagrams per batch */
#define BRAID_TXB_GSO_SEGS 64		/* datagrams per GSO message (kernel UDP_MAX_SEGMENTS) */
#define BRAID_TXB_GSO_BYTES 65000	/* payload bytes per GSO message (one IP packet) */

struct braid_txb_ent {
	int fd;
	bool *gso;			/* the socket may use GSO; NULL = never */
	const union braid_sockaddr *peer;
	const struct braid_pktinfo *src;	/* NULL: the source routing picks */
	const void *p;
	size_t len;
};

struct braid_txbatch {
	unsigned int n;
	struct braid_txb_ent e[BRAID_TXB_MAX];
	int res[BRAID_TXB_MAX];
	struct iovec iov[BRAID_TXB_MAX];
	struct mmsghdr msg[BRAID_TXB_MAX];
	unsigned int ord[BRAID_TXB_MAX];	/* entries grouped by destination, in order within one */
	unsigned int first[BRAID_TXB_MAX];	/* message -> its first position in ord */
	union {
		struct cmsghdr align;
		uint8_t b[CMSG_SPACE(sizeof(uint16_t)) + BRAID_SOCK_SRC_CMSG];
	} ctl[BRAID_TXB_MAX];
	/* counters, never reset here */
	uint64_t syscalls, gso_msgs, gso_fallbacks;
};

/* Add one datagram; -ENOBUFS when the batch is full (flush first). */
int braid_txb_add(struct braid_txbatch *b, int fd, bool *gso, const union braid_sockaddr *peer,
		  const void *p, size_t len);
/* The source address of the datagram added last (kept by pointer until the flush). */
void braid_txb_set_src(struct braid_txbatch *b, const struct braid_pktinfo *src);
/* Send everything added, fill res[0..n), return n; the caller resets n to 0. */
unsigned int braid_txb_flush(struct braid_txbatch *b);

#endif /* BRAID_SOCK_H */
