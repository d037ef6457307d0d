/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dco_nl.h - braidd's client of the braid_dco kernel module (kmod/braid_dco.yaml):
 * the device (rtnetlink link kind braid_dco), peers, key slots, paths (UDP
 * sockets passed by fd), control payloads sealed by the module (PACKET_SEND)
 * and the per-peer/per-path counters (PEER_GET). The kernel data-plane
 * backend is built on it. Every request waits for the kernel's answer and
 * returns 0 or the kernel's -errno; the extack text of a refusal is kept
 * (braid_dco_nl_error()) for the caller's log line.
 */
#ifndef BRAID_DP_DCO_NL_H
#define BRAID_DP_DCO_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define BRAID_DCO_NL_PATHS 8	/* BRAID_DCO_PATHS_MAX */
#define BRAID_DCO_NL_SEND_MAX 9000	/* BRAID_DCO_SEND_PAYLOAD_MAX */

struct braid_dco_nl;

/* One direction of a key: cipher key (16 or 32 bytes) and the 8-byte nonce tail. */
struct braid_dco_keydir {
	const uint8_t *key;
	size_t key_len;
	const uint8_t *nonce_tail;
};

/*
 * STATS_GET's cost nest: the module's in-module cost counters (module
 * parameter cost_stats): operations counted and the nanoseconds they took.
 */
struct braid_dco_cost {
	bool present;			/* the answer carried the nest */
	bool enabled;			/* cost_stats is on */
	uint64_t encrypt_packets, encrypt_ns;
	uint64_t decrypt_packets, decrypt_ns;
	uint64_t sched_packets, sched_ns;
};

/* What PEER_GET, PACKET_SEND and STATS_GET answer (the fields a reply carried; the rest 0). */
struct braid_dco_reply {
	int err;			/* the NLMSG_ERROR's error: 0 or -errno */
	bool acked;			/* an NLMSG_ERROR (ack or refusal) ended the answer */
	char msg[128];			/* its extack text, "" if none */
	uint32_t packet_id;		/* PACKET_SEND */
	uint64_t vpn_rx_packets, vpn_tx_packets, vpn_rx_bytes, vpn_tx_bytes;
	uint64_t ctl_rx_packets, ctl_tx_packets;
	int primary_key_id, secondary_key_id;	/* -1: the slot is empty */
	uint32_t path_mask;		/* bit i: path i reported */
	uint64_t path_rx_packets[BRAID_DCO_NL_PATHS], path_tx_packets[BRAID_DCO_NL_PATHS];
	uint64_t path_rx_bytes[BRAID_DCO_NL_PATHS], path_tx_bytes[BRAID_DCO_NL_PATHS];
	uint32_t path_rx_last_pktid[BRAID_DCO_NL_PATHS];	/* the last data packet id received */
	/* the delivery-rate spans: data packets within 20 ms of the previous one, their bytes, the gaps */
	uint64_t path_rx_span_packets[BRAID_DCO_NL_PATHS];
	uint64_t path_rx_span_bytes[BRAID_DCO_NL_PATHS];
	uint64_t path_rx_span_ns[BRAID_DCO_NL_PATHS];
	uint32_t path_down_mask, path_backup_mask;	/* bit i: path i marked down / backup (PATH_SET) */
	uint32_t path_tx_failing_mask;	/* bit i: the module's sends on path i fail (no route, ...) */
	struct braid_dco_cost cost;	/* STATS_GET */
};

/**
 * braid_dco_nl_parse() - read one netlink datagram of the braid_dco family's
 * answer to request seq into *r (fields accumulate over datagrams; zero *r and
 * set both key ids to -1 before the first). Messages of another sequence
 * number are skipped. Returns 1 when an NLMSG_ERROR ended the answer, 0 when
 * more is to come, -EBADMSG on a malformed datagram (every length bounded).
 */
int braid_dco_nl_parse(const uint8_t *buf, size_t len, uint32_t seq, uint16_t family,
		       struct braid_dco_reply *r);

int braid_dco_nl_open(struct braid_dco_nl **out);
void braid_dco_nl_close(struct braid_dco_nl *d);
/* the extack text of the last refusal ("" if none) */
const char *braid_dco_nl_error(const struct braid_dco_nl *d);

/* create a braid_dco device (mp: multi-peer mode) named name; *ifindex on success */
int braid_dco_nl_link_new(struct braid_dco_nl *d, const char *name, bool mp, int *ifindex);
int braid_dco_nl_link_del(struct braid_dco_nl *d, int ifindex);
/* vpn4: the peer's tunnel IPv4 address (4 bytes, network order) or NULL */
int braid_dco_nl_peer_new(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, const uint8_t *vpn4);
int braid_dco_nl_peer_del(struct braid_dco_nl *d, int ifindex, uint32_t peer_id);
/* slot 0 primary, 1 secondary; alg 1 AES-GCM, 2 ChaCha20-Poly1305 (enum braid_dco_cipher_alg) */
int braid_dco_nl_key_new(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int slot, int key_id,
			 int alg, const struct braid_dco_keydir *enc, const struct braid_dco_keydir *dec);
struct braid_key2;
/*
 * the data keys of key_id from a 256-byte key2 as daemon/dc installs them (cipher: OpenVPN name,
 * AES-128/256-GCM or CHACHA20-POLY1305; direction BRAID_KEY_DIR_NORMAL for a TLS client, INVERSE for a
 * server): the same bytes, so a DCO peer and a userspace peer talk. -EINVAL/-ENOTSUP for what the module
 * cannot carry (an unknown cipher, the bidirectional static-key direction).
 */
int braid_dco_nl_key_install(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int slot, int key_id,
			     const char *cipher, const struct braid_key2 *k2, int direction);
int braid_dco_nl_key_swap(struct braid_dco_nl *d, int ifindex, uint32_t peer_id);
/* empty key slot (0 primary, 1 secondary) */
int braid_dco_nl_key_del(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int slot);
/*
 * a path: the UDP socket fd (the module takes its own reference), the remote endpoint and the local
 * one (NULL: the routing's choice of source address; a socket bound to an address passes it, so that
 * the path leaves with that source)
 */
int braid_dco_nl_path_add(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int path_id, int fd,
			  const struct sockaddr *remote, const struct sockaddr *local);
/* PROG_ATTACH: the path scheduler program prog_fd (BPF_PROG_TYPE_SCHED_CLS) on the device */
int braid_dco_nl_prog_attach(struct braid_dco_nl *d, int ifindex, int prog_fd);
/* PATH_SET: down and backup each 0 or 1, or -1 to leave that flag as it is (not both -1) */
int braid_dco_nl_path_set(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int path_id, int down,
			  int backup);
int braid_dco_nl_send(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, int path_id,
		      const uint8_t *payload, size_t len, uint32_t *packet_id);
int braid_dco_nl_peer_get(struct braid_dco_nl *d, int ifindex, uint32_t peer_id, struct braid_dco_reply *r);
/* STATS_GET: the module's cost counters into r->cost (zero *r first) */
int braid_dco_nl_stats_get(struct braid_dco_nl *d, struct braid_dco_reply *r);

#endif /* BRAID_DP_DCO_NL_H */
