/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - one OpenVPN 2.6 control-channel session (one peer), without an
 * event loop: fed whole control packets and time (milliseconds, any monotonic
 * origin), it returns packets to send, a deadline and events.
 *
 * Layers (docs/control-channel.md): wrap (none / tls-auth / tls-crypt,
 * checked before anything else) -> packet codec (pkt.h) -> reliability per
 * key_state (reliable.h) -> TLS per key_state (tls.h) -> key-method-2 (km2.h)
 * and NUL-terminated text messages.
 *
 * Key states: the current one and at most one lame duck, plus a negotiating
 * one during a soft reset. key_id 0 first, then 1..7 and back to 1 (never 0).
 *
 * Typical client loop:
 *   braid_ctls_new(&s, &cfg, now)          queues HARD_RESET_CLIENT_V2
 *   loop: braid_ctls_output() until len 0 -> send; wait for a packet or
 *         braid_ctls_deadline(); braid_ctls_input(); drain next_event():
 *     KEYS_READY{0}: send_text("PUSH_REQUEST"); TEXT "PUSH_REPLY,..." ->
 *         braid_ctls_derive(EKM or PRF) -> braid_dc_key_install(key_id, ...,
 *         BRAID_KEY_DIR_NORMAL (client) / INVERSE (server))
 *     KEYS_READY{n>0} (after a renegotiation): derive + install as key n
 *     KEY_EXPIRED{k}: braid_dc_key_remove(k)
 *     ERROR{reason, fatal}: log; if fatal, free the session and restart
 *
 * A UDP server should answer the first client reset with cookie.h instead of
 * calling braid_ctls_new directly (no state for unauthenticated packets).
 *
 * Not thread-safe. All strings given in the config are copied.
 */
#ifndef BRAID_CTL_SESSION_H
#define BRAID_CTL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pkt.h"
#include "session_types.h"
#include "static_key.h"

struct braid_ctls;

/*
 * Create a session. A client queues HARD_RESET_CLIENT_V2 (key_id 0); a
 * server (stateful, e.g. TCP) waits for it. -EINVAL (config: the reason is
 * in err), -ENOMEM, -EIO.
 */
int braid_ctls_new(struct braid_ctls **out, const struct braid_ctls_config *cfg, int64_t now_ms,
		   char *err, size_t errlen);
/* Wipes every secret (TLS, km2, wrap keys) and frees; NULL is fine. */
void braid_ctls_free(struct braid_ctls *s);

/*
 * One whole control packet (UDP datagram or TCP-deframed). The wrap is
 * verified before any state is touched. 0 = accepted (possibly a duplicate);
 * otherwise the packet was dropped without changing the session:
 *   -EBADMSG  malformed / tls-auth or tls-crypt verification failed
 *   -EALREADY / -ESTALE  replay
 *   -EPROTO   not a control packet, wrong role, key-method 1
 *   -EOPNOTSUPP  tls-crypt-v2 packets
 *   -ESRCH    wrong session id (other session) or unknown key_id
 *   -ECONNRESET  (server) a new HARD_RESET_CLIENT_V2 from another client
 *               session id: the peer restarted; make a new session
 *   -ERANGE / -ENOBUFS  outside the reliability windows (peer retransmits)
 * braid_ctls_last_error() names the reason. Data opcodes are the caller's.
 */
int braid_ctls_input(struct braid_ctls *s, const uint8_t *pkt, size_t len, int64_t now_ms);

/*
 * Next packet to send now into buf (cap >= 1600 is always enough):
 * 0 with *len > 0, or 0 with *len == 0 (nothing now). Call until *len is 0.
 * -ENOBUFS (cap too small), -EIO.
 */
int braid_ctls_output(struct braid_ctls *s, int64_t now_ms, uint8_t *buf, size_t cap,
		      size_t *len);

/* Next time (ms) braid_ctls_output must be called for timers (BRAID_CTLS_NEVER). */
int64_t braid_ctls_deadline(const struct braid_ctls *s);

/* Next event: 0 (ev filled), -EAGAIN (none). */
int braid_ctls_next_event(struct braid_ctls *s, struct braid_ctls_event *ev);

/*
 * Send one control message (sent NUL-terminated as one TLS record on the
 * newest key with KEYS_READY). -EAGAIN (no ready key yet), -EMSGSIZE
 * (> 2047), -EINVAL (contains a NUL or control character).
 */
int braid_ctls_send_text(struct braid_ctls *s, const char *msg);

/*
 * Derive the 256-byte data-channel key2 of key_id after KEYS_READY.
 * Client installs it NORMAL, server INVERSE. -ENOKEY (no ready key with that
 * id), -EINVAL, -EIO.
 */
int braid_ctls_derive(struct braid_ctls *s, unsigned key_id, enum braid_ctls_kdf method,
		      struct braid_key2 *out);

/*
 * Start a soft reset now: a new key state with the next key_id (1..7, then
 * 1) sends P_CONTROL_SOFT_RESET_V1. -EBUSY (a negotiation is running),
 * -EAGAIN (the current key is not ready yet).
 */
int braid_ctls_renegotiate(struct braid_ctls *s, int64_t now_ms);

/* Data-channel totals of the current key (bytes, packets; both directions) for reneg-bytes/pkts. */
void braid_ctls_data_counters(struct braid_ctls *s, uint64_t bytes, uint64_t pkts);

/* key_id of the newest ready key; -ENOKEY if none. */
int braid_ctls_current_key_id(const struct braid_ctls *s);

/*
 * Peer data of the newest ready key ("" before KEYS_READY): its OCC options
 * string, peer-info (server side), username / password (server side; the
 * password is a secret: never log it), certificate CN and serial.
 */
const char *braid_ctls_peer_options(const struct braid_ctls *s);
const char *braid_ctls_peer_info(const struct braid_ctls *s);
const char *braid_ctls_peer_username(const struct braid_ctls *s);
const char *braid_ctls_peer_password(const struct braid_ctls *s);
const char *braid_ctls_peer_cn(const struct braid_ctls *s);
const char *braid_ctls_peer_serial(const struct braid_ctls *s);
/* The newest ready key's certificate variables (tls_certenv.h): "NAME=VALUE" into v, the count. */
size_t braid_ctls_peer_cert_env(const struct braid_ctls *s, char **v, size_t max);

/* Session ids (8 bytes each); the remote one is all zero until known. */
void braid_ctls_session_ids(const struct braid_ctls *s, uint8_t local[BRAID_CTL_SID_LEN],
			    uint8_t remote[BRAID_CTL_SID_LEN]);

enum braid_ctls_reason braid_ctls_last_reason(const struct braid_ctls *s);

/* Reason of the last input error or ERROR event ("" if none). */
const char *braid_ctls_last_error(const struct braid_ctls *s);
void braid_ctls_stats(const struct braid_ctls *s, struct braid_ctls_stats *st);

/*
 * For cookie.c: a server session whose resets (msg_pid 0 both ways) were
 * exchanged statelessly: local_sid = the cookie, remote_sid = the client's,
 * the wrap's next replay id is 2 (the reset used 1) at wrap_tx_time.
 */
int braid_ctls_new_accepted(struct braid_ctls **out, const struct braid_ctls_config *cfg,
			    const uint8_t local_sid[BRAID_CTL_SID_LEN],
			    const uint8_t remote_sid[BRAID_CTL_SID_LEN], uint32_t wrap_tx_time,
			    int64_t now_ms, char *err, size_t errlen);

/*
 * Split one received TLS record into control messages (fact sheet §6): on
 * NUL; trailing CR/LF stripped; empty messages skipped; a message with any
 * other control character (< 0x20, 0x7f) is dropped. cb gets each message
 * (NUL-terminated, inside rec). rec must have room for len + 1 bytes.
 * Returns the number of dropped (invalid) messages.
 */
int braid_ctls_text_split(char *rec, size_t len, void (*cb)(void *arg, const char *msg),
			  void *arg);

/* Number of live sessions in the process (for "no state for unauthenticated packets" checks). */
unsigned long braid_ctls_live_sessions(void);

#endif /* BRAID_CTL_SESSION_H */
