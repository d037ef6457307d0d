/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_peerinfo.h - what the TLS client announces: data-ciphers, peer-info, OCC string
 * (client_peerinfo.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_PEERINFO_H
#define BRAID_CLIENT_PEERINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/* data-ciphers as configured, else AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305. */
const char *client_data_ciphers(const struct braid_options *o);
/* Whether cipher (case-insensitive) is in data-ciphers. */
bool client_cipher_allowed(const struct braid_options *o, const char *cipher);
/* Fill c->peer_info (IV_*, UV_*, IV_GUI_VER, IV_SSO); sets c->prf_only. 0 or -errno (logged). */
int client_build_peer_info(struct braid_client *c);
/* Fill c->occ, the OCC options string for this transport and address family. */
void client_build_occ(struct braid_client *c, bool tcp, int family);

#endif /* BRAID_CLIENT_PEERINFO_H */
