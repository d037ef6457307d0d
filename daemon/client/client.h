/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client.h - braidd as a TLS client (`client` / `tls-client` + `pull`) of a
 * stock OpenVPN 2.6 server or a Braid gateway, single path, on libev.
 *
 *   remote list --(UDP socket | tcplink)--> control session (ctl/session.h)
 *     hard reset, TLS, key-method-2 with peer-info --> KEYS_READY
 *     --> PUSH_REQUEST every 5 s until a PUSH_REPLY (or the server's unrequested one)
 *     --> push.c: pull-filter, parse; cipher must be in data-ciphers
 *     --> keys by EKM (pushed tls-ekm) or the OpenVPN PRF --> dc key_id 0 (NORMAL)
 *     --> addresses on the TUN, `up` script, routes and redirect-gateway (OpenVPN's order)
 *   renegotiation (either side): KEYS_READY{n} --> derive + install key n; the old key
 *     stays as lame duck until the session reports KEY_EXPIRED (tran-window)
 *   data: TUN <-> compression stub framing <-> dc (P_DATA_V2 with the pushed peer-id)
 *
 * Restarts (SIGUSR1/SIGHUP, ping-restart, hand-window, TLS errors, server
 * RESTART / EXIT, AUTH_FAILED with auth-retry nointeract) drop the session,
 * keys and pushed routes (the TUN is kept), wait connect-retry (doubling up to
 * its maximum) and try the next remote. SIGTERM/SIGINT, HALT, AUTH_FAILED with
 * auth-retry none end the process. explicit-exit-notify: cc `EXIT` if the
 * server pushed cc-exit, else an OCC EXIT data packet (UDP).
 *
 * Also: `status FILE [N]` (OpenVPN's client statistics format), `tls-exit`,
 * AUTH_FAILED,TEMP[backoff,advance], AUTH_PENDING,timeout, a pushed auth-token
 * used as the password on reconnects, explicit-exit-notify (cc EXIT or OCC EXIT).
 *
 * Test knob: BRAIDD_KEY_DERIVATION=prf in the environment stops announcing
 * TLS_KEY_EXPORT (IV_PROTO bit 3), so a stock server derives by PRF.
 */
#ifndef BRAID_CLIENT_H
#define BRAID_CLIENT_H

#include "config/options.h"

struct braid_client;

/* TLS context, keys, TUN and event loop. 0 or -errno (logged). */
int braid_client_new(struct braid_client **out, struct braid_options *o);
/*
 * Run until the end; returns the process exit code (0 normal, 1 fatal error/auth failure), or
 * BRAID_RUN_RELOAD at SIGHUP (main.c reads the configuration again).
 */
int braid_client_run(struct braid_client *c);
/* Remove pushed routes/addresses, run `down`, close everything, wipe secrets. NULL is fine. */
void braid_client_free(struct braid_client *c);

#endif /* BRAID_CLIENT_H */
