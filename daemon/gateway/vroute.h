/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vroute.h - the gateway's inner routing table: which client gets a packet
 * from the TUN (or from another client) by its destination address.
 *
 * Entries: each client's virtual addresses (host routes /32, /128) and its
 * `iroute` / `iroute-ipv6` networks. Lookup = longest-prefix match, per
 * family; an equal prefix added twice replaces the older owner (the newer
 * client wins, as OpenVPN's multi_learn_addr does).
 *
 * Owners are opaque 32-bit ids (the gateway uses the client's peer-id).
 * Host routes (/32, /128: every client's own address) sit in a hash table
 * keyed with a random SipHash key (inner addresses come from the network:
 * no hash flooding), so the common lookup costs O(1) however many clients
 * there are; a host match is always the longest. The other prefixes
 * (iroutes) are a flat array kept sorted by prefix length, longest first,
 * scanned until the first match. `e` lists every route, for the status
 * file.
 */
#ifndef BRAID_VROUTE_H
#define BRAID_VROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_vroute_entry {
	int family;		/* AF_INET / AF_INET6 */
	uint8_t addr[16];	/* network byte order, host bits cleared */
	uint8_t prefix;
	bool iroute;		/* from iroute (else the client's own address) */
	uint32_t owner;
};

struct braid_vroute {
	struct braid_vroute_entry *e;	/* all routes, sorted longest prefix first */
	size_t n, cap;
	struct braid_vroute_entry *nets;	/* the non-host routes, same order */
	size_t n_nets, cap_nets;
	struct braid_vroute_entry *h;	/* host routes, open addressing; family 0 = empty */
	size_t h_cap;			/* power of two, >= 2 x host routes */
	size_t n_hosts;
	uint8_t hkey[16];
};

void braid_vroute_init(struct braid_vroute *t);
void braid_vroute_free(struct braid_vroute *t);

/* Add (or take over) a route. -EINVAL (bad family/prefix), -ENOMEM. */
int braid_vroute_add(struct braid_vroute *t, int family, const void *addr, uint8_t prefix,
		     bool iroute, uint32_t owner);
/* Remove every route of owner; returns how many. */
size_t braid_vroute_del_owner(struct braid_vroute *t, uint32_t owner);
/* Longest-prefix match. 0 + *owner, or -ENOENT. */
int braid_vroute_lookup(const struct braid_vroute *t, int family, const void *addr,
			uint32_t *owner);
/*
 * Destination of an IP packet (version nibble), then lookup. -EINVAL (not
 * IPv4/IPv6 or too short), -ENOENT. *family optional.
 */
int braid_vroute_lookup_packet(const struct braid_vroute *t, const uint8_t *pkt, size_t len,
			       uint32_t *owner);
/* Source address of an IP packet: family and 16 bytes (v4 in the first 4). -EINVAL. */
int braid_vroute_packet_src(const uint8_t *pkt, size_t len, int *family, uint8_t addr[16]);

#endif /* BRAID_VROUTE_H */
