/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lg_mp.h - the multipath side of a load-generator session
 * (docs/multipath-negotiation.md): which sessions announce IV_BRAID_MP, the
 * second path (a UDP socket from a second source address to the gateway),
 * the path a datagram leaves by, the answers to the gateway engine's control
 * messages (PATH_CHALLENGE -> PATH_RESPONSE, PROBE -> PROBE_ECHO, MTU_PROBE ->
 * MTU_ACK, each on the path it came by) and the REPORTs of what arrived: the
 * kernel backend's answerer, daemon/dataplane/dco_mpctl.c, compiled in.
 * Path 0 is the session's own socket (control channel and data), path 1 the
 * second socket. The gateway probes only validated paths, so a PROBE on a
 * path is the client's evidence that the gateway validated it.
 */
#ifndef BRAID_LG_MP_H
#define BRAID_LG_MP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/dco_mpctl.h"

struct lg_ctx;
struct lg_session;

#define LG_MP_PATHS 2
#define LG_MP_VERSION 1u  /* the multipath protocol version announced and accepted */

/* What the receiver of the gateway's data reports (REPORT entries): without it the gateway's engine
 * takes its in-flight packets for lost and sends them again. */
struct lg_mp_rx {
	struct braid_dco_mpctl_path pp[LG_MP_PATHS]; /* the gateway's path ids, probes, report marks */
	uint64_t pkts[LG_MP_PATHS], bytes[LG_MP_PATHS]; /* data packets received per path */
	uint32_t last_pktid[LG_MP_PATHS];            /* packet-id of the newest */
	int64_t gen;                                 /* key generation of the newest, -1: none yet */
	unsigned gen_kid;                            /* its key-id */
};

typedef int (*lg_mp_send_fn)(struct lg_session *ls, unsigned path, const uint8_t *pt, size_t len);

/* Session idx announces multipath (ctx->mp_share_pm sessions in 1000, spread evenly). */
bool lg_mp_wanted(const struct lg_ctx *ctx, unsigned idx);

/* The PUSH_REPLY was applied: take up the offer if there is one (0), else -ENOPROTOOPT
 * (no offer: the session stays single-path, counted) or -errno (the second socket). */
int lg_mp_accept(struct lg_session *ls);

/* The path the next data datagram leaves by (round robin over the open paths the gateway validated). */
unsigned lg_mp_tx_path(struct lg_session *ls);

/* A decrypted payload that starts with the engine's magic, received on path:
 * answer it (send_ctl sends a plaintext control message on a path). */
void lg_mp_control(struct lg_session *ls, unsigned path, const uint8_t *pt, size_t len, lg_mp_send_fn send_ctl);

/* A data payload (not a control message) of len bytes arrived on path with key_id / packet_id. */
void lg_mp_data(struct lg_session *ls, unsigned path, unsigned key_id, uint32_t packet_id, size_t len);

/* Send a REPORT (on path 0) if data arrived since the last one. */
void lg_mp_report(struct lg_session *ls, lg_mp_send_fn send_ctl);

/* The gateway validated every path (it probes only validated ones), or LG_MP_WAIT_MS passed
 * since the push, or the session is single-path: its echoes may start. */
#define LG_MP_WAIT_MS 3000
bool lg_mp_ready(const struct lg_session *ls, int64_t now_ms);

/* Close the second socket. */
void lg_mp_close(struct lg_session *ls);

#endif /* BRAID_LG_MP_H */
