// SPDX-License-Identifier: GPL-2.0-only
/*
 * lg_mp.c - the multipath side of a load-generator session (lg_mp.h): the
 * offer, the second path's socket, the round robin of data over the paths and
 * the answers to the gateway engine's control messages and the REPORTs, by
 * the daemon's own daemon/dataplane/dco_mpctl.c (the kernel backend answers the
 * same messages) over daemon/mp/mp_msg.c.
 */
#include "lg_mp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lg_session.h"
#include "mp_msg.h"

bool lg_mp_wanted(const struct lg_ctx *ctx, unsigned idx)
{
	uint64_t pm = ctx->mp_share_pm;

	return ((uint64_t)idx + 1) * pm / 1000 > (uint64_t)idx * pm / 1000;
}

static int open_path(struct lg_session *ls)
{
	struct lg_ctx *ctx = ls->ctx;
	const struct sockaddr_in *b = &ctx->mp_binds[ls->idx % ctx->n_mp_binds];
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return -errno;
	if (bind(fd, (const struct sockaddr *)b, sizeof(*b)) < 0 ||
	    connect(fd, (const struct sockaddr *)&ctx->remote, sizeof(ctx->remote)) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ls->fd2 = fd;
	return 0;
}

int lg_mp_accept(struct lg_session *ls)
{
	struct lg_ctx *ctx = ls->ctx;
	int ret;

	/* as braidd's client (docs/multipath-negotiation.md §3.1): a version we speak, a window in range */
	if (ls->push.mp_version != LG_MP_VERSION || ls->push.mp_window < 64 || ls->push.mp_window > 65536 ||
	    ls->push.peer_id == UINT32_MAX) {
		ctx->mp_not_offered++;
		return -ENOPROTOOPT;
	}
	ret = open_path(ls);
	if (ret)
		return ret;
	ls->mp_on = true;
	ls->mprx.gen = -1;
	ctx->mp_accepted++;
	return 0;
}

unsigned lg_mp_tx_path(struct lg_session *ls)
{
	/* path 1 carries data once the gateway validated it (its PROBEs come only then), as braidd's client
	 * uses validated paths only: a session the gateway kept single-path would see each datagram from the
	 * other address as a float */
	if (!ls->mp_on || ls->fd2 < 0 || !(ls->mp_seen & 2u))
		return 0;
	return ls->tx_rr++ % LG_MP_PATHS;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void lg_mp_control(struct lg_session *ls, unsigned path, const uint8_t *pt, size_t len, lg_mp_send_fn send_ctl)
{
	struct lg_ctx *ctx = ls->ctx;
	uint8_t out[BRAID_MP_MSG_MAX];
	int n;

	ctx->mp_ctl_rx++;
	n = braid_dco_mpctl_answer(pt, len, mono_us(), out, sizeof(out), &ctx->mpst, &ls->mprx.pp[path]);
	/* only validated paths are probed: a PROBE on a path says the gateway validated it */
	if (n >= 0 && len > BRAID_MP_MAGIC_LEN && pt[BRAID_MP_MAGIC_LEN] == BRAID_MP_MSG_PROBE &&
	    !(ls->mp_seen & (1u << path))) {
		ls->mp_seen |= (uint8_t)(1u << path);
		if (ls->mp_seen == (1u << LG_MP_PATHS) - 1)
			ctx->mp_sessions_validated++;
	}
	if (n > 0)
		send_ctl(ls, path, out, (size_t)n);
}

void lg_mp_data(struct lg_session *ls, unsigned path, unsigned key_id, uint32_t packet_id, size_t len)
{
	struct lg_mp_rx *rx = &ls->mprx;

	/* the engine's packet-id is generation << 32 | packet-id (docs/multipath-negotiation.md §5) */
	if (rx->gen < 0 || key_id != rx->gen_kid) {
		rx->gen = braid_dco_mpctl_gen(rx->gen, key_id);
		rx->gen_kid = key_id;
	}
	rx->pkts[path]++;
	rx->bytes[path] += len;
	rx->last_pktid[path] = packet_id;
}

void lg_mp_report(struct lg_session *ls, lg_mp_send_fn send_ctl)
{
	struct lg_mp_rx *rx = &ls->mprx;
	struct braid_dco_mpctl_rx c[LG_MP_PATHS];
	uint8_t out[BRAID_MP_REPORT_LEN(LG_MP_PATHS)];
	int n;

	if (rx->gen < 0)
		return;
	/* no rate sample (no span): the load generator acknowledges, it does not time arrivals */
	memset(c, 0, sizeof(c));
	for (int i = 0; i < LG_MP_PATHS; i++) {
		c[i].pkts = rx->pkts[i];
		c[i].bytes = rx->bytes[i];
		c[i].last_pktid = rx->last_pktid[i];
	}
	n = braid_dco_mpctl_report(rx->pp, LG_MP_PATHS, c, (uint32_t)rx->gen, out, sizeof(out));
	if (n > 0 && send_ctl(ls, 0, out, (size_t)n) == 0)
		ls->ctx->mp_reports_tx++;
}

bool lg_mp_ready(const struct lg_session *ls, int64_t now_ms)
{
	return !ls->mp_on || ls->mp_seen == (1u << LG_MP_PATHS) - 1 || now_ms >= ls->t_est + LG_MP_WAIT_MS;
}

void lg_mp_close(struct lg_session *ls)
{
	if (ls->fd2 >= 0)
		close(ls->fd2);
	ls->fd2 = -1;
	ls->mp_on = false;
}
