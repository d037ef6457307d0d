// SPDX-License-Identifier: GPL-2.0-only
/*
 * lg_session.c - one load-generator session (lg_session.h): socket, control
 * channel, push, data keys, ICMP probes and keepalives, all from libev
 * callbacks, never blocking.
 */
#include "lg_session.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dc.h"
#include "lg_icmp.h"
#include "lg_mp.h"
#include "mp_msg.h"
#include "payload.h"

int64_t lg_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void hist_add(uint32_t *h, int64_t ms)
{
	if (ms < 0)
		ms = 0;
	h[ms >= LG_RTT_BUCKETS - 1 ? LG_RTT_BUCKETS - 1 : ms]++;
}

/* Rejections are counted always, logged for the first few only. */
static void note(struct lg_session *ls, const char *what, const char *detail)
{
	if (ls->ctx->log_budget == 0)
		return;
	ls->ctx->log_budget--;
	fprintf(stderr, "loadgen: session %u: %s%s%s%s\n", ls->idx, what, detail ? " (" : "",
		detail ? detail : "", detail ? ")" : "");
}

static int start(struct lg_session *ls, struct lg_ctx *ctx, unsigned idx, unsigned tries);
static void on_read(struct ev_loop *loop, ev_io *w, int revents);

/* A session's echoes are over: what it carried both ways (echo requests and replies have the same size). */
static void tally_bytes(struct lg_session *ls)
{
	struct lg_ctx *ctx = ls->ctx;
	uint64_t tx = (uint64_t)ls->seq_next * ctx->ping_size, rx = (uint64_t)ls->replies * ctx->ping_size;

	if (ctx->pings && tx >= ctx->min_bytes && rx >= ctx->min_bytes)
		ctx->sessions_min_bytes++;
	if (rx < ctx->session_bytes_min)
		ctx->session_bytes_min = rx;
	if (ls->mp_on && ls->echo_tx_path[0] && ls->echo_tx_path[1] && ls->echo_rx_path[0] &&
	    ls->echo_rx_path[1])
		ctx->mp_sessions_both_paths++;
}

static void fail(struct lg_session *ls, enum lg_fail why, const char *detail)
{
	struct lg_ctx *ctx = ls->ctx;
	static const char *const names[LG_F_N] = { "handshake timeout", "fatal session error",
		"AUTH_FAILED", "bad PUSH_REPLY", "data keys", "socket" };

	if (ls->state == LG_FAILED || ls->state == LG_CLOSED)
		return;
	note(ls, names[why], detail);
	if (ls->state == LG_CONNECTING && (why == LG_F_TIMEOUT || why == LG_F_FATAL) &&
	    ls->tries < ctx->retries) {
		/* as a real client does after hand-window: a new session from a new port */
		unsigned tries = ls->tries + 1;
		ctx->retried++;
		lg_session_close(ls, false);
		start(ls, ctx, ls->idx, tries);
		return;
	}
	if (ls->state == LG_ESTABLISHED) {
		ctx->dropped++;
		if (!ls->probes_done) {
			ls->probes_done = true;
			ctx->probes_done++;
			ctx->sessions_some_lost++;
			tally_bytes(ls);
		}
	} else {
		ctx->failed++;
	}
	ls->state = LG_FAILED;
	ctx->fail[why]++;
	lg_session_close(ls, false);
	ls->state = LG_FAILED;
	if (ctx->on_change)
		ctx->on_change(ctx);
}

static void send_raw(struct lg_session *ls, int fd, const uint8_t *b, size_t len)
{
	if (send(fd, b, len, 0) < 0 && errno != EAGAIN && errno != ECONNREFUSED)
		note(ls, "send", strerror(errno));
}

static void flush(struct lg_session *ls)
{
	uint8_t buf[2048];
	size_t len;

	while (ls->s && braid_ctls_output(ls->s, lg_now_ms(), buf, sizeof(buf), &len) == 0 && len)
		send_raw(ls, ls->fd, buf, len);
}

/* Seal pt and send it on path (0: the session's socket, 1: a multipath session's second one). */
static int send_path(struct lg_session *ls, unsigned path, const uint8_t *pt, size_t plen)
{
	uint8_t ct[2048];
	size_t clen;
	int ret;

	if (!ls->dc || braid_dc_primary_key_id(ls->dc) < 0)
		return -ENOKEY;
	ret = braid_dc_encrypt(ls->dc, pt, plen, ct, sizeof(ct), &clen, NULL);
	if (ret)
		return ret;
	if (path && ls->fd2 < 0)
		path = 0;
	send_raw(ls, path ? ls->fd2 : ls->fd, ct, clen);
	if (ls->mp_on)
		ls->ctx->mp_tx_path[path]++;
	ls->t_last_tx = lg_now_ms();
	return 0;
}

/* Data and keepalives: round robin over a multipath session's paths. */
static int send_data(struct lg_session *ls, const uint8_t *pt, size_t plen)
{
	return send_path(ls, lg_mp_tx_path(ls), pt, plen);
}

/* An OpenVPN keepalive on path (0, 1), or on the next path of the round robin (-1). */
static void send_keepalive(struct lg_session *ls, int path)
{
	uint8_t pt[64];
	size_t plen;

	braid_payload_build_ping(BRAID_COMP_NONE, pt, sizeof(pt), &plen);
	if (send_path(ls, path < 0 ? lg_mp_tx_path(ls) : (unsigned)path, pt, plen) == 0)
		ls->ctx->keepalives_tx++;
}

static void send_probe(struct lg_session *ls)
{
	struct lg_ctx *ctx = ls->ctx;
	uint8_t pt[1600];
	unsigned seq = ls->seq_next;

	if (lg_icmp_echo(pt, sizeof(pt), ctx->ping_size, ls->push.local, ls->push.gateway,
			 (uint16_t)ls->idx, (uint16_t)seq, now_us()))
		return;
	unsigned path = lg_mp_tx_path(ls);

	if (send_path(ls, path, pt, ctx->ping_size))
		return;
	if (ls->mp_on)
		ls->echo_tx_path[path ? 1 : 0]++;
	ls->seq_next++;
	ctx->pings_sent++;
	ctx->mp_pings_sent += ls->mp_on;
	ctx->tun_bytes_tx += ctx->ping_size;
}

static void install_key(struct lg_session *ls, unsigned kid)
{
	struct braid_key2 k2;
	const char *cipher = ls->push.cipher[0] ? ls->push.cipher : ls->ctx->cipher_default;
	int ret;

	ret = braid_ctls_derive(ls->s, kid, ls->push.ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
	if (ret)
		return fail(ls, LG_F_KEYS, "derive");
	if (!ls->dc) {
		/* a multipath session: the offered replay window (its datagrams come over two paths) */
		struct braid_dc_config dcfg = { .peer_id = ls->push.peer_id == UINT32_MAX ?
							   BRAID_DC_PEER_ID_NONE : ls->push.peer_id,
						.replay_window = ls->mp_on ? ls->push.mp_window : 0 };
		if (braid_dc_new(&ls->dc, &dcfg)) {
			OPENSSL_cleanse(&k2, sizeof(k2));
			return fail(ls, LG_F_KEYS, "dc_new");
		}
	}
	ret = braid_dc_key_install(ls->dc, kid, cipher, &k2, BRAID_KEY_DIR_NORMAL);
	OPENSSL_cleanse(&k2, sizeof(k2));
	if (ret)
		return fail(ls, LG_F_KEYS, cipher);
}

static void pushed(struct lg_session *ls, const char *text)
{
	struct lg_ctx *ctx = ls->ctx;
	const char *why;
	int64_t now = lg_now_ms();

	if (lg_push_parse(text, strlen(text), &ls->push, &why))
		return fail(ls, LG_F_PUSH, why);
	if (!ls->push.local || !ls->push.gateway)
		return fail(ls, LG_F_PUSH, "no ifconfig / route-gateway");
	if (ls->mp) {
		int r = lg_mp_accept(ls);
		if (r == -ENOPROTOOPT)
			note(ls, "multipath announced, not offered: single path", NULL);
		else if (r)
			return fail(ls, LG_F_SOCKET, strerror(-r));
		if (ls->mp_on) {
			ev_io_init(&ls->io2, on_read, ls->fd2, EV_READ);
			ls->io2.data = ls;
			ev_io_start(ctx->loop, &ls->io2);
		}
	}
	install_key(ls, (unsigned)braid_ctls_current_key_id(ls->s));
	if (ls->state != LG_CONNECTING)
		return;
	ls->state = LG_ESTABLISHED;
	ls->t_est = now;
	ctx->established++;
	if (ls->mp_on) {
		/* one keepalive on each path: the gateway learns both and challenges them */
		ctx->established_mp++;
		send_keepalive(ls, 0);
		send_keepalive(ls, 1);
	}
	ctx->hs_ms_sum += (uint64_t)(now - ls->t_start);
	ctx->last_est_ms = now;
	hist_add(ctx->hs_hist, now - ls->t_start);
	ls->t_next_ping = now;
	if (!ctx->pings) {
		ls->probes_done = true;
		ctx->probes_done++;
		ctx->sessions_all_replies++;
	}
	if (ctx->on_change)
		ctx->on_change(ctx);
}

static void events(struct lg_session *ls)
{
	struct braid_ctls_event ev;

	while (ls->s && ls->state != LG_FAILED && braid_ctls_next_event(ls->s, &ev) == 0) {
		switch (ev.type) {
		case BRAID_CTLS_EV_KEYS_READY:
			if (ev.key_id == 0 && ls->state == LG_CONNECTING)
				braid_ctls_send_text(ls->s, "PUSH_REQUEST");
			else if (ev.key_id > 0 && ls->dc)
				install_key(ls, ev.key_id);
			break;
		case BRAID_CTLS_EV_TEXT:
			if (strncmp(ev.text, "PUSH_REPLY", 10) == 0 && ls->state == LG_CONNECTING)
				pushed(ls, ev.text);
			else if (strncmp(ev.text, "AUTH_FAILED", 11) == 0)
				fail(ls, LG_F_AUTH, ev.text);
			break;
		case BRAID_CTLS_EV_KEY_EXPIRED:
			if (ls->dc)
				braid_dc_key_remove(ls->dc, ev.key_id);
			break;
		case BRAID_CTLS_EV_ERROR:
			if (ev.fatal)
				fail(ls, LG_F_FATAL, ev.text);
			break;
		default:
			break;
		}
	}
}

static void probe_reply(struct lg_session *ls, unsigned path, const uint8_t *ip, size_t len)
{
	struct lg_ctx *ctx = ls->ctx;
	uint16_t id, seq;
	uint64_t ts;

	if (lg_icmp_parse_reply(ip, len, ls->push.local, &id, &seq, &ts) || id != (uint16_t)ls->idx ||
	    seq >= ls->seq_next) {
		ctx->rx_not_ours++;
		return;
	}
	if (ls->got[seq / 8] & (1u << (seq % 8))) {
		ctx->pings_dup++;
		return;
	}
	if (ls->probes_done) {
		ctx->pings_late++; /* after the wait: already counted as lost */
		return;
	}
	ls->got[seq / 8] |= (uint8_t)(1u << (seq % 8));
	ls->replies++;
	if (ls->mp_on)
		ls->echo_rx_path[path ? 1 : 0]++;
	ctx->pings_replied++;
	ctx->mp_pings_replied += ls->mp_on;
	ctx->tun_bytes_rx += len;
	hist_add(ctx->rtt_hist, (int64_t)((now_us() - ts) / 1000));
}

static void data_in(struct lg_session *ls, unsigned path, const uint8_t *b, size_t len)
{
	uint8_t pt[2048];
	size_t plen;
	struct braid_payload pl;

	struct braid_dc_rx_info info;
	int ret = ls->dc ? braid_dc_decrypt(ls->dc, b, len, lg_now_ms() / 1000, pt, sizeof(pt), &plen, &info)
			 : -ENOKEY;

	if (ret == -ENOKEY && ls->state == LG_CONNECTING) {
		/* the gateway's first keepalive overtook its PUSH_REPLY (our keys come with the push) */
		ls->ctx->rx_before_keys++;
		return;
	}
	if (ret == -EALREADY && ls->mp_on) {
		/* a packet the gateway's engine sent again (it took it for lost): a duplicate here */
		ls->ctx->mp_rx_dups++;
		return;
	}
	if (ret) {
		ls->ctx->rx_data_dropped++;
		note(ls, "data packet dropped", strerror(-ret));
		return;
	}
	if (ls->mp_on) {
		ls->ctx->mp_rx_path[path]++;
		if (braid_mp_msg_is_control(pt, plen))
			return lg_mp_control(ls, path, pt, plen, send_path);
		lg_mp_data(ls, path, info.key_id, info.packet_id, plen);
	}
	braid_payload_classify(BRAID_COMP_NONE, pt, plen, &pl);
	if (pl.kind == BRAID_PAYLOAD_PING)
		ls->ctx->keepalives_rx++;
	else if (pl.kind == BRAID_PAYLOAD_IPV4)
		probe_reply(ls, path, pl.data, pl.len);
	else
		ls->ctx->rx_not_ours++;
}

static void packet_in(struct lg_session *ls, unsigned path, const uint8_t *b, size_t len)
{
	uint8_t op = b[0] >> 3;

	if (op == BRAID_OP_DATA_V2 || op == BRAID_OP_DATA_V1)
		return data_in(ls, path, b, len);
	if (path) {	/* the control channel stays on the session's socket */
		ls->ctx->rx_not_ours++;
		return;
	}
	if (ls->s && braid_ctls_input(ls->s, b, len, lg_now_ms())) {
		ls->ctx->rx_ctl_dropped++;
		note(ls, "control packet dropped", braid_ctls_last_error(ls->s));
	}
}

/* The probes are over when every reply came or ping_wait passed after the last one. */
static void probes_check(struct lg_session *ls, int64_t now)
{
	struct lg_ctx *ctx = ls->ctx;

	if (ls->state != LG_ESTABLISHED || ls->probes_done || ls->seq_next < ctx->pings)
		return;
	if (ls->replies < ctx->pings && now < ls->t_probe_end)
		return;
	ls->probes_done = true;
	ctx->probes_done++;
	tally_bytes(ls);
	if (ls->replies == ctx->pings)
		ctx->sessions_all_replies++;
	else
		ctx->sessions_some_lost++;
	if (ctx->on_change)
		ctx->on_change(ctx);
}

/* Everything timed: handshake timeout, control timers, probes, keepalives; re-arm. */
static void run(struct lg_session *ls)
{
	struct lg_ctx *ctx = ls->ctx;
	int64_t now = lg_now_ms(), next, ka;

	flush(ls);
	events(ls);
	if (ls->state == LG_FAILED || ls->state == LG_CLOSED)
		return;
	flush(ls);
	if (ls->state == LG_CONNECTING && now - ls->t_start >= ctx->hs_timeout_ms)
		return fail(ls, LG_F_TIMEOUT, braid_ctls_last_error(ls->s));
	next = ls->state == LG_CONNECTING ? ls->t_start + ctx->hs_timeout_ms : now + 3600000;
	if (braid_ctls_deadline(ls->s) < next)
		next = braid_ctls_deadline(ls->s);
	if (ls->state == LG_ESTABLISHED) {
		if (ls->mp_on)
			lg_mp_report(ls, send_path);
		if (ctx->probes_held)
			ls->t_next_ping = now + 3600000;
		else if (ls->seq_next < ctx->pings && ls->t_next_ping > now + (int64_t)ctx->ping_interval_ms)
			ls->t_next_ping = now; /* released */
		/* a multipath session's first echo waits (LG_MP_WAIT_MS at most) until the gateway validated
		 * its paths: before, the gateway has no path to answer on (its tx_nopath) */
		if (ls->seq_next == 0 && !lg_mp_ready(ls, now) && ls->t_next_ping < ls->t_est + LG_MP_WAIT_MS)
			ls->t_next_ping = ls->t_est + LG_MP_WAIT_MS;
		else if (ls->seq_next == 0 && lg_mp_ready(ls, now) && ls->t_next_ping > now &&
			 ls->t_next_ping == ls->t_est + LG_MP_WAIT_MS)
			ls->t_next_ping = now;
		if (ls->seq_next < ctx->pings && now >= ls->t_next_ping) {
			send_probe(ls);
			ls->t_next_ping = now + ctx->ping_interval_ms;
			if (ls->seq_next == ctx->pings)
				ls->t_probe_end = now + ctx->ping_wait_ms;
		}
		probes_check(ls, now);
		if (ls->seq_next < ctx->pings && ls->t_next_ping < next)
			next = ls->t_next_ping;
		else if (!ls->probes_done && ls->t_probe_end < next)
			next = ls->t_probe_end;
		ka = (ctx->keepalive_s ? ctx->keepalive_s : ls->push.ping_s ? ls->push.ping_s : 10) * 1000LL;
		if (now - ls->t_last_tx >= ka)
			send_keepalive(ls, -1);
		if (ls->t_last_tx + ka < next)
			next = ls->t_last_tx + ka;
	}
	ev_timer_stop(ctx->loop, &ls->tm);
	ev_timer_set(&ls->tm, next > now ? (double)(next - now) / 1000.0 : 0.0, 0.0);
	ev_timer_start(ctx->loop, &ls->tm);
}

static void on_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)revents;
	run(w->data);
}

static void on_read(struct ev_loop *loop, ev_io *w, int revents)
{
	struct lg_session *ls = w->data;
	unsigned path = w == &ls->io2;
	uint8_t b[2048];
	int i;

	(void)loop;
	(void)revents;
	for (i = 0; i < 64 && ls->state != LG_FAILED && ls->state != LG_CLOSED; i++) {
		ssize_t n = recv(w->fd, b, sizeof(b), MSG_TRUNC);
		if (n < 0) {
			if (errno != EAGAIN && errno != ECONNREFUSED)
				note(ls, "recv", strerror(errno));
			break;
		}
		if (n == 0)
			continue;
		if ((size_t)n > sizeof(b)) {
			ls->ctx->rx_truncated++;
			note(ls, "datagram longer than 2048 bytes dropped", NULL);
			continue;
		}
		packet_in(ls, path, b, (size_t)n);
	}
	if (ls->state != LG_FAILED && ls->state != LG_CLOSED)
		run(ls);
}

static int start(struct lg_session *ls, struct lg_ctx *ctx, unsigned idx, unsigned tries)
{
	struct braid_ctls_config cc = ctx->cc;
	char err[256];
	int ret;

	memset(ls, 0, sizeof(*ls));
	ls->fd2 = -1;
	ls->ctx = ctx;
	ls->idx = idx;
	ls->mp = ctx->peer_info_mp && lg_mp_wanted(ctx, idx);
	if (ls->mp) {
		cc.peer_info = ctx->peer_info_mp;
		if (!tries)
			ctx->mp_announced++;
	}
	ls->tries = tries;
	ls->t_start = lg_now_ms();
	ls->state = LG_CONNECTING;
	ls->fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (ls->fd < 0) {
		ret = -errno;
		fail(ls, LG_F_SOCKET, strerror(errno));
		return ret;
	}
	if ((ctx->n_binds && bind(ls->fd, (struct sockaddr *)&ctx->binds[idx % ctx->n_binds],
				   sizeof(ctx->binds[0])) < 0) ||
	    connect(ls->fd, (struct sockaddr *)&ctx->remote, sizeof(ctx->remote)) < 0) {
		ret = -errno;
		fail(ls, LG_F_SOCKET, strerror(errno));
		return ret;
	}
	ret = braid_ctls_new(&ls->s, &cc, ls->t_start, err, sizeof(err));
	if (ret) {
		fail(ls, LG_F_FATAL, err);
		return ret;
	}
	ev_io_init(&ls->io, on_read, ls->fd, EV_READ);
	ls->io.data = ls;
	ev_io_start(ctx->loop, &ls->io);
	ev_timer_init(&ls->tm, on_timer, 0.0, 0.0);
	ls->tm.data = ls;
	run(ls);
	return 0;
}

void lg_session_kick(struct lg_session *ls)
{
	if (ls->state == LG_ESTABLISHED)
		run(ls);
}

int lg_session_start(struct lg_session *ls, struct lg_ctx *ctx, unsigned idx)
{
	return start(ls, ctx, idx, 0);
}

void lg_session_close(struct lg_session *ls, bool notify)
{
	if (ls->state == LG_CLOSED)
		return;
	if (notify && ls->state == LG_ESTABLISHED) {
		uint8_t pt[64];
		size_t plen;
		if (braid_payload_build_occ_exit(BRAID_COMP_NONE, pt, sizeof(pt), &plen) == 0)
			send_data(ls, pt, plen);
	}
	if (ls->ctx && ls->ctx->loop) {
		ev_io_stop(ls->ctx->loop, &ls->io);
		if (ls->fd2 >= 0)
			ev_io_stop(ls->ctx->loop, &ls->io2);
		ev_timer_stop(ls->ctx->loop, &ls->tm);
	}
	if (ls->fd >= 0)
		close(ls->fd);
	ls->fd = -1;
	lg_mp_close(ls);
	braid_dc_free(ls->dc);
	ls->dc = NULL;
	braid_ctls_free(ls->s);
	ls->s = NULL;
	ls->state = LG_CLOSED;
}
