// SPDX-License-Identifier: GPL-2.0-only
/*
 * lg_mp.c - the multipath side of a load-generator session (lg_mp.h): the
 * offer, the second path's socket, the round robin of data over the paths and
 * the answers to the gateway engine's control messages, encoded and parsed by
 * the daemon's own daemon/mp/mp_msg.c.
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
	ctx->mp_accepted++;
	return 0;
}

unsigned lg_mp_tx_path(struct lg_session *ls)
{
	if (!ls->mp_on || ls->fd2 < 0)
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
	struct braid_mp_msg m, r;
	uint8_t out[128];
	int n;

	if (braid_mp_msg_parse(pt, len, &m)) {
		ctx->mp_ctl_bad++;
		return;
	}
	ctx->mp_ctl_rx++;
	memset(&r, 0, sizeof(r));
	r.path_id = m.path_id;	/* the gateway's id of the path, echoed */
	if (m.type == BRAID_MP_MSG_PATH_CHALLENGE || m.type == BRAID_MP_MSG_PROBE) {
		ls->mpp[path].gw_id = m.path_id;
		ls->mpp[path].known = true;
	}
	switch (m.type) {
	case BRAID_MP_MSG_PATH_CHALLENGE:
		r.type = BRAID_MP_MSG_PATH_RESPONSE;
		memcpy(r.u.token, m.u.token, sizeof(r.u.token));
		ctx->mp_challenges++;
		break;
	case BRAID_MP_MSG_PROBE:
		/* only validated paths are probed: the gateway validated this one */
		if (!(ls->mp_seen & (1u << path))) {
			ls->mp_seen |= (uint8_t)(1u << path);
			if (ls->mp_seen == (1u << LG_MP_PATHS) - 1)
				ctx->mp_sessions_validated++;
		}
		if (m.u.probe.seq > ls->mpp[path].probe_hi)
			ls->mpp[path].probe_hi = m.u.probe.seq;
		r.type = BRAID_MP_MSG_PROBE_ECHO;
		r.u.echo.seq = m.u.probe.seq;
		r.u.echo.tx_us = m.u.probe.tx_us;
		r.u.echo.owd_us = (int64_t)(mono_us() - m.u.probe.tx_us);
		ctx->mp_probes_echoed++;
		break;
	case BRAID_MP_MSG_MTU_PROBE:
		r.type = BRAID_MP_MSG_MTU_ACK;
		r.u.mtu.seq = m.u.mtu.seq;
		r.u.mtu.size = m.u.mtu.size;
		ctx->mp_mtu_acked++;
		break;
	default:	/* REPORT, PATH_STATUS, SKIP, PROBE_ECHO, PATH_CLOSE: nothing to answer */
		ctx->mp_ctl_other++;
		return;
	}
	n = braid_mp_msg_encode(&r, out, sizeof(out));
	if (n > 0)
		send_ctl(ls, path, out, (size_t)n);
}

void lg_mp_data(struct lg_session *ls, unsigned path, unsigned key_id, uint32_t packet_id, size_t len)
{
	struct lg_mp_path *p = &ls->mpp[path];

	/* engine packet-id = generation << 32 | packet-id; key_id k is generation k up to the 7th
	 * renegotiation (docs/multipath-negotiation.md §5), far beyond a load-generator run */
	p->rx_pkts++;
	p->rx_bytes += len;
	p->last_pid = (uint64_t)key_id << 32 | packet_id;
	p->dirty = true;
}

void lg_mp_report(struct lg_session *ls, lg_mp_send_fn send_ctl)
{
	struct braid_mp_msg m;
	uint8_t out[BRAID_MP_REPORT_LEN(LG_MP_PATHS)];
	unsigned i;
	int n;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_REPORT;
	for (i = 0; i < LG_MP_PATHS; i++) {
		struct lg_mp_path *p = &ls->mpp[i];
		struct braid_mp_report_entry *e;

		if (!p->dirty || !p->known)
			continue;
		e = &m.u.report.e[m.u.report.n++];
		e->path_id = p->gw_id;
		e->rx_pkts = p->rx_pkts;
		e->rx_bytes = p->rx_bytes;
		e->last_pid = p->last_pid;
		e->probe_seq_hi = p->probe_hi;
		p->dirty = false;
	}
	if (!m.u.report.n)
		return;
	n = braid_mp_msg_encode(&m, out, sizeof(out));
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
