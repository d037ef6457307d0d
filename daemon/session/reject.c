// SPDX-License-Identifier: GPL-2.0-only
/*
 * reject.c - counted, rate-limited log lines for refused packets (see
 * reject.h).
 */
#include "session/reject.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "ctl/pkt.h"
#include "ctl/session.h"
#include "util/log.h"

static const struct {
	const char *name;
	int verb;
} kinds[BRAID_REJ__COUNT] = {
	[BRAID_REJ_HMAC] = { "hmac failed", 1 },
	[BRAID_REJ_TLS_CRYPT] = { "tls-crypt failed", 1 },
	[BRAID_REJ_OPCODE] = { "bad opcode", 1 },
	[BRAID_REJ_TCP_LENGTH] = { "tcp bad length", 1 },
	[BRAID_REJ_REPLAY] = { "replays", 2 },
	[BRAID_REJ_COOKIE] = { "cookie rejected", 4 },
	[BRAID_REJ_UNKNOWN_PEER] = { "unknown peer", 4 },
	[BRAID_REJ_DATA_AUTH] = { "decrypt failures", 3 },
	[BRAID_REJ_TCP_CLOSED] = { "tcp unauth closed", 1 },
	[BRAID_REJ_TCP_REFUSED] = { "tcp refused", 3 },
	[BRAID_REJ_MALFORMED] = { "malformed", 4 },
	[BRAID_REJ_UNROUTABLE] = { "unroutable", 1 },
	[BRAID_REJ_TCP_QUEUE] = { "tcp queue drops", 3 },
};

const char *braid_reject_name(enum braid_reject_kind k)
{
	return (unsigned)k < BRAID_REJ__COUNT ? kinds[k].name : "?";
}

static void window_close(struct braid_reject *r, enum braid_reject_kind k)
{
	if (r->win[k].suppressed && braid_log_enabled(kinds[k].verb))
		braid_log(kinds[k].verb, "%s: %llu similar messages suppressed in the last %d s",
			  kinds[k].name, (unsigned long long)r->win[k].suppressed,
			  BRAID_REJECT_WINDOW_MS / 1000);
	r->win[k].start_ms = 0;
	r->win[k].lines = 0;
	r->win[k].suppressed = 0;
}

void braid_reject(struct braid_reject *r, enum braid_reject_kind k, int64_t now_ms, int mute,
		  const char *fmt, ...)
{
	char line[512];
	va_list ap;
	struct braid_reject *w = r->share ? r->share : r;
	bool print = false;

	if ((unsigned)k >= BRAID_REJ__COUNT)
		return;
	r->count[k]++;
	if (mute || !braid_log_enabled(kinds[k].verb))
		return;
	if (r->share_lk)
		pthread_mutex_lock(r->share_lk);
	if (w->win[k].start_ms && now_ms - w->win[k].start_ms >= BRAID_REJECT_WINDOW_MS)
		window_close(w, k);
	if (!w->win[k].start_ms)
		w->win[k].start_ms = now_ms ? now_ms : 1;
	if (w->win[k].lines >= BRAID_REJECT_BURST) {
		w->win[k].suppressed++;
	} else {
		w->win[k].lines++;
		print = true;
	}
	if (r->share_lk)
		pthread_mutex_unlock(r->share_lk);
	if (!print)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	braid_log(kinds[k].verb, "%s", line);
}

void braid_reject_tick(struct braid_reject *r, int64_t now_ms)
{
	struct braid_reject *w = r->share ? r->share : r;

	if (r->share_lk)
		pthread_mutex_lock(r->share_lk);
	for (int k = 0; k < BRAID_REJ__COUNT; k++)
		if (w->win[k].start_ms && now_ms - w->win[k].start_ms >= BRAID_REJECT_WINDOW_MS)
			window_close(w, (enum braid_reject_kind)k);
	if (r->share_lk)
		pthread_mutex_unlock(r->share_lk);
}

int braid_reject_ctl(struct braid_reject *r, int why, int wrap,
		     const uint8_t *pkt, size_t len, const char *peer, const char *detail,
		     int64_t now_ms)
{
	if (!detail)
		detail = "";
	switch (why) {
	case BRAID_CTLS_R_WRAP:
		if (wrap == BRAID_CTLS_WRAP_CRYPT) {
			braid_reject(r, BRAID_REJ_TLS_CRYPT, now_ms, 0,
				     "TLS Error: tls-crypt unwrapping failed from %s", peer);
			braid_dbg("%s: %s", peer, detail);
			return BRAID_REJ_TLS_CRYPT;
		}
		braid_reject(r, BRAID_REJ_HMAC, now_ms, 0,
			     "TLS Error: incoming packet authentication failed from %s", peer);
		braid_dbg("%s: %s", peer, detail);
		return BRAID_REJ_HMAC;
	case BRAID_CTLS_R_OPCODE:
		braid_reject(r, BRAID_REJ_OPCODE, now_ms, 0,
			     "TLS Error: unknown opcode received from %s op=%u", peer,
			     len ? (unsigned)(pkt[0] >> BRAID_CTL_OP_SHIFT) : 0u);
		return BRAID_REJ_OPCODE;
	case BRAID_CTLS_R_REPLAY:
		braid_reject(r, BRAID_REJ_REPLAY, now_ms, 0,
			     "%s TLS Error: control packet replay: %s", peer, detail);
		return BRAID_REJ_REPLAY;
	case BRAID_CTLS_R_MALFORMED:
		braid_reject(r, BRAID_REJ_MALFORMED, now_ms, 0, "%s: malformed control packet dropped: %s",
			     peer, detail);
		return BRAID_REJ_MALFORMED;
	default:
		braid_dbg("%s: control packet dropped: %s", peer, detail);
		return -1;
	}
}

void braid_reject_tcp_length(struct braid_reject *r, const char *peer, size_t bad_len,
			     size_t max_len, int64_t now_ms)
{
	braid_reject(r, BRAID_REJ_TCP_LENGTH, now_ms, 0,
		     "%s WARNING: Bad encapsulated packet length from peer (%zu), which must be > 0 "
		     "and <= %zu -- please ensure that --tun-mtu or --link-mtu is equal on both "
		     "peers -- this condition could also indicate a possible active attack on the "
		     "TCP link -- [Attempting restart...]",
		     peer, bad_len, max_len);
}

void braid_reject_replay(struct braid_reject *r, const char *prefix, const char *peer,
			 const uint8_t *pkt, size_t len, int mute, int64_t now_ms)
{
	/* AEAD packet-id: after op (P_DATA_V1) or op + peer-id (P_DATA_V2) */
	size_t off = len && (pkt[0] >> BRAID_CTL_OP_SHIFT) == BRAID_OP_DATA_V2 ? 4 : 1;
	uint32_t pid = 0;

	if (len >= off + 4)
		pid = (uint32_t)pkt[off] << 24 | (uint32_t)pkt[off + 1] << 16 |
		      (uint32_t)pkt[off + 2] << 8 | pkt[off + 3];
	braid_reject(r, BRAID_REJ_REPLAY, now_ms, mute,
		     "%s%s%s AEAD Decrypt error: bad packet ID (may be a replay): [ #%u ] -- see the "
		     "man page entry for --no-replay and --replay-window for more info or silence "
		     "this warning with --mute-replay-warnings",
		     prefix, *prefix ? "/" : "", peer, pid);
}
