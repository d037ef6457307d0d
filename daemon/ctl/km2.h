/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * km2.h - the key-method-2 message and peer-info variables.
 *
 *   u32 0 | u8 0x02 | pre_master[48] (client only) | random1[32] | random2[32]
 *   | u16 len | options | NUL       (len includes the NUL; options <= 512 with NUL)
 *   | u16 len | username | NUL      or u16 0
 *   | u16 len | password | NUL      or u16 0
 *   | u16 len | peer-info | NUL     "VAR=VAL\n..."; the server sends u16 0
 *
 * An empty string is written as length 0; "len 1, NUL" is accepted too. On
 * parse, fields after the options that are missing at the end of the
 * message read as empty. Parse errors: -EBADMSG with *why.
 */
#ifndef BRAID_CTL_KM2_H
#define BRAID_CTL_KM2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kdf.h"

#define BRAID_KM2_OPTIONS_MAX 512 /* incl. NUL (TLS_OPTIONS_LEN) */
#define BRAID_KM2_MSG_MAX 2048    /* one TLS record / control message */
#define BRAID_KM2_FIELD_MAX 1024  /* username, password (auth-token), peer-info, w/o NUL */

struct braid_km2 {
	bool from_client;                              /* has a pre_master */
	uint8_t pre_master[BRAID_KDF_PRE_MASTER_LEN];
	uint8_t random1[BRAID_KDF_RANDOM_LEN];
	uint8_t random2[BRAID_KDF_RANDOM_LEN];
	char options[BRAID_KM2_OPTIONS_MAX];
	char username[BRAID_KM2_FIELD_MAX + 1];
	char password[BRAID_KM2_FIELD_MAX + 1];
	char peer_info[BRAID_KM2_FIELD_MAX + 1];
};

/* Fill pre_master (client) and the randoms from the OpenSSL CSPRNG. -EIO. */
int braid_km2_randomize(struct braid_km2 *m, bool from_client);

/* -EINVAL (options too long), -ENOBUFS. */
int braid_km2_build(const struct braid_km2 *m, uint8_t *out, size_t cap, size_t *len);
/* from_client: the message comes from a client (has a pre_master). */
int braid_km2_parse(const uint8_t *buf, size_t len, bool from_client, struct braid_km2 *m,
		    const char **why);
void braid_km2_wipe(struct braid_km2 *m);

/*
 * Peer-info ("VAR=VAL\n" lines).
 * get: copies the value of the first NAME into val. -ENOENT, -ENOBUFS.
 * add: appends "NAME=VAL\n" to the NUL-terminated buf. -EINVAL (NAME not
 *      [A-Za-z0-9_] or VAL with a newline/NUL), -ENOBUFS.
 */
int braid_peer_info_get(const char *pi, const char *name, char *val, size_t cap);
int braid_peer_info_add(char *buf, size_t cap, const char *name, const char *val);
/* IV_PROTO as a number; -ENOENT, -EINVAL (not a decimal u32). */
int braid_peer_info_iv_proto(const char *pi, uint32_t *proto);

/*
 * Braid multipath announcement: IV_BRAID_MP=<version>, the highest version
 * of docs/multipath-negotiation.md this braidd speaks; it speaks every
 * version from BRAID_MP_VERSION_MIN up to it, and the gateway offers the
 * highest both speak (§2.1).
 */
#define BRAID_PEER_INFO_MP "IV_BRAID_MP"
/*
 * Braid's TCP super-packet frames (os/tun_super.h, docs/braidd.md): a client on
 * the TCP transport with a vnet TUN announces IV_BRAID_TCPSUPER=1; a gateway
 * that takes it pushes `braid-tcp-super 1`. Version 1 is the only one.
 */
#define BRAID_PEER_INFO_TCP_SUPER "IV_BRAID_TCPSUPER"
#define BRAID_MP_VERSION 1
#define BRAID_MP_VERSION_MIN 1
/*
 * Test-only (docs/multipath-negotiation.md §2.1), never for production: the
 * environment variable BRAID_TEST_MP_VERSION makes braidd claim another
 * version. A number N: this braidd speaks 1..N (announced as N, offered as
 * min(client's, N), accepted up to N); the wire stays version 1's. Any other
 * text: the client announces it verbatim; on the gateway "=TEXT" puts TEXT
 * in the offer verbatim. NULL when unset or empty.
 */
#define BRAID_MP_VERSION_ENV "BRAID_TEST_MP_VERSION"
const char *braid_mp_version_knob(void);
/* The highest version this braidd speaks (BRAID_MP_VERSION, or the knob's number). */
unsigned braid_mp_version_max(void);
/* A version string as the spec writes it: 1..65535, no sign, no leading zero; else 0. */
unsigned braid_mp_version_parse(const char *s);
int braid_peer_info_add_braid_mp(char *buf, size_t cap);
/* Version the peer announced, 0 if none or malformed (a stock peer). */
unsigned braid_peer_info_braid_mp(const char *pi);

/* IV_PROTO bits (OpenVPN 2.6.14 ssl.h). */
#define BRAID_IV_PROTO_DATA_V2 (1u << 1)
#define BRAID_IV_PROTO_REQUEST_PUSH (1u << 2)
#define BRAID_IV_PROTO_TLS_KEY_EXPORT (1u << 3)
#define BRAID_IV_PROTO_AUTH_PENDING_KW (1u << 4)
#define BRAID_IV_PROTO_NCP_P2P (1u << 5)
#define BRAID_IV_PROTO_DNS_OPTION (1u << 6)
#define BRAID_IV_PROTO_CC_EXIT_NOTIFY (1u << 7)
#define BRAID_IV_PROTO_AUTH_FAIL_TEMP (1u << 8)
#define BRAID_IV_PROTO_DYN_TLS_CRYPT (1u << 9)

#endif /* BRAID_CTL_KM2_H */
