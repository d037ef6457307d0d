// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_conn.c - the management interface's listener and connections (see
 * mgmt_conn.h).
 */
#include "control/mgmt_conn.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "os/sock.h"
#include "util/log.h"

#define BANNER ">INFO:OpenVPN Management Interface Version 5 -- type 'help' for more info"
#define PW_TRIES 3

void mgmt_reject(struct braid_mgmt *m, enum braid_mgmt_rej kind, const char *fmt, ...)
{
	ev_tstamp now = ev_now(m->loop);
	char msg[256];
	va_list ap;

	m->rej[kind]++;
	if (m->rej_logged[kind] && now - m->rej_logged[kind] < 1.0)
		return;
	m->rej_logged[kind] = now;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	braid_warn("MANAGEMENT: %s (%s, %llu so far)", msg, braid_mgmt_rej_name(kind),
		   (unsigned long long)m->rej[kind]);
}

/*
 * management-client: the management client is gone, so is braidd (as stock: "Triggering
 * management exit", SIGTERM).
 */
static void out_gone(struct braid_mgmt *m)
{
	braid_info("MANAGEMENT: Triggering management exit");
	if (m->ops.signal)
		m->ops.signal(m->ops.user, SIGTERM);
	else
		raise(SIGTERM);
}

static void conn_free(struct mgmt_conn *k)
{
	struct braid_mgmt *m = k->m;
	bool out = k->outgoing && !m->closing_all;

	ev_io_stop(m->loop, &k->r);
	ev_io_stop(m->loop, &k->w);
	ev_timer_stop(m->loop, &k->bc);
	close(k->fd);
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++)
		if (m->conn[i] == k)
			m->conn[i] = NULL;
	if (k->ml_buf)
		sodium_memzero(k->ml_buf, k->ml_len);
	free(k->ml_buf);
	free(k->out);
	free(k);
	if (out)
		out_gone(m);
}

/* Give up on k: it is freed from its write callback (an error makes the socket writable). */
static void conn_dead(struct mgmt_conn *k)
{
	k->closing = k->dead = true;
	k->out_len = k->out_off = 0;
	ev_io_stop(k->m->loop, &k->r);
	ev_io_start(k->m->loop, &k->w);
}

static void flush(struct mgmt_conn *k)
{
	while (k->out_off < k->out_len) {
		ssize_t n = send(k->fd, k->out + k->out_off, k->out_len - k->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				conn_dead(k);
				return;
			}
			break;
		}
		k->out_off += (size_t)n;
	}
	if (k->out_off == k->out_len) {
		k->out_off = k->out_len = 0;
		if (k->closing)
			ev_io_start(k->m->loop, &k->w);	/* freed there */
		else
			ev_io_stop(k->m->loop, &k->w);
	} else {
		ev_io_start(k->m->loop, &k->w);
	}
}

void mgmt_write(struct mgmt_conn *k, const char *data, size_t len)
{
	size_t pending;

	if (k->dead)
		return;
	pending = k->out_len - k->out_off;
	if (pending + len > MGMT_OUT_MAX) {
		mgmt_reject(k->m, BRAID_MGMT_REJ_OVERFLOW,
			    "client %s does not read its output (%zu bytes pending); disconnecting",
			    k->peer, pending);
		conn_dead(k);
		return;
	}
	if (k->out_off && k->out_len + len > k->out_cap) {
		memmove(k->out, k->out + k->out_off, pending);
		k->out_len = pending;
		k->out_off = 0;
	}
	if (k->out_len + len > k->out_cap) {
		size_t cap = k->out_cap ? k->out_cap : 4096;
		char *p;

		while (cap < k->out_len + len)
			cap *= 2;
		p = realloc(k->out, cap);
		if (!p) {
			conn_dead(k);
			return;
		}
		k->out = p;
		k->out_cap = cap;
	}
	memcpy(k->out + k->out_len, data, len);
	k->out_len += len;
	flush(k);
}

static void vline(struct mgmt_conn *k, const char *fmt, va_list ap)
{
	char buf[2048], *p = buf;
	int n;
	va_list ap2;

	va_copy(ap2, ap);
	n = vsnprintf(buf, sizeof(buf) - 2, fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n >= sizeof(buf) - 2) {
		p = malloc((size_t)n + 3);
		if (!p) {
			va_end(ap2);
			return;
		}
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	memcpy(p + n, "\r\n", 2);
	mgmt_write(k, p, (size_t)n + 2);
	if (p != buf)
		free(p);
}

void mgmt_printf(struct mgmt_conn *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(k, fmt, ap);
	va_end(ap);
}

void mgmt_conn_end(struct mgmt_conn *k)
{
	k->closing = true;
	ev_io_stop(k->m->loop, &k->r);
	flush(k);
	if (!k->out_len)
		ev_io_start(k->m->loop, &k->w);
}

static void send_to(struct braid_mgmt *m, enum mgmt_to to, const char *line)
{
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++) {
		struct mgmt_conn *k = m->conn[i];

		if (!k || !k->authed || k->closing)
			continue;
		if ((to == MGMT_TO_LOG && !k->log_rt) || (to == MGMT_TO_STATE && !k->state_rt) ||
		    (to == MGMT_TO_ECHO && !k->echo_rt))
			continue;
		mgmt_printf(k, "%s", line);
	}
}

void mgmt_defer(struct braid_mgmt *m, bool on)
{
	m->defer = on;
	if (on)
		return;
	for (size_t i = 0; i < m->n_deferred; i++) {
		send_to(m, (enum mgmt_to)m->deferred[i].to, m->deferred[i].line);
		free(m->deferred[i].line);
	}
	free(m->deferred);
	m->deferred = NULL;
	m->n_deferred = 0;
}

void mgmt_broadcast(struct braid_mgmt *m, enum mgmt_to to, const char *fmt, ...)
{
	va_list ap;

	if (m->defer) {
		struct mgmt_deferred *d = realloc(m->deferred, (m->n_deferred + 1) * sizeof(*d));
		char *line = NULL;

		va_start(ap, fmt);
		if (vasprintf(&line, fmt, ap) < 0)
			line = NULL;
		va_end(ap);
		if (!d || !line) {
			free(line);
			if (d)
				m->deferred = d;
			return;
		}
		m->deferred = d;
		d[m->n_deferred].to = to;
		d[m->n_deferred++].line = line;
		return;
	}
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++) {
		struct mgmt_conn *k = m->conn[i];

		if (!k || !k->authed || k->closing)
			continue;
		if ((to == MGMT_TO_LOG && !k->log_rt) || (to == MGMT_TO_STATE && !k->state_rt) ||
		    (to == MGMT_TO_ECHO && !k->echo_rt))
			continue;
		va_start(ap, fmt);
		vline(k, fmt, ap);
		va_end(ap);
	}
}

void mgmt_log_add(struct braid_mgmt *m, const char *flags, const char *text)
{
	time_t now = time(NULL);
	char buf[1200];

	snprintf(buf, sizeof(buf), "%s,%s", flags, text);
	braid_mgmt_hist_add(&m->log, now, buf);
	mgmt_broadcast(m, MGMT_TO_LOG, ">LOG:%lld,%s", (long long)now, buf);
}

/* ---- bytecount ---- */

static void bytes_emit(void *ctx, long cid, uint64_t in, uint64_t out)
{
	struct mgmt_conn *k = ctx;

	if (cid < 0)
		mgmt_printf(k, ">BYTECOUNT:%llu,%llu", (unsigned long long)in,
			    (unsigned long long)out);
	else
		mgmt_printf(k, ">BYTECOUNT_CLI:%ld,%llu,%llu", cid, (unsigned long long)in,
			    (unsigned long long)out);
}

static void bytecount_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct mgmt_conn *k = w->data;

	(void)loop, (void)revents;
	if (k->closing || !k->m->ops.bytecount)
		return;
	k->m->ops.bytecount(k->m->ops.user, bytes_emit, k);
}

void mgmt_conn_bytecount(struct mgmt_conn *k, unsigned s)
{
	k->bytecount_s = s;
	ev_timer_stop(k->m->loop, &k->bc);
	if (s) {
		ev_timer_set(&k->bc, s, s);
		ev_timer_start(k->m->loop, &k->bc);
	}
}

/* ---- reading ---- */

/* What a new (or newly authenticated) connection sees: the banner, an open hold or query. */
static void greet(struct mgmt_conn *k)
{
	struct braid_mgmt *m = k->m;

	mgmt_printf(k, "%s", BANNER);
	if (m->holding)
		mgmt_printf(k, ">HOLD:Waiting for hold release:%d", m->hold_wait);
	if (m->pw_wanted)
		mgmt_printf(k, ">PASSWORD:Need '%s' username/password", m->pw_type);
}

static void password_line(struct mgmt_conn *k, const char *line, size_t len)
{
	struct braid_mgmt *m = k->m;
	size_t pl = strlen(m->pw);

	if (len == pl && !sodium_memcmp(line, m->pw, pl)) {
		k->authed = true;
		mgmt_printf(k, "SUCCESS: password is correct");
		greet(k);
		return;
	}
	mgmt_reject(m, BRAID_MGMT_REJ_PASSWORD, "bad password from %s", k->peer);
	mgmt_printf(k, "ERROR: bad password");
	if (++k->pw_tries >= PW_TRIES) {
		braid_warn("MANAGEMENT: client %s disconnected after %u bad passwords", k->peer,
			   k->pw_tries);
		mgmt_conn_end(k);
		return;
	}
	mgmt_write(k, "ENTER PASSWORD:", 15);
}

static void read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct mgmt_conn *k = w->data;
	char buf[4096];
	ssize_t n;
	size_t off = 0;

	(void)loop, (void)revents;
	n = recv(k->fd, buf, sizeof(buf), 0);
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		n = 0;
	}
	if (n == 0) {
		braid_info("MANAGEMENT: Client disconnected");
		conn_dead(k);
		return;
	}
	while (off < (size_t)n && !k->closing) {
		const char *line;
		size_t used, len;
		int r = braid_mgmt_lbuf_take(&k->lb, buf + off, (size_t)n - off, &used, &line, &len);

		off += used;
		if (r == -E2BIG) {
			mgmt_reject(k->m, BRAID_MGMT_REJ_TOO_LONG, "command line longer than %d bytes",
				    BRAID_MGMT_LINE_MAX - 1);
			if (k->authed)
				mgmt_printf(k, "ERROR: command line too long (max %d bytes)",
					    BRAID_MGMT_LINE_MAX - 1);
		} else if (r == 1) {
			if (!k->authed)
				password_line(k, line, len);
			else
				k->m->dispatch(k, line, len);
			sodium_memzero(k->lb.buf, sizeof(k->lb.buf));	/* passwords pass here */
		}
	}
	sodium_memzero(buf, sizeof(buf));
}

static void write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct mgmt_conn *k = w->data;

	(void)loop, (void)revents;
	if (k->out_len)
		flush(k);
	if (k->closing && !k->out_len)
		conn_free(k);
}

/* ---- accepting ---- */

/*
 * A unix-socket peer must be management-client-user / -group when those are set
 * (not on the control socket: its mode 0600 lets only braidd's user in).
 */
static bool peer_allowed(struct braid_mgmt *m, int fd, bool ctl)
{
	struct ucred cr;
	socklen_t l = sizeof(cr);

	if (ctl || !m->cfg.unix_sock || (!m->check_uid && !m->check_gid))
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l))
		return false;
	if (m->check_uid && cr.uid != m->allow_uid)
		return false;
	if (m->check_gid && cr.gid != m->allow_gid)
		return false;
	return true;
}

/* A new connection k in slot: its watchers, the password prompt or the banner. */
static void conn_start(struct braid_mgmt *m, struct mgmt_conn *k, int fd, int slot, bool pw)
{
	k->m = m;
	k->fd = fd;
	ev_io_init(&k->r, read_cb, fd, EV_READ);
	ev_io_init(&k->w, write_cb, fd, EV_WRITE);
	ev_init(&k->bc, bytecount_cb);
	k->r.data = k->w.data = k->bc.data = k;
	m->conn[slot] = k;
	ev_io_start(m->loop, &k->r);
	if (pw) {
		mgmt_write(k, "ENTER PASSWORD:", 15);
	} else {
		k->authed = true;
		greet(k);
	}
}

static void accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_mgmt *m = w->data;
	bool ctl = w == &m->ctl_accept_w;	/* the control socket's */
	bool unix_sock = ctl || m->cfg.unix_sock;
	union braid_sockaddr sa;
	socklen_t sl;
	struct mgmt_conn *k;
	int fd, slot;

	(void)revents, (void)loop;
	for (;;) {
		sl = sizeof(sa);
		fd = accept4(w->fd, &sa.sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				braid_warn("MANAGEMENT: accept: %s", strerror(errno));
			return;
		}
		if (!peer_allowed(m, fd, ctl)) {
			mgmt_reject(m, BRAID_MGMT_REJ_CONN,
				    "UNIX domain socket client connection rejected: uid/gid of client "
				    "process doesn't match --management-client-user/group");
			close(fd);
			continue;
		}
		for (slot = 0; slot < BRAID_MGMT_MAX_CONN && m->conn[slot]; slot++)
			;
		k = slot < BRAID_MGMT_MAX_CONN ? calloc(1, sizeof(*k)) : NULL;
		if (!k) {
			static const char busy[] = "ERROR: too many management clients\r\n";

			if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
				(void)0;	/* best effort */
			close(fd);
			mgmt_reject(m, BRAID_MGMT_REJ_CONN, "too many clients (max %d); refusing",
				    BRAID_MGMT_MAX_CONN);
			continue;
		}
		if (unix_sock)
			snprintf(k->peer, sizeof(k->peer), "unix");
		else
			braid_sockaddr_str(&sa, k->peer, sizeof(k->peer));
		braid_info("MANAGEMENT: Client connected from %s",
			   ctl ? m->ctl_path : unix_sock ? m->addr : k->peer);
		conn_start(m, k, fd, slot, !ctl && m->has_pw);
	}
}

/* ---- the listener ---- */

static bool is_loopback(const union braid_sockaddr *a)
{
	static const uint8_t v6lo[16] = { [15] = 1 };

	if (a->sa.sa_family == AF_INET)
		return (ntohl(a->in.sin_addr.s_addr) >> 24) == 127;
	return a->sa.sa_family == AF_INET6 && !memcmp(&a->in6.sin6_addr, v6lo, 16);
}

/* A unix socket at path into *fd (0600; 0666 with open: the peers are checked). */
static int listen_unix(const char *path, int *fd, bool open)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	mode_t old;
	int r;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		braid_err("management: socket path '%s' too long (max %zu bytes)", path,
			  sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			braid_err("management: '%s' exists and is not a socket", path);
			return -EEXIST;
		}
		unlink(path);	/* as stock: the path is ours */
	}
	*fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (*fd < 0)
		return -errno;
	old = umask(0177);
	r = bind(*fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	umask(old);
	if (!r && open && chmod(path, 0666))
		r = -errno;	/* others may connect; their credentials are checked */
	if (!r && listen(*fd, 4))
		r = -errno;
	if (r) {
		braid_err("management: cannot bind '%s': %s", path, strerror(-r));
		return r;
	}
	braid_info("MANAGEMENT: unix domain socket listening on %s", path);
	return 0;
}

static int listen_tcp(struct braid_mgmt *m)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *ai = NULL;
	union braid_sockaddr sa;
	char port[8], a[80];
	int one = 1, r;

	snprintf(port, sizeof(port), "%u", m->cfg.port);
	r = getaddrinfo(m->addr, port, &hints, &ai);
	if (r || !ai) {
		braid_err("management: cannot resolve '%s': %s", m->addr, gai_strerror(r));
		return -EINVAL;
	}
	memset(&sa, 0, sizeof(sa));
	memcpy(&sa, ai->ai_addr, ai->ai_addrlen < sizeof(sa) ? ai->ai_addrlen : sizeof(sa));
	freeaddrinfo(ai);
	if (!m->has_pw && !is_loopback(&sa)) {
		braid_err("management: %s is not a loopback address; braidd serves the management "
			  "interface elsewhere only with a password file ('management IP PORT "
			  "PWFILE')", m->addr);
		return -EPERM;
	}
	m->lfd = socket(sa.sa.sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (m->lfd < 0)
		return -errno;
	setsockopt(m->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(m->lfd, &sa.sa, braid_sockaddr_len(&sa)) || listen(m->lfd, 4)) {
		r = -errno;
		braid_err("management: cannot bind %s: %s", braid_sockaddr_str(&sa, a, sizeof(a)),
			  strerror(-r));
		return r;
	}
	if (!m->has_pw)
		braid_warn("WARNING: Using --management on a TCP port WITHOUT passwords is STRONGLY "
			   "discouraged and considered insecure");
	braid_info("MANAGEMENT: TCP Socket listening on %s",
		   braid_sockaddr_str(&sa, a, sizeof(a)));
	return 0;
}

/* Wait up to CONNECT_TIMEOUT_MS for a non-blocking connect on fd. 0 or -errno. */
#define CONNECT_TIMEOUT_MS 5000
static int connect_wait(int fd, const struct sockaddr *sa, socklen_t sl)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t el = sizeof(int);
	int e = 0, r;

	if (!connect(fd, sa, sl))
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	do
		r = poll(&p, 1, CONNECT_TIMEOUT_MS);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return -ETIMEDOUT;
	if (r < 0)
		return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el))
		return -errno;
	return -e;
}

/*
 * management-client: connect to the management client at addr:port (or the unix socket addr)
 * instead of listening; it gets the banner (or the password prompt) as an accepted one would.
 */
static int connect_out(struct braid_mgmt *m)
{
	union braid_sockaddr sa;
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	const struct sockaddr *to;
	socklen_t tl;
	struct mgmt_conn *k;
	char where[128];
	int fd, r;

	memset(&sa, 0, sizeof(sa));
	if (m->cfg.unix_sock) {
		if (strlen(m->addr) >= sizeof(su.sun_path)) {
			braid_err("management: socket path '%s' too long (max %zu bytes)", m->addr,
				  sizeof(su.sun_path) - 1);
			return -ENAMETOOLONG;
		}
		memcpy(su.sun_path, m->addr, strlen(m->addr) + 1);
		to = (const struct sockaddr *)&su;
		tl = sizeof(su);
		snprintf(where, sizeof(where), "%s", m->addr);
	} else {
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
		char port[8];

		snprintf(port, sizeof(port), "%u", m->cfg.port);
		r = getaddrinfo(m->addr, port, &hints, &ai);
		if (r || !ai) {
			braid_err("management: cannot resolve '%s': %s", m->addr, gai_strerror(r));
			return -EINVAL;
		}
		memcpy(&sa, ai->ai_addr, ai->ai_addrlen < sizeof(sa) ? ai->ai_addrlen : sizeof(sa));
		freeaddrinfo(ai);
		to = &sa.sa;
		tl = braid_sockaddr_len(&sa);
		braid_sockaddr_str(&sa, where, sizeof(where));
	}
	fd = socket(to->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = connect_wait(fd, to, tl);
	k = r ? NULL : calloc(1, sizeof(*k));
	if (!k) {
		r = r ? r : -ENOMEM;
		braid_err("MANAGEMENT: connect to %s failed: %s", where, strerror(-r));
		close(fd);
		return r;
	}
	k->outgoing = true;
	snprintf(k->peer, sizeof(k->peer), "%.*s", (int)sizeof(k->peer) - 1,
		 m->cfg.unix_sock ? "unix" : where);
	braid_info("MANAGEMENT: Connected to management server at %s", where);
	conn_start(m, k, fd, 0, m->has_pw);
	return 0;
}

static void start_accept(struct braid_mgmt *m)
{
	if (m->lfd >= 0) {
		ev_io_init(&m->accept_w, accept_cb, m->lfd, EV_READ);
		m->accept_w.data = m;
		ev_io_start(m->loop, &m->accept_w);
	}
	if (m->cfd >= 0) {
		ev_io_init(&m->ctl_accept_w, accept_cb, m->cfd, EV_READ);
		m->ctl_accept_w.data = m;
		ev_io_start(m->loop, &m->ctl_accept_w);
	}
}

int mgmt_conn_listen(struct braid_mgmt *m)
{
	int r = 0;

	m->lfd = m->cfd = -1;
	if (m->addr && m->cfg.connect_out)
		r = connect_out(m);
	else if (m->addr)
		r = m->cfg.unix_sock ? listen_unix(m->addr, &m->lfd, m->check_uid || m->check_gid)
				     : listen_tcp(m);
	if (!r && m->ctl_path)
		r = listen_unix(m->ctl_path, &m->cfd, false);
	if (r) {
		if (m->lfd >= 0) {
			close(m->lfd);
			if (m->cfg.unix_sock && m->cfd < 0)
				unlink(m->addr);
		}
		if (m->cfd >= 0)
			close(m->cfd);
		m->lfd = m->cfd = -1;
		m->closing_all = true;
		for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++)
			if (m->conn[i])
				conn_free(m->conn[i]);
		m->closing_all = false;
		return r;
	}
	start_accept(m);
	return 0;
}

void mgmt_conn_detach(struct braid_mgmt *m)
{
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++) {
		struct mgmt_conn *k = m->conn[i];

		if (!k)
			continue;
		ev_io_stop(m->loop, &k->r);
		ev_io_stop(m->loop, &k->w);
		ev_timer_stop(m->loop, &k->bc);
	}
	if (m->lfd >= 0)
		ev_io_stop(m->loop, &m->accept_w);
	if (m->cfd >= 0)
		ev_io_stop(m->loop, &m->ctl_accept_w);
}

void mgmt_conn_attach(struct braid_mgmt *m)
{
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++) {
		struct mgmt_conn *k = m->conn[i];

		if (!k)
			continue;
		ev_io_init(&k->r, read_cb, k->fd, EV_READ);
		ev_io_init(&k->w, write_cb, k->fd, EV_WRITE);
		ev_init(&k->bc, bytecount_cb);
		k->r.data = k->w.data = k->bc.data = k;
		if (!k->closing)
			ev_io_start(m->loop, &k->r);
		if (k->closing || k->out_len)
			ev_io_start(m->loop, &k->w);	/* flush, or free a closing one */
		if (k->bytecount_s)
			mgmt_conn_bytecount(k, k->bytecount_s);
	}
	start_accept(m);
}

void mgmt_conn_close_all(struct braid_mgmt *m)
{
	m->closing_all = true;
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++)
		if (m->conn[i])
			conn_free(m->conn[i]);
	if (m->lfd >= 0) {
		ev_io_stop(m->loop, &m->accept_w);
		close(m->lfd);
		if (m->cfg.unix_sock && !m->cfg.connect_out)
			unlink(m->addr);
	}
	if (m->cfd >= 0) {
		ev_io_stop(m->loop, &m->ctl_accept_w);
		close(m->cfd);
		unlink(m->ctl_path);
	}
	m->lfd = m->cfd = -1;
}
