// SPDX-License-Identifier: GPL-2.0-only
/*
 * backend_sp.c - the single-path userspace backend (backend_sp.h): a
 * payload is sealed with the session's data channel (dc/) and handed to the
 * role's link through role->xmit (or, for a role that batches its own
 * sends, sealed into the role's buffer by seal); a packet the role read is opened here and
 * goes up through role->rx_auth (authenticated: the role may learn or float
 * its peer, or refuse) and role->deliver, or, when it does not open,
 * through role->rx_drop with the reason (the role counts and words it, as
 * stock does for its mode). Keys live in the data channel, so key_install
 * and key_remove have nothing to do here; there is no path table.
 *
 * Memory (issue 16): a session holds no packet buffer. The sealed packet and
 * the opened one live in buffers of the calling thread, shared by all its
 * sessions (a gateway holds thousands); a nested use (deliver sends on
 * another session, or anything re-entering) takes a heap buffer for that
 * call. The opened plaintext is wiped after delivery.
 */
#include "dataplane/backend_sp.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <sodium.h>

#include "config/options.h"
#include "util/log.h"

/* the largest packet a stream carries (a TCP super-packet frame, os/tun_super.h) and its seal */
#define SP_BUF (65535 + 256)

struct sp_dp {
	struct braid_dp dp;		/* first: the handle the role holds */
	struct braid_dp_role role;
	struct braid_dc *dc;
	struct braid_tunnel_stats st;
};

/* One scratch buffer per thread and direction; busy while a call uses it. */
struct sp_scratch {
	bool busy;
	uint8_t b[SP_BUF];
};
static _Thread_local struct sp_scratch sp_tx, sp_rx;

/* The thread's buffer, or a heap one when it is in use further up the stack (NULL: -ENOMEM). */
static uint8_t *scratch_get(struct sp_scratch *sc)
{
	if (!sc->busy) {
		sc->busy = true;
		return sc->b;
	}
	return malloc(SP_BUF);
}

static void scratch_put(struct sp_scratch *sc, uint8_t *b, size_t wipe)
{
	if (wipe)
		sodium_memzero(b, wipe);
	if (b == sc->b)
		sc->busy = false;
	else
		free(b);
}

static struct sp_dp *S(const struct braid_dp *dp)
{
	return (struct sp_dp *)(uintptr_t)dp;	/* dp is the first member */
}

static int64_t mono_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

static int sp_open(struct braid_dp **out, const struct braid_dp_config *cfg,
		   const struct braid_dp_role *role)
{
	struct sp_dp *s;

	if (!cfg->dc || !role->xmit || !role->deliver)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->dp.ops = &braid_dp_sp_ops;
	s->role = *role;
	s->dc = cfg->dc;
	*out = &s->dp;
	return 0;
}

static void sp_close(struct braid_dp *dp)
{
	sodium_memzero(S(dp), sizeof(struct sp_dp));
	free(S(dp));
}

static int sp_send(struct braid_dp *dp, const uint8_t *p, size_t len)
{
	struct sp_dp *s = S(dp);
	uint8_t *tx = scratch_get(&sp_tx);
	size_t olen;
	int r;

	if (!tx)
		return -ENOMEM;
	r = braid_dc_encrypt(s->dc, p, len, tx, SP_BUF, &olen, NULL);
	if (r) {
		scratch_put(&sp_tx, tx, 0);
		return r;
	}
	r = s->role.xmit(s->role.user, tx, olen);
	scratch_put(&sp_tx, tx, 0);	/* ciphertext only */
	if (r) {
		s->st.link_tx_errors++;
		return r;
	}
	s->st.link_tx_pkts++;
	s->st.link_tx_bytes += olen;
	if (s->role.activity)
		s->role.activity(s->role.user, false);
	return 0;
}

static int sp_seal(struct braid_dp *dp, const uint8_t *pt, size_t len, uint8_t *out, size_t cap,
		   size_t *out_len)
{
	return braid_dc_encrypt(S(dp)->dc, pt, len, out, cap, out_len, NULL);
}

static void sp_input(struct braid_dp *dp, const uint8_t *pkt, size_t len,
		     const union braid_sockaddr *from)
{
	struct sp_dp *s = S(dp);
	struct braid_dc_rx_info info;
	size_t plen;
	char a[80];
	uint8_t *rx;
	int r;

	s->st.link_rx_pkts++;
	s->st.link_rx_bytes += len;
	rx = scratch_get(&sp_rx);
	if (!rx) {
		s->st.rx_malformed++;	/* not opened: counted and worded as a drop */
		if (s->role.rx_drop)
			s->role.rx_drop(s->role.user, -ENOMEM, pkt, len, from);
		return;
	}
	plen = 0;
	r = braid_dc_decrypt(s->dc, pkt, len, mono_sec(), rx, SP_BUF, &plen, &info);
	if (r) {
		scratch_put(&sp_rx, rx, len < SP_BUF ? len : SP_BUF); /* what a failed open may have written */
		if (r == -EBADMSG)
			s->st.rx_auth_failures++;
		else if (r == -EALREADY || r == -ESTALE)
			s->st.rx_replays++;
		else
			s->st.rx_malformed++;
		if (s->role.rx_drop)
			s->role.rx_drop(s->role.user, r, pkt, len, from);
		return;
	}
	if (info.peer_restarted)	/* static-key long form: a new packet-id sequence (dc.h) */
		braid_info("the peer restarted (new packet-id sequence from %s)",
			   from ? braid_sockaddr_str(from, a, sizeof(a)) : "the stream");
	/* authenticated from here on: only now may the role learn or move its peer */
	if (s->role.rx_auth && s->role.rx_auth(s->role.user, from, len)) {
		scratch_put(&sp_rx, rx, plen);
		return;
	}
	if (s->role.activity)
		s->role.activity(s->role.user, true);
	s->role.deliver(s->role.user, rx, plen);
	scratch_put(&sp_rx, rx, plen);	/* the plaintext */
}

static void sp_stats(const struct braid_dp *dp, struct braid_tunnel_stats *st)
{
	*st = S(dp)->st;
}

static const char *sp_sched_name(const struct braid_dp *dp)
{
	(void)dp;
	return "single-path";
}

const struct braid_dp_ops braid_dp_sp_ops = {
	.name = "sp",
	.open = sp_open,
	.close = sp_close,
	.send = sp_send,
	.seal = sp_seal,
	.input = sp_input,
	.stats = sp_stats,
	.sched_name = sp_sched_name,
};
